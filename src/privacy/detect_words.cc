// Identifiers led by letters: IBANs, dates with month names, weekday names,
// and the ids that follow a keyword (driver's licence, passport).
#include <algorithm>

#include "tiergate/privacy/checksums.h"
#include "lexicon.h"
#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// A day of the month at i: 1-2 digits, an optional ordinal suffix ("3rd").
// Returns its end, or 0.
size_t match_day(const Scan& s, size_t i) {
  int d = 0;
  const size_t len = s.read_number(i, 3, d);
  if (len == 0 || len > 2 || d < 1 || d > 31) return 0;
  size_t e = i + len;
  if (s.matches(e, "st") || s.matches(e, "nd") || s.matches(e, "rd") || s.matches(e, "th")) e += 2;
  if (s.word(e)) return 0;
  return e;
}

// A year at i: four digits 1000-2999 not followed by more digits or a
// decimal part.
size_t match_year(const Scan& s, size_t i) {
  int y = 0;
  const size_t len = s.read_number(i, 5, y);
  if (len != 4 || y < 1000 || y > 2999 || !s.numeric_right_ok(i + 4)) return 0;
  return i + 4;
}

size_t skip_blanks(const Scan& s, size_t i, size_t max = 2) {
  size_t k = 0;
  while (k < max && s.blank(i + k)) ++k;
  return i + k;
}

// Blanks backwards from i (exclusive), at most `max`.
size_t skip_blanks_back(const Scan& s, size_t i, size_t max = 2) {
  size_t k = 0;
  while (k < max && i > k && s.blank(i - k - 1)) ++k;
  return i - k;
}

// Whether a street's name follows the month name that ends at `we`, one
// blank after it, in at most two more words of letters that a suffix only
// streets have ends (kCommonStreetSuffixWords; not "12 May Place the
// order"): the month is the name's, and the day before it the house's
// number ("12 May Street", "17 Jan Smuts Avenue").
bool street_named_after(const Scan& s, size_t we) {
  size_t i = we;
  for (int words = 0; words < 3; ++words) {
    if (s.at(i) != ' ' || !s.alpha(i + 1)) return false;
    ++i;
    if (s.keyword_at(i, kCommonStreetSuffixWords)) return true;
    while (s.alpha(i)) ++i;
  }
  return false;
}

// Dates around a month name [ws, we): "March 3rd, 1990", "March 3", "Jan 2020",
// "3 Mar 2001", "3rd of March, 1990", and a weekday in front ("Monday, March
// 3"). A month name alone is not flagged (most are also words or names), nor
// an abbreviation without a day or year.
void match_month_date(Scan& s, size_t ws, size_t we) {
  size_t begin = ws, end = we;
  bool day = false, year = false;
  size_t i = we;
  if (s.at(i) == '.') ++i;  // "Sept."
  size_t j = skip_blanks(s, i);
  if (j > i || s.at(i) == ',') {
    if (s.at(j) == ',') j = skip_blanks(s, j + 1);
    if (size_t y = match_year(s, j)) {
      year = true;
      end = y;
    } else if (size_t d = match_day(s, j)) {
      day = true;
      end = d;
      size_t k = d;
      if (s.at(k) == ',') ++k;
      k = skip_blanks(s, k);
      if (size_t y2 = (k > d ? match_year(s, k) : 0)) {
        year = true;
        end = y2;
      }
    }
  }
  // A day before the month: "3 March", "3rd of March", "the 3rd of march".
  size_t k = skip_blanks_back(s, ws);
  if (k < ws) {
    if (k >= 3 && s.matches(k - 2, "of") && !s.alpha(k - 3)) k = skip_blanks_back(s, k - 2);
    size_t d_end = k;
    if (d_end >= 2 && s.alpha(d_end - 1) && s.alpha(d_end - 2)) d_end -= 2;  // ordinal suffix
    size_t d_begin = d_end;
    while (d_begin > 0 && d_end - d_begin < 3 && s.digit(d_begin - 1)) --d_begin;
    if (d_begin < d_end && match_day(s, d_begin) == k && s.numeric_left_ok(d_begin)) {
      day = true;
      begin = d_begin;
    }
  }
  if (!day && !year) return;
  if (!year && end == we && begin < ws && street_named_after(s, we)) return;
  // A weekday in front: "Monday, March 3" / "Mon 3 March".
  size_t w = skip_blanks_back(s, begin);
  if (w > 0 && s.at(w - 1) == ',') w = skip_blanks_back(s, w - 1);
  size_t wb = w;
  while (wb > 0 && w - wb < 10 && s.alpha(wb - 1)) --wb;
  if (wb < w && !(wb > 0 && s.word(wb - 1))) {
    const LexEntry* e = lexicon_lookup(s, wb, w);
    if (e && e->kind == Lex::kWeekday) begin = wb;
  }
  s.add_date(begin, end);
}

constexpr std::array<std::string_view, 3> kDriverWords = {"driv*", "dl", "dmv"};
constexpr std::array<std::string_view, 5> kNumberWords = {"number", "no", "num", "nr", "#"};
// Words that may stand between a keyword and its id ("license number is").
constexpr std::array<std::string_view, 28> kFillerWords = {
    "number", "numbers", "no", "num", "nr", "nbr", "id", "is", "was", "are", "reads", "of", "for", "my",
    "his", "her", "their", "our", "your", "the", "its", "it", "s", "and", "on", "card", "issued", "as"};

}  // namespace

void detect_id_after_keyword(Scan& s, size_t kw_end, PiiType type) {
  size_t i = kw_end;
  const size_t limit = kw_end + 48;
  while (i < limit) {
    while (i < limit && !s.alnum(i)) {
      if (s.cls(i) & kLineEnd || s.at(i) == 0) return;
      ++i;
    }
    size_t t = i;
    int digits = 0, letters = 0;
    while (t < i + 24 && (s.alnum(t) || (s.at(t) == '-' && s.alnum(t + 1) && t > i))) {
      if (s.digit(t)) ++digits;
      if (s.alpha(t)) ++letters;
      ++t;
    }
    if (t == i) return;
    if (digits == 0) {
      if (!s.keyword_at(i, kFillerWords) || s.word(t)) return;
      i = t;
      continue;
    }
    if (s.word(t)) return;
    const int len = digits + letters;
    const bool ok = type == PiiType::kUsPassport ? (len >= 6 && len <= 12 && digits >= 5 && letters <= 3)
                                                 : (len >= 5 && len <= 20 && digits >= 4 && letters <= 4);
    if (ok) s.add(type, i, t);
    return;
  }
}

// Country code + check digits + BBAN, contiguous or with a space after every
// four characters; the country's length and mod 97 must hold.
void detect_iban(Scan& s, size_t ws) {
  if (!(s.alpha(ws) && s.alpha(ws + 1) && s.digit(ws + 2) && s.digit(ws + 3))) return;
  const int length = iban_length(static_cast<char>(s.at(ws)), static_cast<char>(s.at(ws + 1)));
  if (length == 0) return;
  char buf[40];
  int n = 0;
  size_t i = ws;
  while (n < length) {
    if (s.alnum(i)) {
      buf[n++] = static_cast<char>(s.at(i++));
    } else if (s.at(i) == ' ' && n % 4 == 0 && s.alnum(i + 1)) {
      ++i;
    } else {
      break;
    }
  }
  if (n != length || s.alnum(i)) return;
  if (iban_valid(std::string_view(buf, static_cast<size_t>(n)))) s.add(PiiType::kIbanCode, ws, i);
}

void detect_month_date_near(Scan& s, size_t ws, size_t we) {
  // A day (1-2 digits, maybe "3rd") or a year (4 digits).
  size_t digits = 0;
  while (digits < we - ws && s.digit(ws + digits)) ++digits;
  const bool day_like = (digits == 1 || digits == 2) && (we - ws == digits || we - ws == digits + 2);
  if (!day_like && !(digits == 4 && we - ws == 4)) return;
  // A month name before it: "March 3", "Jan 2020", "March, 2020", "Sept. 3".
  size_t k = skip_blanks_back(s, ws);
  if (k > 0 && s.at(k - 1) == ',') k = skip_blanks_back(s, k - 1);
  if (k < ws && k > 0 && s.at(k - 1) == '.') --k;
  if (k < ws && month_suffix_candidate(s, k)) {
    size_t mb = k;
    while (mb > 0 && k - mb < kLexMaxLength && s.alpha(mb - 1)) --mb;
    if (mb < k && !(mb > 0 && s.word(mb - 1))) {
      const LexEntry* e = lexicon_lookup(s, mb, k);
      if (e && (e->kind == Lex::kMonth || e->kind == Lex::kMonthAbbrev)) match_month_date(s, mb, k);
    }
  }
  // A month name after a day: "3 March", "3rd of March".
  if (!day_like) return;
  size_t m = skip_blanks(s, we);
  if (m == we) return;
  if (s.matches_word(m, "of")) {
    const size_t after_of = skip_blanks(s, m + 2);
    if (after_of == m + 2) return;
    m = after_of;
  }
  if (!lexicon_candidate_prefix(s, m)) return;
  size_t me = m;
  while (me - m < kLexMaxLength && s.alpha(me)) ++me;
  if (me > m && !s.word(me)) {
    const LexEntry* e = lexicon_lookup(s, m, me);
    if (e && (e->kind == Lex::kMonth || e->kind == Lex::kMonthAbbrev)) match_month_date(s, m, me);
  }
}

void detect_weekday(Scan& s, size_t y) {
  if (y < 5 || s.alpha(y + 1) || s.lower(y - 1) != 'a' || s.lower(y - 2) != 'd') return;
  size_t b = y - 2;
  while (b > 0 && y - b < 9 && s.alpha(b - 1)) --b;
  if (b > 0 && s.word(b - 1)) return;
  const LexEntry* e = lexicon_lookup(s, b, y + 1);
  if (e && e->kind == Lex::kWeekday) s.add_date(b, y + 1);
}

void detect_nhs_number(Scan& s, size_t ws) {
  static constexpr std::array<std::string_view, 1> kNhs = {"nhs"};
  if (!s.numeric_left_ok(ws)) return;
  int digits[10];
  size_t i = ws;
  for (int k = 0; k < 10; ++k) {
    // (A blank or a hyphen after the third and the sixth digit, or none:
    // "943 476 5919", "943-476-5919", "9434765919".)
    if ((k == 3 || k == 6) && (s.at(i) == ' ' || s.at(i) == '-') && s.digit(i + 1) &&
        (k == 3 || s.at(i) == s.at(ws + 3))) {
      ++i;
    }
    if (!s.digit(i)) return;
    digits[k] = s.at(i++) - '0';
  }
  if (s.alnum(i) || (s.at(i) == '-' && s.digit(i + 1))) return;
  // (The check digit before the keyword: it turns most such numbers away
  // without reading back.)
  int sum = 0;
  for (int k = 0; k < 9; ++k) sum += digits[k] * (10 - k);
  const int check = (11 - sum % 11) % 11;
  if (check != 10 && check == digits[9] && s.keyword_before(ws, 32, kNhs)) s.add(PiiType::kMedicalRecordNumber, ws, i);
}

namespace {

// A medical record number after a keyword of a patient's or a record's
// ending at `after`, where a word of its number follows one or two blanks
// on ("patient ID", "medical record no.", "patient #"): a patient or a
// record alone is no number.
void detect_record_number_after(Scan& s, size_t after) {
  size_t next_word = after;
  while (next_word < after + 2 && s.blank(next_word)) ++next_word;
  if (s.keyword_at(next_word, kNumberWords) || s.matches_word(next_word, "id")) {
    detect_id_after_keyword(s, after, PiiType::kMedicalRecordNumber);
  }
}

}  // namespace

// Keywords within 48 bytes before an id-like number on its line: "driver's
// license (number) ...", "licence no ...", "DL# ...", "passport ...", "MRN
// ...", "medical record (number) ...", "patient ID ...".
void detect_keyword_ids_before(Scan& s, size_t ws) {
  const size_t from = ws > 48 ? ws - 48 : 0;
  for (size_t j = ws; j-- > from;) {
    const unsigned char c = s.at(j);
    if (kClass[c] & kLineEnd) return;
    // Every keyword opens a word with one of d, l, m, n, p, in any case: one
    // load turns the other bytes away (digits and marks, most of them before
    // an id), one more those inside a word.
    static constexpr std::array<bool, 256> kKeywordFirst = [] {
      std::array<bool, 256> first{};
      for (const char k : std::string_view("dlmnpDLMNP")) first[static_cast<unsigned char>(k)] = true;
      return first;
    }();
    if (!kKeywordFirst[c] || (j > 0 && s.alpha(j - 1))) continue;
    switch (c | 0x20) {
      case 'l':
        if (s.matches(j, "license") || s.matches(j, "licence")) {
          size_t after = j + 7;
          if (s.lower(after) == 's') ++after;
          size_t next_word = after;
          while (next_word < after + 3 && (s.blank(next_word) || s.at(next_word) == '\'')) ++next_word;
          if (s.keyword_before(j, 24, kDriverWords) || s.keyword_at(next_word, kNumberWords)) {
            detect_id_after_keyword(s, after, PiiType::kUsDriverLicense);
          }
        }
        break;
      case 'p':
        if (s.matches_word(j, "passport")) {
          detect_id_after_keyword(s, j + 8, PiiType::kUsPassport);
        } else if (s.matches_word(j, "patient")) {
          detect_record_number_after(s, j + 7);  // "patient ID", "patient no.", "patient #"
        }
        break;
      case 'm':
        // "MRN", or "medical record(s)" and a word of its number ("medical
        // record no.", "medical record #"): a record alone is no number.
        if (s.matches_word(j, "mrn")) {
          detect_id_after_keyword(s, j + 3, PiiType::kMedicalRecordNumber);
        } else if (s.matches(j, "medical record")) {
          detect_record_number_after(s, s.lower(j + 14) == 's' ? j + 15 : j + 14);
        }
        break;
      case 'n':
        if (s.matches_word(j, "nhs")) detect_nhs_number(s, ws);  // "NHS number 9434765919"
        break;
      case 'd':
        // "DL# ...", "DL: ...", "DL no. ...", "my DL is ...": the
        // abbreviation needs a mark, a number word or "is" after it ("dl"
        // is also "download"), and the id its digits.
        if (s.matches_word(j, "dl")) {
          size_t after = j + 2;
          while (after < j + 4 && s.blank(after)) ++after;
          if (s.at(after) == '#' || s.at(after) == ':' || s.keyword_at(after, kNumberWords) ||
              s.matches_word(after, "is")) {
            detect_id_after_keyword(s, j + 2, PiiType::kUsDriverLicense);
          }
        }
        break;
      default:
        break;
    }
  }
}

}  // namespace tiergate::pii_scan
