// Writes routing.threshold into a tiergate YAML config in place, keeping the
// rest of the file (comments, order) as it is. Used by `router calibrate`.
#pragma once

#include <string>

#include "tiergate/core/status.h"

namespace tiergate::cli {

// Sets `routing: threshold:` to `threshold` (adding the key, or the routing
// block, when absent). The result must still load as a valid config, else
// nothing is written. Writes atomically.
Status write_router_threshold(const std::string& config_path, double threshold);

// The edit itself, on text (for tests).
std::string with_router_threshold(const std::string& yaml, double threshold);

}  // namespace tiergate::cli
