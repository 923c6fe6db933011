// Nationality, religious and political groups (NRP) where the words around
// them describe a person: "I am Catholic", "as a Muslim", "she is
// Brazilian", "a Mexican woman", "of Korean descent", "they are Muslims". A
// group word alone ("French fries", "translate it into French", "the
// Republican party") is not flagged: it names no one, and redacting it would
// change the request.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string_view>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// Lower case, sorted (binary search).
constexpr std::array<std::string_view, 326> kGroups = {
    "adventist", "afghan", "african", "agnostic", "alawite", "albanian", "algerian", "american", "amish",
    "anabaptist", "anarchist", "anglican", "angolan", "arab", "argentine", "argentinian", "armenian", "asian",
    "atheist", "australian", "austrian", "azerbaijani", "azeri", "bahai", "bahamian", "bahraini", "bajan",
    "bangladeshi", "baptist", "barbadian", "bedouin", "belarusian", "belgian", "belizean", "beninese", "berber",
    "bermudian", "bhutanese", "bolivian", "bosniak", "bosnian", "botswanan", "brazilian", "british", "briton",
    "bruneian", "buddhism", "buddhist", "bulgarian", "burkinabe", "burmese", "burundian", "calvinist", "cambodian",
    "cameroonian", "canadian", "catholic", "catholicism", "caucasian", "centrist", "chadian", "chilean", "chinese",
    "christian", "christianity", "colombian", "communist", "comoran", "confucian", "congolese", "conservative",
    "coptic", "croatian", "cuban", "cypriot", "czech", "dane", "danish", "democrat", "djiboutian", "dominican",
    "druze", "dutch", "dutchman", "dutchmen", "dutchwoman", "dutchwomen", "ecuadorian", "egyptian", "emirati",
    "english", "englishman", "englishmen", "englishwoman", "englishwomen", "episcopalian", "eritrean", "estonian",
    "ethiopian", "european", "evangelical", "faroese", "fascist", "fijian", "filipina", "filipino", "finn",
    "finnish", "french", "frenchman", "frenchmen", "frenchwoman", "frenchwomen", "gabonese", "gambian", "georgian",
    "german", "ghanaian", "gibraltarian", "greek", "greenlander", "grenadian", "guatemalan", "guinean", "guyanese",
    "haitian", "hasidic", "hindu", "hinduism", "hispanic", "hmong", "honduran", "hungarian", "icelander",
    "icelandic", "indian", "indonesian", "iranian", "iraqi", "irish", "irishman", "irishmen", "irishwoman",
    "irishwomen", "islam", "ismaili", "israeli", "italian", "ivorian", "jain", "jainism", "jamaican", "japanese",
    "jew", "jewish", "jordanian", "judaism", "kazakh", "kazakhstani", "kenyan", "korean", "kosovan", "kosovar",
    "kurd", "kurdish", "kuwaiti", "kyrgyz", "labour", "laotian", "latina", "latino", "latinx", "latvian",
    "lebanese", "leftist", "liberal", "libertarian", "libyan", "liechtensteiner", "lithuanian", "lutheran",
    "luxembourger", "luxembourgish", "macanese", "macedonian", "malagasy", "malawian", "malaysian", "maldivian",
    "malian", "maltese", "maoist", "maori", "marshallese", "marxist", "mauritanian", "mauritian", "mennonite",
    "methodist", "mexican", "micronesian", "moldovan", "monacan", "monarchist", "monegasque", "mongolian",
    "montenegrin", "mormon", "mormonism", "moroccan", "mozambican", "muslim", "namibian", "nationalist", "nauruan",
    "nazi", "negro", "nepalese", "nepali", "nicaraguan", "nigerian", "nigerien", "norwegian", "omani", "orthodox",
    "pagan", "pakistani", "palauan", "palestinian", "panamanian", "paraguayan", "pashtun", "pentecostal",
    "peruvian", "pole", "polish", "populist", "portuguese", "presbyterian", "protestant", "protestantism", "qatari",
    "quaker", "rastafarian", "republican", "romanian", "russian", "rwandan", "sahrawi", "salvadoran", "sammarinese",
    "samoan", "saudi", "scot", "scotsman", "scotsmen", "scotswoman", "scotswomen", "scottish", "senegalese",
    "serbian", "seychellois", "shia", "shiite", "shintoism", "sikh", "sikhism", "singaporean", "sinhalese",
    "slovak", "slovene", "slovenian", "socialist", "somali", "spaniard", "spanish", "sudanese", "sufi", "sunni",
    "surinamese", "swazi", "swede", "swedish", "swiss", "syrian", "taiwanese", "tajik", "tamil", "tanzanian",
    "taoism", "taoist", "thai", "tibetan", "timorese", "togolese", "tongan", "tory", "trinidadian", "tunisian",
    "turk", "turkish", "turkmen", "tuvaluan", "ugandan", "ukrainian", "unitarian", "uruguayan", "uyghur", "uzbek",
    "vanuatuan", "venezuelan", "vietnamese", "vincentian", "welsh", "welshman", "welshmen", "welshwoman",
    "welshwomen", "wiccan", "yazidi", "yemeni", "zambian", "zimbabwean", "zionist", "zoroastrian", "zoroastrianism"
};
static_assert(std::is_sorted(kGroups.begin(), kGroups.end()), "kGroups is searched by bisection");

// Nationalities and regions' peoples of two words, lower case, sorted: "South
// African", "Sri Lankan". A mention takes both words; the second alone is no
// group where kGroups does not hold it ("Rican", "Islander").
struct TwoWords {
  std::string_view first, second;
  friend constexpr bool operator<(const TwoWords& a, const TwoWords& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  }
};
constexpr std::array<TwoWords, 32> kTwoWordGroups = {{
    {"cape", "verdean"},      {"central", "american"},  {"central", "asian"},     {"costa", "rican"},
    {"east", "african"},      {"east", "asian"},        {"east", "timorese"},     {"el", "salvadoran"},
    {"hong", "konger"},       {"latin", "american"},    {"middle", "eastern"},    {"middle", "easterner"},
    {"native", "american"},   {"new", "zealander"},     {"north", "african"},     {"north", "american"},
    {"north", "korean"},      {"pacific", "islander"},  {"puerto", "rican"},      {"saudi", "arabian"},
    {"sierra", "leonean"},    {"sierra", "leonian"},    {"solomon", "islander"},  {"south", "african"},
    {"south", "american"},    {"south", "asian"},       {"south", "korean"},      {"south", "sudanese"},
    {"southeast", "asian"},   {"sri", "lankan"},        {"west", "african"},      {"west", "indian"},
}};
static_assert(std::is_sorted(kTwoWordGroups.begin(), kTwoWordGroups.end()), "searched by bisection");

// The word before a group word that makes it describe someone ("I am", "she
// is", "as"), past an article or one of kQualifiers.
// (A vote tells a person's politics as "is" does: "she voted Republican".)
constexpr std::array<std::string_view, 23> kCopulas = {
    "am",   "are",      "as",         "be",     "been", "being", "i'm",    "im",      "is",      "was",     "were",
    "identify", "identifies", "became", "he's", "she's", "we're", "you're", "they're", "vote", "votes", "voted",
    "voting"};
constexpr std::array<std::string_view, 8> kQualifiers = {"a", "an", "proud", "devout", "practicing", "practising",
                                                         "born", "fellow"};
// The word after a group word that makes it describe someone.
constexpr std::array<std::string_view, 100> kPersonNouns = {
    "man", "men", "woman", "women", "male", "males", "female", "females", "member", "members",
    "person", "people", "citizen", "citizens", "national", "nationals", "family",
    "girl", "boy", "guy", "lady", "neighbour", "neighbor", "friend", "colleague", "patient", "student", "immigrant",
    "immigrants", "descent", "origin", "heritage", "background", "ancestry", "roots", "community", "husband",
    "wife", "parents", "parent", "mother", "father", "son", "daughter", "children", "child", "kids", "families",
    "couple", "voters", "voter", "ancestors", "grandparents", "household", "nanny", "nurse", "doctor", "teacher",
    "worker", "workers", "engineer", "employee", "employees", "priest", "pastor", "soldier", "soldiers", "officer",
    "tourist", "tourists", "refugee", "refugees", "migrant", "migrants", "neighbours", "neighbors", "friends",
    "colleagues", "students", "patients", "girls", "boys", "guys", "ladies", "brother", "brothers", "sister",
    "sisters", "cousin", "cousins", "uncle", "aunt", "grandmother", "grandfather", "grandma", "grandpa", "relatives",
    "boyfriend", "girlfriend", "spouse"
};

constexpr size_t kMaxWord = 16;

struct Word {
  size_t begin = 0, end = 0;
};

// The lower-cased ASCII word [w.begin, w.end) in buf, or empty when it is too
// long for any list.
std::string_view lowered(const Scan& s, Word w, std::array<char, kMaxWord>& buf) {
  const size_t n = w.end - w.begin;
  if (n == 0 || n > kMaxWord) return {};
  for (size_t k = 0; k < n; ++k) buf[k] = static_cast<char>(s.lower(w.begin + k));
  return {buf.data(), n};
}

// A word: ASCII letters, an apostrophe between letters included.
bool word_byte(const Scan& s, size_t i) { return s.alpha(i) || (s.at(i) == '\'' && s.alpha(i - 1) && s.alpha(i + 1)); }

template <size_t N>
bool in(std::string_view word, const std::array<std::string_view, N>& list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool is_group(std::string_view word) { return std::binary_search(kGroups.begin(), kGroups.end(), word); }

// Whether lower-cased `word` is a group word or its plural ("canadians",
// "muslims", "jews"; the lists hold no word that ends in "s" but "swiss" and
// "seychellois").
bool is_group_or_plural(std::string_view word) {
  return is_group(word) || (word.size() >= 4 && word.back() == 's' && is_group(word.substr(0, word.size() - 1)));
}

// Whether lower-cased `first` and `second` are a group of two words, the
// second maybe plural ("south africans").
bool is_two_word_group_or_plural(std::string_view first, std::string_view second) {
  if (first.empty() || second.empty()) return false;  // (lowered() gives none for a word too long)
  // Most words before a group word are no first word of these ("the
  // American"): turned away by their length and first letter.
  const bool may_be_first = std::any_of(kTwoWordGroups.begin(), kTwoWordGroups.end(), [&](const TwoWords& g) {
    return g.first.size() == first.size() && g.first[0] == first[0];
  });
  if (!may_be_first) return false;
  auto listed = [&](std::string_view last) {
    return std::binary_search(kTwoWordGroups.begin(), kTwoWordGroups.end(), TwoWords{first, last});
  };
  return listed(second) || (second.size() >= 5 && second.back() == 's' && listed(second.substr(0, second.size() - 1)));
}

// One bit per three-letter prefix (26^3 bits) that a group word, or the
// second of a group of two words, starts with: almost every word of a text
// is rejected by one load.
constexpr size_t prefix_index(unsigned char a, unsigned char b, unsigned char c) {
  return (static_cast<size_t>(a - 'a') * 26 + static_cast<size_t>(b - 'a')) * 26 + static_cast<size_t>(c - 'a');
}
using ThreeLetterBits = std::array<uint64_t, (26 * 26 * 26 + 63) / 64>;
// Sets the bit of the three lower-case letters of `letters` from `at`.
constexpr void set_three_letters(ThreeLetterBits& bits, std::string_view letters, size_t at) {
  const size_t k = prefix_index(static_cast<unsigned char>(letters[at]), static_cast<unsigned char>(letters[at + 1]),
                                static_cast<unsigned char>(letters[at + 2]));
  bits[k / 64] |= uint64_t{1} << (k % 64);
}
constexpr ThreeLetterBits make_group_prefixes() {
  ThreeLetterBits bits{};
  for (std::string_view g : kGroups) set_three_letters(bits, g, 0);
  for (const TwoWords& g : kTwoWordGroups) set_three_letters(bits, g.second, 0);
  return bits;
}
constexpr ThreeLetterBits kGroupPrefixes = make_group_prefixes();

// The same for the last three letters: "that" opens like "thai" but ends
// like no group word.
constexpr ThreeLetterBits make_group_suffixes() {
  ThreeLetterBits bits{};
  for (std::string_view g : kGroups) set_three_letters(bits, g, g.size() - 3);
  for (const TwoWords& g : kTwoWordGroups) set_three_letters(bits, g.second, g.second.size() - 3);
  return bits;
}
constexpr ThreeLetterBits kGroupSuffixes = make_group_suffixes();

// The same for the first three letters of the second words of kTwoWordGroups
// that kGroups does not hold ("rican", "islander"): a word that is no group
// word looks for the word before it only when these let it.
constexpr ThreeLetterBits make_second_word_prefixes() {
  ThreeLetterBits bits{};
  for (const TwoWords& g : kTwoWordGroups) {
    if (!std::binary_search(kGroups.begin(), kGroups.end(), g.second)) set_three_letters(bits, g.second, 0);
  }
  return bits;
}
constexpr ThreeLetterBits kSecondWordPrefixes = make_second_word_prefixes();

// Whether lower-cased `word` may be the second of a group of two words that
// kGroups does not hold.
bool may_be_second_word(std::string_view word) {
  // (lowered() gives none for a word too long; a word may hold an apostrophe.)
  if (word.size() < 3 || !std::all_of(word.begin(), word.begin() + 3, [](char c) { return c >= 'a' && c <= 'z'; })) {
    return false;
  }
  const size_t k = prefix_index(static_cast<unsigned char>(word[0]), static_cast<unsigned char>(word[1]),
                                static_cast<unsigned char>(word[2]));
  return (kSecondWordPrefixes[k / 64] >> (k % 64)) & 1;
}

// Whether the word ending at `end` (three letters at least) ends like a group word.
bool group_suffix(const Scan& s, size_t end) {
  const unsigned char* p = s.data() + end - 3;
  const auto a = static_cast<unsigned char>(p[0] | 0x20), b = static_cast<unsigned char>(p[1] | 0x20),
             c = static_cast<unsigned char>(p[2] | 0x20);
  if (a < 'a' || a > 'z' || b < 'a' || b > 'z' || c < 'a' || c > 'z') return false;
  const size_t k = prefix_index(a, b, c);
  return (kGroupSuffixes[k / 64] >> (k % 64)) & 1;
}

// Whether a group word may start at i: its first three letters open one.
bool group_prefix(const Scan& s, size_t i) {
  if (i + 3 >= s.size()) return false;  // no room for a word of four letters
  const unsigned char* p = s.data() + i;
  const auto a = static_cast<unsigned char>(p[0] | 0x20), b = static_cast<unsigned char>(p[1] | 0x20),
             c = static_cast<unsigned char>(p[2] | 0x20);
  if (a < 'a' || a > 'z' || b < 'a' || b > 'z' || c < 'a' || c > 'z') return false;
  const size_t k = prefix_index(a, b, c);
  return (kGroupPrefixes[k / 64] >> (k % 64)) & 1;
}

// The ASCII letters and the capitals among the 64 bytes at base: bit k for
// the byte at base + k (none past the end).
struct LetterMasks {
  uint64_t letters = 0, upper = 0;
};
#if defined(__x86_64__)
// letter_masks() 64 bytes in one step; the block is whole (base + 64 <= the
// text's size).
[[TIERGATE_AVX512BW]] LetterMasks letter_masks_avx512(const unsigned char* block) {
  const __m512i x = _mm512_loadu_si512(block);
  const __m512i lower = _mm512_or_si512(x, _mm512_set1_epi8(0x20));
  // c - lo <= 25, unsigned: c in [lo, lo + 25].
  const __m512i letters = _mm512_sub_epi8(lower, _mm512_set1_epi8('a'));
  const __m512i upper = _mm512_sub_epi8(x, _mm512_set1_epi8('A'));
  return {_mm512_cmple_epu8_mask(letters, _mm512_set1_epi8(25)), _mm512_cmple_epu8_mask(upper, _mm512_set1_epi8(25))};
}
#endif

LetterMasks letter_masks(const Scan& s, size_t base) {
#if defined(__x86_64__)
  static const bool avx512 = cpu_has_avx512bw();
  if (avx512 && base + 64 <= s.size()) return letter_masks_avx512(s.data() + base);
#endif
  LetterMasks m;
#if defined(__SSE2__)
  // The last, partial block: from a zero-padded copy (zero is no letter).
  alignas(16) unsigned char tail[64];
  const unsigned char* block = s.data() + base;
  if (base + 64 > s.size()) {
    std::memset(tail, 0, sizeof tail);
    std::memcpy(tail, block, s.size() - base);
    block = tail;
  }
  for (int part = 0; part < 4; ++part) {
    __m128i x;
    std::memcpy(&x, block + 16 * part, 16);
    // c - lo <= 25, unsigned: c in [lo, lo + 25].
    const __m128i up = _mm_sub_epi8(x, _mm_set1_epi8('A'));
    const __m128i any = _mm_sub_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    const __m128i is_upper = _mm_cmpeq_epi8(_mm_min_epu8(up, _mm_set1_epi8(25)), up);
    const __m128i is_letter = _mm_cmpeq_epi8(_mm_min_epu8(any, _mm_set1_epi8(25)), any);
    m.upper |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(is_upper))} << (16 * part);
    m.letters |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(is_letter))} << (16 * part);
  }
#else
  const size_t end = std::min(s.size(), base + 64);
  for (size_t k = base; k < end; ++k) {
    const unsigned char c = s.at(k);
    m.upper |= uint64_t{c >= 'A' && c <= 'Z'} << (k - base);
    m.letters |= uint64_t{s.alpha(k)} << (k - base);
  }
#endif
  return m;
}

// The word that starts at `begin` (empty where none does), at most one letter
// longer than kMaxWord: lowered() gives none for that.
Word word_from(const Scan& s, size_t begin) {
  Word w{begin, begin};
  while (w.end < s.size() && w.end - w.begin <= kMaxWord && word_byte(s, w.end)) ++w.end;
  return w;
}

// The word ending just before `end` (past blanks), on the same line and in
// the same sentence; empty when there is none.
Word word_before(const Scan& s, size_t end) {
  size_t j = end;
  while (j > 0 && j + 4 > end && s.blank(j - 1)) --j;
  Word w{j, j};
  while (w.begin > 0 && w.end - w.begin < kMaxWord + 1 && word_byte(s, w.begin - 1)) --w.begin;
  return w;
}

// Whether an age and "and" come before `begin`, after a person's pronoun
// and a copula: "he is 15 and", "I'm 40 and" (not "the score is 15 and").
bool age_and_before(const Scan& s, size_t begin, std::array<char, kMaxWord>& buf) {
  static constexpr std::array<std::string_view, 6> kPronouns = {"i", "he", "she", "we", "you", "they"};
  static constexpr std::array<std::string_view, 7> kPronounCopulas = {"i'm", "im", "he's", "she's", "we're", "you're",
                                                                      "they're"};
  size_t j = begin;
  while (j > 0 && begin - j < 3 && s.blank(j - 1)) --j;
  const size_t digits_end = j;
  while (j > 0 && digits_end - j < 4 && s.at(j - 1) >= '0' && s.at(j - 1) <= '9') --j;
  if (j == digits_end || digits_end - j > 3 || j == begin || !s.blank(j - 1)) return false;
  const Word copula = word_before(s, j);
  const std::string_view word = lowered(s, copula, buf);
  if (in(word, kPronounCopulas)) return true;
  return in(word, kCopulas) && in(lowered(s, word_before(s, copula.begin), buf), kPronouns);
}

// A copula before the group word at `begin` ("am", "is a proud"): at most two
// articles or qualifiers in between, or an age and "and", maybe before them
// ("he is 15 and Brazilian", "I'm 52 and a practising Catholic").
bool described_before(const Scan& s, size_t begin, std::array<char, kMaxWord>& buf) {
  size_t at = begin;
  for (int k = 0; k < 3; ++k) {
    const Word w = word_before(s, at);
    const std::string_view word = lowered(s, w, buf);
    if (word.empty()) return false;
    if (in(word, kCopulas)) return true;
    if (word == "and") return age_and_before(s, w.begin, buf);
    if (!in(word, kQualifiers)) return false;
    at = w.begin;
  }
  return false;
}

// A form field before the group word at `begin`: "Nationality: Canadian",
// "Religion - Catholic".
constexpr std::array<std::string_view, 7> kFields = {"nationality", "religion",  "citizenship", "ethnicity",
                                                     "faith",       "party",     "affiliation"};
bool field_before(const Scan& s, size_t begin, std::array<char, kMaxWord>& buf) {
  size_t j = begin;
  while (j > 0 && begin - j < 4 && s.blank(j - 1)) --j;
  if (j == 0 || (s.at(j - 1) != ':' && s.at(j - 1) != '-')) return false;
  return in(lowered(s, word_before(s, j - 1), buf), kFields);
}

// A person noun after the group word ending at `end` ("woman", "descent"),
// or an in-law ("my Catholic in-laws").
bool described_after(const Scan& s, size_t end, std::array<char, kMaxWord>& buf) {
  size_t j = end;
  while (j < s.size() && j < end + 3 && s.blank(j)) ++j;
  const Word next = word_from(s, j);
  const std::string_view word = lowered(s, next, buf);
  if (word == "in" && s.at(next.end) == '-') {
    const std::string_view law = lowered(s, word_from(s, next.end + 1), buf);
    return law == "law" || law == "laws";
  }
  return in(word, kPersonNouns);
}

// Whether the group word ending at `end` opens a longer name: a capitalised
// word that is no group word nor person noun follows one space after
// ("became North American Van Lines"; not "Italian American", "for Latino
// Men", nor any word after a group word in capitals throughout).
bool opens_a_name(const Scan& s, size_t end, std::array<char, kMaxWord>& buf) {
  if (end + 1 >= s.size() || s.at(end) != ' ' || s.at(end + 1) < 'A' || s.at(end + 1) > 'Z') return false;
  // (In capitals throughout, "A SOUTH AFRICAN POET", a capital says nothing.)
  if (end + 2 < s.size() && s.at(end - 1) >= 'A' && s.at(end - 1) <= 'Z' && s.at(end + 2) >= 'A' &&
      s.at(end + 2) <= 'Z') {
    return false;
  }
  const std::string_view word = lowered(s, word_from(s, end + 1), buf);
  return !is_group_or_plural(word) && !in(word, kPersonNouns);
}

// Whether [from, to) joins two words of one list: blanks, a comma, "and"
// or "or", or both, with blanks, after the comma or the word maybe an
// article ("African Americans", "Jewish and French", "Hindu, or Sikh",
// "jewish and a democrat").
bool joined(const Scan& s, size_t from, size_t to) {
  if (to - from > 10) return false;
  size_t i = from;
  auto blanks = [&] {
    while (i < to && s.blank(i)) ++i;
  };
  // The word w at i, before a blank: taken.
  auto take = [&](std::string_view w) {
    if (to - i <= w.size() || !s.matches(i, w) || !s.blank(i + w.size())) return false;
    i += w.size();
    return true;
  };
  bool joiner = i < to && s.at(i) == ',';
  if (joiner) ++i;
  blanks();
  if (take("and") || take("or")) joiner = true;
  blanks();
  if (joiner && (take("an") || take("a"))) blanks();
  // (Blanks alone join too: "African Americans" after "as".)
  return i == to && to > from;
}

}  // namespace

namespace {

// Bits k of `m` such that bits k + 1 .. k + count are set, counting the bits
// past the block as set (the word's length is checked again).
uint64_t ahead(uint64_t m, int count) {
  uint64_t r = ~uint64_t{0};
  for (int k = 1; k <= count; ++k) r &= (m >> k) | ~(~uint64_t{0} >> k);
  return r;
}

// The group words that start at the bits of `starts_at(base)` (candidate
// word starts in the 64 bytes at base).
template <typename Starts>
void find_groups(Scan& s, Starts starts_at) {
  const size_t n = s.size();
  std::array<char, kMaxWord> buf{}, other{};
  size_t last_end = n;  // where the last group mention found ends (n: none yet)
  for (size_t base = 0; base < n; base += 64) {
    for (uint64_t starts = starts_at(base); starts != 0; starts &= starts - 1) {
      const size_t i = base + static_cast<size_t>(std::countr_zero(starts));
      if (!group_prefix(s, i)) continue;
      // Not the inside of a longer word ("3rd", "l'Italien", non-ASCII letters).
      if (i > 0 && (s.alpha(i - 1) || s.digit(i - 1) || (s.at(i - 1) & 0x80) || s.at(i - 1) == '\'' ||
                    s.at(i - 1) == '_')) {
        continue;
      }
      const Word w = word_from(s, i);
      if (w.end < n && ((s.at(w.end) & 0x80) || s.digit(w.end))) continue;
      const bool plural = w.end - w.begin >= 4 && (s.at(w.end - 1) | 0x20) == 's';
      if (w.end - w.begin < 4 || !(group_suffix(s, w.end) || (plural && group_suffix(s, w.end - 1)))) continue;
      const std::string_view word = lowered(s, w, buf);
      const bool group = is_group_or_plural(word);
      // The word before, one space away, may make it a group of two words
      // ("South African"): the mention starts there.
      bool two_words = false;
      Word before{};
      if (group || may_be_second_word(word)) {
        before = word_before(s, w.begin);
        two_words = before.end + 1 == w.begin && s.at(before.end) == ' ' &&
                    is_two_word_group_or_plural(lowered(s, before, other), word);
      }
      if (!two_words && !group) continue;
      if (opens_a_name(s, w.end, other)) continue;
      const size_t begin = two_words ? before.begin : w.begin;
      if (described_before(s, begin, other) || described_after(s, w.end, other) || field_before(s, begin, other) ||
          (last_end <= begin && joined(s, last_end, begin))) {
        // A group word right before is part of this mention: "African
        // American voters". (Where it is a mention itself, "they are Mexican
        // American", the longer span wins the overlap.)
        const bool pair = two_words || is_group_or_plural(lowered(s, before, other));
        // Group words joined by a hyphen are one mention ("Irish-American",
        // "an Afro-Caribbean family"): the word before and the word after.
        size_t from = pair ? before.begin : w.begin, to = w.end;
        if (from >= 2 && s.at(from - 1) == '-' && word_byte(s, from - 2)) {
          const Word joined_before = word_before(s, from - 1);
          if (joined_before.end == from - 1 && is_group_or_plural(lowered(s, joined_before, other))) {
            from = joined_before.begin;
          }
        }
        if (s.at(to) == '-' && to + 1 < n && word_byte(s, to + 1)) {
          const Word joined_after = word_from(s, to + 1);
          if (is_group_or_plural(lowered(s, joined_after, other))) to = joined_after.end;
        }
        s.add(PiiType::kNrp, from, to);
        last_end = to;
      }
    }
  }
}

}  // namespace

void detect_group_mentions(Scan& s, bool every_word) {
  // Group words are capitalised in text with capitals: only capitals start a
  // candidate, a few words in a hundred, in a word written in small letters
  // after its capital or in capitals throughout ("AS A MUSLIM WOMAN"). Text
  // without capitals: every word. (Not a word in small letters in text
  // with capitals, "I am jewish": reading every word there costs the whole
  // scan 6% more instructions, for a misspelling; add_group_mentions()
  // reads them in the texts a phone typed.)
  uint64_t carry = 0;  // whether the byte before the block is a letter
  // (Text whose only capitals are letters alone or inside words, "I'm a
  // practising muslim", "39C", "iPhone", has none, as the tagger reads it:
  // a capital counts where it opens a word of two letters or more.)
  bool capitals = false;
  if (!every_word) {
    find_groups(s, [&](size_t base) {
      const auto [letters, upper] = letter_masks(s, base);
      const uint64_t opening = upper & ~((letters << 1) | carry);
      capitals = capitals || (opening & ahead(letters, 1)) != 0;
      const uint64_t lower = letters & ~upper;
      // A capital that starts a word of four letters or more, the next three
      // small or capitals (near the block's end: left to find_groups).
      const uint64_t starts = opening & (ahead(lower, 3) | ahead(upper, 3));
      carry = letters >> 63;
      return starts;
    });
  }
  if (capitals) return;
  carry = 0;
  find_groups(s, [&](size_t base) {
    const uint64_t letters = letter_masks(s, base).letters;
    const uint64_t starts = letters & ~((letters << 1) | carry) & ahead(letters, 3);
    carry = letters >> 63;
    return starts;
  });
}

void add_group_mentions(std::string_view text, std::vector<PiiSpan>& out) {
  Scan s(text);
  detect_group_mentions(s, true);
  for (const Candidate& c : s.found) {
    if (text[c.begin] >= 'a' && text[c.begin] <= 'z') out.push_back({c.type, c.begin, c.end});
  }
}

bool is_group_word(std::string_view word) {
  char lower[24];
  if (word.size() < 3 || word.size() > sizeof lower) return false;
  // Most words are turned away by their first three letters, in one load,
  // before the word is lower-cased.
  auto lower_at = [&](size_t i) { return to_lower(static_cast<unsigned char>(word[i])); };
  const unsigned char a = lower_at(0), b = lower_at(1), c = lower_at(2);
  if (a < 'a' || a > 'z' || b < 'a' || b > 'z' || c < 'a' || c > 'z') return false;
  const size_t k = prefix_index(a, b, c);
  if (((kGroupPrefixes[k / 64] >> (k % 64)) & 1) == 0) return false;
  for (size_t i = 0; i < word.size(); ++i) lower[i] = static_cast<char>(lower_at(i));
  // And most of the rest by their last three ("Christopher"), or the three
  // before a plural's "s".
  auto ends_like_a_group = [&](size_t end) {
    const auto x = static_cast<unsigned char>(lower[end - 3]), y = static_cast<unsigned char>(lower[end - 2]),
               z = static_cast<unsigned char>(lower[end - 1]);
    if (x < 'a' || x > 'z' || y < 'a' || y > 'z' || z < 'a' || z > 'z') return false;
    const size_t e = prefix_index(x, y, z);
    return ((kGroupSuffixes[e / 64] >> (e % 64)) & 1) != 0;
  };
  const size_t n = word.size();
  if (!ends_like_a_group(n) && !(n >= 4 && lower[n - 1] == 's' && ends_like_a_group(n - 1))) return false;
  return is_group_or_plural(std::string_view(lower, n));
}

bool is_two_word_group(std::string_view first, std::string_view second) {
  std::array<char, kMaxWord> a{}, b{};
  auto lower_into = [](std::string_view word, std::array<char, kMaxWord>& out) -> std::string_view {
    if (word.empty() || word.size() > out.size()) return {};
    for (size_t i = 0; i < word.size(); ++i) out[i] = static_cast<char>(to_lower(static_cast<unsigned char>(word[i])));
    return {out.data(), word.size()};
  };
  const std::string_view x = lower_into(first, a), y = lower_into(second, b);
  return is_two_word_group_or_plural(x, y);
}

}  // namespace tiergate::pii_scan
