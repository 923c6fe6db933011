// How a scan can be cut short, and what a scan of one message came to. The
// privacy module reads no clock: the gateway's time limit
// (privacy.scan_timeout_ms) reaches it as a question, asked between the
// detectors and every 1,024 tokens of the tagger's decoding, so that even
// one long message stops soon after the limit.
#pragma once

#include <functional>

namespace tiergate {

// True stops the scan; an empty one never does.
using ScanStop = std::function<bool()>;

enum class ScanOutcome {
  kScanned,  // the detectors ran to the end
  kCached,   // the spans of an earlier scan of the same bytes (scan_cache.h)
  kStopped,  // a ScanStop cut it short: the spans are incomplete
};

}  // namespace tiergate
