// Writing a whole output file so that readers see the old file or the new
// one, never half of one: the bytes go to "<path>.tmp", which then replaces
// path. A failed write removes the temporary file and leaves path as it was.
#pragma once

#include <string>
#include <string_view>

#include "tiergate/core/status.h"

namespace tiergate {

// kUnavailable naming path and what failed: "cannot write (...)" when the
// temporary file cannot be created or written, "cannot replace it" when the
// rename fails.
Status write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace tiergate
