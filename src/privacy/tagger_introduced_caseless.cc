// The tagger's pass after decoding that finds the name a writer gives as
// theirs in a script without capitals
// (PiiTagger::add_self_introductions_in_caseless_scripts()): "我叫王伟",
// "私の名前は田中太郎です", "제 이름은 김민수입니다", "اسمي أحمد الخطيب",
// "שמי דוד כהן", "मेरा नाम राहुल शर्मा है"; and in Chinese a person written
// or spoken to, or whose number is asked, by a common surname: "请给李娜发邮件",
// "告诉王伟明天开会", "刘洋的电话是多少". Such text has no capitals and
// often no spaces: the cue is what tells the name.
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
  kSurnamed,  // a common Chinese surname and 1 or 2 ideographs, then a word that ends it
  kJapanese,  // ideographs and kana up to "です" or "と申します"
  kHangul,    // one run of syllables, less a copula's ending ("김민수입니다")
  kWords,     // up to `words` words of the script, a space apart
};

struct Cue {
  std::string_view text;  // UTF-8
  NameShape shape;
  bool before;  // the name stands before the cue ("田中太郎と申します")
};

constexpr std::array<Cue, 28> kCues{{
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
    // Written or spoken to, asked about, met: "告诉王伟", "发给陈静", "和张伟".
    {"告诉", NameShape::kSurnamed, false},
    {"通知", NameShape::kSurnamed, false},
    {"联系", NameShape::kSurnamed, false},
    {"给", NameShape::kSurnamed, false},
    {"和", NameShape::kSurnamed, false},
    {"跟", NameShape::kSurnamed, false},
    {"找", NameShape::kSurnamed, false},
    {"问", NameShape::kSurnamed, false},
    // A person's data: "刘洋的电话", "王伟的地址".
    {"的电话", NameShape::kSurnamed, true},
    {"的手机", NameShape::kSurnamed, true},
    {"的邮箱", NameShape::kSurnamed, true},
    {"的地址", NameShape::kSurnamed, true},
    {"的生日", NameShape::kSurnamed, true},
}};

// The hundred commonest Chinese surnames, one ideograph each (three bytes of
// UTF-8), less "龙" (dragon), a word more often: "龙身和龙尾".
constexpr std::string_view kHanSurnames =
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟"
    "谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤";

// The words that may follow a name that a surname opens: verbs of writing,
// calling, going and meeting, particles, words of time, of contact and
// titles ("李娜发邮件", "王伟明天", "陈静的", "王伟先生").
constexpr std::array<std::string_view, 32> kAfterASurnamedName = {
    "发", "打", "说", "写", "回", "开", "去", "来", "见", "吃", "的", "了", "也", "在", "是", "和",
    "吧", "吗", "呢", "明天", "今天", "昨天", "后天", "一起", "电话", "邮件", "短信", "微信", "先生", "女士", "老师", "医生"};

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

// Everyday words that open with a surname's ideograph: no name ("和高手一起",
// "找方法").
constexpr std::array<std::string_view, 23> kWordsOpeningWithASurname = {
    "高手", "高兴", "高中", "高级", "方法", "方面", "方便", "方式", "马上", "白天", "许多", "任何",
    "任务", "周末", "周围", "于是", "程序", "万一", "金额", "严重", "毛病", "向上", "孙子"};

bool han_surname_at(std::string_view text, size_t at) {
  if (at + 3 > text.size()) return false;
  const size_t k = kHanSurnames.find(text.substr(at, 3));
  return k != std::string_view::npos && k % 3 == 0;
}

// Whether a name that a surname opens may end at `at`: the text ends, or
// no ideograph follows, or a word of kAfterASurnamedName.
bool ends_a_surnamed_name(std::string_view text, size_t at) {
  if (at >= text.size() || !han(code_point_at(text, at).value)) return true;
  const std::string_view rest = text.substr(at);
  return std::any_of(kAfterASurnamedName.begin(), kAfterASurnamedName.end(),
                     [&](std::string_view w) { return rest.starts_with(w); });
}

// Whether ideographs [begin, begin + letters) are a surname and a given
// name none of whose ideographs opens a word that ends a name.
bool surnamed_name_at(std::string_view text, size_t begin, size_t letters) {
  if (!han_surname_at(text, begin)) return false;
  const std::string_view rest = text.substr(begin);
  if (std::any_of(kWordsOpeningWithASurname.begin(), kWordsOpeningWithASurname.end(),
                  [&](std::string_view w) { return rest.starts_with(w); })) {
    return false;
  }
  size_t at = begin + 3;
  for (size_t k = 1; k < letters; ++k, at += 3) {
    if (at + 3 > text.size() || !han(code_point_at(text, at).value) || ends_a_surnamed_name(text, at)) return false;
  }
  return true;
}

// The end of a name that a surname opens at `at` and a word that ends it
// follows: three ideographs, or else two ("王小明发", "李娜发邮件"); `at` when
// there is none.
size_t surnamed_name_after(std::string_view text, size_t at) {
  for (const size_t letters : {3, 2}) {
    if (surnamed_name_at(text, at, letters) && ends_a_surnamed_name(text, at + 3 * letters)) return at + 3 * letters;
  }
  return at;
}

// The start of a name that a surname opens and that ends at `at`, before a
// word of a person's data ("刘洋的电话"): two ideographs, or else three, that
// open the text or follow no ideograph but a cue's last ("请问刘洋的电话");
// `at` when there is none.
size_t surnamed_name_before(std::string_view text, size_t at) {
  for (const size_t letters : {2, 3}) {
    if (at < 3 * letters) continue;
    const size_t begin = at - 3 * letters;
    if (!surnamed_name_at(text, begin, letters)) continue;
    if (begin == 0) return begin;
    size_t k = begin - 1;
    while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xc0) == 0x80) --k;
    const uint32_t before = code_point_at(text, k).value;
    if (!han(before) || before == 0x95ee /*问*/ || before == 0x7ed9 /*给*/ || before == 0x548c /*和*/) return begin;
  }
  return at;
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
    case NameShape::kSurnamed: return surnamed_name_after(text, at);
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

void PiiTagger::add_self_introductions_in_caseless_scripts(std::string_view text,
                                                           std::span<const uint32_t> caseless_words,
                                                           std::vector<PiiSpan>& out, size_t first) const {
  if (caseless_words.empty()) return;
  // (A cue's words are of its script: most of a text in Latin letters is
  // not read for 28 cues.)
  const Tokens tokens = tagger_tokens();
  const uint32_t region_begin = tokens[caseless_words.front()].begin;
  const std::string_view region = text.substr(0, tokens[caseless_words.back()].end);
  std::vector<PiiSpan> found;
  for (const Cue& cue : kCues) {
    for (size_t at = region.find(cue.text, region_begin); at != std::string_view::npos;
         at = region.find(cue.text, at + 1)) {
      size_t begin = at + cue.text.size(), end = at;
      if (cue.before) {
        begin = cue.shape == NameShape::kSurnamed ? surnamed_name_before(text, at) : name_before(text, at);
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
