// Redaction before a request leaves the device, and restoration of the
// originals in the answer (issue 4, policy `redact`).
//
// Each detected value is replaced with a placeholder `[TYPE_N]`: TYPE is the
// value's data type (upper case, e.g. PERSON), N counts the distinct values of
// that type from 1. The same value gets the same placeholder wherever it
// appears in the request (all turns), so the upstream model can still tell
// "the same person" from "another person". Values are compared after ASCII
// case folding and collapsing white space runs, the forms detectors find in
// lower-cased text.
//
// Text that already holds a placeholder-shaped string (a user quoting
// "[PERSON_1]") keeps it: reserve() the original text first, and no such
// name is issued, so the literal is neither confused with a value nor
// "restored" into one.
//
// The answer is restored by replacing every placeholder this map issued with
// the value's first original spelling; text that merely looks like a
// placeholder (`[PERSON_9]` never issued) is left as it is. StreamRestorer
// does the same for a streamed answer, chunk by chunk, holding back only a
// tail that could still become a placeholder, so a placeholder split across
// chunks is restored and nothing else is delayed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tiergate {

// A detected value to redact: bytes [begin, end) of a text, and its type's
// name as it should appear in the placeholder ("PERSON", "EMAIL_ADDRESS").
struct RedactionSpan {
  std::string_view type;
  size_t begin = 0;
  size_t end = 0;
};

class RedactionMap {
 public:
  // `text` with each span replaced by its value's placeholder. Spans may come
  // in any order; overlapping spans are merged into the first's type (a
  // value is never half sent). Preconditions: begin <= end <= text.size(),
  // type names of [A-Z0-9_] only.
  std::string redact(std::string_view text, std::vector<RedactionSpan> spans);

  // Marks every placeholder-shaped string in `text` ([A-Z0-9_]+_<digits>])
  // as taken: placeholder() never issues it. Call on all the original text
  // before redacting any of it.
  void reserve(std::string_view text);

  // The placeholder for `value` of `type`, issuing a new one when the value
  // is new.
  const std::string& placeholder(std::string_view type, std::string_view value);

  // `text` with every placeholder this map issued replaced by its original.
  std::string restore(std::string_view text) const;

  // The original for a placeholder this map issued, or nullptr.
  const std::string* original(std::string_view placeholder) const;

  // The types of the values this map replaced, sorted.
  std::vector<std::string> types() const;

  size_t size() const { return originals_.size(); }
  bool empty() const { return originals_.empty(); }
  // The longest placeholder issued, in bytes (0 when none).
  size_t longest_placeholder() const { return longest_; }
  // Whether some placeholder issued starts with `prefix`.
  bool might_open(std::string_view prefix) const;

 private:
  std::unordered_map<std::string, std::string> by_value_;  // "TYPE\0folded value" -> placeholder
  std::unordered_map<std::string, std::string> originals_;  // placeholder -> first original spelling
  std::unordered_map<std::string, size_t> counts_;          // type -> last number used
  std::unordered_set<std::string> reserved_;                // placeholder-shaped strings in the original text
  size_t longest_ = 0;
};

// Restores a streamed answer. push() returns the text that can be sent now;
// finish() returns what was held back. Concatenated, the outputs equal
// map.restore() of the concatenated inputs. The map must outlive the
// restorer and not change while it is used.
class StreamRestorer {
 public:
  explicit StreamRestorer(const RedactionMap& map) : map_(map) {}
  std::string push(std::string_view chunk);
  std::string finish();
  // Bytes held back now (at most the longest placeholder, minus one).
  size_t held() const { return pending_.size(); }

 private:
  const RedactionMap& map_;
  std::string pending_;
};

}  // namespace tiergate
