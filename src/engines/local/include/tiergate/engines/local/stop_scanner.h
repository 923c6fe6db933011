// Turns the raw bytes of generated token pieces into text that is safe to send:
// whole UTF-8 characters only, and nothing that might be the start of a stop
// sequence until it is known not to be. Pure; one instance per generation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tiergate {

class StopScanner {
 public:
  explicit StopScanner(std::vector<std::string> stop_sequences);

  // Appends the bytes of one token piece. Returns the text that may be sent
  // now (possibly empty). After a stop sequence is seen, stopped() is true,
  // the stop sequence and everything after it are dropped, and later calls
  // return nothing.
  std::string push(std::string_view piece);
  // Returns what is still held back (at the end of generation): a partial stop
  // prefix that never completed is sent; an incomplete UTF-8 tail is dropped.
  std::string flush();

  bool stopped() const { return stopped_; }

 private:
  std::vector<std::string> stops_;
  std::string held_;  // bytes received but not yet released
  bool stopped_ = false;
};

}  // namespace tiergate
