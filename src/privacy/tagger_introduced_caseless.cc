// The tagger's pass after decoding that finds the name a writer gives as
// theirs in a script without capitals
// (PiiTagger::add_self_introductions_in_caseless_scripts()): "我叫王伟",
// "私の名前は田中太郎です", "제 이름은 김민수입니다", "اسمي أحمد الخطيب",
// "שמי דוד כהן", "मेरा नाम राहुल शर्मा है". Such text has no capitals and
// often no spaces: the cue that says "my name is" is what tells the name.
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// How a name is written after (or before) its cue.
enum class NameShape {
  kHan,       // 2 or 3 ideographs ("王伟", "李小明")
  kJapanese,  // ideographs and kana up to "です" or "と申します"
  kHangul,    // one run of syllables, less a copula's ending ("김민수입니다")
  kWords,     // up to `words` words of the script, a space apart
};

struct Cue {
  std::string_view text;  // UTF-8
  NameShape shape;
  bool before;  // the name stands before the cue ("田中太郎と申します")
};

constexpr std::array<Cue, 15> kCues{{
    {"我的名字是", NameShape::kHan, false},
    {"我的名字叫", NameShape::kHan, false},
    {"我名叫", NameShape::kHan, false},
    {"我叫", NameShape::kHan, false},
    {"私の名前は", NameShape::kJapanese, false},
    {"僕の名前は", NameShape::kJapanese, false},
    {"と申します", NameShape::kJapanese, true},
    {"제 이름은", NameShape::kHangul, false},
    {"내 이름은", NameShape::kHangul, false},
    {"اسمي", NameShape::kWords, false},
    {"إسمي", NameShape::kWords, false},
    {"שמי", NameShape::kWords, false},
    {"קוראים לי", NameShape::kWords, false},
    {"मेरा नाम", NameShape::kWords, false},
    {"मेरा नाम है", NameShape::kWords, false},
}};

bool han(uint32_t cp) { return (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff); }
bool kana(uint32_t cp) { return cp >= 0x3041 && cp <= 0x30ff; }
bool hangul(uint32_t cp) { return cp >= 0xac00 && cp <= 0xd7a3; }
// A letter of the scripts that kWords cues write, with Arabic's and the
// Indic scripts' vowel signs.
bool word_letter(uint32_t cp) {
  return (cp >= 0x5d0 && cp <= 0x5f4) || (cp >= 0x620 && cp <= 0x65f) || (cp >= 0x66e && cp <= 0x6d3) ||
         (cp >= 0x900 && cp <= 0x97f);
}

// The Han characters that end a name after its cue: pronouns, "is", "of",
// "at", "and" and the verbs that follow one ("我叫王伟我住在北京").
bool ends_a_han_name(uint32_t cp) {
  static constexpr std::array<uint32_t, 12> kEnders = {0x6211 /*我*/, 0x4f60 /*你*/, 0x4ed6 /*他*/, 0x5979 /*她*/,
                                                       0x662f /*是*/, 0x7684 /*的*/, 0x5728 /*在*/, 0x548c /*和*/,
                                                       0x4eca /*今*/, 0x6765 /*来*/, 0x4f4f /*住*/, 0x4e5f /*也*/};
  for (const uint32_t e : kEnders) {
    if (cp == e) return true;
  }
  return false;
}

// The end of the name that opens at `at`, or `at` when there is none.
size_t name_after(std::string_view text, size_t at, NameShape shape) {
  size_t end = at;
  switch (shape) {
    case NameShape::kHan: {
      // Then a mark, the end, or a word that ends a name; no particle of a
      // deed done ("了") inside or right after: "我叫外卖了" (I ordered a
      // takeaway) names no one.
      constexpr uint32_t kDone = 0x4e86;  // 了
      size_t letters = 0;
      while (end < text.size() && letters < 3) {
        const CodePoint cp = code_point_at(text, end);
        if (cp.value == kDone) return at;
        if (!han(cp.value) || ends_a_han_name(cp.value)) break;
        end += cp.length;
        ++letters;
      }
      if (letters < 2) return at;
      if (end == text.size()) return end;
      const uint32_t next = code_point_at(text, end).value;
      return next != kDone && ((!han(next) && !kana(next)) || ends_a_han_name(next)) ? end : at;
    }
    case NameShape::kJapanese: {
      size_t letters = 0;
      while (end < text.size() && letters < 8) {
        const std::string_view rest = text.substr(end);
        if (rest.starts_with("です") || rest.starts_with("と申") || rest.starts_with("といい")) break;
        const CodePoint cp = code_point_at(text, end);
        if (!han(cp.value) && !kana(cp.value)) break;
        end += cp.length;
        ++letters;
      }
      return letters >= 1 && letters < 8 ? end : at;
    }
    case NameShape::kHangul: {
      while (end < text.size()) {
        const CodePoint cp = code_point_at(text, end);
        if (!hangul(cp.value)) break;
        end += cp.length;
      }
      // Less the copula's ending: "김민수입니다", "지수예요".
      for (const std::string_view ending : {"입니다", "이에요", "예요", "이고", "이며", "이라고", "라고"}) {
        if (end - at > ending.size() && text.substr(at, end - at).ends_with(ending)) {
          end -= ending.size();
          break;
        }
      }
      return end - at >= 6 ? end : at;  // two syllables at least
    }
    case NameShape::kWords: {
      // Up to two words of the script, a space apart; not a second word
      // that opens with Arabic's or Hebrew's "and" ("وأسكن"), nor the
      // Hindi copula ("है").
      size_t words = 0;
      size_t word_begin = end;
      while (words < 2) {
        size_t k = word_begin;
        while (k < text.size()) {
          const CodePoint cp = code_point_at(text, k);
          if (!word_letter(cp.value)) break;
          k += cp.length;
        }
        if (k == word_begin) break;
        const std::string_view word = text.substr(word_begin, k - word_begin);
        if (word == "है" || word == "हैं" || word == "था" ||
            (words > 0 && (word.starts_with("و") || word.starts_with("ו")))) {
          break;
        }
        end = k;
        ++words;
        if (k >= text.size() || text[k] != ' ') break;
        word_begin = k + 1;
      }
      return end;
    }
  }
  return at;
}

// The start of the name that ends at `at`, before a cue that follows it
// ("田中太郎と申します"): ideographs and kana back to "は", a mark or the
// text's start, eight at most; `at` when there is none.
size_t name_before(std::string_view text, size_t at) {
  size_t begin = at;
  size_t letters = 0;
  while (begin > 0 && letters < 8) {
    size_t k = begin - 1;
    while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xc0) == 0x80) --k;
    const uint32_t cp = code_point_at(text, k).value;
    if ((!han(cp) && !kana(cp)) || cp == 0x306f /*は*/) break;
    begin = k;
    ++letters;
  }
  return letters >= 1 && letters < 8 ? begin : at;
}

}  // namespace

void PiiTagger::add_self_introductions_in_caseless_scripts(std::string_view text, std::vector<PiiSpan>& out,
                                                           size_t first) const {
  std::vector<PiiSpan> found;
  for (const Cue& cue : kCues) {
    for (size_t at = text.find(cue.text); at != std::string_view::npos; at = text.find(cue.text, at + 1)) {
      size_t begin = at + cue.text.size(), end = at;
      if (cue.before) {
        begin = name_before(text, at);
      } else {
        while (begin < text.size() && text[begin] == ' ') ++begin;
        end = name_after(text, begin, cue.shape);
      }
      if (end <= begin) continue;
      found.push_back({PiiType::kPerson, static_cast<uint32_t>(begin), static_cast<uint32_t>(end)});
    }
  }
  if (found.empty()) return;
  // In order, without overlaps (two cues may find one name: "मेरा नाम", "मेरा
  // नाम है"; the first found of those that overlap stays).
  std::stable_sort(found.begin(), found.end(), [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
  size_t kept = 0;
  for (const PiiSpan& name : found) {
    if (kept == 0 || name.begin >= found[kept - 1].end) found[kept++] = name;
  }
  found.resize(kept);
  // The name that overlaps `span`, or found.end().
  auto name_over = [&](const PiiSpan& span) {
    const auto after = std::upper_bound(found.begin(), found.end(), span.begin,
                                        [](uint32_t at, const PiiSpan& f) { return at < f.end; });
    return after != found.end() && after->begin < span.end ? after : found.end();
  };
  // Spans of this tagging inside a name give way to it; a name that a span
  // found before, or another of this tagging, overlaps otherwise is left.
  std::vector<bool> clash(found.size(), false);
  for (size_t s = 0; s < out.size(); ++s) {
    // (A span may overlap several names: each is asked.)
    for (auto it = name_over(out[s]); it != found.end() && it->begin < out[s].end; ++it) {
      const bool inside = out[s].begin >= it->begin && out[s].end <= it->end;
      if (s < first || !inside) clash[static_cast<size_t>(it - found.begin())] = true;
    }
  }
  kept = 0;
  for (size_t k = 0; k < found.size(); ++k) {
    if (!clash[k]) found[kept++] = found[k];
  }
  found.resize(kept);
  if (found.empty()) return;
  out.erase(std::remove_if(out.begin() + static_cast<ptrdiff_t>(first), out.end(),
                           [&](const PiiSpan& span) { return name_over(span) != found.end(); }),
            out.end());
  out.insert(out.end(), found.begin(), found.end());
  sort_by_begin(out, first);
}

}  // namespace tiergate
