#include "tiergate/privacy/pii_tagger.h"

#include "tiergate/privacy/structured_pii.h"

#include "little_endian.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <sstream>
#include <numeric>
#include <random>

namespace tiergate {
namespace {

constexpr std::string_view kMagic = "TGPIITAG";
constexpr uint32_t kFormatVersion = 2;  // 2: a gazetteer follows the weights

struct Token {
  uint32_t begin = 0, end = 0;
  bool newline_before = false;
};

bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// Words (runs of word bytes, an apostrophe inside one included) and single
// marks; white space separates and is noted when it holds a line break.
void tokenize(std::string_view text, std::vector<Token>& out) {
  out.clear();
  bool newline = false;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      newline = newline || c == '\n';
      ++i;
      continue;
    }
    size_t end = i + 1;
    if (is_word_byte(c)) {
      while (end < n && (is_word_byte(p[end]) || (p[end] == '\'' && end + 1 < n && is_word_byte(p[end + 1])))) ++end;
    }
    out.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(end), newline});
    newline = false;
    i = end;
  }
}

uint64_t mix(uint64_t h) {  // splitmix64 finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// What a token contributes to its own and its neighbours' features.
struct TokenView {
  uint64_t word = 0, shape = 0, prefix = 0, suffix = 0;
  Gazetteer::Match gazetteer;
  bool capitalised = false;
  bool newline_before = false;
};

// Whether a token opening with `first` is marked: an upper-case letter, a
// digit or a non-ASCII byte.
bool is_marked(unsigned char first) {
  return (first >= 'A' && first <= 'Z') || (first >= '0' && first <= '9') || first >= 0x80;
}

// FNV-1a hashes of the lower-cased word, its first and last three bytes, and
// its shape, computed in one pass without copying the word: this runs for
// every token scanned. Then the word's gazetteer matches.
TokenView view_of(std::string_view text, const Token& t, const Gazetteer& gazetteer) {
  const std::string_view s = text.substr(t.begin, t.end - t.begin);
  constexpr uint64_t kOffset = 1469598103934665603ull, kPrime = 1099511628211ull;
  uint64_t word = kOffset, prefix = 11, suffix = 13, shape = 7;
  char last_shape = 0;
  size_t shape_len = 0;
  const size_t suffix_from = s.size() > 3 ? s.size() - 3 : 0;
  for (size_t k = 0; k < s.size(); ++k) {
    const char c = s[k];
    const auto l = static_cast<unsigned char>(lower(c));
    word = (word ^ l) * kPrime;
    if (k < 3) prefix = (prefix ^ l) * kPrime;
    if (k >= suffix_from) suffix = (suffix ^ l) * kPrime;
    // Shape: X upper, x lower, d digit, the mark itself; runs collapsed; 6 at most.
    const auto u = static_cast<unsigned char>(c);
    const char kind = (c >= 'A' && c <= 'Z')                      ? 'X'
                      : (c >= 'a' && c <= 'z') || u >= 0x80        ? 'x'
                      : (c >= '0' && c <= '9')                    ? 'd'
                                                                  : c;
    if (shape_len < 6 && (shape_len == 0 || kind != last_shape)) {
      shape = (shape ^ static_cast<unsigned char>(kind)) * kPrime;
      last_shape = kind;
      ++shape_len;
    }
  }
  TokenView v;
  v.word = word;
  v.shape = shape;
  v.prefix = prefix;
  v.suffix = suffix;
  v.capitalised = s[0] >= 'A' && s[0] <= 'Z';
  v.newline_before = t.newline_before;
  v.gazetteer = gazetteer.lookup(word);
  return v;
}

// Feature templates; each hashes with its own id.
enum Template : uint64_t {
  kBias = 1, kWord, kShape, kPrefix, kSuffix, kPrevTag, kPrevTags, kWordBefore, kWordAfter, kWord2Before,
  kWord2After, kShapeBefore, kShapeAfter, kCap, kCapBefore, kCapAfter, kPrevTagWord, kNewline, kBoundary,
  kGazetteerFull, kGazetteerPart
};

// The feature slots of token i given the two previous tags. `mixed_case`:
// capitalisation is only evidence in text that is not all lower case.
// `context_words` false leaves out the words around the token (training's
// context dropout).
void features(const std::vector<TokenView>& v, size_t i, int prev, int prev2, bool mixed_case, uint32_t slots,
              std::vector<uint32_t>& out, bool context_words = true) {
  out.clear();
  auto add = [&](Template t, uint64_t value) { out.push_back(static_cast<uint32_t>(mix(value * 31 + t)) & slots); };
  constexpr uint64_t kStart = 0x5354415254ull, kEnd = 0x454e44ull;
  auto word_at = [&](ptrdiff_t j) {
    return j < 0 ? kStart : static_cast<size_t>(j) >= v.size() ? kEnd : v[static_cast<size_t>(j)].word;
  };
  auto shape_at = [&](ptrdiff_t j) {
    return j < 0 ? kStart : static_cast<size_t>(j) >= v.size() ? kEnd : v[static_cast<size_t>(j)].shape;
  };
  const auto at = static_cast<ptrdiff_t>(i);
  add(kBias, 0);
  add(kWord, v[i].word);
  add(kShape, v[i].shape);
  add(kPrefix, v[i].prefix);
  add(kSuffix, v[i].suffix);
  add(kPrevTag, static_cast<uint64_t>(prev + 2));
  add(kPrevTags, static_cast<uint64_t>((prev2 + 2) * 1000 + prev + 2));
  if (context_words) {
    add(kWordBefore, word_at(at - 1));
    add(kWordAfter, word_at(at + 1));
    add(kWord2Before, word_at(at - 2));
    add(kWord2After, word_at(at + 2));
  }
  add(kShapeBefore, shape_at(at - 1));
  add(kShapeAfter, shape_at(at + 1));
  add(kPrevTagWord, v[i].word * 131 + static_cast<uint64_t>(prev + 2));
  if (mixed_case) {
    if (v[i].capitalised) add(kCap, 1);
    if (i > 0 && v[i - 1].capitalised) add(kCapBefore, 1);
    if (i + 1 < v.size() && v[i + 1].capitalised) add(kCapAfter, 1);
  }
  if (v[i].newline_before) add(kNewline, 1);
  if (i + 1 < v.size() && v[i + 1].newline_before) add(kBoundary, 1);
  // Gazetteer categories of the token and its neighbours: (category, offset).
  for (ptrdiff_t offset = -1; offset <= 1; ++offset) {
    const ptrdiff_t j = at + offset;
    if (j < 0 || static_cast<size_t>(j) >= v.size()) continue;
    const Gazetteer::Match m = v[static_cast<size_t>(j)].gazetteer;
    for (uint32_t bits = m.full; bits != 0; bits &= bits - 1) {
      add(kGazetteerFull, static_cast<uint64_t>(std::countr_zero(bits)) * 4 + static_cast<uint64_t>(offset + 1));
    }
    for (uint32_t bits = m.part; bits != 0; bits &= bits - 1) {
      add(kGazetteerPart, static_cast<uint64_t>(std::countr_zero(bits)) * 4 + static_cast<uint64_t>(offset + 1));
    }
  }
}

// score[k] = the sum over the feature slots of weights[slot * tags + k].
void add_scores(const float* weights, const std::vector<uint32_t>& slots, size_t tags, float* score) {
  std::fill(score, score + tags, 0.0f);
  for (uint32_t s : slots) {
    const float* ws = weights + size_t{s} * tags;
    for (size_t k = 0; k < tags; ++k) score[k] += ws[k];
  }
}

// Whether token i may continue a span of `type` that covers token i - 1
// (i > 0): no span but an address runs across a line break, and none runs
// past the end of a sentence ("?", "!", or a "." that does not close an
// abbreviation of at most three letters such as "Dr." or "Apt."). In text
// with capitals (`mixed`), a name, a place or an organisation does not run
// into a small word of four letters or more ("George wants", "My name");
// "van", "de la", "of" may stand inside.
bool may_continue(std::string_view text, const std::vector<Token>& tokens, size_t i, PiiType type, bool mixed) {
  if (tokens[i].newline_before && type != PiiType::kStreetAddress) return false;
  const auto first = static_cast<unsigned char>(text[tokens[i].begin]);
  if (mixed && (type == PiiType::kPerson || type == PiiType::kLocation || type == PiiType::kOrganization) && first >= 'a' && first <= 'z' &&
      tokens[i].end - tokens[i].begin > 3) {
    return false;
  }
  const Token& before = tokens[i - 1];
  if (before.end - before.begin != 1) return true;
  const char mark = text[before.begin];
  if (mark == '?' || mark == '!') return false;
  if (mark != '.') return true;
  if (i < 2) return false;
  const Token& word = tokens[i - 2];
  return word.end == before.begin && word.end - word.begin <= 3 && is_word_byte(static_cast<unsigned char>(text[word.begin]));
}

// The tokens and views of the text being tagged, per thread: tag() fills
// them, plausible() reads them.
std::vector<Token>& tagger_tokens() {
  thread_local std::vector<Token> tokens;
  return tokens;
}
std::vector<TokenView>& tagger_views() {
  thread_local std::vector<TokenView> views;
  return views;
}

// Whether token i is written in capitals throughout ("SAP", "MOSS"): an
// acronym or a name in a letterhead, not the everyday word it spells.
bool all_capitals(std::string_view text, const std::vector<Token>& tokens, size_t i) {
  const Token& t = tokens[i];
  return t.end - t.begin >= 2 &&
         std::all_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= 'A' && c <= 'Z'; });
}

// The gazetteer categories whose names start with `prefix`: "street" (street
// names and suffixes) and "common" (everyday words) mean something to
// plausible(), "company" (company suffixes) to finish_span().
uint16_t categories_named(const Gazetteer& g, std::string_view prefix) {
  uint16_t mask = 0;
  for (size_t c = 0; c < g.categories().size(); ++c) {
    if (g.categories()[c].starts_with(prefix)) mask = static_cast<uint16_t>(mask | (1u << c));
  }
  return mask;
}

bool mixed_case(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// The gazetteer of `lists`, keyed by the tagger's word hash: an entry that
// is one word is a full match, each word of a longer entry a part match.
Gazetteer build_gazetteer(std::span<const GazetteerList> lists) {
  std::vector<std::string> categories;
  for (const GazetteerList& list : lists) categories.push_back(list.category);
  Gazetteer g(std::move(categories));
  std::vector<Token> tokens;
  for (size_t c = 0; c < lists.size(); ++c) {
    for (const std::string& entry : lists[c].entries) {
      tokenize(entry, tokens);
      const auto is_word = [&](const Token& t) { return is_word_byte(static_cast<unsigned char>(entry[t.begin])); };
      const bool full = tokens.size() == 1;
      for (const Token& t : tokens) {
        if (is_word(t)) g.add(view_of(entry, t, Gazetteer{}).word, c, full);
      }
    }
  }
  return g;
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
  t.street_categories_ = categories_named(t.gazetteer_, "street");
  t.common_categories_ = categories_named(t.gazetteer_, "common");
  t.company_categories_ = categories_named(t.gazetteer_, "company");
  const size_t tags = t.tags();
  const uint32_t slots = t.buckets_ - 1;

  // Each row's tokens, views and gold tags, computed once.
  struct Row {
    std::vector<TokenView> views;
    std::vector<int> gold;
    bool mixed = false;
  };
  std::vector<Row> rows;
  rows.reserve(examples.size());
  std::vector<Token> tokens;
  for (const PiiExample& e : examples) {
    tokenize(e.text, tokens);
    Row row;
    row.mixed = mixed_case(e.text);
    row.gold.assign(tokens.size(), 0);
    for (const Token& tok : tokens) row.views.push_back(view_of(e.text, tok, t.gazetteer_));
    for (const PiiSpan& s : e.spans) {
      const auto k = std::find(t.types_.begin(), t.types_.end(), s.type);
      if (k == t.types_.end()) continue;
      const int b = 1 + 2 * static_cast<int>(k - t.types_.begin());
      bool first = true;
      for (size_t j = 0; j < tokens.size(); ++j) {
        if (tokens[j].begin >= s.begin && tokens[j].begin < s.end) {
          row.gold[j] = first ? b : b + 1;
          first = false;
        }
      }
    }
    rows.push_back(std::move(row));
  }

  // Averaged perceptron: w, and u = sum of (step * update), so that the
  // average over all steps is w - u / steps.
  std::vector<float> w(size_t{t.buckets_} * tags, 0.0f), u(w.size(), 0.0f);
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed);
  std::vector<uint32_t> f;
  std::vector<float> score(tags);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  float step = 1;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t r : order) {
      const Row& row = rows[r];
      int prev = -1, prev2 = -1;  // -1: before the text
      for (size_t i = 0; i < row.views.size(); ++i, step += 1) {
        features(row.views, i, prev, prev2, row.mixed, slots, f, !(coin(rng) < options.context_dropout));
        add_scores(w.data(), f, tags, score.data());
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
  t.weights_.resize(w.size());
  for (size_t k = 0; k < w.size(); ++k) t.weights_[k] = w[k] - u[k] / step;
  return t;
}

void PiiTagger::tag(std::string_view text, std::vector<PiiSpan>& out) const {
  if (empty() || text.empty() || text.size() >= (uint64_t{1} << 32)) return;
  std::vector<Token>& tokens = tagger_tokens();
  std::vector<TokenView>& views = tagger_views();
  thread_local std::vector<uint32_t> f;
  thread_local std::vector<uint8_t> viewed;
  tokenize(text, tokens);
  // Views (hashes, gazetteer matches) only of the tokens scored and their
  // neighbours within reach of the features: most tokens of a prompt are
  // neither.
  views.resize(tokens.size());
  viewed.assign(tokens.size(), 0);
  auto view_around = [&](size_t i) {
    for (size_t j = i >= 2 ? i - 2 : 0; j < std::min(tokens.size(), i + 3); ++j) {
      if (!viewed[j]) {
        views[j] = view_of(text, tokens[j], gazetteer_);
        viewed[j] = 1;
      }
    }
  };
  auto marked = [&](size_t j) { return j < tokens.size() && is_marked(static_cast<unsigned char>(text[tokens[j].begin])); };
  const bool mixed = mixed_case(text);
  const size_t tags = this->tags();
  std::array<float, 64> score{};
  int prev = -1, prev2 = -1;
  size_t open = 0;       // index in `out` of the span being extended, when prev is B/I
  size_t open_from = 0;  // its first token
  for (size_t i = 0; i < tokens.size(); ++i) {
    // In text with capitals, a span opens at a marked token (a capital, a
    // digit, a non-ASCII letter): other tokens outside a span are O without
    // scoring, which spares most of the words of a prompt.
    if (mixed && prev <= 0 && !marked(i)) {
      prev2 = prev;
      prev = 0;
      continue;
    }
    view_around(i);
    if (mixed && prev <= 0 && !marked(i + 1) && everyday(views[i].gazetteer) && !all_capitals(text, tokens, i)) {
      prev2 = prev;
      prev = 0;
      continue;
    }
    features(views, i, prev, prev2, mixed, buckets_ - 1, f);
    add_scores(weights_.data(), f, tags, score.data());
    // An I- tag only continues a span of its own type.
    int best = 0;
    for (size_t k = 1; k < tags; ++k) {
      const bool inside = k % 2 == 0;
      if (inside && (prev <= 0 || (prev - 1) / 2 != static_cast<int>(k - 2) / 2 ||
                     !may_continue(text, tokens, i, types_[(k - 2) / 2], mixed))) {
        continue;
      }
      if (score[k] > score[static_cast<size_t>(best)]) best = static_cast<int>(k);
    }
    const bool continues = best > 0 && best % 2 == 0;
    if (prev > 0 && !continues && !finish_span(text, out[open], open_from, i)) out.pop_back();
    if (best > 0 && best % 2 == 1) {
      open = out.size();
      open_from = i;
      out.push_back({types_[static_cast<size_t>(best - 1) / 2], tokens[i].begin, tokens[i].end});
    } else if (best > 0) {
      out[open].end = tokens[i].end;
    }
    prev2 = prev;
    prev = best;
  }
  if (prev > 0 && !finish_span(text, out[open], open_from, tokens.size())) out.pop_back();
}

bool PiiTagger::everyday(const Gazetteer::Match& m) const {
  return (m.full & common_categories_) != 0 && ((m.full | m.part) & ~common_categories_) == 0;
}

bool PiiTagger::finish_span(std::string_view text, PiiSpan& span, size_t from, size_t to) const {
  if (!plausible(text, span, from, to)) return false;
  // A name or a place that ends in a company suffix ("Smith Ltd") is an organisation.
  if (span.type != PiiType::kPerson && span.type != PiiType::kLocation) return true;
  for (size_t t = to; t > from; --t) {
    const Token& last = tagger_tokens()[t - 1];
    if (!is_word_byte(static_cast<unsigned char>(text[last.begin]))) continue;
    if ((tagger_views()[t - 1].gazetteer.full & company_categories_) != 0) span.type = PiiType::kOrganization;
    break;
  }
  return true;
}

bool PiiTagger::plausible(std::string_view text, const PiiSpan& span, size_t from, size_t to) const {
  const std::vector<Token>& tokens = tagger_tokens();
  bool word = false, digit = false, street = false, everyday = true;
  for (size_t t = from; t < to; ++t) {
    const auto first = static_cast<unsigned char>(text[tokens[t].begin]);
    if (!is_word_byte(first)) continue;
    word = word || tokens[t].end - tokens[t].begin >= 2 || (first >= '0' && first <= '9');
    for (uint32_t b = tokens[t].begin; b < tokens[t].end && !digit; ++b) digit = text[b] >= '0' && text[b] <= '9';
    const Gazetteer::Match m = tagger_views()[t].gazetteer;
    // A street word of three letters or more: single letters ("C" of "C/ Mayor") prove nothing.
    street = street || (tokens[t].end - tokens[t].begin >= 3 && ((m.full | m.part) & street_categories_) != 0);
    everyday = everyday && this->everyday(m);
  }
  if (!word) return false;
  if (everyday && to - from == 1 && !all_capitals(text, tokens, from)) return false;
  return span.type != PiiType::kStreetAddress || digit || street;
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
  const size_t at = out.size();
  out.resize(at + weights_.size() * sizeof(float));
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out.data() + at, weights_.data(), weights_.size() * sizeof(float));
  } else {
    for (size_t k = 0; k < weights_.size(); ++k) {
      const uint32_t bits = std::bit_cast<uint32_t>(weights_[k]);
      for (int b = 0; b < 4; ++b) out[at + 4 * k + static_cast<size_t>(b)] = static_cast<char>((bits >> (8 * b)) & 0xff);
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
  const size_t n = size_t{buckets} * t.tags();
  if (bytes.size() - at < n * sizeof(float)) {
    return invalid_argument(where + ": " + std::to_string(bytes.size() - at) + " weight bytes where " +
                            std::to_string(n * sizeof(float)) + " were due (truncated or damaged)");
  }
  t.weights_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= uint32_t{static_cast<unsigned char>(bytes[at + 4 * k + static_cast<size_t>(b)])} << (8 * b);
    t.weights_[k] = std::bit_cast<float>(bits);
  }
  at += n * sizeof(float);
  auto gazetteer = Gazetteer::parse(bytes, at, source);
  if (!gazetteer.is_ok()) return gazetteer.status();
  if (at != bytes.size()) return invalid_argument(where + ": " + std::to_string(bytes.size() - at) + " unexpected bytes at the end");
  t.gazetteer_ = std::move(gazetteer).value();
  t.street_categories_ = categories_named(t.gazetteer_, "street");
  t.common_categories_ = categories_named(t.gazetteer_, "common");
  t.company_categories_ = categories_named(t.gazetteer_, "company");
  return t;
}

StatusOr<PiiTagger> load_pii_tagger(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(path + ": cannot read the tagger");
  std::stringstream bytes;
  bytes << in.rdbuf();
  return PiiTagger::parse(bytes.str(), path);
}

void find_pii(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out) {
  find_structured_pii(text, out);
  if (tagger != nullptr) {
    tagger->tag(text, out);
    resolve_pii_overlaps(out);
  }
}

}  // namespace tiergate
