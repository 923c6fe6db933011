// find_handle_joins(): the bytes where a handle may join a person's words.
#include "handle_joins.h"

#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "scan.h"

namespace tiergate::pii_handles {
namespace {

// Whether byte `at` of the n bytes at p is an '@', or a '.' or '_' between
// ASCII small letters: where a handle may join a person's words.
inline bool joins_at(const unsigned char* p, size_t n, size_t at) {
  auto small = [&](size_t i) { return p[i] >= 'a' && p[i] <= 'z'; };
  return p[at] == '@' || (at > 0 && at + 1 < n && small(at - 1) && small(at + 1));
}

// Appends the joins_at() of the bytes from `from` whose bits are set in
// `candidates` (bit k: byte from + k).
inline void add_joins(const unsigned char* p, size_t n, size_t from, uint64_t candidates, std::vector<uint32_t>& out) {
  for (; candidates != 0; candidates &= candidates - 1) {
    const size_t at = from + static_cast<unsigned>(std::countr_zero(candidates));
    if (joins_at(p, n, at)) out.push_back(static_cast<uint32_t>(at));
  }
}

// The candidates of find_handle_joins() among the bytes a vector holds at
// b (one byte more readable), bit k for byte k: each '@', and each '.' or
// '_' before an ASCII small letter (most of a text's stops end a sentence
// or write a number).
#if defined(__x86_64__)
[[gnu::target("avx2")]] inline uint32_t join_candidates_avx2_32(const unsigned char* b) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
  const __m256i next = _mm256_sub_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 1)), _mm256_set1_epi8('a'));
  const __m256i small_next = _mm256_cmpeq_epi8(_mm256_min_epu8(next, _mm256_set1_epi8(25)), next);
  const __m256i joiners =
      _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('.')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('_')));
  const __m256i stops = _mm256_and_si256(joiners, small_next);
  return static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(stops, _mm256_cmpeq_epi8(x, _mm256_set1_epi8('@')))));
}

// 64 bytes at a time: half the loop's steps.
[[gnu::target("avx2")]] inline uint64_t join_candidates_avx2(const unsigned char* b) {
  return join_candidates_avx2_32(b) | uint64_t{join_candidates_avx2_32(b + 32)} << 32;
}

inline uint64_t join_candidates_sse2(const unsigned char* b) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  const __m128i next = _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 1)), _mm_set1_epi8('a'));
  const __m128i small_next = _mm_cmpeq_epi8(_mm_min_epu8(next, _mm_set1_epi8(25)), next);
  const __m128i joiners = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('.')), _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
  const __m128i stops = _mm_and_si128(joiners, small_next);
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(stops, _mm_cmpeq_epi8(x, _mm_set1_epi8('@')))));
}
#endif

// A byte's candidates, without vectors.
inline uint64_t join_candidates_scalar(const unsigned char* b) {
  return (b[0] == '@' || ((b[0] == '.' || b[0] == '_') && b[1] >= 'a' && b[1] <= 'z')) ? 1 : 0;
}

// find_handle_joins() Width bytes at a time (Candidates reads one more):
// the last Width bytes or fewer from a copy padded with zeros, which are no
// candidates, so that every load stays inside the text or the copy.
template <size_t Width, uint64_t (*Candidates)(const unsigned char*)>
[[gnu::always_inline]] inline void find_joins_in(const unsigned char* p, size_t n, std::vector<uint32_t>& out) {
  size_t i = 0;
  for (; i + Width + 1 <= n; i += Width) {
    if (const uint64_t c = Candidates(p + i); c != 0) add_joins(p, n, i, c, out);
  }
  if (i == n) return;
  unsigned char tail[Width + 1] = {};
  std::memcpy(tail, p + i, n - i);
  if (const uint64_t c = Candidates(tail); c != 0) add_joins(p, n, i, c, out);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void find_joins_avx2(const unsigned char* p, size_t n, std::vector<uint32_t>& out) {
  find_joins_in<64, join_candidates_avx2>(p, n, out);
}
#endif

}  // namespace

void find_handle_joins(std::string_view text, std::vector<uint32_t>& out) {
#if defined(__x86_64__)
  static const bool avx2 = pii_scan::cpu_has_avx2();
  if (avx2) {
    out.clear();
    find_joins_avx2(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out);
    return;
  }
#endif
  find_handle_joins_without_avx2(text, out);
}

void find_handle_joins_without_avx2(std::string_view text, std::vector<uint32_t>& out) {
#if defined(__x86_64__)
  out.clear();
  find_joins_in<16, join_candidates_sse2>(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out);
#else
  find_handle_joins_without_vectors(text, out);
#endif
}

void find_handle_joins_without_vectors(std::string_view text, std::vector<uint32_t>& out) {
  out.clear();
  find_joins_in<1, join_candidates_scalar>(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out);
}

}  // namespace tiergate::pii_handles
