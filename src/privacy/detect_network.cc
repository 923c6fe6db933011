// Network identifiers: email addresses, host names and URLs (DOMAIN_NAME),
// IPv6 and MAC addresses. Host names need a known top-level domain, so file
// names ("report.pdf") and abbreviations ("e.g.") are not hosts.
#include <algorithm>
#include <array>
#include <optional>

#include "scan.h"
#include "tiergate/privacy/structured_pii.h"

namespace tiergate::pii_scan {
namespace {

// Top-level domains: every two-letter country code and the generic ones
// common in text. Sorted (binary search).
constexpr std::string_view kTlds[] = {
    "ac", "academy", "ad", "ae", "aero", "af", "ag", "agency", "ai", "al", "am", "amsterdam", "ao", "app", "aq",
    "ar", "art", "as", "asia", "at", "au", "aw", "ax", "az", "ba", "bank", "bb", "bd", "be", "berlin", "best", "bf",
    "bg", "bh", "bi", "bio", "biz", "bj", "blog", "bm", "bn", "bo", "br", "bs", "bt", "build", "bw", "by", "bz",
    "ca", "capital", "cat", "cc", "cd", "center", "cf", "cg", "ch", "chat", "ci", "ck", "cl", "click", "cloud",
    "club", "cm", "cn", "co", "codes", "com", "company", "consulting", "coop", "cr", "cu", "cv", "cw", "cx", "cy",
    "cz", "de", "design", "dev", "digital", "dj", "dk", "dm", "do", "domains", "dz", "ec", "edu", "ee", "eg",
    "email", "energy", "er", "es", "et", "eu", "events", "expert", "fi", "finance", "fj", "fk", "fm", "fo", "fr",
    "fund", "fyi", "ga", "gb", "gd", "ge", "gf", "gg", "gh", "gi", "gl", "global", "gm", "gn", "gov", "gp", "gq",
    "gr", "group", "gs", "gt", "gu", "guru", "gw", "gy", "health", "hk", "hm", "hn", "host", "hosting", "hr", "ht",
    "hu", "icu", "id", "ie", "il", "im", "in", "inc", "info", "int", "io", "iq", "ir", "is", "it", "je", "jm", "jo",
    "jobs", "jp", "ke", "kg", "kh", "ki", "km", "kn", "kp", "kr", "kw", "ky", "kz", "la", "law", "lb", "lc", "li",
    "link", "live", "lk", "llc", "london", "lr", "ls", "lt", "ltd", "lu", "lv", "ly", "ma", "marketing", "mc",
    "md", "me", "media", "mg", "mh", "mil", "mk", "ml", "mm", "mn", "mo", "mobi", "money", "mp", "mq", "mr", "ms",
    "mt", "mu", "museum", "mv", "mw", "mx", "my", "mz", "na", "name", "nc", "ne", "net", "network", "news", "nf",
    "ng", "ni", "ninja", "nl", "no", "np", "nr", "nu", "nyc", "nz", "om", "one", "online", "org", "pa", "paris",
    "pe", "pf", "pg", "ph", "pk", "pl", "pm", "pn", "post", "pr", "pro", "ps", "pt", "pw", "py", "qa", "re", "red",
    "ro", "rs", "ru", "rw", "sa", "sb", "sc", "school", "sd", "se", "services", "sg", "sh", "shop", "si", "site",
    "sk", "sl", "sm", "sn", "so", "software", "solutions", "space", "sr", "ss", "st", "store", "studio", "su",
    "support", "sv", "sx", "sy", "systems", "sz", "tc", "td", "team", "tech", "tel", "tf", "tg", "th", "tj", "tk",
    "tl", "tm", "tn", "to", "tokyo", "tools", "top", "tr", "travel", "tt", "tv", "tw", "tz", "ua", "ug", "uk",
    "us", "uy", "uz", "va", "vc", "ve", "vg", "vi", "vip", "vn", "vu", "web", "website", "wf", "wiki", "win",
    "works", "world", "ws", "xyz", "ye", "yt", "za", "zm", "zone", "zw",
};

// A bare name (no scheme, no "www.") is a host only with a TLD that rarely
// ends anything else: a country code, or one of kBareGeneric. Country codes
// that are also file extensions (script.py, lib.rs, README.md, notes.in,
// model.pt) or common attribute names in code (row.id, x.to, df.is, path.as)
// are not enough, nor are generic TLDs that are English words (logging.info,
// self.name, torch.cat, match.group).
constexpr std::string_view kBareGeneric[] = {"ai",  "biz",    "com",  "dev",  "edu", "gov", "int", "io",
                                             "mil", "net",    "online", "org", "site", "tech", "xyz"};
constexpr std::string_view kNotBareCountry[] = {"ac", "am", "as", "by", "bz", "cc", "cr", "do", "gs", "id", "in",
                                                "is", "md", "me", "mk", "ml", "mm", "mo", "my", "na", "no", "nu",
                                                "pl", "pm", "ps", "pt", "py", "re", "rs", "sc", "sh", "so", "st",
                                                "sv", "tf", "tk", "to"};

static_assert(std::is_sorted(std::begin(kTlds), std::end(kTlds)));
static_assert(std::is_sorted(std::begin(kBareGeneric), std::end(kBareGeneric)));
static_assert(std::is_sorted(std::begin(kNotBareCountry), std::end(kNotBareCountry)));

bool in_sorted(const std::string_view* first, const std::string_view* last, std::string_view key) {
  return std::binary_search(first, last, key);
}

// The top-level domain [begin, end) in small letters (into `buf`) when it
// is 2 to 24 letters; "" otherwise.
std::string_view tld_at(const Scan& s, size_t begin, size_t end, char (&buf)[24]) {
  if (end - begin < 2 || end - begin > sizeof buf) return {};
  for (size_t k = begin; k < end; ++k) {
    if (!s.alpha(k)) return {};
    buf[k - begin] = static_cast<char>(s.lower(k));
  }
  return {buf, end - begin};
}

// Whether a bare name (no scheme, no "www.") may end in the listed TLD
// `tld`: see kBareGeneric.
bool bare_host_tld(std::string_view tld) {
  return tld.size() == 2 ? !in_sorted(std::begin(kNotBareCountry), std::end(kNotBareCountry), tld)
                         : in_sorted(std::begin(kBareGeneric), std::end(kBareGeneric), tld);
}

enum class TldRule {
  kListed,     // any listed TLD
  kBare,       // listed, and one a bare name may end in (kBareGeneric, country codes)
  kAnyLetters  // two or more letters (after a URL scheme)
};

// Parses a host name at i: labels of letters, digits and inner hyphens joined
// by single dots, at least two labels, the last one a top-level domain under
// `rule`. Returns its end, or 0.
size_t match_hostname(const Scan& s, size_t i, TldRule rule) {
  size_t label_start = i;
  size_t pos = i;
  int labels = 0;
  const size_t limit = i + 253;
  while (true) {
    size_t e = pos;
    while (e < limit && (s.alnum(e) || s.at(e) == '-')) ++e;
    if (e == pos || e - pos > 63 || s.at(pos) == '-' || s.at(e - 1) == '-') return 0;
    ++labels;
    label_start = pos;
    pos = e;
    if (s.at(pos) == '.' && s.alnum(pos + 1) && pos + 1 < limit) {
      ++pos;
      continue;
    }
    break;
  }
  if (labels < 2 || s.word(pos) || s.at(pos) == '@') return 0;
  char tld[24];
  const std::string_view key = tld_at(s, label_start, pos, tld);
  if (key.empty()) return 0;
  switch (rule) {
    case TldRule::kAnyLetters: return pos;
    case TldRule::kListed: return in_sorted(std::begin(kTlds), std::end(kTlds), key) ? pos : 0;
    case TldRule::kBare: {
      if (!in_sorted(std::begin(kTlds), std::end(kTlds), key)) return 0;
      if (s.matches(i, "www.")) return pos;
      if (!bare_host_tld(key)) return 0;
      // Code, not a host: a call, index or assignment follows ("os.path(",
      // "x.com = 1"), or an upper-case TLD after lower-case labels
      // ("logging.INFO", "tk.Tk").
      const unsigned char next = s.at(pos);
      if (next == '(' || next == '[' || (next == '=' && s.at(pos + 1) != '=')) return 0;
      bool upper_tld = false, lower_name = false;
      for (size_t k = i; k < pos; ++k) {
        if (k >= label_start) upper_tld = upper_tld || (s.cls(k) & kUpper);
        else lower_name = lower_name || (s.cls(k) & kLower);
      }
      return upper_tld && lower_name ? 0 : pos;
    }
  }
  return 0;
}

constexpr bool email_local_byte(unsigned char c) {
  return (kClass[c] & kWord) || c == '.' || c == '%' || c == '+' || c == '-';
}

constexpr bool url_byte(unsigned char c) {
  if (kClass[c] & kWord) return true;
  switch (c) {
    case '-': case '.': case '~': case ':': case '/': case '?': case '#': case '[': case ']': case '@': case '!':
    case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',': case ';': case '=': case '%':
      return true;
    default: return false;
  }
}

}  // namespace

namespace {

// Whether bytes i and i + 1 are a letter of two UTF-8 bytes, of the Latin,
// Greek or Cyrillic blocks (U+00C0-U+052F but "×" and "÷"): the letters an
// internationalised address's local part (RFC 6531) writes in European
// names ("jose.ñúñez@"). Not a sign of Latin-1 ("«", NBSP), nor a letter
// of three bytes or more.
bool two_byte_letter(const Scan& s, size_t i) {
  const unsigned char lead = s.at(i), next = s.at(i + 1);
  if (lead < 0xc3 || lead > 0xd4 || (next & 0xc0) != 0x80) return false;
  const uint32_t cp = uint32_t{lead & 0x1fu} << 6 | (next & 0x3fu);
  return cp >= 0xc0 && cp <= 0x52f && cp != 0xd7 && cp != 0xf7;
}

// The start of the bytes of an address's local part (email_local_byte(),
// two_byte_letter(), and an apostrophe between letters or digits, which
// RFC 5322 allows and names write: "o'connor@", "d'arcy.smith@") that end
// at `end`, at most 64 back, beginning with a letter or digit (no leading
// dots or marks); `end` when there are none. (An apostrophe before the
// part, or before the '@', is a quote mark: "'john@example.com'".)
size_t part_start(const Scan& s, size_t end) {
  size_t b = end;
  while (b > 0 && end - b < 64) {
    const unsigned char c = s.at(b - 1);
    if (c >= 0x80) {
      if (b < 2 || !two_byte_letter(s, b - 2)) break;
      b -= 2;
      continue;
    }
    const bool inner_apostrophe = c == '\'' && b >= 2 && b < end && s.alnum(b - 2) && s.alnum(b);
    if (!email_local_byte(c) && !inner_apostrophe) break;
    --b;
  }
  while (b < end && !s.alnum(b) && !two_byte_letter(s, b)) ++b;
  return b;
}

// Whether a byte may stand in a URL's userinfo (RFC 3986: a URL's bytes but
// the delimiters of its other parts, "/?#[]@").
constexpr bool userinfo_byte(unsigned char c) {
  return url_byte(c) && c != '/' && c != '?' && c != '#' && c != '[' && c != ']' && c != '@';
}

// By byte: whether it may stand in a URL's userinfo and in no address's
// local part (':', '!', '$', ...), where a local part that ends at it may
// be a URL's password. A table: detect_email() asks it at every '@'.
constexpr std::array<bool, 256> kUserinfoMark = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const auto b = static_cast<unsigned char>(c);
    table[b] = userinfo_byte(b) && !email_local_byte(b);
  }
  return table;
}();

// A URL's user and password before the '@' at `at_sign`
// ("postgres://admin:S3cret!@db.example.com", RFC 3986's userinfo): the
// bytes after the user's colon are a password, not an address's local
// part; the user's name stays. Returns whether it found one. (Out of line
// and cold: inlined, it grew detect_email() and cost a text of "x@" 8% of
// its speed, where it is not even called.)
[[gnu::noinline, gnu::cold]] bool url_password(Scan& s, size_t at_sign) {
  size_t user = at_sign;
  while (user > 0 && at_sign - user < 128 && userinfo_byte(s.at(user - 1))) --user;
  if (user < 3 || s.at(user - 1) != '/' || s.at(user - 2) != '/' || s.at(user - 3) != ':') return false;
  size_t colon = user;
  while (colon < at_sign && s.at(colon) != ':') ++colon;
  if (colon + 1 >= at_sign) return false;  // (the user may be empty: "redis://:pw@host")
  // A password may hold an '@' of its own, unencoded ("root:p@ss@host"):
  // it runs to the last '@' before the host.
  size_t end = at_sign;
  for (size_t k = at_sign + 1; k < s.size() && k - at_sign < 128 && (userinfo_byte(s.at(k)) || s.at(k) == '@'); ++k) {
    if (s.at(k) == '@') end = k;
  }
  s.add(PiiType::kPassword, colon + 1, end);
  return true;
}

}  // namespace

// local@host: the local part is read backwards from the '@' (at most 64
// bytes of letters, digits and ._%+-), the host needs a listed TLD.
void detect_email(Scan& s, size_t at_sign) {
  const size_t b = part_start(s, at_sign);
  // A URL's password ends a local part at the user's colon or at a mark
  // no address holds ("admin:S3cret@", "root:S3cret!@"); only then is
  // url_password() asked, which reads back further (not at every '@').
  const unsigned char before = b > 0 ? s.at(b - 1) : 0;
  if (kUserinfoMark[before] && url_password(s, at_sign)) return;
  if (b == at_sign || (b > 0 && email_local_byte(s.at(b - 1)))) return;
  const size_t e = match_hostname(s, at_sign + 1, TldRule::kListed);
  if (e) s.add(PiiType::kEmailAddress, b, e);
}

namespace {

// The closing bracket of an opening one that may hold a spelled-out mark
// ("[at]", "(dot)", "{at}", "<dot>"); 0 for any other byte.
unsigned char closing_bracket(unsigned char c) {
  switch (c) {
    case '[': return ']';
    case '(': return ')';
    case '{': return '}';
    case '<': return '>';
    default: return 0;
  }
}

bool is_closing_bracket(unsigned char c) { return c == ']' || c == ')' || c == '}' || c == '>'; }

// A mark spelled out as a word ("at", "dot"; either case): in brackets, or
// bare between blanks. [begin, end) covers it, its brackets and the blanks
// around it (at most two on a side): the bytes between the address's parts.
struct SpelledMark {
  size_t begin = 0, end = 0;
  bool bracketed = false;
};

// The spelled mark `word` whose word starts at w, or nullopt.
std::optional<SpelledMark> spelled_mark(const Scan& s, size_t w, std::string_view word) {
  if (w == 0 || !s.matches_word(w, word) || s.alpha(w - 1)) return std::nullopt;
  const size_t after = w + word.size();
  SpelledMark m;
  const unsigned char close = closing_bracket(s.at(w - 1));
  if (close != 0 && s.at(after) == close) {
    m = {w - 1, after + 1, true};
  } else if (s.blank(w - 1) && s.blank(after)) {
    m = {w, after, false};
  } else {
    return std::nullopt;
  }
  for (int k = 0; k < 2 && m.begin > 0 && s.blank(m.begin - 1) && s.at(m.begin - 1) != '\n'; ++k) --m.begin;
  for (int k = 0; k < 2 && s.blank(m.end) && s.at(m.end) != '\n'; ++k) ++m.end;
  // A bare word needs its blanks: "jane at example", not "jane at\nexample".
  if (!m.bracketed && (m.begin == w || m.end == after)) return std::nullopt;
  return m;
}

// The spelled mark `word` that ends where the part starting at `part`
// begins, read backwards: the start of its word, or 0 for none.
size_t spelled_mark_before(const Scan& s, size_t part, std::string_view word) {
  size_t e = part;
  for (int k = 0; k < 2 && e > 0 && s.blank(e - 1) && s.at(e - 1) != '\n'; ++k) --e;
  if (e > 0 && is_closing_bracket(s.at(e - 1))) --e;
  if (e <= word.size() || !s.matches(e - word.size(), word)) return 0;
  const std::optional<SpelledMark> m = spelled_mark(s, e - word.size(), word);
  return m && m->end == part ? e - word.size() : 0;
}

// The e-mail address at the spelled "at" whose word starts at `at`. The
// local part ends before the mark (blanks and brackets apart) and may hold
// spelled dots ("john dot smith"); the host's labels are joined by '.' or
// spelled dots and end in a listed TLD. A bare "at" (not in brackets) is an
// e-mail's only with a dot spelled out in the host and a TLD a bare host
// name may end in ("look at example.com", "a dot at the corner" are none),
// as spelled-out addresses are written to dodge harvesters.
void detect_spelled_out_email(Scan& s, size_t at) {
  const std::optional<SpelledMark> at_mark = spelled_mark(s, at, "at");
  if (!at_mark) return;
  // The local part, back from the mark: parts joined by spelled dots.
  size_t local = part_start(s, at_mark->begin);
  if (local == at_mark->begin || (local > 0 && email_local_byte(s.at(local - 1)))) return;
  for (int parts = 1; parts < 4; ++parts) {
    const size_t dot = spelled_mark_before(s, local, "dot");
    if (dot == 0) break;
    const std::optional<SpelledMark> m = spelled_mark(s, dot, "dot");
    const size_t b = part_start(s, m->begin);
    if (b == m->begin || (b > 0 && email_local_byte(s.at(b - 1)))) break;
    local = b;
  }
  // The host: labels of letters, digits and inner hyphens.
  size_t pos = at_mark->end, label = pos, labels = 0;
  bool spelled_dot = false;
  while (labels < 8) {
    size_t e = pos;
    while (e < pos + 63 && (s.alnum(e) || s.at(e) == '-')) ++e;
    if (e == pos || s.at(pos) == '-' || s.at(e - 1) == '-' || s.word(e)) return;
    label = pos;
    ++labels;
    if (s.at(e) == '.' && s.alnum(e + 1)) {
      pos = e + 1;
      continue;
    }
    size_t w = e;
    for (int k = 0; k < 2 && s.blank(w) && s.at(w) != '\n'; ++k) ++w;
    if (closing_bracket(s.at(w)) != 0) ++w;
    const std::optional<SpelledMark> dot = s.matches(w, "dot") ? spelled_mark(s, w, "dot") : std::nullopt;
    if (!dot || dot->begin != e || !s.alnum(dot->end)) {
      pos = e;
      break;
    }
    spelled_dot = true;
    pos = dot->end;
  }
  char tld[24];
  const std::string_view key = labels < 2 ? std::string_view() : tld_at(s, label, pos, tld);
  if (key.empty() || !in_sorted(std::begin(kTlds), std::end(kTlds), key)) return;
  if (!at_mark->bracketed && !(spelled_dot && bare_host_tld(key) && key != "at" && key != "be" && key != "it" &&
                               key != "us")) {
    return;
  }
  s.add(PiiType::kEmailAddress, local, pos);
}

}  // namespace

// Back from the dot over the host's labels, joined by '.' or spelled dots,
// to the spelled "at" before them (a spelled dot of the local part, "john
// dot smith", finds none).
void detect_spelled_out_email_at_dot(Scan& s, size_t dot) {
  const std::optional<SpelledMark> mark = spelled_mark(s, dot, "dot");
  if (!mark) return;
  size_t pos = mark->begin;
  for (int labels = 0; labels < 8; ++labels) {
    size_t b = pos;
    while (b > 0 && pos - b < 63 && (s.alnum(b - 1) || s.at(b - 1) == '-')) --b;
    if (b == pos) return;
    if (const size_t at = spelled_mark_before(s, b, "at")) {
      detect_spelled_out_email(s, at);
      return;
    }
    if (b >= 2 && s.at(b - 1) == '.' && s.alnum(b - 2)) {
      pos = b - 1;
    } else if (const size_t d = spelled_mark_before(s, b, "dot")) {
      pos = spelled_mark(s, d, "dot")->begin;
    } else {
      return;
    }
  }
}

void detect_spelled_out_email_before_host(Scan& s, size_t ws) {
  // (Most hosts follow a blank or nothing that could close a mark.)
  if (ws < 3) return;
  if (!s.blank(ws - 1) && !is_closing_bracket(s.at(ws - 1))) return;
  if (const size_t at = spelled_mark_before(s, ws, "at")) detect_spelled_out_email(s, at);
}

// A bare host name ("www.example.com", "mail.example.co.uk"): starts at the
// first label (never inside an email address or a URL, which have their own
// matchers), ends at the TLD.
void detect_host(Scan& s, size_t ws) {
  size_t b = ws;
  while (b > 0 && ws - b < 63 && (s.alnum(b - 1) || s.at(b - 1) == '-')) --b;
  if (b > 0) {
    const unsigned char prev = s.at(b - 1);
    if (prev == '.' || prev == '@' || prev == '/' || (kClass[prev] & kWord) || email_local_byte(prev)) return;
  }
  const size_t e = match_hostname(s, b, TldRule::kBare);
  if (!e) return;
  s.add(PiiType::kDomainName, b, e);
  detect_profile_handle(s, b, e);
}

// scheme://host[:port][/path...]: the whole URL, without trailing punctuation.
// Hosts that are IP addresses or bare names ("localhost") are left to the IP
// matcher or to nobody.
void detect_url(Scan& s, size_t ws) {
  size_t i = ws;
  while (s.alpha(i) && i - ws < 6) ++i;
  if (!(s.at(i) == ':' && s.at(i + 1) == '/' && s.at(i + 2) == '/')) return;
  if (ws > 0 && (s.word(ws - 1) || s.at(ws - 1) == '.')) return;
  size_t host = i + 3;
  // user:password@ before the host
  {
    size_t k = host;
    while (k < host + 128 && url_byte(s.at(k)) && s.at(k) != '/' && s.at(k) != '@') ++k;
    if (s.at(k) == '@') host = k + 1;
  }
  const size_t host_end = match_hostname(s, host, TldRule::kAnyLetters);
  if (!host_end) return;
  size_t e = host_end;
  bool open_paren = false;
  while (e < host_end + 2048 && url_byte(s.at(e))) {
    if (s.at(e) == '(') open_paren = true;
    ++e;
  }
  while (e > host_end) {
    const unsigned char c = s.at(e - 1);
    if (c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\'' || c == ']' ||
        (c == ')' && !open_paren)) {
      --e;
    } else {
      break;
    }
  }
  s.add(PiiType::kDomainName, ws, e, pii_type_rank(PiiType::kDomainName), host_end);
  detect_profile_handle(s, host, host_end);
}

// IPv6: up to eight groups of 1-4 hex digits, one "::" at most, and an IPv4
// address in place of the last two groups. One group must be 3+ digits long
// (or an IPv4 embedded), and a compressed address needs two groups, so "a::b"
// in code, clock times ("12:30:45") and ratios ("1:8:28:56:70:56:28:8") are
// not addresses.
void detect_ipv6(Scan& s, size_t start) {
  if (start > 0) {
    const unsigned char prev = s.at(start - 1);
    if ((kClass[prev] & kWord) || prev == ':' || prev == '.') return;
  }
  size_t i = start;
  bool compressed = false;
  int groups = 0;
  bool long_group = false, v4 = false;
  if (s.at(i) == ':') {
    if (s.at(i + 1) != ':') return;
    compressed = true;
    i += 2;
  }
  while (true) {
    size_t e = i;
    while (e < i + 5 && s.hex(e)) ++e;
    if (e == i) break;
    if (s.at(e) == '.' && groups <= 6 && e - i <= 3 && s.digit(e + 1) && s.digit(i) && s.digit(e - 1)) {
      // Embedded IPv4: four decimal octets.
      size_t k = i;
      bool ok = true;
      for (int octet = 0; octet < 4 && ok; ++octet) {
        int v = 0;
        const size_t len = s.read_number(k, 3, v);
        ok = len > 0 && v <= 255;
        k += len;
        if (ok && octet < 3) {
          ok = s.at(k) == '.';
          ++k;
        }
      }
      if (!ok || s.word(k) || (s.at(k) == '.' && s.digit(k + 1))) return;
      v4 = true;
      i = k;
      break;
    }
    if (e - i > 4 || s.word(e)) return;
    if (e - i >= 3) long_group = true;
    ++groups;
    i = e;
    // Eight groups are a whole address: a ':' after them starts something
    // else (a port, as in "...:7334:8080").
    if (s.at(i) != ':' || groups == 8 || (compressed && groups == 7)) break;
    if (s.at(i + 1) == ':') {
      if (compressed) return;
      compressed = true;
      i += 2;
      if (!s.hex(i)) break;
      continue;
    }
    if (!s.hex(i + 1)) break;
    ++i;
  }
  const int total = groups + (v4 ? 2 : 0);
  const bool ok = (compressed ? total >= 2 && total <= 7 : total == 8) && (long_group || v4);
  if (!ok || s.word(i)) return;
  if (s.at(i) == ':' && s.hex(i + 1)) {
    // Only a port may follow a whole address ("...:7334:8080"); more groups
    // make it a list ("1:19:36:84:126:126:84:36:19:1").
    const size_t port_end = s.digits_end(i + 1);
    if (port_end - i - 1 > 5 || s.word(port_end) || s.at(port_end) == ':') return;
  }
  s.add(PiiType::kIpAddress, start, i);
}

// MAC-48: six pairs of hex digits joined by ':' or '-' (one kind), or Cisco's
// three dotted quads (0011.2233.4455).
void detect_mac(Scan& s, size_t start) {
  if (start > 0) {
    const unsigned char prev = s.at(start - 1);
    if ((kClass[prev] & kWord) || ((prev == ':' || prev == '-' || prev == '.') && start >= 2 && s.hex(start - 2))) {
      return;
    }
  }
  size_t end = 0;
  const unsigned char sep = s.at(start + 2);
  if ((sep == ':' || sep == '-') && s.hex(start) && s.hex(start + 1)) {
    size_t i = start;
    bool ok = true;
    for (int g = 0; g < 6 && ok; ++g, i += 3) {
      ok = s.hex(i) && s.hex(i + 1) && (g == 5 || s.at(i + 2) == sep);
    }
    if (ok) end = start + 17;
  } else if (s.at(start + 4) == '.') {
    size_t i = start;
    bool ok = true;
    for (int g = 0; g < 3 && ok; ++g, i += 5) {
      ok = s.hex(i) && s.hex(i + 1) && s.hex(i + 2) && s.hex(i + 3) && (g == 2 || s.at(i + 4) == '.');
    }
    if (ok) end = start + 14;
  }
  if (!end) return;
  const unsigned char next = s.at(end);
  if ((kClass[next] & kWord) || ((next == ':' || next == '-' || next == '.') && s.hex(end + 1))) return;
  s.add(PiiType::kMacAddress, start, end);
}

}  // namespace tiergate::pii_scan
