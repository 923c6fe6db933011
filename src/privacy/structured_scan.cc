// The structured scan's main loop and the overlap resolution.
//
// The loop visits only "event" bytes (event_mask in scan.h): the first digit
// of a number, the marks '@ + ( - : = _', a '.' before a letter or digit,
// the y of "day" (weekday names) and the t of "dot" (an e-mail address
// spelled out). Every type has one of them in or next to it (a number, an
// '@', a scheme's ':', a host's '.', a key's '_' or '-', a key=value's '='
// or ':'), and prose has few: one every 40-80 bytes. Events
// are found 64 bytes at a time with SSE2 bit masks, so the letters and blanks
// between them cost a fraction of a cycle per byte and no branch per word.
// Each event's handler looks back and forward a bounded distance; a digit's
// handler takes the whole word it is in, and the loop resumes after it.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <limits>
#include <map>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "lexicon.h"
#include "scan.h"
#include "tiergate/privacy/structured_pii.h"

namespace tiergate {

int pii_type_rank(PiiType type) {
  switch (type) {
    case PiiType::kPrivateKey: return 100;
    case PiiType::kCreditCard:
    case PiiType::kIbanCode: return 90;
    case PiiType::kApiKey:
    case PiiType::kPassword: return 85;
    case PiiType::kEmailAddress: return 80;
    case PiiType::kUsSsn:
    case PiiType::kUsItin:
    case PiiType::kUsDriverLicense:
    case PiiType::kUsPassport:
    case PiiType::kMedicalRecordNumber: return 75;
    case PiiType::kIpAddress:
    case PiiType::kMacAddress: return 70;
    case PiiType::kDateOfBirth:
    case PiiType::kDateTime: return 60;
    case PiiType::kPhoneNumber: return 55;
    case PiiType::kZipCode: return 50;
    case PiiType::kDomainName: return 45;
    // An age or a group that the words around it confirm ("age 67", "is
    // Italian") over a learned guess at the same words: the tagger never
    // learns these types (the dev labels have none).
    case PiiType::kNrp:
    case PiiType::kAge: return 35;
    case PiiType::kStreetAddress: return 30;
    case PiiType::kPerson:
    case PiiType::kOrganization: return 25;
    case PiiType::kLocation: return 20;
    case PiiType::kTitle:
    case PiiType::kPrefix: return 15;
  }
  return 0;
}

namespace pii_scan {

void Scan::add(PiiType type, size_t begin, size_t end) { add(type, begin, end, pii_type_rank(type)); }

void Scan::add_date(size_t begin, size_t end) {
  static constexpr std::array<std::string_view, 5> kBirthWords = {"dob", "d.o.b", "birth*", "born", "bday"};
  add(keyword_before(begin, 24, kBirthWords) ? PiiType::kDateOfBirth : PiiType::kDateTime, begin, end);
}

namespace {

// Picks among candidates that overlap each other (a cluster): the best first
// (rank, then length, then begin), each kept when it overlaps none kept
// before it. A candidate with a trim floor (a URL: its host ends there) that
// overlaps only kept spans past the floor is cut short before the first of
// them rather than dropped, so a date or a key in a URL's path does not cost
// the URL's host. Appends the kept spans to `out`, sorted by begin. Small
// clusters (the usual case) are checked pairwise, large ones (adversarial
// text) with an ordered map of the kept intervals.
void resolve_cluster(Candidate* first, Candidate* last, std::vector<PiiSpan>& out) {
  std::sort(first, last, [](const Candidate& a, const Candidate& b) {
    if (a.rank != b.rank) return a.rank > b.rank;
    const uint32_t la = a.end - a.begin, lb = b.end - b.begin;
    if (la != lb) return la > lb;
    if (a.begin != b.begin) return a.begin < b.begin;
    return static_cast<int>(a.type) < static_cast<int>(b.type);
  });
  const size_t from = out.size();
  // `first_overlap`: the begin of the first kept span overlapping c, or c.end
  // when none does (c.begin when one starts before c).
  auto keep = [&](const Candidate& c, uint32_t first_overlap) {
    if (first_overlap == c.end) {
      out.push_back({c.type, c.begin, c.end});
      return true;
    }
    if (c.trim_floor != 0 && first_overlap >= c.trim_floor) {
      out.push_back({c.type, c.begin, first_overlap});
      return true;
    }
    return false;
  };
  if (last - first <= 32) {
    for (const Candidate* c = first; c != last; ++c) {
      uint32_t first_overlap = c->end;
      for (size_t k = from; k < out.size(); ++k) {
        if (c->begin < out[k].end && out[k].begin < c->end) first_overlap = std::min(first_overlap, out[k].begin);
      }
      keep(*c, std::max(first_overlap, c->begin));
    }
  } else {
    std::map<uint32_t, uint32_t> kept;  // begin -> end
    for (const Candidate* c = first; c != last; ++c) {
      auto next = kept.lower_bound(c->begin);
      uint32_t first_overlap = c->end;
      if (next != kept.begin() && std::prev(next)->second > c->begin) {
        first_overlap = c->begin;
      } else if (next != kept.end() && next->first < c->end) {
        first_overlap = next->first;
      }
      if (keep(*c, first_overlap)) kept.emplace(out.back().begin, out.back().end);
    }
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(),
            [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
}

// Keeps the best non-overlapping candidates and appends them to `out`,
// sorted by begin: candidates are split into clusters of (transitively)
// overlapping ones, in text order, and each cluster is resolved on its own.
void resolve(std::vector<Candidate>& found, std::vector<PiiSpan>& out) {
  std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  size_t i = 0;
  while (i < found.size()) {
    size_t j = i + 1;
    uint32_t cluster_end = found[i].end;
    while (j < found.size() && found[j].begin < cluster_end) cluster_end = std::max(cluster_end, found[j++].end);
    if (j == i + 1) {
      out.push_back({found[i].type, found[i].begin, found[i].end});
    } else {
      resolve_cluster(found.data() + i, found.data() + j, out);
    }
    i = j;
  }
}

bool token_byte(unsigned char c) { return (kClass[c] & kWord) || c == '-' || c == '+' || c == '/' || c == '='; }

// Last letters of key=value names (password, passwd, pwd, pw, passphrase,
// pass, pin, secret, token, key, auth, credentials, authorization).
bool key_name_tail(unsigned char c) {
  c = to_lower(c);
  return c == 'd' || c == 'e' || c == 's' || c == 'n' || c == 't' || c == 'y' || c == 'h' || c == 'l' || c == 'w';
}

struct ScanState {
  size_t pos = 0;         // events before here were consumed by a handler
  size_t token_done = 0;  // digit-led tokens end here at most
  size_t prefix_word = std::numeric_limits<size_t>::max();  // the word whose '_' was last checked
};

// The start of the word (letters, digits, '_') that ends at `end`, looking
// back at most `limit` bytes.
size_t word_start(const Scan& s, size_t end, size_t limit) {
  size_t b = end;
  while (b > 0 && end - b < limit && s.word(b - 1)) --b;
  return b;
}

// A word [ws, we) holding a digit. Most are short numbers in prose ("1990",
// "45"): each family is asked only when a cheap test of the neighbouring
// bytes allows it.
void on_digit_word(Scan& s, size_t ws, size_t we, ScanState& st) {
  const unsigned char first = s.at(ws);
  const size_t len = we - ws;
  if (kClass[first] & kDigit) {
    if (len <= 5) detect_context_number(s, ws, we);
    // A lone short number ("in 1990 the", "45,") joins no other digits: only
    // a month name can make it a date, and only "is <number>" a password.
    const unsigned char n1 = s.at(we), n2 = s.at(we + 1);
    const bool joined = (kClass[n2] & kDigit) || n2 == '(' || ((n2 | 0x20) == 'a' || (n2 | 0x20) == 'p') ||
                        n1 == ':' || n1 == '@';
    if (len <= 6 && !joined && s.digits_end(ws) == we) {
      if (len <= 4 && ((ws >= 2 && (s.alpha(ws - 2) || s.alpha(ws - 3) || s.alpha(ws - 1))) ||
                       (s.blank(we) && s.alpha(we + 1)))) {
        detect_month_date_near(s, ws, we);
      }
      if (ws >= 3 && s.matches(ws - 3, "is ")) detect_token(s, ws, we);
      st.token_done = we;
      return;
    }
    // An NHS number in groups a blank apart: "943 476 5919" (its shape
    // first; the keyword ids' look back below finds "943-476-5919").
    if (len == 3 && n1 == ' ' && (kClass[n2] & kDigit) && s.digit(we + 2) && s.digit(we + 3) && s.at(we + 4) == ' ' &&
        s.digit(we + 5) && s.digit(we + 8) && !s.alnum(we + 9)) {
      detect_nhs_number(s, ws);
    }
    detect_numeric(s, ws, we);
    // A month name next to a day or year: a letter within two bytes before,
    // or a blank and a letter after.
    if (len <= 4 && ((ws >= 2 && (s.alpha(ws - 2) || s.alpha(ws - 3) || s.alpha(ws - 1))) ||
                     (s.blank(we) && s.alpha(we + 1)))) {
      detect_month_date_near(s, ws, we);
    }
  } else {
    if (len <= 4) detect_postcode(s, ws, we);
    if (len >= 4) detect_iban(s, ws);
  }
  if (len >= 5 || (s.at(we) == '-' && s.alnum(we + 1))) detect_keyword_ids_before(s, ws);  // ids: "S530-4607-2351"
  if (ws >= st.token_done) {
    size_t ts = ws;
    while (ts > 0 && ws - ts < 4096 && token_byte(s.at(ts - 1))) --ts;
    size_t te = we;
    while (te < s.size() && te - ws < 8192 && token_byte(s.at(te))) ++te;
    st.token_done = te;
    // A plain number between blanks is no token; only "password is 1234"
    // asks for it.
    if (te - ts >= 5 || !(kClass[s.at(ts)] & kDigit) || (ts >= 3 && s.matches(ts - 3, "is "))) detect_token(s, ts, te);
  }
}

// key=value: the name before the mark at i ('=' or ':'), past blanks and a
// closing quote.
void key_value_before(Scan& s, size_t i) {
  size_t j = i;
  while (j > 0 && i - j < 4 && s.blank(j - 1)) --j;
  if (j > 0 && (s.at(j - 1) == '"' || s.at(j - 1) == '\'')) --j;
  if (j == 0 || !s.word(j - 1) || !key_name_tail(s.at(j - 1))) return;
  detect_key_value(s, word_start(s, j, 64), j);
}

void on_event(Scan& s, size_t i, ScanState& st) {
  const unsigned char c = s.at(i);
  if (kClass[c] & kDigit) {
    const size_t ws = word_start(s, i, 4096);
    size_t we = i + 1;
    while (we < s.size() && s.word(we)) ++we;
    on_digit_word(s, ws, we, st);
    st.pos = we;
    return;
  }
  switch (c) {
    case '@': detect_email(s, i); return;
    case '+':
      if (s.digit(i + 1) || (s.at(i + 1) == '(' && s.digit(i + 2))) detect_phone(s, i);
      return;
    case '(':
      if (s.digit(i + 1) && !(i > 0 && s.word(i - 1))) detect_phone(s, i);
      return;
    case '-': {
      if (s.at(i + 1) == '-' && s.at(i + 4) == '-') {
        detect_private_key(s, i);
        st.pos = std::max(st.pos, s.resume_at);
        return;
      }
      const size_t ws = word_start(s, i, 16);
      if (ws == i || (ws > 0 && (s.at(ws - 1) == '-' || s.at(ws - 1) == '.'))) return;
      detect_key_prefix(s, ws);                                                // "sk-", "xoxb-", "glpat-"
      if (i - ws == 2 && (kClass[s.at(ws)] & kHexLetter)) detect_mac(s, ws);  // "aa-bb-..."
      return;
    }
    case ':': {
      if (s.at(i + 1) == '/' && s.at(i + 2) == '/') {
        detect_url(s, word_start(s, i, 8));
        return;
      }
      if (s.at(i + 1) == ':' && !(i > 0 && s.word(i - 1))) {
        if (s.hex(i + 2) && !(i > 0 && s.at(i - 1) == ':')) detect_ipv6(s, i);  // "::1:2"
        return;
      }
      const size_t ws = word_start(s, i, 64);
      if (ws < i && i - ws <= 4 && (kClass[s.at(ws)] & kHexLetter)) {  // "fe80::1", "aa:bb:..."
        detect_ipv6(s, ws);
        detect_mac(s, ws);
      }
      key_value_before(s, i);
      return;
    }
    case '=': key_value_before(s, i); return;
    case '.': {
      if (!s.alnum(i + 1)) return;
      const size_t ws = word_start(s, i, 64);
      if (ws == i || (s.digit(i - 1) && s.digit(i + 1))) return;  // decimals, versions, IPv4 (a digit's event)
      detect_host(s, ws);
      detect_spelled_out_email_before_host(s, ws);  // "jane(at)example.com"
      if (i - ws == 4 && (kClass[s.at(ws)] & kHexLetter)) detect_mac(s, ws);  // "aabb.ccdd.eeff"
      if ((i - ws == 2 && s.matches(ws, "sg")) || s.matches(ws, "eyj")) detect_key_prefix(s, ws);
      return;
    }
    case '_': {
      const size_t ws = word_start(s, i, 64);
      if (ws != st.prefix_word) detect_key_prefix(s, ws);  // "ghp_", "sk_live_"
      st.prefix_word = ws;
      return;
    }
    case 'y':
    case 'Y':
      if ((s.at(i - 1) | 0x20) == 'a' && (s.at(i - 2) | 0x20) == 'd' && !s.alpha(i + 1)) detect_weekday(s, i);
      return;
    case 't':
    case 'T':
      if ((s.at(i - 1) | 0x20) == 'o' && (s.at(i - 2) | 0x20) == 'd') detect_spelled_out_email_at_dot(s, i - 2);
      return;
    default: return;
  }
}

}  // namespace

uint64_t event_mask_portable(const unsigned char* p, size_t base, size_t n) {
  uint64_t m = 0;
  const size_t end = std::min(n, base + 64);
  for (size_t k = base; k < end; ++k) {
    const unsigned char c = p[k];
    const unsigned char prev = k >= 1 ? p[k - 1] : 0, prev2 = k >= 2 ? p[k - 2] : 0;
    const unsigned char next = k + 1 < n ? p[k + 1] : 0;
    const bool event = ((kClass[c] & kDigit) && !(kClass[prev] & kDigit)) || (kClass[c] & kTrigger) ||
                       (c == '.' && (kClass[next] & kAlnum)) ||
                       ((c | 0x20) == 'y' && (prev | 0x20) == 'a' && (prev2 | 0x20) == 'd') ||
                       ((c | 0x20) == 't' && (prev | 0x20) == 'o' && (prev2 | 0x20) == 'd');
    if (event) m |= uint64_t{1} << (k - base);
  }
  return m;
}

namespace {

// The events of the 64 bytes from `base` with a whole-block function that
// reads two bytes before and one after its block. A block at either end of
// the text is copied with its neighbours into a zero-padded buffer (zero is
// no event and no neighbour of one).
template <uint64_t (*BlockEvents)(const unsigned char*)>
[[maybe_unused]] uint64_t event_mask_of(const unsigned char* p, size_t base, size_t n) {
  if (base >= 2 && base + 65 <= n) return BlockEvents(p + base);
  unsigned char buf[2 + 64 + 1] = {};
  const size_t from = base >= 2 ? base - 2 : 0;
  const size_t to = std::min(n, base + 65);
  std::memcpy(buf + (from + 2 - base), p + from, to - from);
  const uint64_t m = BlockEvents(buf + 2);
  const size_t valid = std::min<size_t>(64, n - base);
  return valid == 64 ? m : m & ((uint64_t{1} << valid) - 1);
}

}  // namespace

#if defined(__SSE2__)
namespace {

// 0xff in each byte of x that lies in [lo, lo + span].
__m128i in_range(__m128i x, char lo, char span) {
  const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
}

__m128i load(const unsigned char* p) {
  __m128i x;
  std::memcpy(&x, p, 16);
  return x;
}

// The events of the 64 bytes at q; reads q[-2] to q[64].
uint64_t block_events_sse2(const unsigned char* q0) {
  uint64_t m = 0;
  const __m128i lower_bit = _mm_set1_epi8(0x20);
  for (int part = 0; part < 4; ++part) {
    const unsigned char* q = q0 + 16 * part;
    const __m128i x = load(q), prev = load(q - 1), prev2 = load(q - 2), next = load(q + 1);
    // The first digit of a run of digits.
    __m128i e = _mm_andnot_si128(in_range(prev, '0', 9), in_range(x, '0', 9));
    for (char mark : {'@', '+', '(', '-', ':', '=', '_'}) e = _mm_or_si128(e, _mm_cmpeq_epi8(x, _mm_set1_epi8(mark)));
    // '.' before a letter or digit.
    const __m128i next_alnum = _mm_or_si128(in_range(next, '0', 9), in_range(_mm_or_si128(next, lower_bit), 'a', 25));
    e = _mm_or_si128(e, _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('.')), next_alnum));
    // The y of "day" (weekday names), either case.
    const __m128i day = _mm_and_si128(
        _mm_cmpeq_epi8(_mm_or_si128(x, lower_bit), _mm_set1_epi8('y')),
        _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(prev, lower_bit), _mm_set1_epi8('a')),
                      _mm_cmpeq_epi8(_mm_or_si128(prev2, lower_bit), _mm_set1_epi8('d'))));
    e = _mm_or_si128(e, day);
    // The t of "dot" (a spelled-out e-mail address), either case.
    const __m128i dot = _mm_and_si128(
        _mm_cmpeq_epi8(_mm_or_si128(x, lower_bit), _mm_set1_epi8('t')),
        _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(prev, lower_bit), _mm_set1_epi8('o')),
                      _mm_cmpeq_epi8(_mm_or_si128(prev2, lower_bit), _mm_set1_epi8('d'))));
    e = _mm_or_si128(e, dot);
    m |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(e))} << (16 * part);
  }
  return m;
}

}  // namespace

uint64_t event_mask_sse2(const unsigned char* p, size_t base, size_t n) {
  return event_mask_of<block_events_sse2>(p, base, n);
}
#endif

#if defined(__x86_64__)
namespace {

[[gnu::target("avx2")]] __m256i in_range_avx2(__m256i x, char lo, char span) {
  const __m256i d = _mm256_sub_epi8(x, _mm256_set1_epi8(lo));
  return _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(span)), d);
}

[[gnu::target("avx2")]] __m256i load_avx2(const unsigned char* p) {
  __m256i x;
  std::memcpy(&x, p, 32);
  return x;
}

// block_events_sse2, 32 bytes per step.
[[gnu::target("avx2")]] uint64_t block_events_avx2(const unsigned char* q0) {
  uint64_t m = 0;
  const __m256i lower_bit = _mm256_set1_epi8(0x20);
  for (int part = 0; part < 2; ++part) {
    const unsigned char* q = q0 + 32 * part;
    const __m256i x = load_avx2(q), prev = load_avx2(q - 1), prev2 = load_avx2(q - 2), next = load_avx2(q + 1);
    __m256i e = _mm256_andnot_si256(in_range_avx2(prev, '0', 9), in_range_avx2(x, '0', 9));
    for (char mark : {'@', '+', '(', '-', ':', '=', '_'}) {
      e = _mm256_or_si256(e, _mm256_cmpeq_epi8(x, _mm256_set1_epi8(mark)));
    }
    const __m256i next_alnum =
        _mm256_or_si256(in_range_avx2(next, '0', 9), in_range_avx2(_mm256_or_si256(next, lower_bit), 'a', 25));
    e = _mm256_or_si256(e, _mm256_and_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('.')), next_alnum));
    const __m256i day = _mm256_and_si256(
        _mm256_cmpeq_epi8(_mm256_or_si256(x, lower_bit), _mm256_set1_epi8('y')),
        _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_or_si256(prev, lower_bit), _mm256_set1_epi8('a')),
                         _mm256_cmpeq_epi8(_mm256_or_si256(prev2, lower_bit), _mm256_set1_epi8('d'))));
    e = _mm256_or_si256(e, day);
    const __m256i dot = _mm256_and_si256(
        _mm256_cmpeq_epi8(_mm256_or_si256(x, lower_bit), _mm256_set1_epi8('t')),
        _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_or_si256(prev, lower_bit), _mm256_set1_epi8('o')),
                         _mm256_cmpeq_epi8(_mm256_or_si256(prev2, lower_bit), _mm256_set1_epi8('d'))));
    e = _mm256_or_si256(e, dot);
    m |= uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(e))} << (32 * part);
  }
  return m;
}

}  // namespace

uint64_t event_mask_avx2(const unsigned char* p, size_t base, size_t n) {
  return event_mask_of<block_events_avx2>(p, base, n);
}

namespace {

// Bit k set for each byte k of x in [lo, lo + span].
[[TIERGATE_AVX512BW]] uint64_t in_range_avx512(__m512i x, char lo, char span) {
  return _mm512_cmple_epu8_mask(_mm512_sub_epi8(x, _mm512_set1_epi8(lo)), _mm512_set1_epi8(span));
}

[[TIERGATE_AVX512BW]] uint64_t equal_avx512(__m512i x, char c) {
  return _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(c));
}

// block_events_sse2, 64 bytes in one step, with bit masks from the
// comparisons.
[[TIERGATE_AVX512BW]] uint64_t block_events_avx512(const unsigned char* q) {
  const __m512i x = _mm512_loadu_si512(q), prev = _mm512_loadu_si512(q - 1), prev2 = _mm512_loadu_si512(q - 2),
                next = _mm512_loadu_si512(q + 1);
  const __m512i lower_bit = _mm512_set1_epi8(0x20);
  uint64_t e = in_range_avx512(x, '0', 9) & ~in_range_avx512(prev, '0', 9);
  for (char mark : {'@', '+', '(', '-', ':', '=', '_'}) e |= equal_avx512(x, mark);
  const uint64_t next_alnum =
      in_range_avx512(next, '0', 9) | in_range_avx512(_mm512_or_si512(next, lower_bit), 'a', 25);
  e |= equal_avx512(x, '.') & next_alnum;
  e |= equal_avx512(_mm512_or_si512(x, lower_bit), 'y') & equal_avx512(_mm512_or_si512(prev, lower_bit), 'a') &
       equal_avx512(_mm512_or_si512(prev2, lower_bit), 'd');
  e |= equal_avx512(_mm512_or_si512(x, lower_bit), 't') & equal_avx512(_mm512_or_si512(prev, lower_bit), 'o') &
       equal_avx512(_mm512_or_si512(prev2, lower_bit), 'd');
  return e;
}

}  // namespace

uint64_t event_mask_avx512(const unsigned char* p, size_t base, size_t n) {
  return event_mask_of<block_events_avx512>(p, base, n);
}

bool cpu_has_avx512bw() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512bw") != 0;
  }();
  return has;
}

bool cpu_has_avx2() {
  // __builtin_cpu_init first: this may run among the static constructors.
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
}
#endif

namespace {

// AVX-512 or AVX2 where the CPU has it (checked once), else SSE2 (every
// x86-64), else the byte loop.
uint64_t event_mask(const unsigned char* p, size_t base, size_t n) {
#if defined(__x86_64__)
  static const bool avx512 = cpu_has_avx512bw();
  if (avx512) return event_mask_avx512(p, base, n);
  static const bool avx2 = cpu_has_avx2();
  if (avx2) return event_mask_avx2(p, base, n);
#endif
#if defined(__SSE2__)
  return event_mask_sse2(p, base, n);
#else
  return event_mask_portable(p, base, n);
#endif
}

}  // namespace
}  // namespace pii_scan

void find_structured_pii(std::string_view text, std::vector<PiiSpan>& out) {
  assert(text.size() < std::numeric_limits<uint32_t>::max());
  using namespace pii_scan;
  Scan s(text);
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  ScanState st;
  for (size_t base = 0; base < n;) {
    uint64_t m = event_mask(p, base, n);
    if (st.pos > base) m &= st.pos - base >= 64 ? 0 : ~uint64_t{0} << (st.pos - base);
    while (m != 0) {
      const size_t i = base + static_cast<size_t>(std::countr_zero(m));
      m &= m - 1;
      if (i < st.pos) continue;
      const size_t before = s.found.size();
      on_event(s, i, st);
      // Nothing inside a validated identifier (card, IBAN, key, email, SSN,
      // IP, ...) can outrank it: resume after it rather than re-reading its
      // groups one event at a time. Dates and phones, which a better span
      // may overlap, do not skip.
      for (size_t k = before; k < s.found.size(); ++k) {
        if (s.found[k].rank >= pii_type_rank(PiiType::kIpAddress)) st.pos = std::max<size_t>(st.pos, s.found[k].end);
      }
      if (st.pos >= base + 64) break;
    }
    base = std::max(base + 64, st.pos & ~size_t{63});
  }
  detect_group_mentions(s);
  if (!s.found.empty()) resolve(s.found, out);
}

void resolve_pii_overlaps(std::vector<PiiSpan>& spans) {
  // Most texts' spans are in order and apart already (the tagger's alone,
  // or none): resolving would give them back as they are, so no call pays
  // for the sort. (An empty span, which the sort would move, takes the
  // long way.)
  bool apart = true;
  for (size_t k = 0; k < spans.size() && apart; ++k) {
    apart = spans[k].begin < spans[k].end && (k == 0 || spans[k - 1].end <= spans[k].begin);
  }
  if (apart) return;
  // Per thread and kept between calls: no allocation per text.
  thread_local std::vector<pii_scan::Candidate> candidates;
  candidates.clear();
  // An unstructured span (ranked below DOMAIN_NAME: the tagger's) that a
  // better one overlaps keeps what comes before it.
  const int unstructured = pii_type_rank(PiiType::kDomainName);
  for (const PiiSpan& sp : spans) {
    const int rank = pii_type_rank(sp.type);
    candidates.push_back({sp.begin, sp.end, sp.type, rank, rank < unstructured ? sp.begin + 1 : 0});
  }
  spans.clear();
  if (!candidates.empty()) pii_scan::resolve(candidates, spans);
}

}  // namespace tiergate
