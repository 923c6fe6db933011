// Numeric identifiers: payment cards, US SSNs, IPv4 addresses, numeric dates
// and times, phone numbers. Each matcher starts at the first digit of a
// number whose left edge was checked (Scan::numeric_left_ok) and reads at most
// a few dozen bytes.
#include "tiergate/privacy/checksums.h"
#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// ---------------------------------------------------------------- cards

// 12-19 digits (12: Maestro only), contiguous or in groups separated by one
// space or dash (the same mark throughout): 4-4-4(-4(-1..4)), Amex 4-6-5,
// Diners 4-6-4; or four groups of four separated by stops
// ("4111.1111.1111.1111", as some forms and receipts write it). Luhn-valid
// and in a known issuer range, so a random 16-digit number passes about 2%
// of the time and an order number rarely. When more numbers follow ("4111
// 1111 1111 1111 12/25"), the longest run of leading groups that is a card
// is the card.
void match_card(Scan& s, size_t ws) {
  char digits[20];
  size_t nd = 0;
  int glen[8];
  size_t gend[8];   // text position after each group
  size_t gdigits[8];  // digits up to the end of each group
  int groups = 0;
  char sep = 0;
  size_t i = ws;
  bool longer = false;  // the chain goes on past 19 digits or 8 groups
  while (true) {
    const size_t e = s.digits_end(i);
    const size_t len = e - i;
    if (nd + len > 19) {
      longer = true;
      if (groups == 0) return;  // one run of 20+ digits
      break;
    }
    for (size_t k = i; k < e; ++k) digits[nd++] = static_cast<char>(s.at(k));
    glen[groups] = static_cast<int>(len);
    gend[groups] = e;
    gdigits[groups] = nd;
    ++groups;
    i = e;
    const unsigned char c = s.at(i);
    if ((c == ' ' || c == '-' || c == '.') && (sep == 0 || sep == c) && s.digit(i + 1)) {
      if (groups == 8) {
        longer = true;
        break;
      }
      sep = static_cast<char>(c);
      ++i;
      continue;
    }
    break;
  }
  for (int k = groups; k >= 1; --k) {
    const size_t n = gdigits[k - 1];
    if (n < 12) return;  // (12: Maestro)
    if (n > 19) continue;
    const size_t end = gend[k - 1];
    if (k == groups && !longer) {
      if (!s.numeric_right_ok(end)) continue;
    } else {
      const unsigned char next = s.at(end);  // another group follows, after a blank, dash or stop
      if (next != ' ' && next != '-' && next != '.') return;
    }
    bool shape = k == 1;
    if (sep == '.') {
      // (Dotted numbers are also versions, dates and addresses: only four
      // groups of four, and nothing dotted after them.)
      shape = k == 4 && groups == 4 && !longer && glen[0] == 4 && glen[1] == 4 && glen[2] == 4 && glen[3] == 4;
    } else if (k >= 2) {
      shape = glen[k - 1] >= 1 && glen[k - 1] <= 4;
      for (int g = 0; g + 1 < k; ++g) shape = shape && glen[g] == 4;
      shape = shape || (k == 3 && glen[0] == 4 && glen[1] == 6 && (glen[2] == 5 || glen[2] == 4));
    }
    const std::string_view d(digits, n);
    if (shape && luhn_valid(d) && card_issuer_known(d)) {
      s.add(PiiType::kCreditCard, ws, end);
      return;
    }
  }
}

// ---------------------------------------------------------------- SSN

// ("My social is ...": the word alone, as people say it, only before "is",
// "number", "#" or a colon.)
constexpr std::array<std::string_view, 9> kSsnWords = {
    "ssn*", "ss#", "social security", "social sec", "ssa", "social is", "social number", "social #", "social:"};

bool ssn_parts_valid(int area, int group, int serial) {
  return area != 0 && area != 666 && area < 900 && group != 0 && serial != 0;
}

// An ITIN (IRS Publication 1915): an SSN's shape, its area 9XX, which no SSN
// has, and its group 50-65, 70-88, 90-92 or 94-99.
bool itin_parts_valid(int area, int group, int serial) {
  return area >= 900 && serial != 0 &&
         ((group >= 50 && group <= 65) || (group >= 70 && group <= 88) || (group >= 90 && group <= 92) || group >= 94);
}

constexpr std::array<std::string_view, 6> kItinWords = {"itin*", "taxpayer*", "tin", "tin:", "tax id*", "tax identification"};

// AAA-GG-SSSS; AAA GG SSSS and nine bare digits only after an SSN keyword on
// the same line. Areas 000, 666 and 9xx, group 00 and serial 0000 are never
// issued. An ITIN's numbers in the same forms (an ITIN's or an SSN's
// keyword before the two that need one).
void match_ssn(Scan& s, size_t ws) {
  const size_t e1 = s.digits_end(ws);
  int area = 0, group = 0, serial = 0;
  if (e1 - ws == 3) {
    const unsigned char sep = s.at(e1);
    if (sep != '-' && sep != ' ') return;
    s.read_number(ws, 3, area);
    if (s.read_number(e1 + 1, 3, group) != 2 || s.at(e1 + 3) != sep) return;
    if (s.read_number(e1 + 4, 5, serial) != 4) return;
    const size_t end = e1 + 8;
    if (!s.numeric_right_ok(end)) return;
    const bool ssn = ssn_parts_valid(area, group, serial), itin = itin_parts_valid(area, group, serial);
    if (!ssn && !itin) return;
    // Blanks also separate house, suite and street numbers: that form needs
    // the keyword too.
    if (sep == ' ' && !s.keyword_before(ws, 48, kSsnWords) && !(itin && s.keyword_before(ws, 48, kItinWords))) return;
    s.add(ssn ? PiiType::kUsSsn : PiiType::kUsItin, ws, end);
  } else if (e1 - ws == 9) {
    s.read_number(ws, 3, area);
    s.read_number(ws + 3, 2, group);
    s.read_number(ws + 5, 4, serial);
    if (!s.numeric_right_ok(e1)) return;
    if (ssn_parts_valid(area, group, serial) && s.keyword_before(ws, 48, kSsnWords)) {
      s.add(PiiType::kUsSsn, ws, e1);
    } else if (itin_parts_valid(area, group, serial) &&
               (s.keyword_before(ws, 48, kItinWords) || s.keyword_before(ws, 48, kSsnWords))) {
      s.add(PiiType::kUsItin, ws, e1);
    }
  }
}

// ---------------------------------------------------------------- IPv4

constexpr std::array<std::string_view, 4> kVersionWords = {"version*", "ver", "release*", "build*"};

// Four dotted octets 0-255, not part of a longer dotted number, not after a
// version word ("version 1.2.3.4"). A port (":8080") or prefix ("/24") may
// follow and is not part of the span.
void match_ipv4(Scan& s, size_t ws) {
  size_t i = ws;
  for (int k = 0; k < 4; ++k) {
    int v = 0;
    const size_t len = s.read_number(i, 3, v);
    if (len == 0 || v > 255 || s.digit(i + len)) return;
    i += len;
    if (k < 3) {
      if (s.at(i) != '.') return;
      ++i;
    }
  }
  const unsigned char next = s.at(i);
  if ((kClass[next] & kWord) || ((next == '.' || next == '-') && s.alnum(i + 1))) return;
  if (s.keyword_before(ws, 12, kVersionWords)) return;
  // The unspecified, loopback and broadcast addresses identify nobody.
  for (std::string_view reserved : {std::string_view("0.0.0.0"), std::string_view("127.0.0.1"),
                                    std::string_view("255.255.255.255")}) {
    if (i - ws == reserved.size() && s.matches(ws, reserved)) return;
  }
  s.add(PiiType::kIpAddress, ws, i);
}

// ---------------------------------------------------------------- dates, times

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool valid_date(int y, int m, int d) {
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1 || d > kDays[m - 1]) return false;
  return !(m == 2 && d == 29 && y >= 0 && !leap(y));
}

// am/pm markers at i: "am", "pm", "a.m.", "p.m." (either case); returns the
// end or 0.
size_t match_meridiem(const Scan& s, size_t i) {
  const unsigned char c = s.lower(i);
  if (c != 'a' && c != 'p') return 0;
  if (s.lower(i + 1) == 'm' && !s.word(i + 2)) return i + 2;
  if (s.at(i + 1) == '.' && s.lower(i + 2) == 'm' && s.at(i + 3) == '.') return i + 4;
  return 0;
}

}  // namespace

// A clock time at i: h:mm, h:mm:ss(.fff), an optional zone (Z, +hh:mm) and
// am/pm; or "2 pm" / "11am". Returns its end, or 0 when there is none.
size_t match_time(const Scan& s, size_t i) {
  int h = 0;
  const size_t hl = s.read_number(i, 2, h);
  if (hl == 0 || s.digit(i + hl)) return 0;
  size_t e = i + hl;
  bool colon = false;
  if (s.at(e) == ':') {
    int m = 0;
    if (s.read_number(e + 1, 3, m) != 2 || m > 59) return 0;
    e += 3;
    colon = true;
    if (s.at(e) == ':') {
      int sec = 0;
      if (s.read_number(e + 1, 3, sec) != 2 || sec > 60) return 0;
      e += 3;
      if (s.at(e) == '.' && s.digit(e + 1)) e = s.digits_end(e + 1);
    }
    if (s.at(e) == 'Z' || s.at(e) == 'z') {
      if (!s.word(e + 1)) ++e;
    } else if ((s.at(e) == '+' || s.at(e) == '-') && s.digit(e + 1) && s.digit(e + 2)) {
      size_t z = e + 3;
      if (s.at(z) == ':') ++z;
      if (s.digit(z) && s.digit(z + 1) && !s.digit(z + 2)) e = z + 2;
    }
  }
  size_t m = s.blank(e) ? e + 1 : e;
  size_t mer = match_meridiem(s, m);
  if (mer) {
    if (h < 1 || h > 12) return 0;
    e = mer;
  } else if (!colon || h > 23) {
    return 0;
  }
  const unsigned char next = s.at(e);
  if ((kClass[next] & kWord) || ((next == ':' || next == '.') && s.digit(e + 1))) return 0;
  return e;
}

namespace {

// Numeric dates with range checks: y-m-d (also / and .), m/d/y and d/m/y with
// a four-digit year, and dd/mm/yy with two-digit parts. A time after a blank
// or 'T' joins the span ("2019-01-04 10:30:00").
void match_numeric_date(Scan& s, size_t ws) {
  int a = 0, b = 0, c = 0;
  const size_t la = s.read_number(ws, 5, a);
  if (la == 0 || la == 3 || la > 4) return;
  size_t i = ws + la;
  const unsigned char sep = s.at(i);
  if (sep != '/' && sep != '-' && sep != '.') return;
  const size_t lb = s.read_number(i + 1, 3, b);
  if (lb == 0 || lb > 2 || s.at(i + 1 + lb) != sep) return;
  i += 2 + lb;
  const size_t lc = s.read_number(i, 5, c);
  if (lc == 0 || lc == 3 || lc > 4) return;
  i += lc;
  bool ok = false;
  if (la == 4 && lc <= 2) {
    ok = a >= 1000 && a <= 2999 && valid_date(a, b, c);
  } else if (la <= 2 && lc == 4) {
    ok = c >= 1000 && c <= 2999 && (valid_date(c, a, b) || valid_date(c, b, a));
  } else if (la == 2 && lb == 2 && lc == 2) {
    ok = valid_date(-1, a, b) || valid_date(-1, b, a);
  }
  if (!ok) return;
  size_t end = i;
  const unsigned char next = s.at(i);
  if ((next == ' ' || next == 'T' || next == 't') && s.digit(i + 1)) {
    const size_t t = match_time(s, i + 1);
    if (t) end = t;
  }
  if (end == i && !s.numeric_right_ok(i)) return;
  s.add_date(ws, end);
}

constexpr std::array<std::string_view, 13> kTimeWords = {"at",    "from",   "until", "till",  "by",  "to",   "before",
                                                         "after", "around", "since", "between", "time*", "meet*"};

// A clock time on its own. A bare h:mm (no seconds, zone or am/pm) is as
// often a ratio, a verse or a score ("7:11", "John 3:16", "2:1"), so it needs
// a time word just before it ("at 8:00", "from 2:15 to 2:38 am").
void match_clock_time(Scan& s, size_t ws) {
  const size_t end = match_time(s, ws);
  if (!end) return;
  int colons = 0;
  for (size_t k = ws; k < end; ++k) colons += s.at(k) == ':';
  const bool bare = colons == 1 && s.digit(end - 1);
  if (bare && !s.keyword_before(ws, 16, kTimeWords)) return;
  s.add(PiiType::kDateTime, ws, end);
}

// ---------------------------------------------------------------- phones

constexpr std::array<std::string_view, 22> kPhoneWordsBefore = {
    "phone*",   "telephone*", "tel",    "tlf",     "telefon*", "call*",     "fax*",      "mobile*",
    "cell",     "cellphone*", "cellular", "contact*", "reach*", "dial*",     "ring",      "text",
    "sms",      "whatsapp",   "office", "desk",    "landline*", "hotline*"};
constexpr std::array<std::string_view, 5> kPhoneWordsBefore2 = {"extension", "ext", "number", "numbers", "answering"};
constexpr std::array<std::string_view, 12> kPhoneWordsAfter = {
    "office", "fax", "mobile", "cell", "home", "work", "phone", "tel", "landline", "direct", "main", "whatsapp"};

constexpr std::array<std::string_view, 2> kCopulas = {"is", "was"};
constexpr std::array<std::string_view, 6> kOwners = {"my", "his", "her", "their", "our", "your"};
// What an owner's number is: "my cellphone", "her number", "our office".
constexpr std::array<std::string_view, 12> kOwnedPhoneWords = {
    "phone*", "telephone*", "cell*", "mobile*", "number", "landline*",
    "fax*",   "whatsapp",   "home",  "work",    "office", "direct"};

// A phone word before the number on its line, or right after it ("555-0142
// office"), or a sentence that says whose phone it is ("0937865797 is my
// cell", "... was her number").
bool phone_context(const Scan& s, size_t begin, size_t end) {
  if (s.keyword_before(begin, 48, kPhoneWordsBefore) || s.keyword_before(begin, 48, kPhoneWordsBefore2)) return true;
  size_t j = end;
  for (size_t k = 0; k < 4; ++k) {
    const unsigned char c = s.at(j);
    if (c == ' ' || c == '\t' || c == '-' || c == ',' || c == ':' || c == '(' || c == '/' || c == '\\') {
      ++j;
    } else {
      break;
    }
  }
  if (!s.alpha(j)) return false;
  if (s.keyword_at(j, kPhoneWordsAfter)) return true;
  // "is my cell": a copula, an owner, then what the number is to them.
  auto next_word = [&](size_t at) {
    while (s.alpha(at)) ++at;
    if (!s.blank(at)) return size_t{0};
    while (s.blank(at)) ++at;
    return s.alpha(at) ? at : size_t{0};
  };
  if (!s.keyword_at(j, kCopulas)) return false;
  const size_t owner = next_word(j);
  if (owner == 0 || !s.keyword_at(owner, kOwners)) return false;
  const size_t what = next_word(owner);
  return what != 0 && s.keyword_at(what, kOwnedPhoneWords);
}

constexpr std::array<std::string_view, 42> kIdWordsBefore = {
    "suite", "ste",     "apt*",     "apartment*", "unit",     "units",    "room",     "rm",     "floor",
    "box",   "po",      "order*",   "invoice*",   "ref",      "reference*", "account*", "acct", "isbn",
    "issn",  "zip*",    "postal*",  "postcode*",  "version*", "ver",      "ticket*",  "case",   "serial*",
    "model*", "part",   "sku",      "tracking*",  "page*",    "chapter*", "section*", "item*",  "lot",
    "route", "highway", "hwy",      "building",   "bldg",     "id"};
constexpr std::array<std::string_view, 62> kStreetOrUnitWordsAfter = {
    "street", "st",      "road",     "rd",     "avenue", "ave",     "lane",    "ln",     "drive",   "dr",
    "boulevard", "blvd", "way",      "court",  "ct",     "place",   "pl",      "parkway", "pkwy",   "square",
    "sq",     "terrace", "highway",  "hwy",    "circle", "trail",   "crescent", "close", "alley",   "plaza",
    "str",    "strasse", "rue",      "via",    "calle",  "weg",     "gasse",   "platz",  "laan",    "straat",
    "vej",    "gade",    "utca",     "ulica",  "suite",  "apt",     "unit",    "people", "users",   "items",
    "km",     "kg",      "miles",    "dollars", "euros", "percent", "bytes",   "tokens", "words",  "pages",
    "lines",  "characters"};

// An id or address word just before the number ("Suite 680 ...", "order no.").
bool address_or_id_before(const Scan& s, size_t start) { return s.keyword_before(start, 20, kIdWordsBefore); }

// A street, unit or measure word among the next three words on the line.
bool street_or_unit_after(const Scan& s, size_t end) {
  size_t j = end;
  for (int w = 0; w < 3; ++w) {
    while (s.blank(j) || s.at(j) == ',') ++j;
    if (!s.alpha(j)) return false;
    if (s.keyword_at(j, kStreetOrUnitWordsAfter)) return true;
    while (s.alpha(j)) ++j;
  }
  return false;
}

// An extension after a number ending at i: "x123", " ext. 12", " #12".
size_t match_extension(const Scan& s, size_t i) {
  size_t j = s.blank(i) ? i + 1 : i;
  if (s.lower(j) == 'x') {
    ++j;
  } else if (s.matches(j, "extension")) {
    j += 9;
  } else if (s.matches(j, "ext")) {
    j += 3;
    if (s.at(j) == '.') ++j;
  } else if (s.at(j) == '#') {
    ++j;
  } else {
    return 0;
  }
  if (s.blank(j) && s.digit(j + 1) && j > i + 1) ++j;  // " ext 12" but not "x 12"
  const size_t e = s.digits_end(j);
  if (e == j || e - j > 6 || s.word(e)) return 0;
  return e;
}

}  // namespace

namespace {

// The digit groups of a phone-like number, as parsed from its start.
struct PhoneGroups {
  size_t start = 0;
  size_t first = 0;  // the first digit
  bool plus = false;
  bool exit_code = false;  // "00" opens it: an international call prefix
  int slash_after = -1;    // the group a slash after a short area group follows ("93/786-5797"), if any
  int count = 0;
  int len[16];       // digits per group
  bool paren[16];    // "(555)"
  char sep[16];      // the mark after each group (0 after the last)
  size_t end[16];    // the text position after each group
  int digits[16];    // digits up to the end of each group
  bool overflow = false;  // more digits or groups followed than a phone has
};

// An SSN's shape (AAA-GG-SSSS) is never a phone, valid SSN or not.
bool ssn_shape(const PhoneGroups& g, int k) {
  return k == 3 && !g.plus && g.len[0] == 3 && g.len[1] == 2 && g.len[2] == 4 && g.sep[0] == '-' && g.sep[1] == '-';
}

// Whether the first k groups have a strong shape (see detect_phone).
bool strong_shape(const Scan& s, const PhoneGroups& g, int k) {
  const int digits = g.digits[k - 1];
  if (ssn_shape(g, k)) return false;
  if (g.plus) return digits >= 7 && digits <= 15;  // "+36 30/176-0097" too
  if (g.slash_after >= 0 && g.slash_after < k - 1) return false;
  bool same_marks = true;
  for (int j = 1; j + 1 < k; ++j) same_marks = same_marks && g.sep[j] == g.sep[0];
  int p = 0;
  if (k >= 4 && !g.paren[0] && ((g.len[0] == 1 && s.at(g.first) == '1') || (g.len[0] == 3 && s.matches(g.first, "001")))) {
    p = 1;  // NANP with a 1 or 001 prefix
  }
  // Two round numbers joined by a dash are a range ("800-1000 words").
  const bool round_range = k == 2 && g.sep[0] == '-' && s.matches(g.first + static_cast<size_t>(g.len[0]) - 2, "00") &&
                           s.matches(g.end[1] - 2, "00");
  return (k - p == 3 && g.len[p] == 3 && g.len[p + 1] == 3 && g.len[p + 2] == 4) ||
         (k == 2 && g.len[0] == 3 && g.len[1] == 4 && g.sep[0] == '-' && !round_range) ||
         (g.paren[0] && k >= 2 && digits >= 8 && digits <= 12) ||
         (s.at(g.first) == '0' && !g.paren[0] && g.len[0] >= 2 && g.len[0] <= 5 && k >= 2 && digits >= 8 &&
          digits <= 12 && same_marks && (g.sep[0] != '.' || k >= 3));
}

// The whole number [g.start, end) (end past any extension): a strong shape,
// or a weak one that nothing contradicts.
bool whole_number_is_phone(const Scan& s, const PhoneGroups& g, size_t end) {
  const int k = g.count, digits = g.digits[k - 1];
  if (strong_shape(s, g, k)) return true;
  if (g.plus) return false;
  if (k == 1) return digits >= 7 && digits <= (g.exit_code ? 15 : 11) && phone_context(s, g.start, end);
  bool same_marks = true, short_inner = false, long_group = false;
  for (int j = 1; j < k; ++j) {
    if (j + 1 < k) same_marks = same_marks && g.sep[j] == g.sep[0];
    short_inner = short_inner || (g.len[j] < 2 && j != g.slash_after);  // "06-4/911 8625"
  }
  for (int j = 0; j < k; ++j) long_group = long_group || g.len[j] > 3;
  if (digits > (g.exit_code ? 15 : 13) || (digits < 7 && k < 3) || short_inner || ssn_shape(g, k) ||
      (g.slash_after >= 0 && digits < 8)) {
    return false;
  }
  if (g.start >= 2 && s.blank(g.start - 1) && s.digit(g.start - 2)) return false;  // inside a list of numbers
  if (address_or_id_before(s, g.start) || street_or_unit_after(s, end)) return false;
  bool thousands = g.len[0] <= 3, years = !g.paren[0];
  for (int j = 0; j < k; ++j) {
    if (j > 0) thousands = thousands && g.len[j] == 3;
    const size_t at = g.end[j] - static_cast<size_t>(g.len[j]);
    years = years && g.len[j] == 4 && (s.matches(at, "19") || s.matches(at, "20"));
  }
  if (years) return false;  // "1945 1935"
  // Shapes that are phones only after a phone word: mixed marks, dotted
  // groups, ranges ("1837-1843"), a short last group after a long one
  // ("2050151 32"), thousands ("1 000 000").
  const bool doubtful = !same_marks || g.sep[0] == '.' || (k == 2 && g.sep[0] == '-') || g.slash_after >= 0 ||
                        (long_group && g.len[k - 1] < 3) || thousands;
  return !doubtful || phone_context(s, g.start, end);
}

}  // namespace

// Phone numbers: groups of digits joined by one space, dash or dot, with an
// optional leading '+' or parenthesised area code and an extension.
//
// Strong shapes, taken as they are: '+' and 7-15 digits (E.164, or with the
// trunk zero in brackets: "+44(0)20 7946 0958"); NANP 3-3-4
// with an optional 1 or 001 prefix, and 3-4 with a dash; a parenthesised area
// code and 8-12 digits; a trunk '0' opening a 2-5 digit area group and 8-12
// digits in groups with one kind of mark ("020 7946 0958", "01 23 45 67 89",
// "030-1234567", "0301/1234567").
//
// Never a phone: an SSN's shape (AAA-GG-SSSS), a number inside a list of
// numbers, binary digits, a two-part dotted decimal.
//
// Other grouped shapes (7-13 digits, or 6 in three pairs; no one-digit group
// after the first) are the many national formats without a trunk prefix
// ("449 4898", "9320 7126", "20-32-85-26"). They are taken unless the number
// reads as something else: a house or suite number (a street or unit word
// follows: "14 3684 Court Street"), an id after an id word ("order",
// "invoice", "suite", "page"), years ("2019 2020"), or, when no phone word
// stands before the number on its line or right after it ("call", "fax",
// "... office"), a thousands grouping ("1 000 000"), a range ("1837-1843"),
// mixed marks, or a short last group after a long one ("2050151 32"). Bare
// runs of 7-11 digits need the phone word (up to 15 after the international
// call prefix 00), and so do groups that a slash after a short area group
// joins ("93/786-5797").
//
// When other numbers follow a phone number ("+44 20 7946 0958 1956"), its
// leading groups count if they alone have a strong shape.
void detect_phone(Scan& s, size_t start) {
  PhoneGroups g;
  g.start = start;
  size_t i = start;
  g.plus = s.at(i) == '+';
  if (g.plus) ++i;
  if (start > 0) {
    const unsigned char prev = s.at(start - 1);
    if ((kClass[prev] & kWord) || prev == '+' || prev == '#') return;
    if ((prev == '-' || prev == '/' || prev == '.') && start >= 2 && s.alnum(start - 2)) return;  // "J-0401000"
    if (prev == '-' && !g.plus) return;  // a negative number
  }
  g.first = s.at(i) == '(' ? i + 1 : i;
  g.exit_code = !g.plus && s.at(g.first) == '0' && s.at(g.first + 1) == '0';
  int digits = 0;
  while (true) {
    if (g.count == 16) {
      g.overflow = true;
      break;
    }
    size_t e;
    int len;
    bool paren = false;
    if (s.at(i) == '(') {
      e = s.digits_end(i + 1);
      if (e == i + 1 || e - i - 1 > 5 || s.at(e) != ')') break;
      paren = true;
      len = static_cast<int>(e - i - 1);
      ++e;  // ')'
    } else {
      e = s.digits_end(i);
      len = static_cast<int>(e - i);
      if (len == 0) break;
    }
    if (len > (g.plus || g.exit_code ? 15 : 12) || digits + len > 15) {
      g.overflow = true;
      break;
    }
    digits += len;
    const int n = g.count++;
    g.len[n] = len;
    g.paren[n] = paren;
    g.sep[n] = 0;
    g.end[n] = e;
    g.digits[n] = digits;
    i = e;
    const unsigned char c = s.at(i);
    // A slash after a trunk-prefixed area code: "0301/1234567".
    const bool area_slash = c == '/' && n == 0 && !paren && s.at(start) == '0' && len >= 3;
    // Or after an area group of up to three digits, before two digits or
    // more: "93/786-5797", "06-30/166 1318" (Hungary), "636/50 40 25",
    // "733/434-8853"; only in 8 digits or more beside a phone word (not
    // "24/365").
    const bool short_area_slash =
        c == '/' && !area_slash && g.slash_after < 0 && len <= 3 && s.digits_end(i + 1) >= i + 3;
    if ((c == ' ' || c == '-' || c == '.' || area_slash || short_area_slash) &&
        (s.digit(i + 1) || (s.at(i + 1) == '(' && s.digit(i + 2)))) {
      if (short_area_slash) g.slash_after = n;
      g.sep[n] = static_cast<char>(c);
      ++i;
      continue;
    }
    if (paren && s.digit(i)) continue;  // "(555)123-4567"
    // The trunk zero in brackets after a country code: "+44(0)20 7946 0958",
    // "+49(0) 30 901820".
    if (n == 0 && g.plus && c == '(' && s.at(i + 1) == '0' && s.at(i + 2) == ')' &&
        (s.digit(i + 3) || (s.at(i + 3) == ' ' && s.digit(i + 4)))) {
      continue;
    }
    break;
  }
  if (g.count == 0) return;
  bool binary = !g.plus;
  for (size_t b = g.first; b < g.end[g.count - 1] && binary; ++b) binary = !s.digit(b) || s.at(b) == '0' || s.at(b) == '1';
  if (binary) return;  // "1001 0011"
  if (!g.overflow && g.sep[g.count - 1] == 0) {
    const size_t ext = match_extension(s, g.end[g.count - 1]);
    const size_t end = ext ? ext : g.end[g.count - 1];
    const unsigned char next = s.at(end);
    const bool edge_ok = !(kClass[next] & kWord) && next != '%' &&
                         !((next == '.' || next == '-' || next == '/' || next == ':' || next == ',') && s.digit(end + 1));
    const bool decimal = g.count == 2 && g.sep[0] == '.' && !g.plus;  // "0.7426953", "12345.6789"
    if (edge_ok && !decimal && g.digits[g.count - 1] >= 6 && whole_number_is_phone(s, g, end)) {
      s.add(PiiType::kPhoneNumber, start, end);
      return;
    }
  }
  // Other numbers after a phone number ("+44 20 7946 0958 3%", "(555)
  // 123-4567 31,150,000"): the leading groups, when they alone are a strong
  // shape and a blank parts them from the rest.
  for (int k = g.overflow ? g.count : g.count - 1; k >= 1; --k) {
    if (g.sep[k - 1] != ' ' || g.digits[k - 1] < 6) continue;
    if (strong_shape(s, g, k)) {
      s.add(PiiType::kPhoneNumber, start, g.end[k - 1]);
      return;
    }
  }
}

void detect_numeric(Scan& s, size_t ws, size_t we) {
  if (!s.numeric_left_ok(ws)) return;
  const size_t run = s.digits_end(ws) - ws;
  const unsigned char first = s.at(ws);
  const unsigned char next = s.at(ws + run);
  const bool next_digit = s.digit(ws + run + 1);
  if (run >= 12 || (run == 4 && (next == ' ' || next == '-' || next == '.') && next_digit)) match_card(s, ws);
  if ((run == 3 && (next == '-' || next == ' ') && next_digit) || run == 9) match_ssn(s, ws);
  if (run <= 3 && next == '.' && next_digit) match_ipv4(s, ws);
  if ((run <= 2 || run == 4) && (next == '/' || next == '-' || next == '.') && next_digit) match_numeric_date(s, ws);
  if (run <= 2) {
    const unsigned char m = (next == ' ' ? s.at(ws + run + 1) : next) | 0x20;
    if (next == ':' || m == 'a' || m == 'p') match_clock_time(s, ws);
  }
  if (run >= 7 || ((next == ' ' || next == '-' || next == '.' || next == '(') && (next_digit || s.at(ws + run + 1) == '(')) ||
      (next == '/' && next_digit && (first == '0' || run <= 3))) {
    detect_phone(s, ws);
  }
  // Hex words that start with a digit: IPv6 ("2001:db8::1"), MAC ("00:1a:...").
  const unsigned char after = s.at(we);
  if ((after == ':' || after == '-' || after == '.') && we - ws <= 4) {
    bool hex_word = true;
    for (size_t k = ws; k < we && hex_word; ++k) hex_word = s.hex(k);
    if (hex_word) {
      if (after == ':') detect_ipv6(s, ws);
      detect_mac(s, ws);
    }
  }
}

}  // namespace tiergate::pii_scan
