// The tagger's pass after decoding that finds names written in a script
// without capitals inside text in Latin script
// (PiiTagger::add_names_in_caseless_scripts()): "Please forward this to
// 木村 麻衣子", "The patient, ريم سويس, was admitted". A tagger whose
// training rows had no such value leaves these words out of decoding: it
// has no evidence on them.
#include "tiergate/privacy/pii_tagger.h"

#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// The scripts a name's word is written in, for the length it may have.
enum class CaselessScript { kNone, kHan, kHangul, kKana, kOther };

CaselessScript script_of(uint32_t cp) {
  if ((cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff)) return CaselessScript::kHan;
  if (cp >= 0xac00 && cp <= 0xd7a3) return CaselessScript::kHangul;
  if (cp >= 0x3041 && cp <= 0x30ff) return CaselessScript::kKana;
  // Hebrew letters and Arabic letters with their vowel signs; the Indic
  // scripts, Sinhala, Thai and Lao with theirs.
  const bool hebrew = cp >= 0x5d0 && cp <= 0x5f4;
  const bool arabic = (cp >= 0x620 && cp <= 0x65f) || (cp >= 0x66e && cp <= 0x6d3) || cp == 0x6d5 ||
                      (cp >= 0x6fa && cp <= 0x6ff);
  const bool indic_or_thai = cp >= 0x900 && cp <= 0xeff;
  return hebrew || arabic || indic_or_thai ? CaselessScript::kOther : CaselessScript::kNone;
}

// Whether token t is a word a name may hold: only letters of one script
// without capitals (the zero-width (non-)joiner of Persian inside), at most
// 4 of CJK or Hangul, 12 of kana, 20 of the others. Not a sign of such text
// ("。", "，"), a digit or a Latin letter, which join the words of a
// sentence or of code ("对于每个q向量，sum").
bool name_word(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  CaselessScript script = CaselessScript::kNone;
  size_t letters = 0;
  for (size_t k = 0; k < w.size();) {
    const CodePoint cp = code_point_at(w, k);
    k += cp.length;
    if ((cp.value == 0x200c || cp.value == 0x200d) && letters > 0 && k < w.size()) continue;
    const CaselessScript s = script_of(cp.value);
    if (s == CaselessScript::kNone || (script != CaselessScript::kNone && s != script)) return false;
    script = s;
    ++letters;
  }
  switch (script) {
    case CaselessScript::kHan:
    case CaselessScript::kHangul: return letters <= 4;
    case CaselessScript::kKana: return letters <= 12;
    case CaselessScript::kOther: return letters <= 20;
    case CaselessScript::kNone: return false;
  }
  return false;
}

// Whether token t opens with a Latin letter and has two bytes or more
// ("to", "Müller"; not "I" nor a number).
bool latin_word(std::string_view text, const Token& t) {
  if (t.end - t.begin < 2) return false;
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  const uint32_t cp = code_point_at(w, 0).value;
  const bool latin = cp < 0x80 ? ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z')
                               : (cp >= 0xc0 && cp <= 0x24f && cp != 0xd7 && cp != 0xf7) || (cp >= 0x1e00 && cp <= 0x1eff);
  return latin;
}

// Words that present a foreign word rather than a person: before it ("the
// word", "the kanji", "how do you say", "translate") and after it ("...
// means", "... stands for"). Languages and their nouns: kLanguages,
// kLanguageNouns.
constexpr WordSet kForeignWordCuesBefore(std::array<std::string_view, 22>{
    "mean", "means", "meaning", "say", "says", "pronounce", "pronounced", "spell", "spelled", "spelt", "write",
    "written", "kanji", "hanzi", "hiragana", "katakana", "hangul", "symbol", "symbols", "character", "glyph",
    "translate"});
constexpr WordSet kForeignWordCuesAfter(std::array<std::string_view, 9>{
    "mean", "means", "meaning", "meant", "stand", "stands", "translates", "translated", "literally"});

}  // namespace

void PiiTagger::add_names_in_caseless_scripts(std::string_view text, std::span<const uint32_t> caseless,
                                              std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  // A name has four words at most ("مصلح بن عبد السلام"); the words of
  // Latin script around it are read up to 12 tokens away on its line.
  constexpr size_t kMaxWords = 4, kReach = 12;
  auto one_space_apart = [&](size_t k) {
    return !tokens[k + 1].newline_before && tokens[k + 1].begin == tokens[k].end + 1 && text[tokens[k].end] == ' ';
  };
  // A mark that may stand right before a name in a sentence, and one that
  // may stand right after it; not a comment's mark ("# 更新方向", "// 저장")
  // nor code's ("= 涨跌幅度").
  auto mark_before = [&](size_t k) {
    return tokens[k].end - tokens[k].begin == 1 && std::string_view(",(:;").find(text[tokens[k].begin]) != std::string_view::npos;
  };
  auto mark_after = [&](size_t k) {
    return tokens[k].end - tokens[k].begin == 1 && std::string_view(",.?!;:)").find(text[tokens[k].begin]) != std::string_view::npos;
  };
  // Text in Latin script with names of such scripts: every word of such a
  // script a name's word. Other text in such a script (a sentence, words
  // with a particle or a sign of such text: "code는", "函数。") shows a
  // writer of it, whose names this pass cannot tell from the other words.
  for (const uint32_t k : caseless) {
    if (!name_word(text, tokens[k])) return;
  }
  const size_t before = out.size();
  for (size_t c = 0; c < caseless.size();) {
    // The run of words of such scripts one space apart from caseless[c].
    const size_t from = caseless[c];
    size_t to = from;
    for (++c; c < caseless.size() && caseless[c] == to + 1 && one_space_apart(to); ++c) ++to;
    if (to - from + 1 > kMaxWords) continue;
    // One letter alone is no name ("水").
    if (from == to && code_point_at(text, tokens[from].begin).length == tokens[from].end - tokens[from].begin) continue;
    const bool has_before = from > 0 && !tokens[from].newline_before;
    const bool has_after = to + 1 < n && !tokens[to + 1].newline_before;
    if ((has_before && !latin_word(text, tokens[from - 1]) && !mark_before(from - 1)) ||
        (has_after && !latin_word(text, tokens[to + 1]) && !mark_after(to + 1))) {
      continue;
    }
    if (has_after && kForeignWordCuesAfter.contains(text, tokens[to + 1])) continue;
    size_t lo = from, hi = to;
    while (lo > 0 && !tokens[lo].newline_before && from - lo < kReach) --lo;
    while (hi + 1 < n && !tokens[hi + 1].newline_before && hi - to < kReach) ++hi;
    // The two words before it (past marks: "the meaning of", "In Thai,")
    // present no foreign word, and no language is in use around it ("...
    // in Japanese").
    bool foreign_word = false;
    for (size_t k = from, words = 0; k > lo && words < 2 && !foreign_word; --k) {
      const Token& t = tokens[k - 1];
      if (!latin_word(text, t)) continue;
      ++words;
      foreign_word = kForeignWordCuesBefore.contains(text, t) || kLanguageNouns.contains(text, t) ||
                     kLanguages.contains(text, t);
    }
    for (size_t k = lo; k <= hi && !foreign_word; ++k) foreign_word = names_a_language(text, tokens, k);
    if (foreign_word) continue;
    // A sentence in Latin script around it: two words of it or more on its
    // line within reach.
    size_t latin = 0;
    for (size_t k = lo; k <= hi && latin < 2; ++k) latin += (k < from || k > to) && latin_word(text, tokens[k]) ? 1 : 0;
    if (latin < 2) continue;
    bool free = true;
    for (size_t k = from; k <= to && free; ++k) free = span_over(out, k) == out.size();
    if (free) add_span(out, {PiiType::kPerson, tokens[from].begin, tokens[to].end});
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
  }
}

}  // namespace tiergate
