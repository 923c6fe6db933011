// WordFilter: a set of words asked of every token of a text, in one pass
// over the tokens, where WordSet's test (two letters and a length) would
// slow the scan and let too many tokens through.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <climits>
#include <cstring>
#include <span>
#include <string_view>

#include "scan.h"
#include "tagger_tokens.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tiergate::tagger_rules {

// In word_filter_test.cc's namespace too, as in tagger_rules.h.
using pii_tokens::IndexList;
using pii_tokens::Token;

// A set of words of 2 to 16 bytes, as a bitmap of 1,024 bits by a hash of
// a token's first four bytes (letters in small letters) and its length:
// small enough for two vector registers. A token that is a word of the set
// always hits its bit; another hits a set bit about as often as the words
// fill the bitmap (60 words: one token in 17) or shares a word's first four
// bytes and length, and the caller's exact tests turn it away.
class WordFilter {
 public:
  template <size_t N>
  consteval explicit WordFilter(const std::array<std::string_view, N>& words) {
    for (const std::string_view w : words) {
      uint32_t key = 0;
      for (size_t k = 0; k < w.size() && k < 4; ++k) key |= uint32_t{static_cast<unsigned char>(w[k])} << (8 * k);
      const auto n = static_cast<uint32_t>(w.size());
      const uint32_t bit = bit_of(key, n), scalar_bit = scalar_bit_of(key, n);
      bits_[bit / 32] |= uint32_t{1} << (bit % 32);
      scalar_bits_[scalar_bit / 64] |= uint64_t{1} << (scalar_bit % 64);
    }
  }
  // How find() reads the tokens: the fastest path the CPU has, or a given
  // one (for the tests, which compare them).
  enum class Path { kFastest, kAvx512Vbmi, kAvx2, kOneAtATime };
  // Whether this CPU can take `path`.
  static bool cpu_has(Path path) {
#if defined(__x86_64__)
    static const bool vbmi = pii_scan::cpu_has_avx512bw() && __builtin_cpu_supports("avx512vbmi") != 0;
    static const bool avx2 = pii_scan::cpu_has_avx2();
    return path == Path::kAvx512Vbmi ? vbmi : path == Path::kAvx2 ? avx2 : true;
#else
    return path == Path::kFastest || path == Path::kOneAtATime;
#endif
  }
  // Sets `out` to the indices, in order, of the tokens of `tokens` but the
  // last that may be words of the set: every one that is (ASCII letters in
  // any case), and others of 2 to 16 bytes whose bit is set. Which others
  // depends on the path. `tokens` are a tokenize()'s of `text`.
  // Precondition: cpu_has(path).
  void find(std::string_view text, std::span<const Token> tokens, IndexList& out, Path path = Path::kFastest) const {
    out.clear();
    if (tokens.size() < 2) return;
    out.resize(tokens.size() + 16);  // room for a vector's store past the last
    size_t found = 0, j = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
#if defined(__x86_64__)
    if (path == Path::kFastest) {
      path = cpu_has(Path::kAvx512Vbmi) ? Path::kAvx512Vbmi : cpu_has(Path::kAvx2) ? Path::kAvx2 : Path::kOneAtATime;
    }
    if (path == Path::kAvx512Vbmi) j = find_avx512(bytes, text.size(), tokens, out.data(), found);
    if (path == Path::kAvx2) j = find_avx2(bytes, text.size(), tokens, out.data(), found);
#endif
    find_one_at_a_time(bytes, text.size(), tokens, j, tokens.size() - 1, out.data(), found);
    out.resize(found);
  }

 private:
  static_assert(std::endian::native == std::endian::little);
  static constexpr uint32_t kHashBits = 10, kScalarHashBits = 14;
  // The bit of a token of `n` bytes (2 to 16) whose first four are `key`,
  // byte k at bits 8k: bytes past the token cleared, letters in small
  // letters (bit 5 set on every byte: the words' bytes, ASCII small letters
  // and UTF-8's, keep theirs), mixed by shifts and rotations.
  static constexpr uint32_t bit_of(uint32_t key, uint32_t n) {
    uint32_t x = ((key | 0x20202020u) & kTokenBytes[n]) ^ (n << 27);
    x ^= x >> 15;
    x ^= std::rotl(x, 11) ^ std::rotl(x, 24);
    return x >> (32 - kHashBits);
  }
  // The one-at-a-time path's bit, of a bitmap of its own (16,384 bits: one
  // token in 270 hits a bit of 60 words): a multiply mixes in one
  // instruction where bit_of() takes five. The vector path does not
  // multiply: with a 512-bit multiply there, the whole scan ran 5% slower
  // than with bit_of() (pii_scan_bench, interleaved runs), as heavy 512-bit
  // instructions may lower the core's clock.
  static constexpr uint32_t scalar_bit_of(uint32_t key, uint32_t n) {
    return ((((key | 0x20202020u) & kTokenBytes[n]) ^ (n << 27)) * 0x85ebca6bu) >> (32 - kScalarHashBits);
  }
  // By a token's length: the bits of its bytes among the first four.
  static constexpr std::array<uint32_t, 17> kTokenBytes = [] {
    std::array<uint32_t, 17> bytes{};
    for (uint32_t n = 0; n < bytes.size(); ++n) bytes[n] = n >= 4 ? ~uint32_t{0} : (uint32_t{1} << (8 * n)) - 1;
    return bytes;
  }();
  // Tokens [from, to) one at a time, their indices to out[found...].
  void find_one_at_a_time(const unsigned char* bytes, size_t size, std::span<const Token> tokens, size_t from, size_t to,
                          uint32_t* out, size_t& found) const {
    for (size_t j = from; j < to; ++j) {
      const uint32_t n = tokens[j].end - tokens[j].begin;
      if (n - 2 > 14) continue;
      uint32_t key = 0;
      if (tokens[j].begin + 4 <= size) {
        std::memcpy(&key, bytes + tokens[j].begin, 4);  // little-endian: byte k at bits 8k
      } else {
        for (uint32_t k = 0; k < n && k < 4; ++k) key |= uint32_t{bytes[tokens[j].begin + k]} << (8 * k);
      }
      const uint32_t bit = scalar_bit_of(key, n);
      if (((scalar_bits_[bit / 64] >> (bit % 64)) & 1) != 0) [[unlikely]] out[found++] = static_cast<uint32_t>(j);
    }
  }
#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics start their results from _mm512_undefined,
// which -Wmaybe-uninitialized takes for a read of an uninitialised vector.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  // find() eight tokens at a time, while their four bytes lie inside the
  // text and a token follows them: their bytes gathered, the bitmap's word
  // picked out of the four registers that hold it, bit_of() as the AVX-512
  // path computes it (rotations as shifts). Returns the index of the first
  // token left.
  [[gnu::target("avx2")]] size_t find_avx2(const unsigned char* bytes, size_t size, std::span<const Token> tokens,
                                          uint32_t* out, size_t& found) const {
    static_assert(sizeof(Token) == 16 && offsetof(Token, begin) == 0 && offsetof(Token, end) == 4);
    if (size > static_cast<size_t>(INT32_MAX)) return 0;  // the gather's offsets are signed
    const __m256i in_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i token_bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kTokenBytes.data()));  // [0, 8)
    const auto* words = reinterpret_cast<const __m256i*>(bits_.data());
    const __m256i bits0 = _mm256_loadu_si256(words), bits1 = _mm256_loadu_si256(words + 1);
    const __m256i bits2 = _mm256_loadu_si256(words + 2), bits3 = _mm256_loadu_si256(words + 3);
    size_t j = 0;
    for (; j + 8 < tokens.size() && tokens[j + 7].begin + 4 <= size; j += 8) {
      const auto* at = reinterpret_cast<const __m256i*>(tokens.data() + j);
      // Two tokens a register: [begin, end, flags, pad] of tokens 2k, 2k + 1.
      const __m256i t01 = _mm256_loadu_si256(at), t23 = _mm256_loadu_si256(at + 1);
      const __m256i t45 = _mm256_loadu_si256(at + 2), t67 = _mm256_loadu_si256(at + 3);
      const __m256i low = _mm256_unpacklo_epi32(t01, t23), high = _mm256_unpacklo_epi32(t45, t67);
      // (Tokens 0, 2, 4, 6, 1, 3, 5, 7, then in order.)
      const __m256i begin = _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi64(low, high), in_order);
      const __m256i end = _mm256_permutevar8x32_epi32(_mm256_unpackhi_epi64(low, high), in_order);
      const __m256i n = _mm256_sub_epi32(end, begin);
      const __m256i sized = _mm256_and_si256(_mm256_cmpgt_epi32(n, _mm256_set1_epi32(1)),
                                             _mm256_cmpgt_epi32(_mm256_set1_epi32(17), n));
      const __m256i key = _mm256_i32gather_epi32(reinterpret_cast<const int*>(bytes), begin, 1);
      const __m256i kept = _mm256_and_si256(_mm256_or_si256(key, _mm256_set1_epi32(0x20202020)),
                                            _mm256_permutevar8x32_epi32(token_bytes, _mm256_min_epu32(n, _mm256_set1_epi32(4))));
      __m256i x = _mm256_xor_si256(kept, _mm256_slli_epi32(n, 27));
      x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 15));
      // (x rotated by 11 and by 24; AVX2 has no rotation.)
      const __m256i rotated_11 = _mm256_or_si256(_mm256_slli_epi32(x, 11), _mm256_srli_epi32(x, 21));
      const __m256i rotated_24 = _mm256_or_si256(_mm256_slli_epi32(x, 24), _mm256_srli_epi32(x, 8));
      x = _mm256_xor_si256(x, _mm256_xor_si256(rotated_11, rotated_24));
      const __m256i bit = _mm256_srli_epi32(x, 32 - kHashBits);
      // The bitmap's word (bit / 32, 0-31): of register word / 8, lane word % 8.
      const __m256i word_index = _mm256_srli_epi32(bit, 5);
      const __m256i lane = _mm256_and_si256(word_index, _mm256_set1_epi32(7));
      const __m256i reg = _mm256_srli_epi32(word_index, 3);
      const __m256i low_word = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(bits0, lane),
                                                  _mm256_permutevar8x32_epi32(bits1, lane),
                                                  _mm256_cmpeq_epi32(reg, _mm256_set1_epi32(1)));
      const __m256i high_word = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(bits2, lane),
                                                   _mm256_permutevar8x32_epi32(bits3, lane),
                                                   _mm256_cmpeq_epi32(reg, _mm256_set1_epi32(3)));
      const __m256i word = _mm256_blendv_epi8(low_word, high_word, _mm256_cmpgt_epi32(reg, _mm256_set1_epi32(1)));
      const __m256i set = _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(bit, _mm256_set1_epi32(31))),
                                           _mm256_set1_epi32(1));
      const __m256i hit = _mm256_and_si256(_mm256_cmpeq_epi32(set, _mm256_set1_epi32(1)), sized);
      for (auto lanes = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(hit))); lanes != 0;
           lanes &= lanes - 1) {
        out[found++] = static_cast<uint32_t>(j + static_cast<size_t>(std::countr_zero(lanes)));
      }
    }
    return j;
  }
  // find() sixteen tokens at a time, the last ones too: their first four
  // bytes picked out of the 128 bytes from the first's begin (VBMI's
  // two-register byte permute; no gathers), the bits out of the bitmap
  // held in two registers. Sixteen that span more bytes go one at a time.
  // Returns the index of the first token left: the last.
  [[gnu::target("avx512f,avx512bw,avx512vbmi")]] size_t find_avx512(const unsigned char* bytes, size_t size,
                                                                  std::span<const Token> tokens, uint32_t* out,
                                                                  size_t& found) const {
    static_assert(sizeof(Token) == 16 && offsetof(Token, begin) == 0 && offsetof(Token, end) == 4);
    const __m512i begins_of = _mm512_set_epi32(28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0);
    const __m512i ends_of = _mm512_add_epi32(begins_of, _mm512_set1_epi32(1));
    const __m512i token_bytes = _mm512_loadu_si512(kTokenBytes.data());  // [0, 16)
    // Each dword's four bytes from its lowest byte, plus 0, 1, 2, 3.
    const __m512i low_byte = _mm512_set4_epi32(0x0c0c0c0c, 0x08080808, 0x04040404, 0x00000000);
    const __m512i byte_steps = _mm512_set1_epi32(0x03020100);
    const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i bits_low = _mm512_loadu_si512(bits_.data()), bits_high = _mm512_loadu_si512(bits_.data() + 16);
    size_t j = 0;
    for (; j + 1 < tokens.size(); j += 16) {
      // Sixteen tokens, or those left but the last (masked loads: nothing
      // read past them).
      const size_t count = std::min<size_t>(16, tokens.size() - 1 - j);
      const uint32_t base = tokens[j].begin;
      if (tokens[j + count - 1].begin + 4 - base > 128) {
        find_one_at_a_time(bytes, size, tokens, j, j + count, out, found);
        continue;
      }
      const auto* at = reinterpret_cast<const int*>(tokens.data() + j);
      auto dwords_of_tokens = [&](size_t first) {  // of tokens first to first + 3
        const size_t tokens_in = count > first ? std::min<size_t>(4, count - first) : 0;
        return static_cast<__mmask16>((uint32_t{1} << (4 * tokens_in)) - 1);
      };
      const __m512i v0 = _mm512_maskz_loadu_epi32(dwords_of_tokens(0), at);
      const __m512i v1 = _mm512_maskz_loadu_epi32(dwords_of_tokens(4), at + 16);
      const __m512i v2 = _mm512_maskz_loadu_epi32(dwords_of_tokens(8), at + 32);
      const __m512i v3 = _mm512_maskz_loadu_epi32(dwords_of_tokens(12), at + 48);
      // Lanes 0-7 of tokens j to j + 7, 8-15 of tokens j + 8 to j + 15.
      const __m512i begin = _mm512_shuffle_i64x2(_mm512_permutex2var_epi32(v0, begins_of, v1),
                                                 _mm512_permutex2var_epi32(v2, begins_of, v3), 0x44);
      const __m512i end = _mm512_shuffle_i64x2(_mm512_permutex2var_epi32(v0, ends_of, v1),
                                               _mm512_permutex2var_epi32(v2, ends_of, v3), 0x44);
      const __m512i n = _mm512_sub_epi32(end, begin);
      const __mmask16 sized =
          _mm512_mask_cmple_epu32_mask(static_cast<__mmask16>((uint32_t{1} << count) - 1),
                                       _mm512_sub_epi32(n, _mm512_set1_epi32(2)), _mm512_set1_epi32(14));
      // The 128 bytes from the first token's begin (masked loads: none
      // past the text's end, which read as 0, as the scalar path's do).
      const size_t left = size - base;
      const __m512i window_low = _mm512_maskz_loadu_epi8(left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1, bytes + base);
      const __m512i window_high =
          left <= 64 ? _mm512_setzero_si512()
                     : _mm512_maskz_loadu_epi8(left >= 128 ? ~__mmask64{0} : (__mmask64{1} << (left - 64)) - 1, bytes + base + 64);
      const __m512i offset = _mm512_sub_epi32(begin, _mm512_set1_epi32(static_cast<int>(base)));
      const __m512i picks = _mm512_add_epi8(_mm512_shuffle_epi8(offset, low_byte), byte_steps);
      const __m512i key = _mm512_permutex2var_epi8(window_low, picks, window_high);
      const __m512i kept = _mm512_and_si512(_mm512_or_si512(key, _mm512_set1_epi32(0x20202020)),
                                            _mm512_permutexvar_epi32(_mm512_min_epu32(n, _mm512_set1_epi32(4)), token_bytes));
      __m512i x = _mm512_xor_si512(kept, _mm512_slli_epi32(n, 27));
      x = _mm512_xor_si512(x, _mm512_srli_epi32(x, 15));
      x = _mm512_ternarylogic_epi32(x, _mm512_rol_epi32(x, 11), _mm512_rol_epi32(x, 24), 0x96);  // three-way xor
      const __m512i bit = _mm512_srli_epi32(x, 32 - kHashBits);
      const __m512i word = _mm512_permutex2var_epi32(bits_low, _mm512_srli_epi32(bit, 5), bits_high);
      const __mmask16 hit = _mm512_mask_test_epi32_mask(
          sized, _mm512_srlv_epi32(word, _mm512_and_si512(bit, _mm512_set1_epi32(31))), _mm512_set1_epi32(1));
      _mm512_mask_compressstoreu_epi32(out + found, hit, _mm512_add_epi32(lanes, _mm512_set1_epi32(static_cast<int>(j))));
      found += static_cast<size_t>(std::popcount(static_cast<unsigned>(hit)));
    }
    return j;
  }
#pragma GCC diagnostic pop
#endif
  std::array<uint32_t, (1 << kHashBits) / 32> bits_{};
  std::array<uint64_t, (1 << kScalarHashBits) / 64> scalar_bits_{};
};

}  // namespace tiergate::tagger_rules
