#include "tiergate/privacy/pii_tagger.h"

#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/structured_pii.h"

#include "blank_escapes.h"
#include "data_labels.h"
#include "lexicon.h"
#include "little_endian.h"
#include "plain_text.h"
#include "scan.h"
#include "tagger_scores.h"
#include "tagger_tables.h"
#include "tagger_tokens.h"
#include "tagger_rules.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>
#include <numeric>
#include <optional>
#include <random>

namespace tiergate {

using namespace tagger_rules;

namespace {

constexpr std::string_view kMagic = "TGPIITAG";
// 2: a gazetteer follows the weights; 3: the continuing marks precede them;
// 4: a byte after the marks says whether the values held caseless words.
constexpr uint32_t kFormatVersion = 4;

// Sets v.prefix and v.suffix: FNV-1a hashes of the token's first and last
// three bytes (lower-cased; all of a shorter token). Only a token that is
// scored needs them, a few of those viewed.
void add_affixes(std::string_view text, const Token& t, TokenView& v) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  const size_t n = t.end - t.begin, head = std::min<size_t>(n, 3);
  uint64_t prefix = 11, suffix = 13;
  for (size_t k = 0; k < head; ++k) prefix = (prefix ^ kByteView[s[k]].lower) * kFnvPrime;
  for (size_t k = n - head; k < n; ++k) suffix = (suffix ^ kByteView[s[k]].lower) * kFnvPrime;
  v.prefix = prefix;
  v.suffix = suffix;
}

// Whether the name at `begin` follows an English title and its stop, one
// blank apart ("ms. Oksana"): the keyboard capitalised the first name
// after the stop as a sentence's first word, and the surname after it
// stays in small letters ("ms. Oksana hrytsenko").
bool after_a_title_and_its_stop(std::string_view text, uint32_t begin) {
  if (begin < 4 || text[begin - 1] != ' ' || text[begin - 2] != '.') return false;
  uint32_t b = begin - 2;
  while (b > 0 && begin - 2 - b < 5 && ((text[b - 1] | 0x20) >= 'a' && (text[b - 1] | 0x20) <= 'z')) --b;
  if (b > 0 && is_word_byte(static_cast<unsigned char>(text[b - 1]))) return false;
  return kEnglishTitles.contains(text, Token{b, begin - 2, false, false});
}

// Feature templates; each hashes with its own id.
enum Template : uint64_t {
  kBias = 1, kWord, kShape, kPrefix, kSuffix, kPrevTag, kPrevTags, kWordBefore, kWordAfter, kWord2Before,
  kWord2After, kShapeBefore, kShapeAfter, kCap, kCapBefore, kCapAfter, kPrevTagWord, kNewline, kBoundary,
  kGazetteerFull, kGazetteerPart
};

// The feature slots of one token: 20 templates and the gazetteer matches of
// three tokens (16 categories, full and part, at most).
struct FeatureSlots {
  std::array<uint32_t, 20 + 3 * 2 * Gazetteer::kMaxCategories> slot;
  size_t size = 0;
  const uint32_t* begin() const { return slot.data(); }
  const uint32_t* end() const { return slot.data() + size; }
};

uint32_t slot_of(Template t, uint64_t value, uint32_t slots) { return static_cast<uint32_t>(mix(value * 31 + t)) & slots; }

// The layout of PiiTagger::fixed_slots_: the slots of the templates whose
// values come from a small set, for taggers of `tags` tags.
struct FixedSlotLayout {
  static constexpr size_t kBias = 0, kCap = 1, kCapBefore = 2, kCapAfter = 3, kNewline = 4, kBoundary = 5;
  static constexpr size_t kGazetteerFull = 6;  // [category * 4 + offset + 1]
  static constexpr size_t kGazetteerPart = kGazetteerFull + 4 * Gazetteer::kMaxCategories;
  static constexpr size_t kPrevTag = kGazetteerPart + 4 * Gazetteer::kMaxCategories;  // [prev + 1]
  size_t tags;
  size_t prev_tags() const { return kPrevTag + tags + 1; }  // [(prev2 + 1) * (tags + 1) + prev + 1]
  size_t size() const { return prev_tags() + (tags + 1) * (tags + 1); }
};

std::vector<uint32_t> fixed_slots(uint32_t slots, size_t tags) {
  using L = FixedSlotLayout;
  const L layout{tags};
  std::vector<uint32_t> out(layout.size());
  out[L::kBias] = slot_of(kBias, 0, slots);
  out[L::kCap] = slot_of(kCap, 1, slots);
  out[L::kCapBefore] = slot_of(kCapBefore, 1, slots);
  out[L::kCapAfter] = slot_of(kCapAfter, 1, slots);
  out[L::kNewline] = slot_of(kNewline, 1, slots);
  out[L::kBoundary] = slot_of(kBoundary, 1, slots);
  for (uint64_t v = 0; v < 4 * Gazetteer::kMaxCategories; ++v) {
    out[L::kGazetteerFull + v] = slot_of(kGazetteerFull, v, slots);
    out[L::kGazetteerPart + v] = slot_of(kGazetteerPart, v, slots);
  }
  // A previous tag is -1 (before the text) or a tag; the templates hash it + 2.
  for (int prev = -1; prev < static_cast<int>(tags); ++prev) {
    out[L::kPrevTag + static_cast<size_t>(prev + 1)] = slot_of(kPrevTag, static_cast<uint64_t>(prev + 2), slots);
    for (int prev2 = -1; prev2 < static_cast<int>(tags); ++prev2) {
      out[layout.prev_tags() + static_cast<size_t>(prev2 + 1) * (tags + 1) + static_cast<size_t>(prev + 1)] =
          slot_of(kPrevTags, static_cast<uint64_t>((prev2 + 2) * 1000 + prev + 2), slots);
    }
  }
  return out;
}

// What features() needs of a tagger: its slot mask (buckets - 1) and its
// fixed slots, fixed_slots(slots, layout.tags).
struct FeatureTables {
  uint32_t slots;
  std::span<const uint32_t> fixed;
  FixedSlotLayout layout;
};

// The feature slots of token i given the two previous tags. `mixed_case`:
// capitalisation is only evidence in text that is not all lower case.
// `context_words` false leaves out the words around the token (training's
// context dropout).
void features(const FeatureTables& tables, std::span<const TokenView> v, size_t i, int prev, int prev2,
              bool mixed_case, FeatureSlots& out, bool context_words = true) {
  using L = FixedSlotLayout;
  // A local count, stored once at the end: out.size in memory would be
  // loaded and stored again at every slot written.
  uint32_t* const slot = out.slot.data();
  size_t size = 0;
  auto add = [&](Template t, uint64_t value) { slot[size++] = slot_of(t, value, tables.slots); };
  auto add_fixed = [&](size_t at) { slot[size++] = tables.fixed[at]; };
  const size_t tags = tables.layout.tags;
  constexpr uint64_t kStart = 0x5354415254ull, kEnd = 0x454e44ull;
  auto word_at = [&](ptrdiff_t j) {
    return j < 0 ? kStart : static_cast<size_t>(j) >= v.size() ? kEnd : v[static_cast<size_t>(j)].word;
  };
  auto shape_at = [&](ptrdiff_t j) {
    return j < 0 ? kStart : static_cast<size_t>(j) >= v.size() ? kEnd : v[static_cast<size_t>(j)].shape;
  };
  const auto at = static_cast<ptrdiff_t>(i);
  add_fixed(L::kBias);
  add(kWord, v[i].word);
  add(kShape, v[i].shape);
  add(kPrefix, v[i].prefix);
  add(kSuffix, v[i].suffix);
  add_fixed(L::kPrevTag + static_cast<size_t>(prev + 1));
  add_fixed(tables.layout.prev_tags() + static_cast<size_t>(prev2 + 1) * (tags + 1) + static_cast<size_t>(prev + 1));
  if (context_words) {
    add(kWordBefore, word_at(at - 1));
    add(kWordAfter, word_at(at + 1));
    add(kWord2Before, word_at(at - 2));
    add(kWord2After, word_at(at + 2));
  }
  add(kShapeBefore, shape_at(at - 1));
  add(kShapeAfter, shape_at(at + 1));
  add(kPrevTagWord, v[i].word * 131 + static_cast<uint64_t>(prev + 2));
  // The features that are there or not: written always, kept when there
  // (no branch to mispredict on every other token).
  auto add_fixed_if = [&](bool present, size_t slot_at) {
    slot[size] = tables.fixed[slot_at];
    size += present ? 1 : 0;
  };
  const bool has_before = i > 0, has_after = i + 1 < v.size();
  const TokenView& before = v[has_before ? i - 1 : i];
  const TokenView& after = v[has_after ? i + 1 : i];
  if (mixed_case) {
    add_fixed_if(v[i].capitalised, L::kCap);
    add_fixed_if(has_before && before.capitalised, L::kCapBefore);
    add_fixed_if(has_after && after.capitalised, L::kCapAfter);
  }
  add_fixed_if(v[i].newline_before, L::kNewline);
  add_fixed_if(has_after && after.newline_before, L::kBoundary);
  // Gazetteer categories of the token and its neighbours, (category, offset):
  // full matches, then part matches, of one token at a time. Part categories
  // follow the full ones in the fixed slots, so bit b of (part << 16 | full)
  // is at kGazetteerFull + 4 * b; the token before and the token itself
  // share one loop (bits 0-31 and 32-63), which leaves two loop exits for
  // the branch predictor to miss instead of six.
  static_assert(L::kGazetteerPart == L::kGazetteerFull + 4 * 16 && Gazetteer::kMaxCategories == 16);
  auto matches = [](const Gazetteer::Match& m) { return uint64_t{m.part} << 16 | m.full; };
  const uint64_t before_and_self = (has_before ? matches(before.gazetteer) : 0) | matches(v[i].gazetteer) << 32;
  for (uint64_t bits = before_and_self; bits != 0; bits &= bits - 1) {
    const auto b = static_cast<size_t>(std::countr_zero(bits));
    add_fixed(L::kGazetteerFull + (b % 32) * 4 + b / 32);  // offset -1 -> 0, 0 -> 1
  }
  for (uint64_t bits = has_after ? matches(after.gazetteer) : 0; bits != 0; bits &= bits - 1) {
    add_fixed(L::kGazetteerFull + static_cast<size_t>(std::countr_zero(bits)) * 4 + 2);
  }
  out.size = size;
}

// Whether token i (viewed) is a street's suffix ("Street", "St") after the
// words of an address that opens with digits at token `from`, i >= from + 2
// ("15 Elm Street"); in text with capitals, a capitalised one. Out of line:
// tag() asks it seldom, and its code would crowd the decoder's loop.
[[gnu::noinline]] bool suffix_of_a_numbered_street(std::string_view text, Tokens tokens, const ViewList& views,
                                                   size_t from, size_t i, bool mixed, uint16_t suffixes) {
  return i >= from + 2 && (views[i].gazetteer.full & suffixes) != 0 && (!mixed || views[i].capitalised) &&
         all_digits(text, tokens[from]);
}

// Whether a category of word lists names places: "city", "country" or
// "state" (as PiiTagger::find_categories() reads them).
bool is_place_list(std::string_view category) {
  return category.starts_with("city") || category.starts_with("country") || category.starts_with("state");
}

// Whether the tagger learns nothing from a category of word lists, which
// only its rules ask: "proper_adjective" (drop_words_naming_no_one()),
// "world_city" (PiiTagger::world_city()), "census_surname" (the rules
// that ask for a surname) and "given_name" (only_a_given_name()). The
// gazetteer hides them (Gazetteer::hide()).
bool is_rule_list(std::string_view category) {
  return category.starts_with("proper_adjective") || category.starts_with("world_city") ||
         category.starts_with("census_surname") || category.starts_with("given_name");
}

// The gazetteer of `lists`, keyed by the tagger's word hash: an entry that
// is one word is a full match, each word of a longer entry a part match.
// The lists the tagger learns from come first, in their order, then those
// is_rule_list(): adding one of these keeps every other category's bit,
// and so the features of each token.
Gazetteer build_gazetteer(std::span<const GazetteerList> all_lists) {
  std::vector<const GazetteerList*> lists;
  for (const GazetteerList& list : all_lists) {
    if (!is_rule_list(list.category)) lists.push_back(&list);
  }
  for (const GazetteerList& list : all_lists) {
    if (is_rule_list(list.category)) lists.push_back(&list);
  }
  std::vector<std::string> categories;
  for (const GazetteerList* list : lists) categories.push_back(list->category);
  Gazetteer g(std::move(categories));
  TokenList tokens;
  IndexList marked;
  for (size_t c = 0; c < lists.size(); ++c) {
    for (const std::string& entry : lists[c]->entries) {
      tokenize(entry, tokens, marked);
      const auto is_word = [&](const Token& t) { return is_word_byte(static_cast<unsigned char>(entry[t.begin])); };
      const bool full = tokens.size() == 1;
      for (const Token& t : tokens) {
        if (is_word(t)) g.add(word_hash(entry, t), c, full);
      }
      // A place's name of several words is also a full match as a whole
      // (PiiTagger::join_place_names()).
      if (!full && is_place_list(lists[c]->category)) g.add(phrase_hash(entry), c, true);
    }
  }
  return g;
}

// One row of training data: its tokens' views and gold tags (0 O, then
// B-/I- per learned type).
struct TrainingRow {
  ViewList views;
  std::vector<int> gold;
  bool mixed = false;
};

// Seeds of the ensemble's members: options.seed, then this far apart.
constexpr uint64_t kMemberSeedStep = 7919;

// An averaged perceptron over `rows`: `weights` floats, [slot * tags + tag].
std::vector<float> train_perceptron(const std::vector<TrainingRow>& rows, const FeatureTables& tables, size_t weights,
                                    const TaggerOptions& options, uint64_t seed) {
  const size_t tags = tables.layout.tags;
  // Averaged perceptron: w, and u = sum of (step * update), so that the
  // average over all steps is w - u / steps.
  std::vector<float> w(weights, 0.0f), u(w.size(), 0.0f);
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  FeatureSlots f;
  std::vector<float> score(tags);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  float step = 1;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t r : order) {
      const TrainingRow& row = rows[r];
      int prev = -1, prev2 = -1;  // -1: before the text
      for (size_t i = 0; i < row.views.size(); ++i, step += 1) {
        features(tables, row.views, i, prev, prev2, row.mixed, f, !(coin(rng) < options.context_dropout));
        std::fill(score.begin(), score.end(), 0.0f);
        for (uint32_t s : f) {
          for (size_t k = 0; k < tags; ++k) score[k] += w[size_t{s} * tags + k];
        }
        const int guess = static_cast<int>(std::max_element(score.begin(), score.end()) - score.begin());
        const int gold = row.gold[i];
        if (guess != gold) {
          for (uint32_t s : f) {
            w[size_t{s} * tags + static_cast<size_t>(gold)] += 1;
            u[size_t{s} * tags + static_cast<size_t>(gold)] += step;
            w[size_t{s} * tags + static_cast<size_t>(guess)] -= 1;
            u[size_t{s} * tags + static_cast<size_t>(guess)] -= step;
          }
        }
        prev2 = prev;
        prev = gold;  // teacher forcing: the gold history, as at its best at run time
      }
    }
  }
  for (size_t k = 0; k < w.size(); ++k) w[k] -= u[k] / step;
  return w;
}

// Whether token i (i > 0) is a hyphen or an en dash with a blank on each
// side. (Out of line: the decoder's loop asks it of few tokens.)
[[gnu::noinline]] bool dash_between_blanks(std::string_view text, Tokens tokens, size_t i) {
  const std::string_view w = text.substr(tokens[i].begin, tokens[i].end - tokens[i].begin);
  return (w == "-" || w == "\u2013") && tokens[i].begin > tokens[i - 1].end && i + 1 < tokens.size() &&
         tokens[i + 1].begin > tokens[i].end;
}

// Moves the begin of each name, place or organisation of out[first...]
// that opens inside a date found before tagging (out[0, first): sorted by
// begin, none overlapping another) and runs on past it to its first token
// after the date, a word: the decoder read "Tuesday Zorvath" as one name,
// and resolving the overlaps, where the date wins, would drop the name
// with it. (Not after a group's word found before: "African American
// man".) One that holds such a date after its first word parts in two, the
// words before the date and those after it, capitalised: "Easter Sunday
// Cindy", which resolving would cut to "Easter".
void cut_openings_found_before(std::string_view text, Tokens tokens, std::vector<PiiSpan>& out, size_t first) {
  if (first == 0) return;
  // (Indices, not a span: the parts after a date join `out`.)
  auto word_at = [&](size_t j) {
    return j < tokens.size() && is_word_byte(static_cast<unsigned char>(text[tokens[j].begin]));
  };
  const size_t tagged = out.size();
  for (size_t k = first; k < tagged; ++k) {
    const auto found_before = std::span<const PiiSpan>(out.data(), first);
    PiiSpan& span = out[k];
    if (!tagger_rules::names_by_a_proper_name(span.type)) continue;
    // The last found before that opens at or before the span.
    auto after = std::upper_bound(found_before.begin(), found_before.end(), span.begin,
                                  [](uint32_t at, const PiiSpan& f) { return at < f.begin; });
    if (after != found_before.begin()) {
      const PiiSpan& f = *std::prev(after);
      if (f.type == PiiType::kDateTime && f.end > span.begin && f.end < span.end) {
        const size_t next = tagger_rules::first_token_from(tokens, f.end);
        if (word_at(next) && tokens[next].begin < span.end) span.begin = tokens[next].begin;
      }
    }
    // A date that opens inside the span and ends before its end.
    if (after == found_before.end() || after->type != PiiType::kDateTime || after->begin >= span.end ||
        after->end >= span.end) {
      continue;
    }
    const size_t date = tagger_rules::first_token_from(tokens, after->begin);
    const size_t next = tagger_rules::first_token_from(tokens, after->end);
    if (date == 0 || tokens[date].begin != after->begin || !word_at(next) || tokens[next].begin >= span.end ||
        tokens[date - 1].begin < span.begin) {
      continue;
    }
    // (The words after it capitalised: in text without capitals such a
    // span is a clause's run of words, "poolside one sunday afternoon".)
    const auto opening = static_cast<unsigned char>(text[tokens[next].begin]);
    if (!((opening >= 'A' && opening <= 'Z') || opening >= 0x80)) continue;
    const PiiSpan rest{span.type, tokens[next].begin, span.end};
    span.end = tokens[date - 1].end;
    out.push_back(rest);
  }
  if (out.size() > tagged) sort_by_begin(out, first);
}

}  // namespace

bool tagger_learns(PiiType type) {
  switch (type) {
    case PiiType::kPerson:
    case PiiType::kStreetAddress:
    case PiiType::kLocation:
    case PiiType::kOrganization:
    case PiiType::kTitle:
    case PiiType::kPrefix:
    case PiiType::kAge:
    case PiiType::kNrp:
    case PiiType::kZipCode:
      return true;
    case PiiType::kCreditCard:
    case PiiType::kPhoneNumber:
    case PiiType::kDateTime:
    case PiiType::kDateOfBirth:
    case PiiType::kMedicalRecordNumber:
    case PiiType::kUsItin:
    case PiiType::kEmailAddress:
    case PiiType::kUsSsn:
    case PiiType::kIbanCode:
    case PiiType::kDomainName:
    case PiiType::kUsDriverLicense:
    case PiiType::kIpAddress:
    case PiiType::kMacAddress:
    case PiiType::kUsPassport:
    case PiiType::kApiKey:
    case PiiType::kPrivateKey:
    case PiiType::kPassword:
      return false;
  }
  return false;
}

PiiTagger PiiTagger::train(std::span<const PiiExample> examples, const TaggerOptions& options) {
  PiiTagger t;
  for (PiiType type : kAllPiiTypes) {
    const bool present = std::any_of(examples.begin(), examples.end(), [&](const PiiExample& e) {
      return std::any_of(e.spans.begin(), e.spans.end(), [&](const PiiSpan& s) { return s.type == type; });
    });
    if (present && tagger_learns(type)) t.types_.push_back(type);
  }
  if (t.types_.empty()) return t;
  t.buckets_ = std::bit_ceil(std::max<uint32_t>(options.buckets, 64));
  t.gazetteer_ = build_gazetteer(options.gazetteers);
  t.find_categories();
  const size_t tags = t.tags();
  const uint32_t slots = t.buckets_ - 1;

  // Each row's tokens, views and gold tags, computed once.
  std::vector<TrainingRow> rows;
  rows.reserve(examples.size());
  TokenList tokens;
  IndexList marked;
  for (const PiiExample& e : examples) {
    tokenize(e.text, tokens, marked);
    TrainingRow row;
    row.mixed = holds_a_capital(e.text);
    row.gold.assign(tokens.size(), 0);
    for (const Token& tok : tokens) {
      row.views.push_back(view_of(e.text, tok, t.gazetteer_));
      add_affixes(e.text, tok, row.views.back());
    }
    for (const PiiSpan& s : e.spans) {
      const auto k = std::find(t.types_.begin(), t.types_.end(), s.type);
      if (k == t.types_.end()) continue;
      const int b = 1 + 2 * static_cast<int>(k - t.types_.begin());
      bool first = true;
      for (size_t j = 0; j < tokens.size(); ++j) {
        if (tokens[j].begin >= s.begin && tokens[j].begin < s.end) {
          row.gold[j] = first ? b : b + 1;
          const auto c = static_cast<unsigned char>(e.text[tokens[j].begin]);
          if (!first && !is_word_byte(c)) t.continuing_marks_.set(c);
          t.caseless_values_ = t.caseless_values_ ||
                               holds_a_caseless_letter(reinterpret_cast<const unsigned char*>(e.text.data()) + tokens[j].begin,
                                                       tokens[j].end - tokens[j].begin);
          first = false;
        }
      }
    }
    rows.push_back(std::move(row));
  }

  // The average of options.members perceptrons that differ only in the
  // order they visit the rows and the tokens that lose their context.
  const std::vector<uint32_t> fixed = fixed_slots(slots, tags);
  const FeatureTables tables{slots, fixed, FixedSlotLayout{tags}};
  const int members = std::max(options.members, 1);
  std::vector<float> w(size_t{t.buckets_} * tags, 0.0f);
  for (int m = 0; m < members; ++m) {
    const std::vector<float> member =
        train_perceptron(rows, tables, w.size(), options, options.seed + static_cast<uint64_t>(m) * kMemberSeedStep);
    for (size_t k = 0; k < w.size(); ++k) w[k] += member[k] / static_cast<float>(members);
  }
  t.set_weights(std::move(w));
  t.fixed_slots_ = fixed;
  return t;
}

void PiiTagger::set_weights(std::vector<float> by_tag) {
  weights_ = std::move(by_tag);
  float largest = 0;
  for (const float w : weights_) largest = std::max(largest, std::abs(w));
  const float scale = largest > 0 ? 32767.0f / largest : 1.0f;
  const size_t n = tags(), open = open_width(), more = continue_width();
  // Row 0 is the rows of zeros; each slot with a weight that is not zero
  // in fixed point gets rows of its own, in slot order.
  row_of_slot_.assign(buckets_, 0);
  open_rows_.assign(open, 0);
  continue_rows_.assign(more, 0);
  std::vector<int16_t> q(n);
  uint32_t rows = 1;
  for (size_t slot = 0; slot < buckets_; ++slot) {
    for (size_t k = 0; k < n; ++k) q[k] = static_cast<int16_t>(std::lround(weights_[slot * n + k] * scale));
    if (std::all_of(q.begin(), q.end(), [](int16_t w) { return w == 0; })) continue;
    row_of_slot_[slot] = rows++;
    open_rows_.resize(size_t{rows} * open, 0);
    continue_rows_.resize(size_t{rows} * more, 0);
    for (size_t k = 0; k < n; ++k) {
      const size_t c = column(k), row = row_of_slot_[slot];
      (c < open ? open_rows_[row * open + c] : continue_rows_[row * more + c - open]) = q[k];
    }
  }
}

bool PiiTagger::surname_words(std::string_view text, uint32_t begin, uint32_t end) const {
  bool any = false;
  for (uint32_t b = begin; b < end;) {
    if (!is_word_byte(static_cast<unsigned char>(text[b]))) {
      ++b;
      continue;
    }
    uint32_t e = b;
    while (e < end && is_word_byte(static_cast<unsigned char>(text[e]))) ++e;
    const Token word{b, e, false, false};
    const uint64_t hash = word_hash(text, word);
    const Gazetteer::Match m = gazetteer_.lookup(hash);
    if (e - b < 3 || kChatShorthand.contains(text, word) ||
        !(listed_as_a_name(m) || ((m.full & common_categories_) == 0 && listed_surname(text, b, e)) ||
          !gazetteer_.knows(hash))) {
      return false;
    }
    any = true;
    b = e;
  }
  return any;
}

bool PiiTagger::street_suffix(std::string_view text, uint32_t begin, uint32_t end) const {
  const Token t{begin, end, false, false};
  return (gazetteer_.lookup(word_hash(text, t)).full & street_suffix_categories_) != 0 ||
         kAbbreviatedStreetSuffixes.contains(text, t);
}

size_t PiiTagger::unlisted_street_after(std::string_view text, size_t j) const {
  const Tokens tokens = tagger_tokens();
  for (size_t k = j + 1; k < tokens.size() && k <= j + 2; ++k) {
    const Token& t = tokens[k];
    if (!one_blank_after(text, tokens, k) || !small_word(text, t, 4) || gazetteer_.knows(word_hash(text, t))) return 0;
    if (!clause_ends_after(text, tokens, k)) continue;
    // (Not a series of quantities: "18 zorvath, 18 velmora".)
    const bool series = k + 2 < tokens.size() && token_is(text, tokens[k + 1], ",") && all_digits(text, tokens[k + 2]) &&
                        tokens[k + 2].end - tokens[k + 2].begin <= 3;
    return series ? 0 : k;
  }
  return 0;
}

bool PiiTagger::numbered_street(std::string_view text, const PiiSpan& span) const {
  const Tokens tokens = tagger_tokens();
  const size_t from = first_token_from(tokens, span.begin);
  size_t last = first_token_from(tokens, span.end);
  if (from >= tokens.size() || last <= from + 1 || tokens[last - 1].end != span.end) return false;
  --last;
  auto house_number = [&](size_t j) {
    const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
    return c >= '1' && c <= '9' && tokens[j].end - tokens[j].begin <= 5;
  };
  auto suffix = [&](size_t j) { return street_suffix(text, tokens[j].begin, tokens[j].end); };
  // (Or the Romance form: a street word first, the number last, "calle
  // mayor 145", "rue des martyrs 77".)
  const bool romance = last <= from + 4 && kStreetWordsBeforeTheName.contains(text, tokens[from]) && house_number(last);
  if ((!romance && !house_number(from)) || !led_to_a_place(text, tokens, from)) return false;
  if (romance) {
    for (size_t j = from + 1; j < last; ++j) {
      if (!small_word(text, tokens[j], 2) || !one_blank_after(text, tokens, j)) return false;
    }
    return one_blank_after(text, tokens, last);
  }
  // The words after the number up to the suffix, whatever the span holds
  // after it ("1450 n lakeshore dr apt 12b, chicago il 60610"); a compass
  // point's letter among them.
  for (size_t j = from + 1; j <= last && j <= from + 4; ++j) {
    if (!one_blank_after(text, tokens, j)) return false;
    if (j >= from + 2 && suffix(j)) return true;
    const bool point = tokens[j].end - tokens[j].begin == 1 && std::string_view("nsew").find(text[tokens[j].begin]) !=
                                                                  std::string_view::npos;
    if (!small_word(text, tokens[j], 2) && !point) return false;
  }
  return unlisted_street_after(text, from) == last;
}

bool PiiTagger::titled_surname_words(std::string_view text, uint32_t name_begin, uint32_t begin, uint32_t end) const {
  if (surname_words(text, begin, end)) return true;
  while (begin < end && text[begin] == ' ') ++begin;
  if (!after_a_title_and_its_stop(text, name_begin) || end - begin < 3) return false;
  for (uint32_t b = begin; b < end; ++b) {
    if (!is_word_byte(static_cast<unsigned char>(text[b]))) return false;
  }
  const Token word{begin, end, false, false};
  return !function_word(text, word) && !kVerbsNamedAsPeople.contains(text, word) && !kChatShorthand.contains(text, word);
}

bool PiiTagger::names_before_small_surnames(std::string_view text, const std::vector<PiiSpan>& out,
                                            size_t first) const {
  for (size_t k = first; k < out.size(); ++k) {
    const uint32_t b = out[k].end + 1;
    if (out[k].type != PiiType::kPerson || b >= text.size() || text[out[k].end] != ' ' || text[b] < 'a' ||
        text[b] > 'z') {
      continue;
    }
    uint32_t e = b;
    while (e < text.size() && is_word_byte(static_cast<unsigned char>(text[e]))) ++e;
    if (titled_surname_words(text, out[k].begin, b, e)) return true;
  }
  return false;
}

bool PiiTagger::opens_a_listed_name(std::string_view text, size_t j, uint32_t begin, uint32_t end) const {
  const uint64_t hash = word_hash(text, Token{begin, end, false, false});
  const Gazetteer::Match m = gazetteer_.lookup(hash);
  return listed_as_a_name(m) || only_a_given_name(text, j, m, hash);
}

bool PiiTagger::holds_a_small_name_or_street(std::string_view text) const {
  const Tokens tokens = tagger_tokens();
  for (size_t j = 0; j < tokens.size(); ++j) {
    const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
    // (Led to as a place, a house number before a street's suffix two to
    // four words on or before unlisted_street_after(), or a Romance street
    // word in small letters before such a number: maybe a
    // numbered_street().)
    if (c >= '1' && c <= '9' && led_to_a_place(text, tokens, j)) {
      for (size_t k = j + 2; k < tokens.size() && k <= j + 4; ++k) {
        if (street_suffix(text, tokens[k].begin, tokens[k].end)) return true;
      }
      if (unlisted_street_after(text, j) != 0) return true;
    }
    // (Or a sentence's first word, to which the keyboard gave its capital:
    // "Nikhil raghunathan was promoted".)
    const bool opener = c >= 'A' && c <= 'Z' && (j == 0 || tokens[j].newline_before || opens_a_sentence(text, tokens, j));
    if (((c < 'a' || c > 'z') && !opener) || tokens[j].end - tokens[j].begin < 3) continue;
    if (kStreetWordsBeforeTheName.contains(text, tokens[j]) && led_to_a_place(text, tokens, j)) {
      for (size_t k = j + 2; k < tokens.size() && k <= j + 4; ++k) {
        if (text[tokens[k].begin] >= '1' && text[tokens[k].begin] <= '9') return true;
      }
    }
    // (Without a possessive's 's, as the lists are read: "liam's".)
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[j].begin;
    const Token stem{tokens[j].begin,
                     tokens[j].begin + static_cast<uint32_t>(possessive_stem(b, tokens[j].end - tokens[j].begin)), false,
                     false};
    // (Or a possessive before a thing of its owner's, which a name's
    // possessive is: "here's časlav's address".)
    if (stem.end != tokens[j].end && possessive_before_a_personal_thing(text, tokens, j)) return true;
    if (opens_a_listed_name(text, j, stem.begin, stem.end)) return true;
  }
  return false;
}

bool PiiTagger::listed_words_name(std::string_view text, const PiiSpan& span) const {
  const Tokens tokens = tagger_tokens();
  const size_t from = first_token_from(tokens, span.begin);
  // (After a determiner, "the will", "a mark", only a name of two words or
  // more whose first, of three letters or more, no everyday list knows: "a
  // david lange concert"; not "an el niño event".)
  const bool after_a_determiner =
      from > 0 && from < tokens.size() &&
      (kDeterminers.contains(text, tokens[from - 1]) || after_an_article(text, tokens, from));
  if (after_a_determiner && (tokens[from].end - tokens[from].begin < 3 ||
                             (gazetteer_.lookup(word_hash(text, tokens[from])).full & common_categories_) != 0)) {
    return false;
  }
  // (Not glued to a hyphen outside it, nor the first word to one: "mario-
  // like"; one inside joins a surname's parts, "adeyemi-okoro".)
  uint32_t end = span.end;
  while (end > span.begin && !is_word_byte(static_cast<unsigned char>(text[end - 1]))) --end;
  if (end == span.begin || (span.begin > 0 && text[span.begin - 1] == '-') || (end < text.size() && text[end] == '-') ||
      (from < tokens.size() && tokens[from].end < text.size() && text[tokens[from].end] == '-')) {
    return false;
  }
  size_t words = 0;
  bool after_a_particle = false;
  for (size_t j = from; j < tokens.size() && tokens[j].begin < end; ++j) {
    // (The span leaves a possessive's 's out: "liam" of "liam's".)
    const Token t{tokens[j].begin, std::min(tokens[j].end, end), false, false};
    if (!is_word_byte(static_cast<unsigned char>(text[t.begin]))) continue;
    // (The second part of a double surname goes with its first, which is
    // one: "cornelius ashby-grant".)
    if (words >= 2 && glued_hyphen(text, tokens, j - 1)) continue;
    // (A surname's particles after the first word, before the rest of it,
    // which any word then is: "ilse van den berg", "zainab al-rashid".)
    if (words >= 1 && tokens[j].end < end && kSurnameParticles.contains(text, tokens[j])) {
      after_a_particle = true;
      continue;
    }
    // (A given name alone first, "anastasiya"; after the first word, a
    // surname of the census, "ambrose fairweather", or one no list knows,
    // "cormac flanagan".)
    const bool name = words == 0 ? opens_a_listed_name(text, j, t.begin, t.end)
                                 : after_a_particle || surname_words(text, t.begin, t.end);
    if (++words > 3 || !name) return false;
  }
  return words > (after_a_determiner ? 1 : 0);
}

void PiiTagger::tag(std::string_view text, std::vector<PiiSpan>& out) const { tag(text, out, ScanStop{}); }

bool PiiTagger::tag(std::string_view text, std::vector<PiiSpan>& out, const ScanStop& stop) const {
  if (empty() || text.empty() || text.size() >= (uint64_t{1} << 32)) return true;
  const size_t first = out.size();
  SecondReading reading = SecondReading::kNone;
  if (!tag_reading(text, out, stop, &reading)) return false;
  if (reading == SecondReading::kNone) return true;
  // Its group words in small letters too ("As a 34-year-old hindu woman",
  // "My catholic in-laws"), which the structured detectors read only
  // capitalised in text with capitals (detect_group_mentions()).
  const size_t tagged = out.size();
  pii_scan::add_group_mentions(text, out);
  if (out.size() > tagged) sort_by_begin(out, first);
  // casual_case() text, capitalised only where its sentences open ("Can
  // you help my friend tamsin?"), is read a second time in small letters
  // (its offsets stay), as text without capitals: read as written, a name
  // in small letters was found only after a cue. Its names and addresses
  // written in small letters that overlap none of the first reading's
  // spans join them; the first reading keeps what it read of capitalised
  // words ("Zorvath is late.", "NASA"), and the places and firms, which
  // the default policy lets out and no one is named by. Such text without
  // the first person ("Why is marie so impulsive?") gives only names that
  // open with a word the name lists know (listed_words_name()): read
  // whole, quizzes' and recipes' words no list knows became names (496 on
  // the dev prompts). It is read again only where it holds such a word, or
  // a name of the first reading before a surname's word in small letters
  // (a lookup per word in small letters, not a second reading of every
  // such text: 2.7M instructions on the dev prompts against 28M).
  if (reading == SecondReading::kListedNames && !holds_a_small_name_or_street(text) &&
      !names_before_small_surnames(text, out, first)) {
    return true;
  }
  thread_local std::vector<PiiSpan> second;
  second.assign(out.begin(), out.begin() + static_cast<ptrdiff_t>(first));
  thread_local std::string in_small_letters;
  in_small_letters = small_letters(text);
  if (!tag_reading(in_small_letters, second, stop, nullptr)) return false;
  const size_t read = out.size();
  size_t k = first;  // out[k...read) may overlap what is asked next
  auto in_small_letters_alone = [&](const PiiSpan& span) {
    return std::none_of(text.begin() + span.begin, text.begin() + span.end, [](char c) { return c >= 'A' && c <= 'Z'; });
  };
  auto blanks = [&](const PiiSpan& span) { return std::count(text.begin() + span.begin, text.begin() + span.end, ' '); };
  // (Or, a name of two words or more, with the capital the keyboard gave
  // a sentence's first letter: "Nikhil raghunathan was promoted". Not one
  // word, which the first reading read capitalised: "Constructivist
  // theories", "Crea 4 estrofas".)
  auto in_small_letters_but_a_sentence_opener = [&](const PiiSpan& span) {
    const bool opens = span.begin == 0 || text[span.begin - 1] == '\n' ||
                       (span.begin >= 2 && text[span.begin - 1] == ' ' &&
                        (text[span.begin - 2] == '.' || text[span.begin - 2] == '!' || text[span.begin - 2] == '?'));
    const bool words = span.type == PiiType::kPerson && blanks(span) > 0;
    return in_small_letters_alone({span.type, opens && words ? span.begin + 1 : span.begin, span.end});
  };
  // Without the first person, which of this reading's names and streets
  // the rules below keep: a name listed_words_name() keeps, a street
  // numbered_street() does, and a name of one word in a series with a kept
  // name of one word, joined by a comma, "and" or "or" ("present: kenji,
  // aroha, bartholomew", "to oisín and maeve"; the lists know "kenji" and
  // "maeve" alone. Not beside a name of more words: "théophile garnier,
  // j'habite", Italian's "annuo, su uno"), and so a name of two words
  // beside a kept one of two ("ottoline marsh, desmond achebe").
  thread_local std::vector<uint8_t> kept;
  if (reading == SecondReading::kListedNames) {
    // (Or a name of one word before a possessive's 's and a thing of its
    // owner's: "As promised, here's časlav's address".)
    // (The span is the possessive's stem of one token.)
    auto owner_of_a_personal_thing = [&](const PiiSpan& span) {
      const Tokens tokens = tagger_tokens();
      const size_t j = first_token_from(tokens, span.begin);
      if (j >= tokens.size() || tokens[j].begin != span.begin) return false;
      const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[j].begin;
      return tokens[j].begin + possessive_stem(b, tokens[j].end - tokens[j].begin) == span.end &&
             possessive_before_a_personal_thing(text, tokens, j);
    };
    kept.assign(second.size(), 0);
    for (size_t j = first; j < second.size(); ++j) {
      const PiiSpan& span = second[j];
      kept[j] = span.type == PiiType::kPerson          ? listed_words_name(text, span) || owner_of_a_personal_thing(span)
                : span.type == PiiType::kStreetAddress ? numbered_street(text, span)
                                                       : false;
    }
    auto joined_names = [&](size_t a, size_t b) {
      if (second[a].type != PiiType::kPerson || second[b].type != PiiType::kPerson) return false;
      const std::string_view between = text.substr(second[a].end, second[b].begin - second[a].end);
      return between == ", " || between == " and " || between == ", and " || between == " or " || between == ", or ";
    };
    // (Words alike: one each, or two each.)
    auto words = [&](const PiiSpan& span) {
      const auto n = blanks(span);
      return n <= 1 ? n + 1 : 0;
    };
    auto alike = [&](size_t a, size_t b) { return words(second[a]) != 0 && words(second[a]) == words(second[b]); };
    for (size_t j = first + 1; j < second.size(); ++j) {
      if (!kept[j] && kept[j - 1] && alike(j - 1, j) && joined_names(j - 1, j)) kept[j] = 1;
    }
    for (size_t j = second.size() > first ? second.size() - 1 : first; j > first; --j) {
      if (!kept[j - 1] && kept[j] && alike(j - 1, j) && joined_names(j - 1, j)) kept[j - 1] = 1;
    }
  }
  for (size_t j = first; j < second.size(); ++j) {
    const PiiSpan& span = second[j];
    if (span.type != PiiType::kPerson && span.type != PiiType::kStreetAddress) continue;
    while (k < read && out[k].end <= span.begin) ++k;
    // A name of the first reading that this one's goes on from in small
    // letters takes its surname, one or two words: "Mrs. Svetlana ilyina",
    // where the keyboard capitalised the first name after the title's stop.
    if (k < read && span.type == PiiType::kPerson && out[k].type == PiiType::kPerson && out[k].begin == span.begin &&
        out[k].end < span.end && in_small_letters_alone({span.type, out[k].end, span.end}) &&
        std::count(text.begin() + out[k].end, text.begin() + span.end, ' ') <= 2 &&
        titled_surname_words(text, out[k].begin, out[k].end, span.end)) {
      out[k].end = span.end;
      continue;
    }
    // So does one that this reading parts from its surname, one blank
    // after it: "ms. Oksana hrytsenko", read as "oksana" and "hrytsenko".
    if (k > first && span.type == PiiType::kPerson && out[k - 1].type == PiiType::kPerson &&
        out[k - 1].end + 1 == span.begin && text[out[k - 1].end] == ' ' && in_small_letters_alone(span) &&
        blanks(span) == 0 && titled_surname_words(text, out[k - 1].begin, span.begin, span.end)) {
      out[k - 1].end = span.end;
      continue;
    }
    if (reading == SecondReading::kListedNames && !kept[j]) continue;
    if (!in_small_letters_but_a_sentence_opener(span)) continue;
    if (k == read || out[k].begin >= span.end) out.push_back(span);
  }
  if (out.size() > read) {
    std::inplace_merge(out.begin() + static_cast<ptrdiff_t>(first), out.begin() + static_cast<ptrdiff_t>(read), out.end(),
                       [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
  }
  return true;
}

bool PiiTagger::tag_reading(std::string_view text, std::vector<PiiSpan>& out, const ScanStop& stop,
                            SecondReading* second) const {
  // Text in capitals throughout ("MY NAME IS JOHN SMITH") has no case to go
  // by, as text in small letters has none: it is read as such, in a copy in
  // small letters (small_letters(): the offsets stay), so that the rules
  // for text without capitals apply. Read as written, every word of it
  // could open a span as a capitalised word does.
  thread_local std::string in_small_letters;
  const bool shouted = capitals_throughout(text);
  if (shouted) {
    in_small_letters = small_letters(text);
    text = in_small_letters;
  }
  TokenList& token_list = tagger_tokens();
  ViewList& views = tagger_views();
  const size_t first_tagged = out.size();
  FeatureSlots f;
  thread_local std::vector<uint8_t> viewed;
  thread_local IndexList marked_list;
  // Spans of one token each, in order, that the tagger adds where no other
  // span covers them in the end: unknown_subject()s, names_an_organisation().
  thread_local std::vector<PiiSpan> fallbacks;
  fallbacks.clear();
  // The tokens left out for a script without capitals, in order
  // (add_names_in_caseless_scripts()).
  thread_local IndexList caseless_words;
  caseless_words.clear();
  // In text with capitals, the capitals alone before a stop, in order: an
  // initial or an answer's letter (join_initials()).
  thread_local IndexList capitals_before_a_stop;
  capitals_before_a_stop.clear();
  // In text with capitals, the pronouns "I" after "and", in order: the
  // name in small letters before them (add_small_letter_names_after_cues():
  // "priya and I").
  thread_local IndexList i_after_and;
  i_after_and.clear();
  const bool organisations = std::find(types_.begin(), types_.end(), PiiType::kOrganization) != types_.end();
  thread_local IndexList line_start_list;
  // (Text in ASCII alone, most prompts, holds no caseless letter: the
  // decoder does not look for one in its tokens.)
  const bool beyond_ascii = tokenize(text, token_list, marked_list, line_start_list);
  if (second != nullptr) {
    *second = SecondReading::kNone;
    if (!shouted && sentence_case_only(text, token_list, marked_list)) {
      *second = speaks_of_the_writer(text, token_list) ? SecondReading::kAll : SecondReading::kListedNames;
    }
  }
  // Read through spans from here on (see Tokens).
  const Tokens tokens = token_list;
  // Views only of the tokens scored and of their neighbours within reach of
  // the features, which read only the word of a token two away: most tokens
  // of a prompt are none of these. viewed[j]: 0 nothing, 1 the word, 2 all.
  // The views' vector only grows: resizing it walks every element.
  if (views.size() < tokens.size()) views.resize(tokens.size());
  viewed.assign(tokens.size(), 0);
  // The tokens viewed that are one word of a longer place's name
  // (join_place_names()), in the order they were viewed.
  thread_local IndexList place_words;
  place_words.clear();
  const bool mixed = mixed_case(text);
  // In text without capitals, the tokens viewed that a name list knows or
  // that are only_a_given_name() (add_listed_names_in_small_letters()), in
  // the order they were viewed.
  thread_local IndexList name_words;
  name_words.clear();
  auto view = [&](size_t j) {
    if (viewed[j] < 2) {
      views[j] = view_of(text, tokens[j], gazetteer_);
      viewed[j] = 2;
      if ((views[j].gazetteer.part & place_categories_) != 0) place_words.push_back(static_cast<uint32_t>(j));
      if ((views[j].gazetteer.full & name_categories_) != 0 ||
          (!mixed && (views[j].gazetteer.full | (views[j].gazetteer.part & ~place_categories_)) == 0 &&
           only_a_given_name(text, j, views[j].gazetteer, views[j].word))) {
        name_words.push_back(static_cast<uint32_t>(j));
      }
    }
  };
  auto view_word = [&](size_t j) {
    if (viewed[j] == 0) {
      views[j].word = word_hash(text, tokens[j]);
      viewed[j] = 1;
    }
  };
  auto view_around = [&](size_t i) {
    if (i >= 2) view_word(i - 2);
    if (i >= 1) view(i - 1);
    if (i + 1 < tokens.size()) view(i + 1);
    if (i + 2 < tokens.size()) view_word(i + 2);
  };
  auto marked = [&](size_t j) { return j < tokens.size() && tokens[j].marked; };
  // Whether token j (viewed), a small word in text with capitals, ends an
  // address (may_continue()): no street word, and an everyday word or one
  // before no house number.
  auto ends_an_address = [&](size_t j) {
    const Gazetteer::Match& m = views[j].gazetteer;
    if ((m.full & street_categories_) != 0) return false;
    return (m.full & common_categories_) != 0 || !number_ahead(text, tokens, j);
  };
  // In text with capitals, whether token i (viewed), before a token that is
  // not marked or at the end, opens no span: an everyday word ("Today"); an
  // everyday word of three letters at most that is no name ("The", "In",
  // but not "Bob") before a word, whatever else the lists know it as (part
  // of "The Hague", the state IN); a number before an everyday word or a
  // word that would end an address ("60 to 70 percent", "60 mambas in the
  // park"); digits before a mark ("1.",
  // "30%", "2)": a house number comes before its street). All capitals
  // are left to scoring.
  // A capitalised Cyrillic word that opens a sentence or a line, or follows
  // a mark that opens a clause (a comment's "#", a quote, a bracket, a
  // colon), before a word of small Cyrillic letters, that no list knows:
  // the sentence's first word ("Какая примерно", "Дан список", "# Папка
  // для", "(Предположительно он"), which the everyday lists (English)
  // cannot tell apart. The name lists hold Russian names.
  auto unlisted_cyrillic_opener = [&](size_t i, const Gazetteer::Match& g) {
    return static_cast<unsigned char>(text[tokens[i].begin]) == 0xd0 && (g.full | g.part) == 0 &&
           cyrillic_sentence_opener(text, tokens, i);
  };
  // A capitalised word that opens a sentence or a line, or follows a mark
  // that opens a clause, before a word of small letters, where no list
  // knows either word and the first is no possessive: the sentence's first
  // word in a language the everyday lists (English) do not hold ("Tính
  // tổng", "Terdapat barisan", "Zkus vyřešit", a comment's "' Calcular
  // escala"), or a Latin genus ("Vulpes vulpes"). English words after a
  // name are everyday words ("Kenjirou said"); "Vygotsky’s sociocultural"
  // stays a name. (Without the everyday lists no list knows "said".)
  auto unlisted_opener_before_an_unlisted_word = [&](size_t i, const Gazetteer::Match& g) {
    if (common_categories_ == 0 || (g.full | g.part) != 0 || !sentence_opener(text, tokens, i)) return false;
    if (ends_in_a_possessive(text, tokens[i])) return false;
    view(i + 1);
    return (views[i + 1].gazetteer.full | views[i + 1].gazetteer.part) == 0;
  };
  auto opens_nothing = [&](size_t i) __attribute__((always_inline)) {
    const Gazetteer::Match& g = views[i].gazetteer;
    const bool last = i + 1 == tokens.size();
    if (!last && is_number(text, tokens, i)) {
      if (all_digits(text, tokens[i]) && !is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin]))) {
        return true;  // digits only: "6Sigma," is a name
      }
      view(i + 1);
      const Gazetteer::Match& after = views[i + 1].gazetteer;
      // An everyday word alone is no street word; nor is a small word that
      // would end the address ("60 mambas in the park").
      const auto c = static_cast<unsigned char>(text[tokens[i + 1].begin]);
      const bool small_word_after = c >= 'a' && c <= 'z' && tokens[i + 1].end - tokens[i + 1].begin > 3;
      return everyday(after) || (small_word_after && ends_an_address(i + 1));
    }
    const bool small_word = !last && (g.full & common_categories_) != 0 && (g.full & name_categories_) == 0 &&
                            tokens[i].end - tokens[i].begin <= 3 &&
                            is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin]));
    // "He", a surname of the lists ("Zheng He"), before a word in small
    // letters is the pronoun ("He never comes"): 2.5k of the 88k tokens the
    // decoder scored on the dev prompts.
    const bool he = !last && text[tokens[i + 1].begin] >= 'a' && text[tokens[i + 1].begin] <= 'z' &&
                    text.substr(tokens[i].begin, tokens[i].end - tokens[i].begin) == "He";
    return ((everyday(g) || small_word) && !all_capitals(text, tokens, i)) || he || unlisted_cyrillic_opener(i, g) ||
           unlisted_opener_before_an_unlisted_word(i, g);
  };
  // In text without capitals, whether token i opens no span, as an unmarked
  // token opens none in text with capitals: a mark (no value the tagger
  // learns opens with one; none of the dev rows' 3,554 labelled values
  // does); a word only the everyday lists know before a mark, the end or a
  // word some list knows ("the price of", "ring anna"; but before a number,
  // "suite 12", or a word no list knows, "cite zorvath", it may); a word
  // that opens no value ("the", "of", "with", "a": kNeverInAName,
  // kNeverLastInAName, kDeterminers, the word sets of function_word()
  // without its test for a contraction, which searches the word for an
  // apostrophe and would run for most tokens). Most tokens of such text
  // are one of these, left out without scoring (the dev prompts in small
  // letters: 1.79M tokens scored before, 0.33M after). Views token i (and
  // i + 1).
  auto opens_nothing_in_small_letters = [&](size_t i) {
    const Token& t = tokens[i];
    if (!is_word_byte(static_cast<unsigned char>(text[t.begin]))) return true;
    view(i);
    if (everyday(views[i].gazetteer)) {
      if (i + 1 == tokens.size() || !is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin]))) return true;
      if (!is_number(text, tokens, i + 1)) {
        view(i + 1);
        if ((views[i + 1].gazetteer.full | views[i + 1].gazetteer.part) != 0) return true;
      }
    }
    return kNeverInAName.contains(text, t) || kNeverLastInAName.contains(text, t) || kDeterminers.contains(text, t) ||
           (t.end - t.begin == 1 && text[t.begin] == 'a');
  };
  // In text with capitals, a capital alone before a stop is an initial or
  // an answer's letter (join_initials()); a letter_label() opens no span
  // and names no one, so it leaves the marked tokens, which the decoder
  // lands on and the passes read: the answers' letters of a quiz ("A.",
  // "B)") are many of them. (It stays marked: a pass that asks whether a
  // token is marked gets the answer it got before.)
  const size_t marked_before = marked_list.size();
  if (mixed) {
    std::erase_if(marked_list, [&](uint32_t m) {
      if (tokens[m].end - tokens[m].begin != 1) return false;
      const char c = text[tokens[m].begin];
      if (c >= 'A' && c <= 'Z' && tokens[m].end < text.size() && text[tokens[m].end] == '.') {
        capitals_before_a_stop.push_back(m);
      }
      if (c == 'I' && m >= 2 && token_is(text, tokens[m - 1], "and")) i_after_and.push_back(m);
      return letter_label(text, tokens, m);
    });
    // (A quiz's text, with answers' letters, is no casual writing.)
    if (second != nullptr && *second == SecondReading::kListedNames && marked_list.size() != marked_before) {
      *second = SecondReading::kNone;
    }
  }
  const std::span<const uint32_t> marked_tokens = marked_list;
  const size_t tags = this->tags();
  const FeatureTables tables{buckets_ - 1, fixed_slots_, FixedSlotLayout{tags}};
  std::array<int32_t, 64> score{};
  int prev = -1, prev2 = -1;
  size_t open = 0;       // index in `out` of the span being extended, when prev is B/I
  size_t open_from = 0;  // its first token
  size_t next_marked = 0;  // in marked_tokens: the first at or after i, once looked for
  size_t listed = tokens.size();  // the token of the last listed name added
  // Whether a span found before tagging covers token t; asked in order of
  // the tokens.
  SpansFoundBefore before(out, first_tagged);
  auto found_before = [&](const Token& t) { return before.overlap(t.begin, t.end); };
  // Whether token j (viewed), a capitalised word that no everyday list
  // knows, is a surname of the lists or the census, or a word no list
  // knows: after a listed name, the same person's ("Sherrie Haddad",
  // "Nan Okafor"), which the decoder may leave out after a name it did not
  // take.
  auto surname_after_a_listed_name = [&](size_t j) {
    const Token& t = tokens[j];
    const Gazetteer::Match& m = views[j].gazetteer;
    if (t.end - t.begin < 2 || text[t.begin] < 'A' || text[t.begin] > 'Z' || all_capitals(text, tokens, j) ||
        (m.full & common_categories_) != 0) {
      return false;
    }
    if (listed_surname(text, t.begin, t.end)) return true;
    const Gazetteer::Match all = gazetteer_.lookup_all(word_hash(text, t));
    return (all.full | all.part) == 0;
  };
  // Adds token j, left outside every span, when it is a listed_name() that
  // nothing found before covers; next to the one added before, one space
  // apart, it is the same person's ("Anna Takeda"), as is a
  // surname_after_a_listed_name() there. Asked in token order.
  auto add_if_listed = [&](size_t j) {
    if (!mixed) return;
    const bool next_to_listed = listed + 1 == j && out.size() > first_tagged &&
                                out.back().end + 1 == tokens[j].begin && text[out.back().end] == ' ';
    if (!(listed_name(text, j) || (next_to_listed && surname_after_a_listed_name(j))) || found_before(tokens[j])) {
      return;
    }
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[j].begin;
    const uint32_t end = tokens[j].begin + static_cast<uint32_t>(possessive_stem(b, tokens[j].end - tokens[j].begin));
    if (next_to_listed) {
      out.back().end = end;
    } else {
      out.push_back({PiiType::kPerson, tokens[j].begin, end});
    }
    listed = j;
  };
  // Closes the span open over tokens [open_from, to): finish_span(), or
  // drops it; the tokens of a span dropped may still be listed names.
  auto close_open = [&](size_t to) {
    if (finish_span(text, out[open], open_from, to, mixed)) return;
    out.pop_back();
    for (size_t j = open_from; j < to; ++j) add_if_listed(j);
  };
  // Decoding asks `stop` every 1,024 tokens it steps on (it steps over
  // most tokens of text with capitals at once).
  uint32_t until_stop_asked = 1024;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (--until_stop_asked == 0) [[unlikely]] {
      if (stop && stop()) return false;
      until_stop_asked = 1024;
    }
    // In text with capitals, a span opens at a marked token (a capital, a
    // digit, a non-ASCII letter but a small one of Latin-1, Greek or
    // Cyrillic): other tokens outside a span are O without
    // scoring, which spares most of the words of a prompt. The loop goes
    // straight to the next marked token, as if it had stepped over each.
    if (mixed && prev <= 0 && !tokens[i].marked) {
      while (next_marked < marked_tokens.size() && marked_tokens[next_marked] < i) ++next_marked;
      const size_t to = next_marked < marked_tokens.size() ? marked_tokens[next_marked] : tokens.size();
      prev2 = to - i >= 2 ? 0 : prev;
      prev = 0;
      i = to - 1;
      continue;
    }
    // Token i is O without scoring: it ends the span open before.
    auto leave_out = [&] {
      if (prev > 0) close_open(i);
      prev2 = prev;
      prev = 0;
    };
    // (A letter label is one byte: most tokens are turned away here, before
    // the call.)
    if (mixed && tokens[i].end - tokens[i].begin == 1) {
      const char c = text[tokens[i].begin];
      // Outside a span, a capital letter alone on its line labels too: a
      // worked example's answer ("Answer:\nB"), which would otherwise
      // colour how the next line's first word is read. (Within an address
      // it is the address's: "Apt. 5\n G".)
      const bool alone_on_its_line = prev <= 0 && c >= 'A' && c <= 'Z' && (i == 0 || tokens[i].newline_before) &&
                                     i + 1 < tokens.size() && tokens[i + 1].newline_before;
      if (alone_on_its_line || letter_label(text, tokens, i)) {
        leave_out();
        continue;
      }
    }
    if (!caseless_values_ && beyond_ascii &&
        holds_a_caseless_letter(reinterpret_cast<const unsigned char*>(text.data()) + tokens[i].begin,
                                tokens[i].end - tokens[i].begin)) {
      caseless_words.push_back(static_cast<uint32_t>(i));
      leave_out();
      continue;
    }
    // A token that may not continue the span opens none either, as outside
    // a span: a mark that continued no span in training ("Dennis:",
    // "Paris?"); in text with capitals, a lower-case word may_continue()
    // refuses ("George wants").
    // Nor does a dash, quote mark or ellipsis (pii_tokens::clause_mark():
    // "venice—the trades"), nor a hyphen or an en dash with a blank on each
    // side, which parts a line's fields ("Diego Alvarez - ext. 251"; no
    // labelled value of the dev rows holds one).
    const auto first_byte = static_cast<unsigned char>(text[tokens[i].begin]);
    if (prev > 0 && ((!is_word_byte(first_byte) && !continuing_marks_.test(first_byte)) ||
                     pii_tokens::clause_mark(reinterpret_cast<const unsigned char*>(text.data()) + tokens[i].begin,
                                             tokens[i].end - tokens[i].begin) ||
                     (__builtin_expect(first_byte == '-' || first_byte == 0xe2, 0) &&
                      dash_between_blanks(text, tokens, i)))) {
      leave_out();
      continue;
    }
    if (!mixed && prev <= 0 && opens_nothing_in_small_letters(i)) {
      leave_out();
      continue;
    }
    view(i);
    const size_t open_type = prev > 0 ? static_cast<size_t>(prev - 1) / 2 : types_.size();
    const bool may_go_on =
        open_type < types_.size() &&
        may_continue(text, tokens, i, types_[open_type], mixed, [&] { return ends_an_address(i); }) &&
        span_may_grow(text, tokens, open_from, i, types_[open_type]);
    // Whether no span open takes token i in.
    const bool not_taken = prev <= 0 || !may_go_on;
    // Outside a span, or where the span open may not take a list's number
    // in ("3. Sara Lind\n4. John Kask"), a token that opens nothing is left
    // out. (Another token after a span closed stays scored: the decoder
    // learnt that a title's line follows a name's, "Anna Berg\nTraining
    // coordinator", and a postcode's a place's, "NB\n 11933".)
    const bool outside = prev <= 0 || (not_taken && list_number(text, tokens, i));
    // Nor does a number of one to three digits alone in a table's last
    // cell (a count or an age after a tab: "Anna Berg\t34\nMark Olsen"): a
    // house number comes before its street on its line, and no labelled
    // value opens so.
    if ((i + 1 == tokens.size() || tokens[i + 1].newline_before) && not_taken && i > 0 &&
        tokens[i].end - tokens[i].begin <= 3 &&
        tab_between(text, tokens, i) && all_digits(text, tokens[i])) {
      leave_out();
      continue;
    }
    if (mixed && outside && !marked(i + 1) && opens_nothing(i)) {
      if (organisations && names_an_organisation(text, tokens, i)) {
        fallbacks.push_back({PiiType::kOrganization, tokens[i].begin, tokens[i].end});
      }
      leave_out();
      continue;
    }
    if (mixed && prev <= 0 && (views[i].gazetteer.full & common_categories_) != 0 &&
        verb_before_a_pronoun(text, tokens, i)) {
      leave_out();
      continue;
    }
    if (mixed && prev > 0 && !tokens[i].marked && !may_go_on) {
      leave_out();
      continue;
    }
    view_around(i);
    add_affixes(text, tokens[i], views[i]);
    features(tables, {views.data(), tokens.size()}, i, prev, prev2, mixed, f);
    // Outside a span (prev <= 0) only O and the B- tags can win.
    pii_scores::add_scores(open_rows_.data(), row_of_slot_.data(), {f.begin(), f.end()}, open_width(), score.data());
    if (prev > 0) {
      pii_scores::add_scores(continue_rows_.data(), row_of_slot_.data(), {f.begin(), f.end()}, continue_width(),
                             score.data() + open_width());
    }
    // An unknown_subject() is a name or an organisation, whichever scores
    // higher, when no span covers it in the end.
    if (!mixed && prev <= 0 && unknown_subject(text, tokens, i, views, common_categories_)) {
      std::optional<PiiType> type;
      int32_t type_score = 0;
      for (size_t t = 0; t < types_.size(); ++t) {
        if ((types_[t] == PiiType::kPerson || types_[t] == PiiType::kOrganization) &&
            (!type || score[1 + t] > type_score)) {
          type = types_[t];
          type_score = score[1 + t];
        }
      }
      if (type) fallbacks.push_back({*type, tokens[i].begin, tokens[i].end});
    }
    // The best of O and the B- tags, and of the I- tag of the span open
    // before (an I- tag only continues a span of its own type) where
    // may_continue() allows it; in tag order, the first of equal scores.
    int best = 0;
    int32_t best_score = score[0];
    for (size_t t = 0; t < types_.size(); ++t) {
      if (score[1 + t] > best_score) {
        best = static_cast<int>(1 + 2 * t);
        best_score = score[1 + t];
      }
      if (t == open_type && may_go_on && score[open_width() + t] > best_score) {
        best = static_cast<int>(2 + 2 * t);
        best_score = score[open_width() + t];
      }
    }
    // A street's suffix after a number and the street's name continues the
    // address the decoder opened at the number ("15 Elm Street.", "at 15
    // Elm St."). (Templates of the dev rows leave a literal "Street" or
    // "St." after the street's name out of the label, which teaches the
    // decoder to stop before one that a stop follows.)
    if (may_go_on && best != static_cast<int>(2 + 2 * open_type) && types_[open_type] == PiiType::kStreetAddress &&
        suffix_of_a_numbered_street(text, tokens, views, open_from, i, mixed, street_suffix_categories_)) [[unlikely]] {
      best = static_cast<int>(2 + 2 * open_type);
    }
    const bool continues = best > 0 && best % 2 == 0;
    if (prev > 0 && !continues) close_open(i);
    if (best > 0 && best % 2 == 1) {
      open = out.size();
      open_from = i;
      out.push_back({types_[static_cast<size_t>(best - 1) / 2], tokens[i].begin, tokens[i].end});
    } else if (best > 0) {
      out[open].end = tokens[i].end;
    } else {
      add_if_listed(i);
    }
    prev2 = prev;
    prev = best;
  }
  if (prev > 0) close_open(tokens.size());
  if (stop && stop()) return false;
  cut_openings_found_before(text, tokens, out, first_tagged);
  reset_cover();
  if (add_numbered_streets(text, marked_tokens, out, first_tagged, mixed)) {
    sort_by_begin(out, first_tagged);
  }
  std::sort(place_words.begin(), place_words.end());
  join_place_names(text, place_words, viewed, out, first_tagged, mixed);
  const size_t decoded = out.size();
  // The passes that read addresses only, and change nothing without one
  // (most texts have none), are not entered then: their code stays out of
  // the instruction cache.
  auto has_address = [&] {
    return std::any_of(out.begin(), out.end(),
                       [](const PiiSpan& span) { return span.type == PiiType::kStreetAddress; });
  };
  // So are the passes that read only the spans of this tagging, where it
  // has none (half the dev prompts).
  auto tagged = [&] { return out.size() > first_tagged; };
  if (has_address()) {
    cut_envelopes(text, out, first_tagged, decoded);
    add_house_numbers(text, out, first_tagged, decoded);
    add_address_lines(text, out, decoded, mixed);
  }
  if (tagged()) add_postcodes_after_places(text, out, first_tagged, decoded);
  if (has_address()) add_letterheads(text, out, first_tagged, decoded, mixed);
  if (tagged()) add_appositive_titles(text, out, first_tagged, decoded);
  add_introduced_names(text, marked_tokens, out, first_tagged, mixed);
  if (mixed) {
    add_small_letter_names_after_cues(text, i_after_and, line_start_list, out, first_tagged);
    add_full_names_of_listed_words(text, marked_tokens, out);
    add_names_before_a_colon(text, out);
    add_small_letter_first_names_in_series(text, out);
  }
  if (!mixed) {
    // (In text with capitals, add_small_letter_names_after_cues() runs it.)
    add_names_after_titles_of_address(text, {}, out, first_tagged, false);
    add_places_in_small_letters(text, viewed, out);
    if (organisations) add_organisations_in_small_letters(text, viewed, out, first_tagged);
    add_surnames_in_small_letters(text, out, first_tagged);
    add_family_names_in_small_letters(text, out);
    std::sort(name_words.begin(), name_words.end());
    add_listed_names_in_small_letters(text, name_words, out, first_tagged);
    // (After the passes above, whose names are whole: "professor wiremu
    // tane" before the cue's "wiremu".)
    add_small_letter_names_after_cues(text, i_after_and, line_start_list, out, first_tagged);
    add_surname_initials_in_small_letters(text, out, first_tagged);
    add_initialled_names_in_small_letters(text, out);
  }
  add_gaelic_surnames_in_small_letters(text, out, first_tagged);
  if (tagged()) add_joined_names(text, out, first_tagged, mixed);
  // (After the names joined over a middle initial: "john f. kennedy".)
  if (tagged()) join_small_initials_to_names(text, out, first_tagged);
  if (mixed && tagged()) {
    add_capitalised_surnames(text, out, first_tagged);
    add_capitalised_first_names(text, out, first_tagged);
  }
  if (mixed) add_named_organisations(text, marked_tokens, out, first_tagged);
  // The names added come after the decoded spans: back in order of begin.
  if (out.size() > decoded) {
    sort_by_begin(out, first_tagged);
  }
  join_initials(text, capitals_before_a_stop, out, first_tagged, mixed);
  if (mixed && !capitals_before_a_stop.empty()) add_surname_initials(text, capitals_before_a_stop, out, first_tagged);
  if (mixed) add_names_in_capitals(text, line_start_list, out, first_tagged);
  if (has_address()) {
    add_street_lines(text, out, first_tagged);
    split_house_numbers(text, out, first_tagged);
    join_addresses_in_sentences(text, out, first_tagged);
  }
  if (tagged()) join_envelopes_below_headings(text, out, first_tagged);
  join_street_corners(text, marked_tokens, out, first_tagged, mixed);
  if (has_address()) {
    split_address_lists(text, out, first_tagged);
    split_street_places(text, out, first_tagged, mixed);
    cut_trailing_street_words(text, out, first_tagged);
    finish_streets_ending_in_a_particle(text, out, first_tagged);
    join_units_after_streets(text, out, first_tagged);
  }
  if (tagged()) split_name_titles(text, out, first_tagged);
  if (has_address()) {
    join_words_before_addresses(text, out, first_tagged, mixed);
    type_company_lines(text, out, first_tagged, mixed);
  }
  if (tagged()) split_coordinated_names(text, out, first_tagged);
  if (tagged()) split_places_before_names(text, out, first_tagged, mixed);
  if (tagged()) join_full_names_in_series(text, out, first_tagged, mixed);
  if (mixed || tagged()) join_surname_firms(text, out, first_tagged, mixed);
  if (tagged()) {
    join_named_offices(text, out, first_tagged);
    type_envelope_places(text, out, first_tagged);
    drop_lone_numbers(text, out, first_tagged);
    drop_code_identifiers(text, out, first_tagged);
    drop_words_naming_no_one(text, out, first_tagged);
    type_continents(text, out, first_tagged);
    type_polities(text, out, first_tagged);
    add_names_of_states(text, out, first_tagged, mixed);
    type_places_ending_in_a_surname(text, out, first_tagged, mixed);
    if (mixed) type_firms_of_a_full_name(text, out, first_tagged);
    type_signatures(text, out, first_tagged);
    type_senders(text, out, first_tagged);
    type_people_of_an_age(text, out, first_tagged);
  }
  if (tagged() && add_other_mentions_of_names(text, marked_tokens, out, first_tagged, mixed)) {
    sort_by_begin(out, first_tagged);
  }
  if (!caseless_words.empty()) {
    add_names_in_caseless_scripts(text, caseless_words, out, first_tagged);
    add_self_introductions_in_caseless_scripts(text, caseless_words, out, first_tagged);
  }
  add_military_addresses(text, marked_tokens, out, first_tagged);
  add_numbered_buildings(text, marked_tokens, out, first_tagged, mixed);
  add_handles_of_people(text, out, first_tagged);
  add_names_before_bracketed_relatives(text, out, first_tagged);
  add_mailbox_names(text, out, first_tagged, mixed);
  if (mixed) add_unlisted_full_names(text, marked_tokens, out, first_tagged);
  // (A fallback is added after the passes: "zoolander is a 2001 american
  // action-comedy film" is asked here.)
  std::erase_if(fallbacks, [&](const PiiSpan& span) { return titles_a_work(text, span); });
  add_uncovered(out, first_tagged, fallbacks);
  if (tagged()) {
    join_names_across_particles(text, out, first_tagged);
    join_hyphenated_names(text, out, first_tagged);
    add_booked_names(text, out, first_tagged, mixed);
  }
  add_hyphenated_given_names(text, out, first_tagged, mixed);
  if (tagged()) add_names_in_lists_of_names(text, line_start_list, out, first_tagged);
  tagger_tables::type_table_cells(text, tokens, line_start_list, mixed, out, first_tagged);
  return true;
}

std::string PiiTagger::serialize() const {
  std::string out(kMagic);
  little_endian::append<uint32_t>(out, kFormatVersion);
  little_endian::append<uint32_t>(out, static_cast<uint32_t>(types_.size()));
  for (PiiType t : types_) {
    const std::string_view name = pii_type_name(t);
    out += static_cast<char>(name.size());
    out += name;
  }
  little_endian::append<uint32_t>(out, buckets_);
  for (size_t half = 0; half < 2; ++half) {
    uint64_t bits = 0;
    for (size_t b = 0; b < 64; ++b) bits |= uint64_t{continuing_marks_.test(64 * half + b)} << b;
    little_endian::append<uint64_t>(out, bits);
  }
  out += static_cast<char>(caseless_values_ ? 1 : 0);
  // The file holds tags() floats per slot in tag order, without padding.
  out.reserve(out.size() + size_t{buckets_} * tags() * sizeof(float));
  for (size_t slot = 0; slot < buckets_; ++slot) {
    for (size_t k = 0; k < tags(); ++k) {
      little_endian::append<uint32_t>(out, std::bit_cast<uint32_t>(weights_[slot * tags() + k]));
    }
  }
  gazetteer_.serialize(out);
  return out;
}

StatusOr<PiiTagger> PiiTagger::parse(std::string_view bytes, std::string_view source) {
  const std::string where(source);
  size_t at = 0;
  auto u32 = [&](uint32_t& v) { return little_endian::read(bytes, at, v); };
  if (!bytes.starts_with(kMagic)) return invalid_argument(where + ": not a tiergate PII tagger (train one with `tiergate pii train`)");
  at = kMagic.size();
  uint32_t version = 0, types = 0, buckets = 0;
  if (!u32(version)) return invalid_argument(where + ": truncated");
  if (version != kFormatVersion) {
    return invalid_argument(where + ": tagger format " + std::to_string(version) + ", this build reads " +
                            std::to_string(kFormatVersion) + "; retrain it with `tiergate pii train`");
  }
  if (!u32(types) || types == 0 || types > 30) return invalid_argument(where + ": truncated or damaged type list");
  PiiTagger t;
  for (uint32_t k = 0; k < types; ++k) {
    if (at >= bytes.size()) return invalid_argument(where + ": truncated type list");
    const size_t len = static_cast<unsigned char>(bytes[at++]);
    if (bytes.size() - at < len) return invalid_argument(where + ": truncated type list");
    const auto type = parse_pii_type(bytes.substr(at, len));
    if (!type || !tagger_learns(*type)) {
      return invalid_argument(where + ": unknown tagged type '" + std::string(bytes.substr(at, len)) + "'");
    }
    t.types_.push_back(*type);
    at += len;
  }
  if (!u32(buckets) || !std::has_single_bit(buckets) || buckets > (1u << 24)) {
    return invalid_argument(where + ": damaged bucket count");
  }
  t.buckets_ = buckets;
  for (size_t half = 0; half < 2; ++half) {
    uint64_t bits = 0;
    if (!little_endian::read(bytes, at, bits)) return invalid_argument(where + ": truncated marks");
    for (size_t b = 0; b < 64; ++b) t.continuing_marks_.set(64 * half + b, (bits >> b) & 1);
  }
  if (at >= bytes.size() || static_cast<unsigned char>(bytes[at]) > 1) {
    return invalid_argument(where + ": truncated or damaged flags after the marks");
  }
  t.caseless_values_ = bytes[at++] == 1;
  const size_t n = size_t{buckets} * t.tags();
  if (bytes.size() - at < n * sizeof(float)) {
    return invalid_argument(where + ": " + std::to_string(bytes.size() - at) + " weight bytes where " +
                            std::to_string(n * sizeof(float)) + " were due (truncated or damaged)");
  }
  std::vector<float> by_tag(n);
  for (size_t k = 0; k < n; ++k) {
    uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= uint32_t{static_cast<unsigned char>(bytes[at + 4 * k + static_cast<size_t>(b)])} << (8 * b);
    by_tag[k] = std::bit_cast<float>(bits);
    // set_weights() scales by the largest: one infinity or NaN would wreck
    // every score.
    if (!std::isfinite(by_tag[k])) return invalid_argument(where + ": a weight that is no finite number (damaged file)");
  }
  t.set_weights(std::move(by_tag));
  t.fixed_slots_ = fixed_slots(buckets - 1, t.tags());
  at += n * sizeof(float);
  auto gazetteer = Gazetteer::parse(bytes, at, source);
  if (!gazetteer.is_ok()) return gazetteer.status();
  if (at != bytes.size()) return invalid_argument(where + ": " + std::to_string(bytes.size() - at) + " unexpected bytes at the end");
  t.gazetteer_ = std::move(gazetteer).value();
  t.find_categories();
  return t;
}

StatusOr<PiiTagger> load_pii_tagger(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(path + ": cannot read the tagger");
  std::stringstream bytes;
  bytes << in.rdbuf();
  return PiiTagger::parse(bytes.str(), path);
}

namespace {

// The value of the one to three digits at text[at...] when they make an age
// (1 to 129) and `close` follows them ('\0': the text's end, a stop, a
// comma, "!" or "?"); 0 otherwise. `end` is set past the digits.
int age_at(std::string_view text, size_t at, char close, size_t& end) {
  end = at;
  int value = 0;
  while (end < text.size() && end - at < 3 && text[end] >= '0' && text[end] <= '9') {
    value = value * 10 + (text[end] - '0');
    ++end;
  }
  if (end == at || value < 1 || value > 129) return 0;
  // (A fourth digit stands where the closing mark should.)
  if (close != '\0') return end < text.size() && text[end] == close ? value : 0;
  if (end == text.size()) return value;
  const char c = text[end];
  const bool closes = c == '.' || c == ',' || c == '!' || c == '?' || c == ';' || c == '\n';
  // (Not a decimal, "2.5", nor a time, "is 10.30".)
  return closes && !(c == '.' && end + 1 < text.size() && text[end + 1] >= '0' && text[end + 1] <= '9') ? value : 0;
}

// Appends the ages set off after a name, as news writes them: "Jane Doe, 34,
// of Springfield", "Mark Olsen (52) was": one to three digits, 1 to 129,
// between ", " and "," or between " (" and ")", after a name of `out`; and
// an age stated of a name, where the number ends the clause: "Jennifer
// Lopez is 52.", "Anna turned 40!" (not "Anna is 5 minutes late").
void add_appositive_ages(std::string_view text, std::vector<PiiSpan>& out) {
  static constexpr std::array<std::string_view, 5> kStatedBy = {" is ", " was ", " turns ", " turned ", " just turned "};
  const size_t spans = out.size();
  for (size_t k = 0; k < spans; ++k) {
    if (out[k].type != PiiType::kPerson) continue;
    const size_t open = out[k].end;
    if (open + 3 >= text.size()) continue;
    size_t end = 0;
    const char close = text.substr(open, 2) == ", " ? ',' : text.substr(open, 2) == " (" ? ')' : '\0';
    if (close != '\0' && age_at(text, open + 2, close, end) != 0) {
      out.push_back({PiiType::kAge, static_cast<uint32_t>(open + 2), static_cast<uint32_t>(end)});
      continue;
    }
    for (const std::string_view verb : kStatedBy) {
      if (text.substr(open, verb.size()) != verb) continue;
      const size_t at = open + verb.size();
      if (age_at(text, at, '\0', end) != 0) out.push_back({PiiType::kAge, static_cast<uint32_t>(at), static_cast<uint32_t>(end)});
      break;
    }
  }
}

// Whether `span` is an address of more than 6 lines: a list of addresses,
// or a list or a table whose lines the passes that join an address's lines
// ran over ("9 Plains\n7 Mountain\n1 Sundering Eruption\n...", a table's
// column of numbers), no one address; the labelled dev rows' longest
// address has 4. (A long span on fewer lines stays: one over a line of 59
// authors' names would leave the names out.)
bool overlong_address(std::string_view text, const PiiSpan& span) {
  if (span.type != PiiType::kStreetAddress) return false;
  size_t lines = 1;
  for (uint32_t b = span.begin; b < span.end && lines <= 6; ++b) lines += text[b] == '\n' ? 1 : 0;
  return lines > 6;
}

// Appends the lines of an overlong_address() `span`, each an address of
// its own without the blanks and marks around it, to `out`, but a line of
// one or two digits alone (a list's count): such a span over a list of 60
// letters' addresses was dropped whole before, and none of the addresses
// was redacted. (A card deck's list stays covered line by line, as
// redaction errs to.)
void add_lines_of_an_overlong_address(std::string_view text, const PiiSpan& span, std::vector<PiiSpan>& out) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  uint32_t line = span.begin;
  while (line < span.end) {
    uint32_t end = line;
    while (end < span.end && bytes[end] != '\n') ++end;
    uint32_t b = line, e = end;
    while (b < e && !is_word_byte(bytes[b])) ++b;
    while (e > b && !is_word_byte(bytes[e - 1])) --e;
    const bool count = e - b <= 2 && all_digits(text, Token{b, e, false, false});
    if (e > b && !count) out.push_back({PiiType::kStreetAddress, b, e});
    line = end + 1;
  }
}

// The scan of a plain text (scan_text()).
bool scan_plain_text(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out, const ScanStop& stop) {
  const size_t first = out.size();  // this text's spans: out[first...]
  find_structured_pii(text, out);
  if (tagger == nullptr) return true;
  if (stop && stop()) return false;
  if (!tagger->tag(text, out, stop)) return false;
  add_appositive_ages(text, out);
  resolve_pii_overlaps(out);
  // A tagger's span cut short before a better one ends on its last word
  // (or an abbreviation's stop: "Apt."; tagger_rules::
  // end_before_a_sentence_stop()), or goes; nor does one open or end with a mark of
  // more than one byte (pii_tokens::mark_length(): a quote mark, a dash, a
  // no-break space), which the tokenizer counts into the word it touches
  // ("“Remote Timing Attacks", "Huygens’"), nor runs into small letters
  // glued after such a mark (tagger_rules::end_before_a_glued_clause()).
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  thread_local std::vector<PiiSpan> lines_of_overlong_addresses;
  lines_of_overlong_addresses.clear();
  size_t kept = 0;
  for (PiiSpan& span : out) {
    if (tagger_learns(span.type)) {
      span.end = end_before_a_glued_clause(text, span);
      span.end = end_before_a_sentence_stop(text, span);
      for (;;) {
        if (span.end > span.begin && !is_word_byte(bytes[span.end - 1]) && bytes[span.end - 1] != '.') {
          --span.end;
        } else if (span.end - span.begin >= 3 && pii_tokens::mark_length(bytes + span.end - 3, 3) == 3) {
          span.end -= 3;
        } else if (span.end - span.begin >= 2 && pii_tokens::mark_length(bytes + span.end - 2, 2) == 2) {
          span.end -= 2;
        } else {
          break;
        }
      }
      // Marks at the start go with the blanks after them ("– 15").
      while (const size_t mark = pii_tokens::mark_length(bytes + span.begin, span.end - span.begin)) {
        span.begin += static_cast<uint32_t>(mark);
        while (span.begin < span.end &&
               (bytes[span.begin] == ' ' || bytes[span.begin] == '\t' || bytes[span.begin] == '\n')) {
          ++span.begin;
        }
      }
    }
    if (span.end <= span.begin) continue;
    if (overlong_address(text, span)) {
      add_lines_of_an_overlong_address(text, span, lines_of_overlong_addresses);
    } else {
      out[kept++] = span;
    }
  }
  out.resize(kept);
  if (!lines_of_overlong_addresses.empty()) {
    out.insert(out.end(), lines_of_overlong_addresses.begin(), lines_of_overlong_addresses.end());
    sort_by_begin(out, first);
  }
  pii_scan::drop_data_labels(text, out, first);
  return true;
}

// find_pii(), with or without `stop` (one function on the stack under
// either name, for bench/pii_instructions.sh's callgrind). The detectors
// read escapes for blanks as blanks ("\n4111 1111 1111 1111": a card
// number, "\nKyle": Kyle) and the text made plain (a no-break space as a
// space, a zero-width space as nothing); the spans are mapped back to the
// text as written.
bool scan_text(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out, const ScanStop& stop) {
  thread_local std::string unescaped;
  thread_local pii_scan::PlainText plain;
  text = pii_scan::without_blank_escapes(text, unescaped);
  const std::string_view scanned = pii_scan::plain_text(text, plain);
  const bool complete = scan_plain_text(scanned, tagger, out, stop);
  if (scanned.data() != text.data()) {
    for (PiiSpan& span : out) span = {span.type, plain.offset[span.begin], plain.offset[span.end]};
  }
  return complete;
}

}  // namespace

void find_pii(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out) {
  scan_text(text, tagger, out, ScanStop{});
}

bool find_pii(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out, const ScanStop& stop) {
  return scan_text(text, tagger, out, stop);
}

}  // namespace tiergate
