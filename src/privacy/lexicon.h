// Private to the module: month and weekday names, and a one-load test that
// rejects other words.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "scan.h"

namespace tiergate::pii_scan {

// The suffixes that make the words before them a street in any case ("lives
// on maple street", "12 May Street"): fewer than the tagger's street_suffix
// lists, which also hold everyday words ("Side", "Park", "Way").
constexpr std::array<std::string_view, 13> kCommonStreetSuffixWords = {
    "street", "avenue", "road", "lane", "boulevard", "drive", "st", "ave", "rd", "blvd", "ln", "hwy", "pkwy"};

enum class Lex : uint8_t {
  kMonth,        // full month name
  kMonthAbbrev,  // three- or four-letter abbreviation ("sep", "sept")
  kWeekday,
};

struct LexEntry {
  std::string_view word;
  Lex kind;
  int month;  // 1-12 for months
};

constexpr LexEntry kLexicon[] = {
    {"january", Lex::kMonth, 1},       {"february", Lex::kMonth, 2},    {"march", Lex::kMonth, 3},
    {"april", Lex::kMonth, 4},         {"may", Lex::kMonth, 5},         {"june", Lex::kMonth, 6},
    {"july", Lex::kMonth, 7},          {"august", Lex::kMonth, 8},      {"september", Lex::kMonth, 9},
    {"october", Lex::kMonth, 10},      {"november", Lex::kMonth, 11},   {"december", Lex::kMonth, 12},
    {"jan", Lex::kMonthAbbrev, 1},     {"feb", Lex::kMonthAbbrev, 2},   {"mar", Lex::kMonthAbbrev, 3},
    {"apr", Lex::kMonthAbbrev, 4},     {"jun", Lex::kMonthAbbrev, 6},   {"jul", Lex::kMonthAbbrev, 7},
    {"aug", Lex::kMonthAbbrev, 8},     {"sep", Lex::kMonthAbbrev, 9},   {"sept", Lex::kMonthAbbrev, 9},
    {"oct", Lex::kMonthAbbrev, 10},    {"nov", Lex::kMonthAbbrev, 11},  {"dec", Lex::kMonthAbbrev, 12},
    {"monday", Lex::kWeekday, 0},      {"tuesday", Lex::kWeekday, 0},   {"wednesday", Lex::kWeekday, 0},
    {"thursday", Lex::kWeekday, 0},    {"friday", Lex::kWeekday, 0},    {"saturday", Lex::kWeekday, 0},
    {"sunday", Lex::kWeekday, 0},
};

constexpr size_t kLexMinLength = 3, kLexMaxLength = 9;

constexpr size_t prefix_index(unsigned char a, unsigned char b, unsigned char c) {
  return (static_cast<size_t>(a - 'a') * 26 + static_cast<size_t>(b - 'a')) * 26 + static_cast<size_t>(c - 'a');
}

// One bit per three-letter prefix (26^3 bits, 2.2 KB) that some lexicon word
// starts with: most words are rejected by one load, without a search.
constexpr std::array<uint64_t, (26 * 26 * 26 + 63) / 64> make_lex_prefixes() {
  std::array<uint64_t, (26 * 26 * 26 + 63) / 64> bits{};
  for (const LexEntry& e : kLexicon) {
    const size_t k = prefix_index(static_cast<unsigned char>(e.word[0]), static_cast<unsigned char>(e.word[1]),
                                  static_cast<unsigned char>(e.word[2]));
    bits[k / 64] |= uint64_t{1} << (k % 64);
  }
  return bits;
}
inline constexpr std::array<uint64_t, (26 * 26 * 26 + 63) / 64> kLexPrefixes = make_lex_prefixes();

// The same for the last three letters of the month names, to test the word
// before a number without finding its start first.
constexpr std::array<uint64_t, (26 * 26 * 26 + 63) / 64> make_month_suffixes() {
  std::array<uint64_t, (26 * 26 * 26 + 63) / 64> bits{};
  for (const LexEntry& e : kLexicon) {
    if (e.kind != Lex::kMonth && e.kind != Lex::kMonthAbbrev) continue;
    const size_t n = e.word.size();
    const size_t k = prefix_index(static_cast<unsigned char>(e.word[n - 3]), static_cast<unsigned char>(e.word[n - 2]),
                                  static_cast<unsigned char>(e.word[n - 1]));
    bits[k / 64] |= uint64_t{1} << (k % 64);
  }
  return bits;
}
inline constexpr std::array<uint64_t, (26 * 26 * 26 + 63) / 64> kMonthSuffixes = make_month_suffixes();

// Whether the three letters before `end` may end a month name.
inline bool month_suffix_candidate(const Scan& s, size_t end) {
  if (end < 3 || !s.alpha(end - 1) || !s.alpha(end - 2) || !s.alpha(end - 3)) return false;
  const size_t k = prefix_index(s.at(end - 3) | 0x20, s.at(end - 2) | 0x20, s.at(end - 1) | 0x20);
  return (kMonthSuffixes[k / 64] >> (k % 64)) & 1;
}

// Whether the letter word [ws, ws + len) may be in the lexicon. Precondition:
// its bytes are ASCII letters.
inline bool lexicon_candidate(const Scan& s, size_t ws, size_t len) {
  if (len < kLexMinLength || len > kLexMaxLength) return false;
  const size_t k = prefix_index(s.at(ws) | 0x20, s.at(ws + 1) | 0x20, s.at(ws + 2) | 0x20);
  return (kLexPrefixes[k / 64] >> (k % 64)) & 1;
}

// Whether three letters at ws may begin a lexicon word.
inline bool lexicon_candidate_prefix(const Scan& s, size_t ws) {
  if (!s.alpha(ws) || !s.alpha(ws + 1) || !s.alpha(ws + 2)) return false;
  const size_t k = prefix_index(s.at(ws) | 0x20, s.at(ws + 1) | 0x20, s.at(ws + 2) | 0x20);
  return (kLexPrefixes[k / 64] >> (k % 64)) & 1;
}

// The lexicon entry the letter word [ws, we) is, or nullptr.
inline const LexEntry* lexicon_lookup(const Scan& s, size_t ws, size_t we) {
  const size_t len = we - ws;
  if (!lexicon_candidate(s, ws, len)) return nullptr;
  for (const LexEntry& e : kLexicon) {
    if (e.word.size() == len && s.matches(ws, e.word)) return &e;
  }
  return nullptr;
}

}  // namespace tiergate::pii_scan
