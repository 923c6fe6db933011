// Private to the module: the state of one structured scan and the helpers its
// matchers share. A matcher is called at a position where its type can start,
// reads a bounded number of bytes forward (and, for context words, a bounded
// window backward), and adds at most a few candidates; overlaps are resolved
// once at the end (structured_scan.cc).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tiergate/privacy/pii_types.h"

namespace tiergate::pii_scan {

enum ByteClass : uint8_t {
  kDigit = 1,
  kUpper = 2,
  kLower = 4,
  kHexLetter = 8,   // a-f, A-F
  kUnderscore = 16,
  kBlank = 32,      // ' ', '\t'
  kLineEnd = 64,    // '\n', '\r', '\v', '\f'
  kTrigger = 128,   // '@', '+', '(', '-', ':', '=', '_': always an event (event_mask)
};
inline constexpr uint8_t kAlpha = kUpper | kLower;
inline constexpr uint8_t kAlnum = kDigit | kAlpha;
inline constexpr uint8_t kWord = kAlnum | kUnderscore;

constexpr std::array<uint8_t, 256> make_byte_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigit;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kUpper;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kLower;
  for (int c = 'a'; c <= 'f'; ++c) t[c] |= kHexLetter;
  for (int c = 'A'; c <= 'F'; ++c) t[c] |= kHexLetter;
  t['_'] = kUnderscore;
  t[' '] = t['\t'] = kBlank;
  t['\n'] = t['\r'] = t['\v'] = t['\f'] = kLineEnd;
  for (unsigned char c : {'@', '+', '(', '-', ':', '=', '_'}) t[c] |= kTrigger;
  return t;
}
inline constexpr std::array<uint8_t, 256> kClass = make_byte_classes();

inline unsigned char to_lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + 32) : c; }

// Rank used to resolve overlaps; a generic high-entropy token ranks below
// every other structured type (see find_structured_pii).
inline constexpr int kRankGenericSecret = 1;

struct Candidate {
  uint32_t begin;
  uint32_t end;
  PiiType type;
  int rank;
  // Nonzero for a URL: the end of its host. Overlapped only past this point
  // by better spans, it is cut short instead of dropped.
  uint32_t trim_floor;
};

class Scan {
 public:
  explicit Scan(std::string_view text)
      : p_(reinterpret_cast<const unsigned char*>(text.data())), n_(text.size()) {}

  size_t size() const { return n_; }
  const unsigned char* data() const { return p_; }
  // The byte at i, or 0 past either end; 0 is a separator to every matcher.
  unsigned char at(size_t i) const { return i < n_ ? p_[i] : 0; }
  uint8_t cls(size_t i) const { return kClass[at(i)]; }
  bool digit(size_t i) const { return cls(i) & kDigit; }
  bool alpha(size_t i) const { return cls(i) & kAlpha; }
  bool alnum(size_t i) const { return cls(i) & kAlnum; }
  bool word(size_t i) const { return cls(i) & kWord; }
  bool hex(size_t i) const { return cls(i) & (kDigit | kHexLetter); }
  bool blank(size_t i) const { return cls(i) & kBlank; }
  unsigned char lower(size_t i) const { return to_lower(at(i)); }

  // Whether the text at i equals `word` ignoring ASCII case (`word` lower-case).
  // False past either end (i may have wrapped below 0).
  bool matches(size_t i, std::string_view word) const {
    if (i > n_ || word.size() > n_ - i) return false;
    for (size_t k = 0; k < word.size(); ++k) {
      if (to_lower(p_[i + k]) != static_cast<unsigned char>(word[k])) return false;
    }
    return true;
  }
  // matches(), and the word ends there (no letter follows).
  bool matches_word(size_t i, std::string_view word) const { return matches(i, word) && !alpha(i + word.size()); }

  // The end of the run of ASCII digits from i (i itself when none).
  size_t digits_end(size_t i) const {
    while (i < n_ && (kClass[p_[i]] & kDigit)) ++i;
    return i;
  }
  // Parses up to max_digits digits at i into value; returns the count read.
  size_t read_number(size_t i, size_t max_digits, int& value) const {
    value = 0;
    size_t k = 0;
    while (k < max_digits && digit(i + k)) value = value * 10 + (p_[i + k] - '0'), ++k;
    return k;
  }

  // Whether one of `keywords` (lower-case; an entry ending in '*' matches any
  // word it begins) starts a word in [pos - window, pos) on the same line.
  template <size_t N>
  bool keyword_before(size_t pos, size_t window, const std::array<std::string_view, N>& keywords) const {
    size_t from = pos > window ? pos - window : 0;
    for (size_t j = pos; j > from; --j) {
      if (cls(j - 1) & kLineEnd) {
        from = j;
        break;
      }
    }
    uint32_t first_letters = 0;  // a word whose first letter starts no keyword is skipped at once
    for (std::string_view k : keywords) first_letters |= uint32_t{1} << ((k[0] | 0x20) & 31);
    for (size_t j = from; j < pos; ++j) {
      if (!alpha(j) || (j > 0 && alpha(j - 1)) || !((first_letters >> ((p_[j] | 0x20) & 31)) & 1)) continue;
      if (keyword_at(j, keywords)) return true;
    }
    return false;
  }
  // Whether one of `keywords` begins at j (and ends a word unless it ends in '*').
  template <size_t N>
  bool keyword_at(size_t j, const std::array<std::string_view, N>& keywords) const {
    for (std::string_view k : keywords) {
      const bool stem = k.back() == '*';
      if (stem) k.remove_suffix(1);
      if (stem ? matches(j, k) : matches_word(j, k)) return true;
    }
    return false;
  }

  // Left edge of a number at s: not inside a longer word, number or list
  // ("1.2.3.4.5", "1,234,567", "12-34" where a digit precedes the mark), and
  // not an amount ("$1 299").
  bool numeric_left_ok(size_t s) const {
    if (s == 0) return true;
    const unsigned char prev = p_[s - 1];
    if (kClass[prev] & kWord) return false;
    if (prev == '.' || prev == '-' || prev == '/' || prev == ':' || prev == ',') return !(s >= 2 && digit(s - 2));
    return prev != '$' && prev != '+' && !(prev == 0xA3 && s >= 2 && p_[s - 2] == 0xC2) &&  // £
           !(prev == 0xAC && s >= 3 && p_[s - 2] == 0x82 && p_[s - 3] == 0xE2);              // €
  }
  // Right edge of a number ending at e: no letter or digit follows, and no
  // mark that continues it with a digit ("1.2.3" after "1.2"), and not a
  // percentage.
  bool numeric_right_ok(size_t e) const {
    const unsigned char next = at(e);
    if (kClass[next] & kWord) return false;
    if (next == '.' || next == '-' || next == '/' || next == ':' || next == ',') return !digit(e + 1);
    return next != '%';
  }

  void add(PiiType type, size_t begin, size_t end, int rank, size_t trim_floor = 0) {
    found.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(end), type, rank,
                     static_cast<uint32_t>(trim_floor)});
  }
  void add(PiiType type, size_t begin, size_t end);  // at the type's rank
  // A date: a DATE_OF_BIRTH where a word of birth stands before it on its
  // line, 24 bytes away at most ("DOB: 03/14/1985", "born on March 14,
  // 1985", "your date of birth. It's 3/23/1940"), else a DATE_TIME.
  void add_date(size_t begin, size_t end);

  std::vector<Candidate> found;
  // A matcher that covered everything up to here (a private key block) sets
  // it; the main loop resumes there.
  size_t resume_at = 0;

 private:
  const unsigned char* p_;
  size_t n_;
};

// The scan's events in text[base, base + 64): bit k is set when byte base + k
// is the first digit of a run of digits, one of the marks '@' '+' '(' '-'
// ':' '=' '_', a '.' before a letter or digit, the 'y' of "day" or the 't'
// of "dot" (either case). Bytes past n are none. The SSE2, AVX2 and AVX-512
// versions (x86-64) give the same bits as the portable one (tests compare
// them on random text).
uint64_t event_mask_portable(const unsigned char* p, size_t base, size_t n);
#if defined(__SSE2__)
uint64_t event_mask_sse2(const unsigned char* p, size_t base, size_t n);
#endif
#if defined(__x86_64__)
// Only where cpu_has_avx2().
uint64_t event_mask_avx2(const unsigned char* p, size_t base, size_t n);
bool cpu_has_avx2();
// Only where cpu_has_avx512bw() (AVX-512 F and BW).
uint64_t event_mask_avx512(const unsigned char* p, size_t base, size_t n);
bool cpu_has_avx512bw();
// The target of the functions that use AVX-512 F and BW:
// [[TIERGATE_AVX512BW]].
#define TIERGATE_AVX512BW gnu::target("avx512f,avx512bw")
#endif

// Matchers (one file per family). Each checks its own preconditions at the
// position it is given.
// detect_numbers.cc: the numeric types at a word [ws, we) that starts with a
// digit (cards, SSNs, IPv4, dates, times, phones, and IPv6/MAC when hex).
void detect_numeric(Scan& s, size_t ws, size_t we);
// Phone numbers at '+', '(' or a digit.
void detect_phone(Scan& s, size_t start);
// A clock time at i ("14:30", "2:30 pm", "10:00:00Z"); its end, or 0.
size_t match_time(const Scan& s, size_t i);
// detect_network.cc
void detect_email(Scan& s, size_t at_sign);
// An e-mail address whose '@' (and '.') are spelled out ("jane [at]
// example [dot] com", "jane(at)example.com", "john dot smith at gmail dot
// com"; see detect_network.cc), found from the word "dot" that starts at
// `dot`, or from the host name whose first label starts at `ws` (after a
// '.': "jane(at)example.com").
void detect_spelled_out_email_at_dot(Scan& s, size_t dot);
void detect_spelled_out_email_before_host(Scan& s, size_t ws);
void detect_host(Scan& s, size_t ws);             // a host name starting at ws (its first label)
void detect_url(Scan& s, size_t ws);              // "http", "https", "ftp"... at ws, followed by "://"
// detect_profiles.cc: the handle in the path after the host [host,
// host_end) of a social or code-hosting site ("linkedin.com/in/...").
void detect_profile_handle(Scan& s, size_t host, size_t host_end);
void detect_ipv6(Scan& s, size_t start);          // at a hex digit or "::"
void detect_mac(Scan& s, size_t start);           // at a hex digit
// detect_words.cc
void detect_iban(Scan& s, size_t ws);
// Dates with month names around a number word [ws, we) (a day or a year).
void detect_month_date_near(Scan& s, size_t ws, size_t we);
// A weekday name ending at the 'y' at y.
void detect_weekday(Scan& s, size_t y);
// Driver's licence, passport and medical record numbers: keywords before an
// id-like word at ws.
void detect_keyword_ids_before(Scan& s, size_t ws);
// An NHS number that opens at ws after "NHS" on its line: ten digits, as one
// word or in groups of 3, 3 and 4 one blank or hyphen apart, whose last is
// the mod-11 check digit of the nine before it.
void detect_nhs_number(Scan& s, size_t ws);
// The first id-like token after a keyword ending at kw_end, on its line.
void detect_id_after_keyword(Scan& s, size_t kw_end, PiiType type);
// detect_context.cc: ages and ZIP codes, a number word [ws, we) of digits
// that the words around it make personal data.
void detect_context_number(Scan& s, size_t ws, size_t we);
// A British or Canadian postcode that a word [ws, we) of letters and
// digits opens, after a postcode cue: "postcode SW1A 1AA", "my postal code
// is K1A 0B1".
void detect_postcode(Scan& s, size_t ws, size_t we);
// detect_groups.cc: nationality, religious and political groups where the
// words around them describe a person; a pass of its own over the words:
// in text with capitals the capitalised words, unless `every_word`.
void detect_group_mentions(Scan& s, bool every_word = false);
// The group mentions in small letters of `text`, every word read ("As a
// 34-year-old hindu woman"), added to `out` as NRP spans in order: the pass
// above on its own, for text that the tagger reads a second time in small
// letters (PiiTagger::tag()).
void add_group_mentions(std::string_view text, std::vector<PiiSpan>& out);
// Whether `word` (any case) is a nationality, religious or political group
// word of that pass ("Italian", "muslim", "Democrat") or its plural
// ("Canadians").
bool is_group_word(std::string_view word);
// Whether `first` and `second` (any case) are a group of two words of that
// pass ("South African", "Sri Lankans").
bool is_two_word_group(std::string_view first, std::string_view second);
// detect_secrets.cc
void detect_key_prefix(Scan& s, size_t ws);            // provider-prefixed API keys and JWTs
void detect_key_value(Scan& s, size_t ws, size_t we);  // password=..., api_key: ... (name's last word [ws, we))
void detect_private_key(Scan& s, size_t dashes);       // "-----BEGIN ... PRIVATE KEY-----"
// A token [ts, te) of [A-Za-z0-9_+/=-] that holds a digit: key prefixes,
// JWTs, "Bearer <token>", "password is <value>", high-entropy strings.
void detect_token(Scan& s, size_t ts, size_t te);
void detect_high_entropy(Scan& s, size_t ts, size_t te);
// Secret-context words before pos (key, token, secret, ...), for the matchers
// that need them (hex strings, UUIDs).
bool secret_context_before(const Scan& s, size_t pos);

}  // namespace tiergate::pii_scan
