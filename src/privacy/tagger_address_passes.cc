// The tagger's passes after decoding that find, join, cut and type street
// addresses (PiiTagger::tag() calls them in its order): numbered streets,
// envelopes and letterheads, house numbers, address lines, street corners,
// lists of addresses, company lines, lone numbers.
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

bool PiiTagger::add_numbered_streets(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                     size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 2;
  auto digits = [&](size_t j) { return all_digits(text, tokens[j]); };
  // Token j stands apart from the one before it, on the same line.
  auto apart = [&](size_t j) { return j > 0 && !tokens[j].newline_before && tokens[j - 1].end < tokens[j].begin; };
  // The shape of a street word; whether the lists know it as an everyday
  // word is asked last, once the numbers around it are there.
  auto capitalised = [&](size_t j) {
    return tokens[j].end - tokens[j].begin >= 3 && opens_with_a_capital(text.substr(tokens[j].begin));
  };
  // A word of a street's name between a building's number and the
  // street's: in text with capitals capitalised; without them of three
  // small letters or more that stand in names, of alphabets that have
  // capitals (no byte of a three- or four-byte character).
  auto street_word = [&](size_t k) {
    if (mixed) return capitalised(k);
    const std::string_view w = text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin);
    return small_word(text, tokens[k], 3) && !function_word(text, tokens[k]) &&
           std::none_of(w.begin(), w.end(), [](char c) { return static_cast<unsigned char>(c) >= 0xe0; });
  };
  // An address of this tagging over a building's number and the number of
  // the street at token j that follows ("32 2109" of "32 2109 gleemoor
  // rd") keeps the building's number, so that the street can take its own.
  auto leave_the_building_number_before = [&](size_t j) {
    if (j == 0 || !apart(j) || !digits(j - 1)) return;
    const size_t k = span_over(out, j);
    if (k < first || k == out.size() || out[k].type != PiiType::kStreetAddress || out[k].begin != tokens[j - 1].begin ||
        out[k].end != tokens[j].end) {
      return;
    }
    out[k].end = tokens[j - 1].end;
    // Token j was out[k]'s; the cover forgets it where it was out[k]'s alone.
    if (SpanCover& cover = tagger_cover(); cover.built) {
      if (cover.first_span[j] == k + 1) {
        cover.first_span[j] = 0;
      } else {
        reset_cover();
      }
    }
  };
  // Where an address whose building's number is token `opening` and that
  // opens at `begin` opens with a unit and a comma before the number on its
  // line: "Suite 300, 500 Market St, San Francisco", "the lease for Flat 3,
  // 27 Marchmont Crescent"; `begin` where none comes before it.
  // (Or, before a flat's number and a slash, a unit one blank before it:
  // "Unit 4/22 Wattle Street", which the decoder read as "Unit 4".)
  auto with_a_unit_before = [&](size_t opening, uint32_t begin) {
    if (opening >= 1 && opening + 2 < n && mark_at(text, tokens, opening + 1, '/') &&
        one_blank_after(text, tokens, opening) && kUnitsOfABuilding.contains(text, tokens[opening - 1])) {
      return tokens[opening - 1].begin;
    }
    if (opening < 3 || !token_is(text, tokens[opening - 1], ",") || tokens[opening].newline_before ||
        tokens[opening - 1].newline_before || !house_number(text, tokens[opening - 2]) ||
        tokens[opening - 2].newline_before) {
      return begin;
    }
    const size_t unit = opening >= 4 && token_is(text, tokens[opening - 3], ".") ? opening - 4 : opening - 3;
    return kUnitsOfABuilding.contains(text, tokens[unit]) ? tokens[unit].begin : begin;
  };
  bool added = false;
  for (const uint32_t j : marked) {
    // (Most marked tokens are words, and few numbers come before a capital:
    // [[likely]] keeps the rest out of the loop's way, as in
    // add_introduced_names.)
    if (!is_number(text, tokens, j)) [[likely]] continue;
    // (In text with capitals, most numbers follow no capital, or a
    // non-ASCII letter: not asked.)
    // (Or, in any case, an abbreviation before its stop, "Király u. 15",
    // or a street word in small letters after the name, "Erzsébet tér 92".)
    const bool stop_before = j >= 2 && mark_at(text, tokens, j - 1, '.');
    const auto before = static_cast<unsigned char>(j > 0 ? text[tokens[stop_before ? j - 2 : j - 1].begin] : ' ');
    const bool small_before = before >= 'a' && before <= 'z';
    const bool word_before = mixed ? (before >= 'A' && before <= 'Z') || before >= 0x80 ||
                                         (small_before && (stop_before || street_word_after_its_name(text, tokens[j - 1])))
                                   : small_before;
    if (const size_t street = word_before ? street_before_its_number(text, tokens, j, gazetteer_, street_suffix_categories_,
                                                                     place_categories_, mixed)
                                          : n;
        street < j) {
      // An address of this tagging that opens at the number, or at a word
      // of the street after its first, and runs on along its line joins
      // the street ("178 st." of "on corellistraat 178 st.", "Roma 12,
      // Milano" of "Via Roma 12, Milano").
      // (With a flat's number after a slash: "Długa 5/7".)
      const bool flat = j + 2 < n && mark_at(text, tokens, j + 1, '/') && tokens[j + 1].begin == tokens[j].end &&
                        tokens[j + 2].begin == tokens[j + 1].end && digits(j + 2);
      uint32_t end = tokens[flat ? j + 2 : j].end;
      if (const size_t k = span_over(out, j); k >= first && k < out.size() && out[k].type == PiiType::kStreetAddress &&
                                              out[k].begin >= tokens[street].begin && out[k].end > end &&
                                              text.substr(end, out[k].end - end).find('\n') == std::string_view::npos) {
        end = out[k].end;
      }
      added = replace_with_an_address(out, first, tokens[street].begin, end) || added;
      continue;
    }
    if (j + 2 >= n) continue;
    // The building's number opens at token `opening`: j, or the first of a
    // range joined by a hyphen ("7-9 Queen's Road"), or a flat's number
    // before a slash, as Australia writes it ("16/42 Beach Road").
    const size_t opening = j >= 2 && tokens[j - 1].end == tokens[j].begin && tokens[j - 2].end == tokens[j - 1].begin &&
                                   (token_is(text, tokens[j - 1], "-") || token_is(text, tokens[j - 1], "/")) &&
                                   digits(j - 2) && digits(j)
                               ? j - 2
                               : j;
    // (Or after an opening quote or bracket, or a field's separator: a
    // value in JSON or code, "\"742 Evergreen Terrace\"", or in a CSV row
    // or a vCard, "Anna Berg,22 Elm Street", "ADR:;;22 Elm Row;".)
    const bool opens_apart = opening == 0 || tokens[opening].newline_before ||
                             tokens[opening - 1].end < tokens[opening].begin ||
                             (tokens[opening - 1].end - tokens[opening - 1].begin == 1 &&
                              std::string_view("\"'([{,;|:").find(text[tokens[opening - 1].begin]) != std::string_view::npos);
    // (In text with capitals, a street in small letters is read as text
    // without them writes it: "lives at 2210 grove st apt 5". Most numbers
    // before a small word are quantities: only where a suffix only streets
    // have or a unit's word follows within reach is the street read.)
    auto suffix_or_unit_ahead = [&] {
      static constexpr WordSet kSuffixesAndUnits(joined(kCommonStreetSuffixWords, kUnitOfABuildingWords));
      for (size_t k = j + 2; k < n && k <= j + 4 && !tokens[k].newline_before; ++k) {
        if (kSuffixesAndUnits.contains(text, tokens[k])) return true;
      }
      return false;
    };
    const bool small_street = mixed && text[tokens[j + 1].begin] >= 'a' && text[tokens[j + 1].begin] <= 'z' &&
                              !kStreetWordsBeforeTheName.contains(text, tokens[j + 1]);
    auto word_after = [&] {
      return mixed ? small_street || capitalised(j + 1) || past_a_compass_point(text, tokens, j + 1) != j + 1 ||
                         street_ordinal(text, tokens[j + 1]) || kStreetWordsBeforeTheName.contains(text, tokens[j + 1])
                   : is_word_byte(static_cast<unsigned char>(text[tokens[j + 1].begin]));
    };
    if (!opens_apart || !apart(j + 1) || !word_after() || !house_number(text, tokens[j])) [[likely]] continue;
    // The street in small letters that street_in_small_letters() reads
    // from token j, with a unit before it, if any; whether there was one.
    auto add_street_in_small_letters = [&] {
      const size_t street =
          street_in_small_letters(text, tokens, j, gazetteer_, street_suffix_categories_, place_categories_);
      if (street == 0) return false;
      added = replace_with_an_address(out, first, with_a_unit_before(j, tokens[j].begin), tokens[street].end) || added;
      return true;
    };
    if (small_street && !suffix_or_unit_ahead()) {
      // (Or as text without capitals reads it, after a lead to a place: a
      // suffix of the street lists, "She lives at 9 cedar mews".)
      add_street_in_small_letters();
      continue;
    }
    if (const size_t suffix =
            street_by_its_suffix(text, tokens, j, gazetteer_, street_suffix_categories_, mixed && !small_street);
        suffix != 0) {
      leave_the_building_number_before(opening);
      // (A name of this tagging over the suffix and its stop, the title the
      // decoder read in a drive's "Dr.", goes with them; an address of this
      // tagging that opens inside the street or at its number and runs on
      // along its line joins it: "14th St, New York, NY 10011" of "220 W
      // 14th St, ...", which a unit before it then joins too.)
      // (A street in small letters takes a quadrant's compass point after
      // it, as street_in_small_letters() does.)
      const bool quadrant = small_street && quadrant_after_a_street(text, tokens, suffix);
      uint32_t begin = tokens[opening].begin, end = tokens[quadrant ? suffix + 1 : suffix].end;
      if (const size_t k = span_over(out, suffix); k >= first && k < out.size()) {
        const bool title_and_stop = out[k].begin == tokens[suffix].begin && suffix + 1 < n &&
                                    out[k].end == tokens[suffix + 1].end && tokens[suffix + 1].begin == end &&
                                    token_is(text, tokens[suffix + 1], ".");
        const bool address_on = out[k].type == PiiType::kStreetAddress && out[k].begin >= begin && out[k].end > end &&
                                text.substr(end, out[k].end - end).find('\n') == std::string_view::npos;
        if (title_and_stop || address_on) end = out[k].end;
      }
      added = replace_with_an_address(out, first, with_a_unit_before(opening, begin), end) || added;
      continue;
    }
    // (Where the suffix alone does not tell the street, as text without
    // capitals reads it after a lead to a place: "verify the address 57
    // wentworth terrace, apt 9b", whose unit has no number alone.)
    if (small_street) {
      add_street_in_small_letters();
      continue;
    }
    if (!mixed && add_street_in_small_letters()) continue;
    if (!digits(j)) continue;
    // A house number, a street's words (no everyday words) and the number
    // on the street: "24 Kuefsteinstrasse 91", "at mysticweb, 24
    // kuefsteinstrasse 91,". Without capitals, the number opens its line
    // or follows a comma or a lead to a place (led_to_a_place(); not
    // "gravida 3 para 2").
    const bool led = mixed || led_to_a_place(text, tokens, j) || token_is(text, tokens[j - 1], ",");
    if (!led || !street_word(j + 1)) continue;
    size_t last = j + 1;
    while (last + 1 < n && last - j < kMaxWords && apart(last + 1) && street_word(last + 1)) ++last;
    const size_t number = last + 1;
    if (number >= n || !apart(number) || !digits(number)) continue;
    // Nothing joined to the number after it: not "11:4" of "2 Samuel 11:4".
    if (number + 1 < n && !tokens[number + 1].newline_before && tokens[number + 1].begin == tokens[number].end &&
        text[tokens[number].end] != ',') {
      continue;
    }
    bool free = true;
    // (Without capitals, no word the everyday lists know at all: everyday()
    // allows one another list knows too.)
    for (size_t t = j + 1; t <= last && free; ++t) {
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[t]));
      free = !everyday(m) && (mixed || (m.full & common_categories_) == 0);
    }
    for (size_t t = j; t <= number && free; ++t) free = span_over(out, t) == out.size();
    if (!free) continue;
    add_span(out, {PiiType::kStreetAddress, tokens[j].begin, tokens[j].end});
    add_span(out, {PiiType::kStreetAddress, tokens[j + 1].begin, tokens[number].end});
    added = true;
  }
  if (added) drop_marked_spans(out);  // those replace_with_an_address() emptied
  return added;
}

void PiiTagger::cut_envelopes(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const {
  const Tokens tokens = tagger_tokens();
  std::vector<PiiSpan> lines;
  for (size_t s = first; s < decoded; ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kStreetAddress) continue;
    const std::string_view value = text.substr(span.begin, span.end - span.begin);
    const size_t line_end = value.find('\n');
    if (line_end == std::string_view::npos || line_end + 1 >= value.size()) continue;
    // Right after a name on its line ("Mrs. Diana Weöres Apt. 434 40 Rue
    // de la Sarthe 421 / Housse WLG 95697"), or opening its line, after
    // marks or up to two numbers, with the lines below indented.
    if (!after_a_name_on_its_line(text, out, s, first)) {
      if (value[line_end + 1] != ' ') continue;
      const size_t k = first_token_from(tokens, span.begin);
      if (k == tokens.size() || tokens[k].begin != span.begin) continue;
      size_t j = k;
      while (j > 0 && !tokens[j].newline_before && !is_word_byte(static_cast<unsigned char>(text[tokens[j - 1].begin]))) --j;
      for (size_t numbers = 0; numbers < 2 && j > 0 && !tokens[j].newline_before && all_digits(text, tokens[j - 1]); ++numbers) --j;
      if (!(j == 0 || tokens[j].newline_before)) continue;
    }
    // The lines below, as far as the decoder ran, stay covered, line by
    // line: a unit (an everyday word, its stop, a number: "Apt. 573") is
    // an address; otherwise the words are a place (not a letter alone) and
    // each number an address ("Tanzania 53144": the place and its
    // postcode), as the dev labels write them.
    const uint32_t decoded_end = span.end;
    uint32_t end = span.begin + static_cast<uint32_t>(line_end);
    while (end > span.begin && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r')) --end;
    span.end = end;
    size_t line = first_token_from(tokens, end);
    while (line < tokens.size() && tokens[line].begin < decoded_end) {
      size_t line_stop = line + 1;
      while (line_stop < tokens.size() && tokens[line_stop].begin < decoded_end && !tokens[line_stop].newline_before) ++line_stop;
      const size_t from = first_word_from(text, tokens, line, line_stop);
      if (unit_alone(text, tokens, from, line_stop) && line_stop - from >= 2 && all_digits(text, tokens[line_stop - 1]) &&
          everyday(gazetteer_.lookup(word_hash(text, tokens[from])))) {
        lines.push_back({PiiType::kStreetAddress, tokens[from].begin, tokens[line_stop - 1].end});
      } else {
        auto none = [](size_t) { return false; };
        read_envelope_line(text, tokens, from, line_stop, none, none, [&](const PiiSpan& piece) { lines.push_back(piece); });
      }
      line = line_stop;
    }
  }
  out.insert(out.end(), lines.begin(), lines.end());
}

void PiiTagger::add_house_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const {
  const Tokens tokens = tagger_tokens();
  // Whether digits alone that no span covers stand one blank or more
  // before token j on its line.
  auto number_before = [&](size_t j) {
    if (j == 0 || tokens[j].newline_before) return false;
    const Token& number = tokens[j - 1];
    return all_digits(text, number) && number.end < tokens[j].begin && span_over(out, j - 1) == out.size();
  };
  for (size_t s = first; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    size_t k = first_token_from(tokens, out[s].begin);
    if (k == tokens.size() || tokens[k].begin != out[s].begin) continue;
    // A street word the decoder left out right before ("16 Via Raffaele
    // Conforti 74") is the street's.
    if (k > 0 && !tokens[k].newline_before && span_over(out, k - 1) == out.size() &&
        (gazetteer_.lookup(word_hash(text, tokens[k - 1])).full & street_suffix_categories_) != 0) {
      set_span(out, s, {out[s].type, tokens[--k].begin, out[s].end});
    }
    if (!number_before(k)) continue;
    // Two numbers before a street that ends in none ("26 14 Chatsworth
    // Road"): the nearer is the street's own, the other the building's.
    const size_t last = first_token_from(tokens, out[s].end) - 1;
    if (!is_number(text, tokens, last) && number_before(k - 1)) {
      set_span(out, s, {out[s].type, tokens[--k].begin, out[s].end});
    }
    add_span(out, {PiiType::kStreetAddress, tokens[k - 1].begin, tokens[k - 1].end});
  }
}

void PiiTagger::add_address_lines(std::string_view text, std::vector<PiiSpan>& out, size_t decoded,
                                  bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxLines = 3, kMaxWords = 6, kMaxLineTokens = 4 * kMaxWords;
  auto first_byte = [&](size_t j) { return static_cast<unsigned char>(text[tokens[j].begin]); };
  // Three digits or more standing alone ("05557", not "0" of "0.0200").
  auto postcode = [&](size_t j) {
    const Token& t = tokens[j];
    return t.end - t.begin >= 3 && all_digits(text, t) && (j == 0 || tokens[j - 1].end < t.begin) && (j + 1 == n || t.end < tokens[j + 1].begin);
  };
  size_t done = 0;  // the tokens before it belong to a block already read
  for (size_t s = 0; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    size_t j = first_token_from(tokens, out[s].end);
    // The lines below the address, or in text with capitals what follows it
    // on its line after a comma: "50 Massbyntie 27, JÄRVENPÄÄ" (not "age
    // 67, is italian").
    const bool comma_after = mixed && j < n && tokens[j].begin == out[s].end && text[tokens[j].begin] == ',';
    if (j < done || j == n || !(tokens[j].newline_before || comma_after)) continue;
    for (size_t line = 0; line < kMaxLines && j < n; ++line) {
      if (blank_line_before(text, tokens, j)) break;  // it ends the block
      // A line of more tokens than a short line holds is none: the walk
      // stops there, so that a long line costs each address on it little.
      size_t end = j + 1;
      while (end < n && !tokens[end].newline_before && end - j <= kMaxLineTokens) ++end;
      if (end - j > kMaxLineTokens) break;
      const size_t from = first_word_from(text, tokens, j, end);
      // The line's words: numbers, joining words, and the others
      // capitalised in text with capitals, in lower-case text none an
      // everyday word; marks only inside a name ("Sant'Anna",
      // "Saint-Priest", "St.").
      size_t words = 0, free_words = 0;
      bool fits = from < end, place_word = false;
      for (size_t t = from; t < end && fits; ++t) {
        const unsigned char c = first_byte(t);
        if (!is_word_byte(c)) {
          fits = tokens[t].end - tokens[t].begin == 1 && std::string_view("-'.,").find(static_cast<char>(c)) != std::string_view::npos;
          continue;
        }
        ++words;
        if (span_over(out, t) != out.size()) continue;
        if (is_number(text, tokens, t)) {
          fits = postcode(t);
          continue;
        }
        if (joining_word(text.substr(tokens[t].begin, tokens[t].end - tokens[t].begin))) continue;
        ++free_words;
        const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[t]));
        const bool everyday_word = everyday(m) && !all_capitals(text, tokens, t);
        const bool capitalised = opens_with_a_capital(text.substr(tokens[t].begin));
        fits = tokens[t].end - tokens[t].begin >= 2 && (mixed ? capitalised : !everyday_word);
        place_word = place_word || !everyday_word;
      }
      if (!fits || words > kMaxWords || (free_words > 0 && !place_word)) break;
      // The words no span covers, a place; a number after them, a postcode.
      // A place does not open with a joining word: ", and 98 Tylova 1036"
      // adds none. (Each word of the line has two bytes or more: no place
      // is one letter.)
      auto covered = [&](size_t k) { return span_over(out, k) != out.size(); };
      auto covered_or_joining = [&](size_t k) {
        return covered(k) || joining_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
      };
      read_envelope_line(text, tokens, from, end, covered_or_joining, covered, [&](const PiiSpan& piece) { add_span(out, piece); });
      j = end;
    }
    done = j;
  }
}

void PiiTagger::add_postcodes_after_places(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                           size_t decoded) const {
  const Tokens tokens = tagger_tokens();
  // A state's code and a ZIP code after a place and its comma ("Cupertino,
  // CA 95014", "Austin, TX 78701-1234"), whatever follows them: an
  // address, as the dev rows label a town's line of an envelope.
  auto add_state_and_zip = [&](size_t s) {
    const size_t comma = first_token_from(tokens, out[s].end);
    if (comma + 2 >= tokens.size() || tokens[comma].begin != out[s].end || !token_is(text, tokens[comma], ",")) return;
    const Token& state = tokens[comma + 1];
    const Token& zip = tokens[comma + 2];
    if (state.newline_before || zip.newline_before || state.begin != tokens[comma].end + 1 || zip.begin != state.end + 1 ||
        !all_capitals(text, state) || state.end - state.begin != 2 || zip.end - zip.begin != 5 || !all_digits(text, zip) ||
        (gazetteer_.lookup(word_hash(text, state)).full & state_categories_) == 0) {
      return;
    }
    uint32_t end = zip.end;
    // (ZIP+4.)
    if (comma + 4 < tokens.size() && token_is(text, tokens[comma + 3], "-") && tokens[comma + 3].begin == zip.end &&
        tokens[comma + 4].begin == tokens[comma + 3].end && tokens[comma + 4].end - tokens[comma + 4].begin == 4 &&
        all_digits(text, tokens[comma + 4])) {
      end = tokens[comma + 4].end;
    }
    if (end < text.size() && is_word_byte(static_cast<unsigned char>(text[end]))) return;
    if (span_over(out, comma + 1) != out.size() || span_over(out, comma + 2) != out.size()) return;
    add_span(out, {PiiType::kStreetAddress, state.begin, end});
  };
  for (size_t s = first; s < decoded; ++s) {
    if (out[s].type == PiiType::kLocation) add_state_and_zip(s);
    if (out[s].type != PiiType::kStreetAddress && out[s].type != PiiType::kLocation) continue;
    // The number one blank after the span, or the last word of a place that
    // the decoder ran over it (in small letters, "in formigliana 11254 in
    // its"; the dev rows label no place with its postcode), which leaves it.
    const size_t after = first_token_from(tokens, out[s].end);
    const size_t last = after - 1;
    const bool inside = out[s].type == PiiType::kLocation && after > 1 && tokens[last].end == out[s].end &&
                        tokens[last].begin > out[s].begin &&
                        tokens[last].begin == tokens[last - 1].end + 1 && !tokens[last].newline_before &&
                        tokens[last].end - tokens[last].begin == 5 && all_digits(text, tokens[last]);
    const size_t j = inside ? last : after;
    if (j == tokens.size() || (!inside && tokens[j].begin != out[s].end + 1) || tokens[j].newline_before) continue;
    const Token& number = tokens[j];
    if (number.end - number.begin != 5 || !all_digits(text, number)) continue;
    // The number free, or an address of its own that the decoder made of it
    // (it learned postcodes on the lines of envelopes), which a place inside
    // a sentence makes a ZIP code below ("in Santa Clarita 49766 in its").
    const size_t taken = inside ? out.size() : span_over(out, j);
    if (taken != out.size() && (out[taken].type != PiiType::kStreetAddress || out[taken].begin != number.begin ||
                                out[taken].end != number.end)) {
      continue;
    }
    // Then the end, a line break, a mark that is not a number's ("62704.5"),
    // or a small word that goes on with the sentence ("in Springfield 62704
    // in its mission").
    const bool ends = j + 1 == tokens.size() || tokens[j + 1].newline_before ||
                      (!is_word_byte(static_cast<unsigned char>(text[tokens[j + 1].begin])) &&
                       !is_number(text, tokens, j + 2)) ||
                      kAfterAPostcode.contains(text, tokens[j + 1]);
    if (!ends) continue;
    // After a place inside a sentence ("lives in Lisbon 62704."), a ZIP
    // code; after one that opens its line, a line of an address
    // ("Uganda 48288"), as the dev rows label it.
    const size_t place = first_token_from(tokens, out[s].begin);
    const bool opens_its_line = place == 0 || tokens[place].newline_before ||
                                !is_word_byte(static_cast<unsigned char>(text[tokens[place - 1].begin]));
    const bool in_a_sentence = out[s].type == PiiType::kLocation && !opens_its_line;
    if (inside) set_span(out, s, {out[s].type, out[s].begin, tokens[j - 1].end});
    if (taken != out.size()) {
      // (Only after a preposition: a place's name of several words may
      // open an envelope's line, of which the span holds the last ones,
      // "Republic of Ireland 62280".)
      static constexpr WordSet kBeforeAPlace(std::array<std::string_view, 4>{"in", "at", "near", "from"});
      if (in_a_sentence && kBeforeAPlace.contains(text, tokens[place - 1])) out[taken].type = PiiType::kZipCode;
      continue;
    }
    add_span(out, {in_a_sentence ? PiiType::kZipCode : PiiType::kStreetAddress, number.begin, number.end});
  }
}

void PiiTagger::add_letterheads(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded,
                                bool mixed) const {
  if (!mixed) return;
  const Tokens tokens = tagger_tokens();
  constexpr size_t kMaxSenderWords = 4, kMaxTitleWords = 8;
  auto first_byte = [&](size_t j) { return static_cast<unsigned char>(text[tokens[j].begin]); };
  LineStarts lines(tokens);
  auto line_start = [&](size_t j) { return lines.of(j); };
  // The words of tokens [from, end), one line: how many, whether all are
  // capitalised, and whether they fit a letterhead (two letters or more,
  // no digit, no mark but "-", "&", "." or ","); `last`, the last word.
  struct Line {
    size_t words = 0, last = 0;
    bool fits = false, capitalised = true;
  };
  auto read_line = [&](size_t from, size_t end) {
    Line l;
    l.fits = from < end;
    for (size_t t = from; t < end && l.fits; ++t) {
      const unsigned char c = first_byte(t);
      if (!is_word_byte(c)) {
        l.fits = tokens[t].end - tokens[t].begin == 1 && std::string_view("-&.,").find(static_cast<char>(c)) != std::string_view::npos;
        continue;
      }
      ++l.words;
      l.last = t;
      l.capitalised = l.capitalised && opens_with_a_capital(text.substr(tokens[t].begin));
      // (Longer than any line read here: the walk stops.)
      l.fits = l.words <= kMaxTitleWords && tokens[t].end - tokens[t].begin >= 2 && !has_digit(text, tokens[t]);
    }
    return l;
  };
  auto free_tokens = [&](size_t from, size_t last) {
    for (size_t t = from; t <= last; ++t) {
      if (span_over(out, t) != out.size()) return false;
    }
    return true;
  };
  // A job title's line: its first word capitalised, its last naming a role
  // ("Benefits manager", "Crushing, grinding, and polishing machine tender").
  auto add_title = [&](size_t from, size_t end) {
    const Line l = read_line(from, end);
    if (!l.fits || l.words > kMaxTitleWords || !opens_with_a_capital(text.substr(tokens[from].begin)) ||
        !names_a_role(text, tokens[l.last]) || !free_tokens(from, l.last)) {
      return false;
    }
    add_span(out, {PiiType::kTitle, tokens[from].begin, tokens[l.last].end});
    return true;
  };
  size_t read = tokens.size();  // the line of the last address read: one letterhead per line
  for (size_t s = 0; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    if (k == tokens.size()) continue;
    const size_t line = line_start(k);
    if (line == 0 || line == read) continue;
    const size_t head = line_start(line - 1);
    // The address opens its line (past the marks that open it), or the
    // head is the text's first line.
    if (first_word_from(text, tokens, line, k) != k && head != 0) continue;
    read = line;
    const size_t from = first_word_from(text, tokens, head, line);
    const Line l = read_line(from, line);
    if (!l.fits) continue;
    if (!l.capitalised || l.words > kMaxSenderWords) {
      // "Name / Benefits manager / 63 Ommerweg 159"
      if (!blank_line_before(text, tokens, line)) add_title(from, line);
      continue;
    }
    const size_t covering = span_over(out, from);
    if (covering == out.size()) {
      if (!free_tokens(from, l.last)) continue;
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[from]));
      if (l.words == 1 && everyday(m) && !all_capitals(text, tokens, from)) continue;  // "Description", as plausible()
      const PiiType type = only_a_name(text, from, m) ? PiiType::kPerson : PiiType::kOrganization;
      add_span(out, {type, tokens[from].begin, tokens[l.last].end});
    } else if (covering < decoded && own_place_or_organisation(out, covering, first, tokens[from].begin, tokens[l.last].end) &&
               out[covering].type == PiiType::kLocation) {
      out[covering].type = PiiType::kOrganization;
    }
    // "Name / Benefits manager / Soul Sounds Unlimited / 63 Ommerweg 159"
    const size_t sender = span_over(out, from);
    if (head > 0 && !blank_line_before(text, tokens, head) && sender != out.size() &&
        out[sender].type == PiiType::kOrganization) {
      add_title(first_word_from(text, tokens, line_start(head - 1), head), head);
    }
  }
}

void PiiTagger::split_house_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  std::vector<PiiSpan> split;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    if (span.type != PiiType::kStreetAddress) continue;
    size_t k = first_token_from(tokens, span.begin);
    // A unit before the building's number right after a name on its line
    // is an address of its own: "Mrs. Diana Weöres Apt. 434 40 Rue de la
    // Sarthe 421" (an everyday word, its stop, a number).
    if (k + 3 < tokens.size() && tokens[k].begin == span.begin && after_a_name_on_its_line(text, out, s, first) &&
        everyday(gazetteer_.lookup(word_hash(text, tokens[k])))) {
      size_t number = k + 1;
      if (tokens[number].end - tokens[number].begin == 1 && text[tokens[number].begin] == '.') ++number;
      if (number + 1 < tokens.size() && all_digits(text, tokens[number]) && tokens[number + 1].begin < span.end &&
          text[tokens[number].end] == ' ') {
        split.push_back({PiiType::kStreetAddress, span.begin, tokens[number].end});
        out[s].begin = tokens[number + 1].begin;
        k = number + 1;
      }
    } else if (k > 0 && k + 2 < tokens.size() && tokens[k].begin == span.begin && tokens[k + 1].begin < span.end &&
               text[tokens[k].end] == ' ' && all_digits(text, tokens[k]) && after_a_name_on_its_line(text, out, s, first)) {
      // Opening at the number of the unit before it, outside this span
      // ("Suite" and "683 11 Brucknerweg 141"): the unit keeps its number.
      const size_t unit = k >= 2 && token_is(text, tokens[k - 1], ".") ? k - 2 : k - 1;
      if (unit_alone(text, tokens, unit, k + 1)) {
        out[s].begin = tokens[k + 1].begin;
        ++k;
      }
    }
    if (k + 2 >= tokens.size() || tokens[k].begin != span.begin || !all_digits(text, tokens[k]) ||
        tokens[k].end - tokens[k].begin > 3 || tokens[k + 1].begin != tokens[k].end + 1 || text[tokens[k].end] != ' ' ||
        tokens[k + 1].end >= span.end || text.substr(span.begin, span.end - span.begin).find('\n') != std::string_view::npos) {
      continue;
    }
    // The street: its number (maybe with its stop: "útja 3.") and its name
    // ("Trg revolucije 12", "199 Beach Road"), its name a word (opening
    // with a letter: not "•") of two bytes or more that no list of everyday
    // words knows, or a street list does, and no marks but those of a
    // street's name ("7 and 3", "70 kg (154" are no addresses to split).
    // Then the span ends, or goes on after a comma with a place and no
    // number; not with a unit ("... 1615 Suite 498 Curitiba", "12 West Way
    // Apt. 3").
    auto in_span = [&](size_t j) { return j < tokens.size() && tokens[j].begin < span.end; };
    const bool number_first = is_number(text, tokens, k + 1);
    size_t j = number_first ? k + 2 : k + 1;
    bool named = false, numbered = number_first, fits = true;
    for (; in_span(j) && fits && text[tokens[j].begin] != ','; ++j) {
      const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
      if (is_number(text, tokens, j)) {
        // (The street's number, once; not a unit's: "12 West Way Apt. 3".)
        const size_t before = j >= 2 && token_is(text, tokens[j - 1], ".") ? j - 2 : j - 1;
        fits = !numbered && !kUnitsOfABuilding.contains(text, tokens[before]);
        numbered = true;
        if (!number_first) {
          ++j;
          if (in_span(j) && token_is(text, tokens[j], ".") && tokens[j].begin == tokens[j - 1].end) ++j;
          break;
        }
      } else if (!is_word_byte(c)) {
        fits = street_name_mark(text, tokens[j]);
      } else if (tokens[j].end - tokens[j].begin >= 2 && opens_with_a_letter(text.substr(tokens[j].begin))) {
        const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
        named = named || (m.full & common_categories_) == 0 || ((m.full | m.part) & street_categories_) != 0;
      }
    }
    const size_t street_end = j;  // one past the street's last token
    size_t place = tokens.size();
    if (in_span(j)) {
      fits = fits && text[tokens[j].begin] == ',' && tokens[j].end - tokens[j].begin == 1 && in_span(j + 1);
      place = j + 1;
      for (size_t t = place; in_span(t) && fits; ++t) fits = !is_number(text, tokens, t);
    }
    const bool address_follows = s + 1 < out.size() && out[s + 1].type == PiiType::kStreetAddress &&
                                 text.substr(span.end, out[s + 1].begin - span.end).find('\n') == std::string_view::npos;
    if (!fits || !named || !numbered || address_follows) continue;
    if (place < tokens.size()) split.push_back({PiiType::kLocation, tokens[place].begin, span.end});
    split.push_back({PiiType::kStreetAddress, tokens[k + 1].begin, tokens[street_end - 1].end});
    out[s].end = tokens[k].end;
  }
  if (split.empty()) return;
  out.insert(out.end(), split.begin(), split.end());
  sort_by_begin(out, first);
}

void PiiTagger::join_units_after_streets(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  bool changed = false;
  for (size_t k = first; k < out.size(); ++k) {
    if (out[k].type != PiiType::kStreetAddress || out[k].end == out[k].begin) continue;
    const size_t comma = first_token_from(tokens, out[k].end);
    if (comma + 2 >= n || tokens[comma].begin != out[k].end || !mark_at(text, tokens, comma, ',')) continue;
    const size_t unit = comma + 1;
    if (!one_blank_after(text, tokens, unit) || !kUnitsOfABuilding.contains(text, tokens[unit])) continue;
    size_t value = unit + 1;
    if (mark_at(text, tokens, value, '.') && glued_to_the_one_before(tokens, value)) ++value;
    if (value >= n || !one_blank_after(text, tokens, value) || tokens[value].end - tokens[value].begin > 4 ||
        !clause_ends_after(text, tokens, value)) {
      continue;
    }
    const std::string_view v = text.substr(tokens[value].begin, tokens[value].end - tokens[value].begin);
    if (!std::all_of(v.begin(), v.end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        })) {
      continue;
    }
    // (Asked only of such a unit, which few texts hold.)
    const uint32_t begin = tokens[unit].begin, end = tokens[value].end;
    if (std::any_of(out.begin(), out.begin() + static_cast<ptrdiff_t>(first),
                    [&](const PiiSpan& span) { return span.begin < end && begin < span.end; })) {
      continue;
    }
    // (The spans after the street's, in order of begin, that the unit's
    // words overlap.)
    for (size_t s = k + 1; s < out.size() && out[s].begin < end; ++s) {
      if (begin < out[s].end) mark_dropped(out, s);
    }
    out[k].end = end;
    changed = true;
  }
  if (changed) drop_marked_spans(out);
}

void PiiTagger::add_street_lines(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  constexpr size_t kMaxLineTokens = 16;
  auto word = [&](size_t j) { return is_word_byte(static_cast<unsigned char>(text[tokens[j].begin])); };
  // The first token of the line of token k when only marks stand before k
  // on it, within kMaxLineTokens; else tokens.size().
  auto opens_its_line = [&](size_t k) {
    for (size_t j = k, seen = 0; seen <= kMaxLineTokens; --j, ++seen) {
      if (j != k && word(j)) return tokens.size();
      if (j == 0 || tokens[j].newline_before) return j;
    }
    return tokens.size();
  };
  // The spans of out[lo, hi) (sorted by begin, none overlapping) that
  // overlap bytes [from, to): [first overlapping, one past the last).
  auto spans_over = [&](size_t lo, size_t hi, uint32_t from, uint32_t to) {
    const auto b = out.begin();
    const auto i = std::partition_point(b + static_cast<ptrdiff_t>(lo), b + static_cast<ptrdiff_t>(hi),
                                        [&](const PiiSpan& x) { return x.end <= from; });
    auto j = i;
    while (j != b + static_cast<ptrdiff_t>(hi) && j->begin < to) ++j;
    return std::pair<size_t, size_t>{static_cast<size_t>(i - b), static_cast<size_t>(j - b)};
  };
  std::vector<PiiSpan> added;
  // The unit may be the tagger's or the structured scan's (out[0, first)).
  for (size_t s = 0; s < out.size(); ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    const size_t unit_end = first_token_from(tokens, out[s].end);  // one past the span's last token
    if (k == tokens.size() || tokens[k].begin != out[s].begin || unit_end == k || is_number(text, tokens, k) ||
        !word(k) || !all_digits(text, tokens[unit_end - 1])) {
      continue;
    }
    const size_t line = opens_its_line(k);
    if (line == tokens.size() || line == 0 || blank_line_before(text, tokens, line)) continue;
    // The line above: [above, line).
    size_t above = line - 1;
    while (above > 0 && !tokens[above].newline_before && line - above <= kMaxLineTokens) --above;
    if (!(above == 0 || tokens[above].newline_before) || line - above > kMaxLineTokens) continue;
    const size_t number = first_word_from(text, tokens, above, line);
    if (number + 2 > line || !all_digits(text, tokens[number]) || tokens[number].end - tokens[number].begin > 5) continue;
    size_t last = line - 1;
    while (last > number && !word(last)) --last;
    bool street_words = last > number, letters = false;
    for (size_t j = number + 1; j <= last && street_words; ++j) {
      street_words = word(j) || street_name_mark(text, tokens[j]);
      letters = letters || (word(j) && !is_number(text, tokens, j));
    }
    if (!street_words || !letters) continue;
    // The spans over the line: none found before tagging, and of the
    // tagger's only places, names and organisations.
    const uint32_t line_begin = tokens[number].begin, line_end = tokens[last].end;
    const auto [before_from, before_to] = spans_over(0, first, tokens[above].begin, tokens[line - 1].end);
    const auto [over, over_to] = spans_over(first, out.size(), tokens[above].begin, tokens[line - 1].end);
    bool gives_way = before_from == before_to;
    for (size_t i = over; i < over_to && gives_way; ++i) {
      gives_way = out[i].type == PiiType::kLocation || out[i].type == PiiType::kPerson || out[i].type == PiiType::kOrganization;
    }
    if (!gives_way) continue;
    for (size_t i = over; i < over_to; ++i) mark_dropped(out, i);
    added.push_back({PiiType::kStreetAddress, line_begin, tokens[number].end});
    added.push_back({PiiType::kStreetAddress, tokens[number + 1].begin, line_end});
  }
  if (added.empty()) return;
  drop_marked_spans(out);
  out.insert(out.end(), added.begin(), added.end());
  sort_by_begin(out, first);
}

void PiiTagger::join_addresses_in_sentences(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  constexpr size_t kLookBack = 8, kMaxJoined = 8, kMaxParting = 16;
  // Whether token k stands in a sentence: a word before it on its line,
  // within kLookBack tokens, and its line not opened by a number ("17 R
  // Família Marques 19" is an envelope's line).
  auto in_a_sentence = [&](size_t k) {
    auto word = [&](size_t j) { return is_word_byte(static_cast<unsigned char>(text[tokens[j].begin])); };
    size_t j = k, first_word = tokens.size();
    for (size_t seen = 0; seen < kLookBack && j > 0 && !tokens[j].newline_before; ++seen) {
      if (word(--j)) first_word = j;
    }
    const bool line_opens_at_j = j == 0 || tokens[j].newline_before;
    return first_word < tokens.size() && !(line_opens_at_j && is_number(text, tokens, first_word));
  };
  // Whether text[from, to) parts two lines or items of an envelope: white
  // space and commas only, no blank line, kMaxParting bytes at most; counts
  // its line breaks and commas into `parts`. (The parts joined count theirs
  // too: "Moss, Turkey" may be one place.)
  struct Parts {
    size_t line_breaks = 0, commas = 0;
  };
  auto parting = [&](uint32_t from, uint32_t to, Parts& parts) {
    if (to - from > kMaxParting) return false;
    size_t breaks = 0, commas = 0;
    for (uint32_t b = from; b < to; ++b) {
      const char c = text[b];
      breaks += c == '\n' ? 1 : 0;
      commas += c == ',' ? 1 : 0;
      if (c != '\n' && c != ' ' && c != '\t' && c != '\r' && c != ',') return false;
    }
    parts.line_breaks += breaks;
    parts.commas += commas;
    return breaks < 2;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size();) {
    PiiSpan span = out[s];
    size_t next = s + 1;
    const size_t k = span.type == PiiType::kStreetAddress ? first_token_from(tokens, span.begin) : tokens.size();
    if (k < tokens.size() && tokens[k].begin == span.begin && !tokens[k].newline_before && in_a_sentence(k) &&
        !(kept > first && out[kept - 1].end > tokens[k - 1].begin) &&
        !after_a_name_on_its_line(text, kept > first ? &out[kept - 1] : nullptr,
                                  kept > first + 1 ? &out[kept - 2] : nullptr, span)) {
      // The spans that follow, as far as the last one that makes an
      // envelope of them: past a line break, or past two commas on the
      // address's line ("68 Hulsterdreef 100 Apt. 535, København K, Sweden
      // 36018"; not "95 Lille Vibyvej 8, Måløv", a street and its town).
      PiiSpan joined = span;
      Parts parts;
      size_t to = next, crossed_to = next;
      while (to < out.size() && to - s <= kMaxJoined && continues_an_address(text, tokens, joined, out[to]) &&
             parting(joined.end, out[to].begin, parts)) {
        const std::string_view next_part = text.substr(out[to].begin, out[to].end - out[to].begin);
        parts.line_breaks += static_cast<size_t>(std::count(next_part.begin(), next_part.end(), '\n'));
        parts.commas += static_cast<size_t>(std::count(next_part.begin(), next_part.end(), ','));
        joined.end = out[to].end;
        ++to;
        if (parts.line_breaks > 0 || parts.commas >= 2) {
          span.end = joined.end;
          crossed_to = to;
        }
      }
      next = crossed_to;
    }
    out[kept++] = span;
    s = next;
  }
  out.resize(kept);
}

bool PiiTagger::below_a_heading(std::string_view text, const std::vector<PiiSpan>& out, size_t first, size_t k) const {
  const Tokens tokens = tagger_tokens();
  const Token& last = tokens[k - 1];
  if (last.end - last.begin == 1 && text[last.begin] == ':') return true;
  size_t opens = k - 1;
  while (opens > 0 && !tokens[opens].newline_before) --opens;
  const size_t word = first_word_from(text, tokens, opens, k);
  if (word == k) return false;
  const size_t s = span_over(out, word);
  if (s < first || s == out.size() || out[s].begin > tokens[word].begin) return false;
  if (out[s].type == PiiType::kOrganization) return true;
  const bool a_name = out[s].type == PiiType::kPerson || out[s].type == PiiType::kLocation ||
                      out[s].type == PiiType::kTitle;
  return a_name && !blank_line_before(text, tokens, k) && opens > 0 && !blank_line_before(text, tokens, opens);
}

void PiiTagger::join_envelopes_below_headings(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  constexpr size_t kMaxJoined = 12, kMaxGapOnALine = 24;
  // Whether text[from, to) parts two pieces of one envelope: on one line,
  // kMaxGapOnALine bytes at most and no end of a sentence; across a line
  // break, white space and commas only, no blank line.
  auto parts_pieces = [&](uint32_t from, uint32_t to) {
    const std::string_view gap = text.substr(from, to - from);
    if (gap.find('\n') == std::string_view::npos) {
      return gap.size() <= kMaxGapOnALine && gap.find_first_of(".!?:;") == std::string_view::npos;
    }
    return gap.find_first_not_of(" \t\r\n,") == std::string_view::npos && gap.find('\n') == gap.rfind('\n');
  };
  size_t kept = first;
  for (size_t s = first; s < out.size();) {
    PiiSpan span = out[s];
    size_t next = s + 1;
    // (An address that opens its line follows white space.)
    const bool after_space = span.begin > 0 && (text[span.begin - 1] == ' ' || text[span.begin - 1] == '\n' ||
                                                text[span.begin - 1] == '\t' || text[span.begin - 1] == '\r');
    const size_t k = span.type == PiiType::kStreetAddress && after_space ? first_token_from(tokens, span.begin) : tokens.size();
    if (k > 0 && k < tokens.size() && tokens[k].newline_before &&
        below_a_heading(text, out, first, k)) {
      while (next < out.size() && next - s < kMaxJoined &&
             continues_an_address(text, tokens, span, out[next]) && parts_pieces(span.end, out[next].begin)) {
        span.end = out[next++].end;
      }
    }
    out[kept++] = span;
    s = next;
  }
  out.resize(kept);
  reset_cover();
}

void PiiTagger::join_street_corners(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                    size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  constexpr size_t kMaxFirstStreet = 10, kMaxSecondStreet = 4;
  auto on_the_line = [&](size_t j) { return j < tokens.size() && !tokens[j].newline_before; };
  auto by_begin = [](const PiiSpan& span, uint32_t at) { return span.begin < at; };
  std::vector<PiiSpan> corners;
  // In text with capitals the first street opens with a marked token
  // (a capital, a digit): only the two tokens before each are read.
  const size_t candidates = mixed ? marked.size() : tokens.size();
  size_t after = 0;  // the corners' tokens end before it
  for (size_t c = 0; c < candidates; ++c) {
    const size_t street = mixed ? marked[c] : c;
    if (street < 2 || street - 2 < after) continue;
    const size_t j = street - 2;
    if (tokens[j].end - tokens[j].begin != 6 || tokens[j + 1].end - tokens[j + 1].begin != 2) [[likely]] continue;
    if (!token_is(text, tokens[j], "corner") || !token_is(text, tokens[j + 1], "of") || !on_the_line(j + 2)) continue;
    if (!is_word_byte(static_cast<unsigned char>(text[tokens[j + 2].begin]))) continue;  // not "{street_name}"
    const size_t opens = j > 0 && !tokens[j].newline_before && token_is(text, tokens[j - 1], "the") ? j - 1 : j;
    size_t also = j + 3;
    while (on_the_line(also) && also < j + 2 + kMaxFirstStreet && !token_is(text, tokens[also], "and")) ++also;
    if (!on_the_line(also) || !token_is(text, tokens[also], "and") || !on_the_line(also + 1)) continue;
    if (const size_t second_st = abbreviated_streets_at_a_corner(text, tokens, j + 2, also); second_st != 0) {
      corners.push_back({PiiType::kStreetAddress, tokens[j + 2].begin, tokens[also - 3].end});
      corners.push_back({PiiType::kStreetAddress, tokens[also + 1].begin, tokens[second_st - 1].end});
      after = also;
      continue;
    }
    // The second street: as far as the spans that open on its first two
    // tokens reach, or its street suffix.
    uint32_t end = 0;
    const uint32_t second_from = tokens[also + 1].begin;
    const uint32_t second_to = also + 3 < tokens.size() ? tokens[also + 3].begin : static_cast<uint32_t>(text.size());
    for (auto it = std::lower_bound(out.begin() + static_cast<ptrdiff_t>(first), out.end(), second_from, by_begin);
         it != out.end() && it->begin < second_to; ++it) {
      end = std::max(end, it->end);
    }
    for (size_t k = also + 1; end == 0 && on_the_line(k) && k <= also + kMaxSecondStreet; ++k) {
      if ((view_of(text, tokens[k], gazetteer_).gazetteer.full & street_suffix_categories_) != 0) end = tokens[k].end;
    }
    const uint32_t begin = tokens[opens].begin;
    if (end == 0) continue;
    if (!corners.empty() && begin < corners.back().end) continue;
    corners.push_back({PiiType::kStreetAddress, begin, end});
    after = also;
  }
  if (corners.empty()) return;
  // Each corner replaces the spans of out[first...] it overlaps, unless a
  // span found before tagging (out[0, first), in order) overlaps it.
  std::vector<PiiSpan> kept(out.begin(), out.begin() + static_cast<ptrdiff_t>(first));
  size_t s = first;
  SpansFoundBefore before(out, first);
  for (const PiiSpan& corner : corners) {
    if (before.overlap(corner.begin, corner.end)) continue;
    while (s < out.size() && out[s].end <= corner.begin) kept.push_back(out[s++]);
    while (s < out.size() && out[s].begin < corner.end) ++s;
    kept.push_back(corner);
  }
  kept.insert(kept.end(), out.begin() + static_cast<ptrdiff_t>(s), out.end());
  out = std::move(kept);
  reset_cover();
}

void PiiTagger::split_address_lists(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  constexpr std::string_view kAnd = ", and ";
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    // Each piece cut off may hold another ", and ".
    for (size_t piece = s;;) {
      PiiSpan& span = out[piece];
      const size_t at = text.substr(span.begin, span.end - span.begin).find(kAnd);
      if (at == std::string_view::npos) break;
      const auto cut = static_cast<uint32_t>(span.begin + at);
      const auto next = static_cast<uint32_t>(cut + kAnd.size());
      if (cut == span.begin || next >= span.end) break;
      const PiiSpan rest{PiiType::kStreetAddress, next, span.end};
      span.end = cut;
      // A rest with no digit, capital or non-ASCII letter is the
      // sentence's ("England, and the two strangers").
      const std::string_view words = text.substr(rest.begin, rest.end - rest.begin);
      if (std::none_of(words.begin(), words.end(), [](char c) {
            const auto b = static_cast<unsigned char>(c);
            return (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || b >= 0x80;
          })) {
        break;
      }
      out.push_back(rest);
      piece = out.size() - 1;
    }
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
  }
}

void PiiTagger::split_street_places(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  constexpr size_t kMaxPlaceTokens = 6;
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const std::string_view value = text.substr(out[s].begin, out[s].end - out[s].begin);
    const size_t comma = value.find(',');
    if (comma == std::string_view::npos || value.find('\n') != std::string_view::npos) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    const size_t c = first_token_from(tokens, static_cast<uint32_t>(out[s].begin + comma));
    const size_t end = first_token_from(tokens, out[s].end);  // one past the span's last token
    // The street: a word opening with a letter, and at its end a number or
    // a street word, or first a house number.
    bool named = false;
    for (size_t j = k; j < c && !named; ++j) named = opens_with_a_letter(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin));
    const size_t place_tokens = end - c - 1;
    if (!named || place_tokens == 0 || place_tokens > kMaxPlaceTokens) continue;
    const Gazetteer::Match street_end = gazetteer_.lookup(word_hash(text, tokens[c - 1]));
    const bool numbered = all_digits(text, tokens[k]) && c >= k + 2;
    if (!numbered && !is_number(text, tokens, c - 1) && ((street_end.full | street_end.part) & street_categories_) == 0) continue;
    // The place: words without digits, joined by no other marks than - . ';
    // capitalised in text with capitals; not everyday words alone ("...,
    // Daylight received", "..., and then") nor a pronoun's contraction
    // ("I'll").
    bool place = !mixed || opens_with_a_capital(text.substr(tokens[c + 1].begin));
    bool named_place = false;
    for (size_t j = c + 1; j < end && place; ++j) {
      const char b = text[tokens[j].begin];
      if (!is_word_byte(static_cast<unsigned char>(b))) {
        place = b == '-' || b == '.' || b == '\'';
        continue;
      }
      place = !has_digit(text, tokens[j]) && !pronoun_contraction(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin));
      named_place = named_place || !everyday(gazetteer_.lookup(word_hash(text, tokens[j])));
    }
    if (!place || !named_place) continue;
    out.push_back({PiiType::kLocation, tokens[c + 1].begin, out[s].end});
    out[s].end = tokens[c - 1].end;
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
  }
}

void PiiTagger::cut_trailing_street_words(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  static constexpr WordSet kStreetWords(std::array<std::string_view, 2>{"street", "st"});
  // The words that name a street's kind and never lead another street
  // word ("Court Street", "Park Road" and "Mill Lane" are streets).
  static constexpr WordSet kStreetKinds(std::array<std::string_view, 14>{
      "street", "st", "road", "rd", "avenue", "ave", "place", "pl", "lane", "ln", "drive", "dr", "boulevard", "blvd"});
  const Tokens tokens = tagger_tokens();
  for (size_t s = first; s < out.size(); ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    size_t last = first_token_from(tokens, out[s].end);  // one past the span's last token
    if (last < 3 || tokens[last - 1].end != out[s].end) continue;
    --last;
    if (mark_at(text, tokens, last, '.') && glued_to_the_one_before(tokens, last)) --last;
    if (!kStreetWords.contains(text, tokens[last]) || !one_blank_after(text, tokens, last)) continue;
    const size_t from = first_token_from(tokens, out[s].begin);
    const size_t before = last - 1;
    if (before <= from) continue;
    // (The number may hold its stop: "út 78. street".)
    const size_t number =
        mark_at(text, tokens, before, '.') && glued_to_the_one_before(tokens, before) ? before - 1 : before;
    const std::string_view first_word = text.substr(tokens[from].begin, tokens[from].end - tokens[from].begin);
    const bool after_its_number = number > from && all_digits(text, tokens[number]) && opens_with_a_letter(first_word);
    if (!after_its_number && !kStreetKinds.contains(text, tokens[before])) continue;
    out[s].end = tokens[before].end;
  }
}

void PiiTagger::finish_streets_ending_in_a_particle(std::string_view text, std::vector<PiiSpan>& out,
                                                     size_t first) const {
  static constexpr WordSet kMoreStreetWords(std::array<std::string_view, 2>{"via", "largo"});
  constexpr size_t kMaxWords = 3;
  const Tokens tokens = tagger_tokens();
  auto street_word = [&](size_t k) {
    return kStreetWordsBeforeTheName.contains(text, tokens[k]) || kMoreStreetWords.contains(text, tokens[k]);
  };
  for (size_t s = first; s < out.size(); ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t from = first_token_from(tokens, out[s].begin);
    size_t last = first_token_from(tokens, out[s].end);  // one past the span's last token
    if (last == 0 || last >= tokens.size() || tokens[last - 1].end != out[s].end) continue;
    --last;
    uint32_t end = out[s].end;
    // (Or the house number alone, before the street word, where a word
    // leads to it as to a place: "77" of "at 77 rue des martyrs".)
    if (all_digits(text, tokens[last]) && last + 1 < tokens.size() && street_word(last + 1) &&
        led_to_a_place(text, tokens, last) && one_blank_after(text, tokens, last + 1) &&
        span_over(out, last + 1) == out.size()) {
      ++last;
      end = tokens[last].end;
    }
    // (Back over the particles to the street word, which follows the house
    // number: "9 rue de", not "Thomas Avenue", "casal das cheiras le".)
    size_t word = last;
    while (word > from && kStreetParticles.contains(text, tokens[word])) --word;
    if (word == from || !street_word(word) || !all_digits(text, tokens[word - 1])) continue;
    for (size_t words = 0; words < kMaxWords && last + 1 < tokens.size(); ++words) {
      const size_t next = last + 1;
      if (!one_blank_after(text, tokens, next) ||
          !opens_with_a_letter(text.substr(tokens[next].begin, tokens[next].end - tokens[next].begin)) ||
          tokens[next].end - tokens[next].begin < 2 || span_over(out, next) != out.size()) {
        break;
      }
      last = next;
      end = tokens[next].end;
      if (!kStreetParticles.contains(text, tokens[next])) break;
    }
    if (end != out[s].end) set_span(out, s, {out[s].type, out[s].begin, end});
  }
}

void PiiTagger::join_words_before_addresses(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                            bool mixed) const {
  const Tokens tokens = tagger_tokens();
  auto word = [&](size_t j) { return is_word_byte(static_cast<unsigned char>(text[tokens[j].begin])); };
  auto a_space_apart = [&](uint32_t end, uint32_t begin) { return end + 1 == begin && text[end] == ' '; };
  size_t kept = first;
  size_t before = 0;  // in out[0, first): the first that may overlap the word
  bool joined = false;
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan span = out[s];
    // (" and " stands right before it.)
    const bool after_and = span.begin >= 6 && text[span.begin - 1] == ' ' && (text[span.begin - 2] | 0x20) == 'd' &&
                           (text[span.begin - 3] | 0x20) == 'n' && (text[span.begin - 4] | 0x20) == 'a' &&
                           text[span.begin - 5] == ' ';
    const size_t k = span.type == PiiType::kStreetAddress && after_and ? first_token_from(tokens, span.begin) : tokens.size();
    if (k >= 2 && k < tokens.size() && !tokens[k].newline_before && !tokens[k - 1].newline_before &&
        token_is(text, tokens[k - 1], "and") && a_space_apart(tokens[k - 2].end, tokens[k - 1].begin) &&
        a_space_apart(tokens[k - 1].end, tokens[k].begin) && word(k - 2)) {
      // The word: word tokens joined by "-" ("Anne-Lise"), not the end of
      // a longer token run.
      size_t w = k - 2;
      while (w >= 2 && !tokens[w].newline_before && tokens[w - 1].end == tokens[w].begin &&
             tokens[w - 1].end - tokens[w - 1].begin == 1 && text[tokens[w - 1].begin] == '-' &&
             tokens[w - 2].end == tokens[w - 1].begin && word(w - 2)) {
        w -= 2;
      }
      // It opens with a letter, a capital in text with capitals, and is no
      // possessive ("Tony's and David's 100%").
      const auto opening = static_cast<unsigned char>(text[tokens[w].begin]);
      const auto* stem = reinterpret_cast<const unsigned char*>(text.data()) + tokens[k - 2].begin;
      const bool whole_word = (w == 0 || tokens[w].newline_before || tokens[w - 1].end < tokens[w].begin) &&
                              (mixed ? (opening >= 'A' && opening <= 'Z') || opening >= 0x80
                                     : (opening >= 'a' && opening <= 'z') || opening >= 0x80) &&
                              possessive_stem(stem, tokens[k - 2].end - tokens[k - 2].begin) ==
                                  tokens[k - 2].end - tokens[k - 2].begin;
      const uint32_t from = tokens[w].begin, to = tokens[k - 2].end;
      while (before < first && out[before].end <= from) ++before;
      // The spans kept over the word lie inside it; none found before.
      size_t over = kept;
      while (over > first && out[over - 1].end > from) --over;
      bool inside = whole_word && !(before < first && out[before].begin < to);
      for (size_t o = over; o < kept; ++o) inside = inside && out[o].begin >= from && out[o].end <= to;
      // The address, with the pieces and the number after it on its line.
      size_t last = s;
      uint32_t end = span.end;
      while (last + 1 < out.size() && out[last + 1].type == PiiType::kStreetAddress && a_space_apart(end, out[last + 1].begin)) {
        end = out[++last].end;
      }
      const size_t after = first_token_from(tokens, end);
      if (after < tokens.size() && a_space_apart(end, tokens[after].begin) && all_digits(text, tokens[after]) &&
          (last + 1 == out.size() || out[last + 1].begin >= tokens[after].end)) {
        end = tokens[after].end;
      }
      const std::string_view whole = text.substr(from, end - from);
      if (inside && std::any_of(whole.begin(), whole.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        kept = over;
        span = {PiiType::kStreetAddress, from, end};
        s = last;
        joined = true;
      }
    }
    out[kept++] = span;
  }
  out.resize(kept);
  if (joined) reset_cover();
}

void PiiTagger::drop_lone_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  if (std::none_of(out.begin() + static_cast<ptrdiff_t>(first), out.end(),
                   [](const PiiSpan& span) { return span.type == PiiType::kStreetAddress; })) {
    return;
  }
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto on_its_line = [&](size_t k) { return k < n && !tokens[k].newline_before; };
  auto first_byte = [&](size_t k) { return static_cast<unsigned char>(text[tokens[k].begin]); };
  auto letters = [&](size_t k) {
    return opens_with_a_letter(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
  };
  auto glued = [&](size_t k) { return k + 1 < n && tokens[k + 1].begin == tokens[k].end; };
  auto match = [&](size_t k) { return gazetteer_.lookup(word_hash(text, tokens[k])); };
  // A word of two letters or more that is no unit of measure.
  auto word = [&](size_t k) {
    return letters(k) && tokens[k].end - tokens[k].begin >= 2 && !unit_of_measure(text, tokens[k]);
  };
  // Whether token k opens with a letter of the words the lists hold: not a
  // small letter of Greek or Cyrillic nor a letter of a script without
  // capitals ("100 тысяч", "7 个月"), whose everyday words no list knows.
  auto listed_script = [&](size_t k) {
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[k].begin;
    const size_t length = tokens[k].end - tokens[k].begin;
    return !opens_with_a_small_letter(b, length) && !opens_with_a_caseless_letter(b, length);
  };
  // A word of those that no everyday list knows (`m`: its matches).
  auto unknown_word_of = [&](size_t k, const Gazetteer::Match& m) {
    return word(k) && listed_script(k) && (m.full & common_categories_) == 0;
  };
  auto unknown_word = [&](size_t k) { return unknown_word_of(k, match(k)); };
  // Whether a street suffix is token k or k + 1 ("Beach Road", "Stone
  // Cellar Road").
  auto suffix_ahead = [&](size_t k) {
    for (size_t t = k; t < k + 2 && on_its_line(t); ++t) {
      if (word(t) && (match(t).full & street_suffix_categories_) != 0) return true;
    }
    return false;
  };
  // Whether the words of a street open at token k, on the line: a word no
  // everyday list knows ("Rue", "kvaløyvågvegen"), or capitalised and known
  // to a list of names or places too ("Dirk"); an everyday one before a
  // street suffix ("Beach Road"), of four letters or more before a number
  // ("Delta 116"), or a street word before a word no everyday list knows
  // ("via raffaele"); a number with letters ("184th", "221B"); "P.O."; a
  // capital and its slash ("C/ Mayor") or before a capitalised word ("R
  // Nossa"). `any_word`: after two numbers, any word but a unit, and a
  // capital's stop before a capitalised word ("30 N. Stadion").
  auto street_at = [&](size_t k, bool any_word) {
    if (!on_its_line(k)) return false;
    if (!letters(k)) return is_number(text, tokens, k) && !all_digits(text, tokens[k]);
    if (tokens[k].end - tokens[k].begin == 1) {
      if (!on_its_line(k + 1)) return false;
      const char after = text[tokens[k + 1].begin];
      const bool stop = glued(k) && after == '.' && k + 2 < n;
      if (stop && glued(k + 1) && token_is(text, tokens[k], "p") && token_is(text, tokens[k + 2], "o")) return true;
      if (first_byte(k) < 'A' || first_byte(k) > 'Z') return false;
      return (glued(k) && after == '/') ||
             (stop && any_word && on_its_line(k + 2) && opens_with_a_capital(text.substr(tokens[k + 2].begin))) ||
             (!glued(k) && opens_with_a_capital(text.substr(tokens[k + 1].begin)));
    }
    if (!word(k)) return false;
    // A nationality or a religion counts the people ("50 Americans") but
    // before a street suffix ("10 Dutch Lane").
    if (pii_scan::is_group_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin))) {
      return suffix_ahead(k + 1);
    }
    if (any_word) return true;
    const Gazetteer::Match m = match(k);
    if (unknown_word_of(k, m) || suffix_ahead(k + 1)) return true;
    if (tokens[k].end - tokens[k].begin >= 4 && on_its_line(k + 1) && all_digits(text, tokens[k + 1])) return true;
    if (listed_script(k) && opens_with_a_capital(text.substr(tokens[k].begin)) && !everyday(m)) return true;
    return ((m.full | m.part) & street_categories_) != 0 && on_its_line(k + 1) && unknown_word(k + 1);
  };
  // Whether `before` ends right before byte `at`: on its line, blanks and
  // commas between (one at least); or, with `line_above`, on the line above.
  auto right_before = [&](const PiiSpan& before, uint32_t at, bool line_above) {
    if (before.end >= at) return false;
    const std::string_view gap = text.substr(before.end, at - before.end);
    const size_t line_breaks = static_cast<size_t>(std::count(gap.begin(), gap.end(), '\n'));
    return gap.find_first_not_of(" \t\r\n,") == std::string_view::npos && line_breaks == (line_above ? 1 : 0);
  };
  // Tokens [j, last], the numbers of out[s]: after another address on its
  // line, the next part of it ("Apt. 434 40"); four digits or more after a
  // place on its line, or alone on its line below an address or a place,
  // a postcode.
  auto after_an_address = [&](size_t s, size_t j, size_t last) {
    const uint32_t at = out[s].begin;
    const bool postcode = j == last && out[s].end - out[s].begin >= 4;
    const bool alone = !on_its_line(j) && !on_its_line(last + 1);
    auto part_before = [&](const PiiSpan& before) {
      if (right_before(before, at, false)) {
        return before.type == PiiType::kStreetAddress || (before.type == PiiType::kLocation && postcode);
      }
      return alone && postcode && right_before(before, at, true) &&
             (before.type == PiiType::kStreetAddress || before.type == PiiType::kLocation);
    };
    if (s > first && part_before(out[s - 1])) return true;
    // The spans found before tagging, in order of begin: the units ("Apt. 434").
    const auto found = std::partition_point(out.begin(), out.begin() + static_cast<ptrdiff_t>(first),
                                            [&](const PiiSpan& span) { return span.begin < at; });
    return found != out.begin() && part_before(*std::prev(found));
  };
  // Whether `span` is a number (digits, maybe with "," or ".") and "%",
  // or a number before "%" or " %".
  auto percentage_at = [&](const PiiSpan& span) {
    std::string_view number = text.substr(span.begin, span.end - span.begin);
    if (number.ends_with('%')) {
      number.remove_suffix(1);
    } else {
      const uint32_t after = span.end < text.size() && text[span.end] == ' ' ? span.end + 1 : span.end;
      if (after >= text.size() || text[after] != '%') return false;
    }
    return !number.empty() && number[0] >= '0' && number[0] <= '9' &&
           number.find_first_not_of("0123456789,.") == std::string_view::npos;
  };
  // Whether a word of tokens [from, ...) before byte `end` is a street's
  // word of the lists.
  auto street_word_in = [&](size_t from, uint32_t end) {
    for (size_t t = from; t < n && tokens[t].begin < end; ++t) {
      if (!letters(t)) continue;
      const Gazetteer::Match m = match(t);
      if (((m.full | m.part) & street_categories_) != 0) return true;
    }
    return false;
  };
  // The words of time before a year ("in 1909", "since 2019").
  static constexpr WordSet kBeforeAYear(std::array<std::string_view, 10>{
      "in", "since", "by", "until", "till", "during", "before", "after", "circa", "around"});
  // Whether tokens (j, ...) before byte `end` are one to three capitalised
  // words one blank apart, the first a first name of the lists: "1909
  // Frederick Cook".
  auto person_after_a_year = [&](size_t j, uint32_t end) {
    size_t words = 0;
    for (size_t t = j + 1; t < n && tokens[t].begin < end; ++t) {
      if (++words > 3 || !one_blank_after(text, tokens, t) || !word(t) || first_byte(t) < 'A' || first_byte(t) > 'Z') {
        return false;
      }
    }
    return words > 0 && (match(j + 1).full & first_name_categories_) != 0;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    bool keep = true;
    if (out[s].type == PiiType::kStreetAddress) {
      // Its tokens: numbers alone, maybe joined by "and", "or", "to" or a
      // mark of a list or a sum ("between 15 and 30", "1,3,5", "7 × 5").
      const size_t j = first_token_from(tokens, out[s].begin);
      // A number and a unit of measure open a quantity, not an address ("59
      // kg (130", "150 Hz, 250 Hz"): a street has a name; so does a number
      // before "%", maybe after a blank ("45%", "28 %").
      if (quantity_at(text, tokens, j) && tokens[j + 1].end <= out[s].end) continue;
      if (percentage_at(out[s])) continue;
      // Nor does a number before a word that joins or counts, where no word
      // of a street follows it in the span ("my son is 8 and hates
      // reading", "70 percent of the body's blood flow"; "4 and 5 Main
      // Street" stays).
      if (opens_with_a_count(text, tokens, j, out[s].end) && !street_word_in(j + 2, out[s].end)) continue;
      // Nor does a year after a word of time, where no word of a street
      // follows it in the span ("In 1909 Frederick Cook claimed", "since
      // 2019 Priya Raman has"): capitalised words after it, the first a
      // first name of the lists, are the person; other words go with the
      // year ("in 1938 England").
      if (j > 0 && a_recent_year(text, tokens[j]) && kBeforeAYear.contains(text, tokens[j - 1]) &&
          !street_word_in(j + 1, out[s].end)) {
        if (person_after_a_year(j, out[s].end)) {
          out[kept++] = {PiiType::kPerson, tokens[j + 1].begin, out[s].end};
          reset_cover();
        }
        continue;
      }
      size_t last = j;
      bool numbers = j < n && all_digits(text, tokens[j]), joined = false;
      while (numbers && last + 1 < n && tokens[last + 1].begin < out[s].end) {
        ++last;
        const bool joins = !all_digits(text, tokens[last]) && last + 1 < n && tokens[last + 1].begin < out[s].end &&
                           joins_numbers(text, tokens[last]);
        numbers = all_digits(text, tokens[last]) || joins;
        joined = joined || joins;
      }
      if (numbers && tokens[last].end == out[s].end) {
        const bool another = on_its_line(last + 1) && all_digits(text, tokens[last + 1]);  // "18 15 Millicent Drive"
        const size_t next = another ? last + 2 : last + 1;
        // (Any word after two numbers in a row, not after a list of them:
        // "lists 3 and 4 only".)
        keep = street_at(next, another || (last > j && !joined)) || after_an_address(s, j, last);
      }
    }
    if (keep) out[kept++] = out[s];
  }
  if (kept == out.size()) return;
  out.resize(kept);
  reset_cover();
}

void PiiTagger::type_envelope_places(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  auto no_word = [&](size_t from, size_t to) {
    for (size_t b = from; b < to; ++b) {
      if (is_word_byte(static_cast<unsigned char>(text[b]))) return false;
    }
    return true;
  };
  // Whether text[from, to) holds exactly one line break.
  auto one_line_break = [&](size_t from, size_t to) {
    const std::string_view gap = text.substr(from, to - from);
    const size_t at = gap.find('\n');
    return at != std::string_view::npos && gap.find('\n', at + 1) == std::string_view::npos;
  };
  // The spans found before tagging (out[0, first), in order of begin) take
  // part too: the structured detectors find the units ("Apt. 580").
  const auto found_before = std::span<const PiiSpan>(out.data(), first);
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kPerson && span.type != PiiType::kOrganization) continue;
    // Alone on its line: only marks and blanks back to the line break
    // before it and on to the one after it (read no further than that: a
    // line may be a megabyte long).
    size_t line_start = span.begin, line_end = span.end;
    while (line_start > 0 && text[line_start - 1] != '\n' && !is_word_byte(static_cast<unsigned char>(text[line_start - 1]))) {
      --line_start;
    }
    while (line_end < text.size() && text[line_end] != '\n' && !is_word_byte(static_cast<unsigned char>(text[line_end]))) {
      ++line_end;
    }
    if (line_start == 0 || text[line_start - 1] != '\n' || line_end == text.size() || text[line_end] != '\n') continue;
    --line_start;  // the line break
    // The last span before the line and the first after it, of either kind.
    const auto later = std::lower_bound(found_before.begin(), found_before.end(), span.begin,
                                        [](const PiiSpan& f, uint32_t at) { return f.begin < at; });
    const PiiSpan* above = s > first ? &out[s - 1] : nullptr;
    if (later != found_before.begin() && (above == nullptr || std::prev(later)->end > above->end)) above = &*std::prev(later);
    const PiiSpan* below = s + 1 < out.size() ? &out[s + 1] : nullptr;
    if (later != found_before.end() && (below == nullptr || later->begin < below->begin)) below = &*later;
    if (above == nullptr || below == nullptr || above->type != PiiType::kStreetAddress ||
        (below->type != PiiType::kLocation && below->type != PiiType::kStreetAddress) || above->end > line_start ||
        below->begin < line_end) {
      continue;
    }
    if (no_word(above->end, line_start) && no_word(line_end, below->begin) && one_line_break(above->end, span.begin) &&
        one_line_break(span.end, below->begin)) {
      span.type = PiiType::kLocation;
    }
  }
}

void PiiTagger::type_company_lines(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  constexpr size_t kMaxWords = 4;
  LineStarts lines(tokens);
  auto line_start = [&](size_t j) { return lines.of(j); };
  // The last word of the line of tokens [from, end), or end when none.
  auto last_word = [&](size_t from, size_t end) {
    for (size_t t = end; t > from; --t) {
      if (is_word_byte(static_cast<unsigned char>(text[tokens[t - 1].begin]))) return t - 1;
    }
    return end;
  };
  // Whether one span of out[first...] covers the words of tokens [from,
  // end) of a line, and only them; its index, else out.size().
  auto span_over_words = [&](size_t from, size_t end) {
    const size_t word = first_word_from(text, tokens, from, end);
    const size_t last = last_word(word, end);
    if (word == end || last == end) return out.size();
    const size_t k = span_over(out, word);
    const bool exact = k >= first && k < out.size() && out[k].begin == tokens[word].begin && out[k].end == tokens[last].end;
    return exact ? k : out.size();
  };
  bool added = false;
  size_t read = tokens.size();  // the line of the last address read
  const size_t spans = out.size();
  for (size_t s = first; s < spans; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    if (k == tokens.size()) continue;
    const size_t line = line_start(k);
    if (line == read || first_word_from(text, tokens, line, k) != k) continue;
    read = line;
    if (line == 0 || blank_line_before(text, tokens, line)) continue;
    const size_t head = line_start(line - 1);
    if (head == 0 || blank_line_before(text, tokens, head)) continue;
    const size_t name = span_over_words(line_start(head - 1), head);
    if (name == out.size() || out[name].type != PiiType::kPerson) continue;
    // The company's words.
    const size_t from = first_word_from(text, tokens, head, line);
    size_t words = 0, last = from;
    bool fits = from < line;
    for (size_t t = from; t < line && fits; ++t) {
      const auto c = static_cast<unsigned char>(text[tokens[t].begin]);
      if (!is_word_byte(c)) {
        fits = tokens[t].end - tokens[t].begin == 1 && std::string_view("-&.,").find(static_cast<char>(c)) != std::string_view::npos;
        continue;
      }
      ++words;
      last = t;
      fits = words <= kMaxWords && (mixed ? opens_with_a_capital(text.substr(tokens[t].begin))
                                          : opens_with_a_letter(text.substr(tokens[t].begin)));
    }
    if (!fits) continue;
    bool free = true;
    for (size_t t = from; t <= last && free; ++t) free = span_over(out, t) == out.size();
    if (free) {
      add_span(out, {PiiType::kOrganization, tokens[from].begin, tokens[last].end});
      added = true;
      continue;
    }
    const size_t company = span_over_words(head, line);
    if (company == out.size() || !(out[company].type == PiiType::kPerson || out[company].type == PiiType::kLocation)) continue;
    if ((gazetteer_.lookup(word_hash(text, tokens[from])).full & name_categories_) != 0) continue;
    out[company].type = PiiType::kOrganization;
  }
  if (added) sort_by_begin(out, first);
}

void PiiTagger::add_military_addresses(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                       size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto is = [&](size_t k, std::string_view w) { return token_is(text, tokens[k], w); };
  // Token k: a number of `length` digits, or of one to six where length is 0.
  auto number = [&](size_t k, size_t length) {
    const size_t size = tokens[k].end - tokens[k].begin;
    return (length != 0 ? size == length : size <= 6) && all_digits(text, tokens[k]);
  };
  std::vector<PiiSpan> found;
  // Each ends in a ZIP code, a number: a marked token in any text.
  for (const uint32_t zip : marked) {
    if (zip < 3 || tokens[zip].end - tokens[zip].begin != 5) continue;
    const size_t j = zip - 2;
    if (!found.empty() && tokens[j].begin < found.back().end) continue;
    if (!(is(j, "apo") || is(j, "fpo") || is(j, "dpo")) || tokens[j + 1].newline_before || tokens[zip].newline_before ||
        !(is(j + 1, "aa") || is(j + 1, "ae") || is(j + 1, "ap")) || !number(zip, 5)) {
      continue;
    }
    const size_t head_end = is(j - 1, ",") ? j - 1 : j;  // "USS Dam, FPO AE 94560"
    size_t from = n;
    // A unit's box: "PSC 4665, Box 2778", "Unit 4181 Box 1281", "CMR 412 Box 77".
    if (head_end >= 4 && number(head_end - 1, 0) && is(head_end - 2, "box")) {
      size_t k = head_end - 3;
      if (is(k, ",") && k > 0) --k;
      if (k >= 1 && number(k, 0) && (is(k - 1, "psc") || is(k - 1, "unit") || is(k - 1, "cmr"))) from = k - 1;
    }
    // A ship: its prefix and up to three words of its name, on one line.
    for (size_t k = head_end; from == n && k-- > 0 && head_end - k <= 4;) {
      if (is(k, "uss") || is(k, "usns") || is(k, "usnv") || is(k, "uscgc")) {
        if (k + 1 < head_end) from = k;
        break;
      }
      if (tokens[k].newline_before || !is_word_byte(static_cast<unsigned char>(text[tokens[k].begin]))) break;
    }
    if (from == n) continue;
    bool one_line = true;  // the head: no line break inside it
    for (size_t t = from + 1; t < head_end && one_line; ++t) one_line = !tokens[t].newline_before;
    if (!one_line) continue;
    found.push_back({PiiType::kStreetAddress, tokens[from].begin, tokens[zip].end});
  }
  if (found.empty()) return;
  // The spans of this tagging inside or across them go (found is in order).
  const auto inside = [&](const PiiSpan& span) {
    const auto after = std::upper_bound(found.begin(), found.end(), span.begin,
                                        [](uint32_t at, const PiiSpan& f) { return at < f.end; });
    return after != found.end() && after->begin < span.end;
  };
  out.erase(std::remove_if(out.begin() + static_cast<ptrdiff_t>(first), out.end(), inside), out.end());
  out.insert(out.end(), found.begin(), found.end());
  sort_by_begin(out, first);
}

void PiiTagger::add_numbered_buildings(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                       size_t first, bool mixed) const {
  static constexpr WordSet kBuildings(std::array<std::string_view, 5>{"house", "flat", "plot", "door", "shop"});
  static constexpr WordSet kQuarters(std::array<std::string_view, 4>{"sector", "block", "phase", "pocket"});
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto is = [&](size_t k, std::string_view w) { return token_is(text, tokens[k], w); };
  auto glued = [&](size_t k) { return !tokens[k].newline_before && tokens[k].begin == tokens[k - 1].end; };
  auto digit_first = [&](size_t k) { return text[tokens[k].begin] >= '0' && text[tokens[k].begin] <= '9'; };
  // A word of the street's name: in text with capitals a capitalised one;
  // or an ordinal ("12th Main Road").
  auto street_word = [&](size_t k) {
    const auto c = static_cast<unsigned char>(text[tokens[k].begin]);
    if (c >= '0' && c <= '9') return street_ordinal(text, tokens[k]);
    return is_word_byte(c) && (!mixed || (c >= 'A' && c <= 'Z'));
  };
  std::vector<PiiSpan> found;
  for (const uint32_t number : marked) {
    // "No. 14", "No 14": the number one blank after "No" or its stop.
    if (number < 2 || !digit_first(number) || !one_blank_after(text, tokens, number)) continue;
    size_t k = number - 1;
    if (is(k, ".") && glued(k)) --k;
    if (k == 0 || !is(k, "no")) continue;
    // The building's word one blank before, or "H." glued before ("H.No.").
    size_t from = k - 1;
    if (is(from, ".") && glued(k) && from > 0 && glued(from) && is(from - 1, "h")) {
      --from;
    } else if (!(kBuildings.contains(text, tokens[from]) && one_blank_after(text, tokens, k))) {
      continue;
    }
    // The number's parts glued by a dash or a slash: "3-4-5", "4/12".
    size_t to = number;
    while (to + 2 < n && (is(to + 1, "-") || is(to + 1, "/")) && glued(to + 1) && glued(to + 2) && digit_first(to + 2)) {
      to += 2;
    }
    // The quarter or the street after a comma, on the line.
    if (to + 3 < n && is(to + 1, ",") && glued(to + 1) && one_blank_after(text, tokens, to + 2)) {
      const size_t w = to + 2;
      if (kQuarters.contains(text, tokens[w]) && one_blank_after(text, tokens, w + 1) &&
          is_word_byte(static_cast<unsigned char>(text[tokens[w + 1].begin]))) {
        to = w + 1;
      } else {
        for (size_t e = w; e < n && e < w + 3 && street_word(e) && (e == w || one_blank_after(text, tokens, e)); ++e) {
          const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[e]));
          if (e > w && ((m.full & street_suffix_categories_) != 0 || kCommonStreetSuffixes.contains(text, tokens[e]))) {
            to = e;
            break;
          }
        }
      }
    }
    if (!found.empty() && tokens[from].begin < found.back().end) continue;
    found.push_back({PiiType::kStreetAddress, tokens[from].begin, tokens[to].end});
  }
  // Each in place of the spans of this tagging inside it (read from the
  // cover: a long list of such addresses costs time in their number).
  bool changed = false;
  for (const PiiSpan& address : found) changed = replace_with_an_address(out, first, address.begin, address.end) || changed;
  if (!changed) return;
  drop_marked_spans(out);
  sort_by_begin(out, first);
}

}  // namespace tiergate
