// Where a handle may join a person's words ("@priya", "mirela.popescu",
// "ezekiel_marsh"):
// what PiiTagger::add_handles_of_people() reads. Private to the privacy
// module.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tiergate::pii_handles {

// Replaces `out` with the offsets, in order, of each '@' of `text` and of
// each '.' or '_' between two ASCII small letters. Few in prose: one pass of
// vector compares (AVX2 where the CPU has it, else SSE2) finds them.
void find_handle_joins(std::string_view text, std::vector<uint32_t>& out);

// The same without AVX2, as a CPU without it runs it, and a byte at a
// time, as one without vectors runs it (for tests).
void find_handle_joins_without_avx2(std::string_view text, std::vector<uint32_t>& out);
void find_handle_joins_without_vectors(std::string_view text, std::vector<uint32_t>& out);

}  // namespace tiergate::pii_handles
