// Incremental parser for server-sent events (text/event-stream) as OpenAI
// compatible servers stream chat completions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tiergate {

// Splits a byte stream into the data payloads of its events. Bytes may arrive
// in pieces split anywhere (inside a line, between \r and \n). Lines end with
// \n, \r\n or \r; lines starting with ':' are comments; every `data:` line of
// one event is joined with \n; other fields (event:, id:, retry:) are ignored;
// a blank line ends the event. Not thread-safe: one parser per stream.
class SseParser {
 public:
  // Consumes bytes and returns the payloads of the events they complete, in
  // order. An event with a `data:` line but an empty value yields "".
  std::vector<std::string> feed(std::string_view bytes);

  // Call at end of stream: returns the payload of an event whose closing blank
  // line never came (a lenient reading of a truncated stream), if any.
  std::optional<std::string> finish();

  // Bytes held for an incomplete line or event.
  size_t buffered_bytes() const { return line_.size() + data_.size(); }

  void reset();

 private:
  void process_line(std::string_view line, std::vector<std::string>& out);

  std::string line_;        // the current line, not yet terminated
  std::string data_;        // data of the current event
  bool has_data_ = false;   // the current event had a data field
  bool after_cr_ = false;   // the last byte was \r: a following \n is part of it
  bool at_start_ = true;    // nothing consumed yet (a UTF-8 BOM is skipped)
};

}  // namespace tiergate
