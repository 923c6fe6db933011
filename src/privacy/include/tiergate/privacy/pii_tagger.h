// The learned part of the scan (issue 4): a sequence tagger for the personal
// data no pattern can validate — names, street addresses, locations,
// organisations, job titles, name prefixes, ages, nationality/religious/
// political groups.
//
// Method: the text is cut into tokens (runs of letters and digits, any byte
// >= 0x80 counting as a letter, and single marks); each token gets a tag
// (B-TYPE, I-TYPE or O) from an averaged perceptron over hashed features —
// the lower-cased word, its shape, prefix and suffix, the words and shapes
// around it, capitalisation (only when the text is not all lower case), a
// line break before it, the gazetteer categories (gazetteer.h; a possessive
// looked up without its 's) of it and its neighbours, and the two previous
// tags — averaged over TaggerOptions::members perceptrons, decoded left to
// right, an I-TYPE only after a B- or I- of the same type and where
// may_continue() allows it (tagger_rules.h); finished spans go through
// finish_span(). In text with
// capitals, tokens outside a span that are not marked (a capital, a digit, a
// non-ASCII letter but a small one of Latin-1, Greek or Cyrillic), and
// everyday words that could only make a span of
// themselves, are O without scoring: most words of a prompt, at no measured
// cost in recall. Trained by `tiergate pii train` on labelled rows
// (pii_dataset.h); types the structured detectors own (cards, e-mail
// addresses, dates, ...) are not learned. Measured in docs/privacy.md.
#pragma once

#include <bitset>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/privacy/gazetteer.h"
#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_types.h"
#include "tiergate/privacy/scan_stop.h"

namespace tiergate {

struct TaggerOptions {
  int epochs = 6;
  uint32_t buckets = 1u << 16;  // hashed feature slots, a power of two
  uint64_t seed = 1;            // the order rows are visited in, per epoch
  // The share of training tokens that learn without the words around them
  // (the shapes, capitals and gazetteer matches around them stay): so that
  // the tagger leans on what a name or an address looks like more than on
  // the sentences it was shown. Measured on sentence templates it never saw
  // (`pii cv --by-template`, three fold seeds): recall 0.66 -> 0.68, precision
  // 0.74 -> 0.73; by row, unchanged (0.91 / 0.87). 0.5 gained no more recall and lost
  // recall by row.
  double context_dropout = 0.25;
  // The tagger is the average of this many perceptrons, each trained with its
  // own row order and context dropout (seeds `seed`, `seed` + 7919, ...):
  // averaging takes out the luck of one order, at this many times the
  // training time and no cost when tagging. Measured on unseen templates
  // (`pii cv --by-template`, fold seeds 1-3): 1 -> 5 members, recall 0.704
  // -> 0.708 (names 0.837 -> 0.845), precision 0.760 -> 0.762; 9 members
  // gained no more.
  int members = 5;
  // Word lists whose matches become features (gazetteer.h); kept in the
  // tagger, so that tagging needs no other file.
  std::vector<GazetteerList> gazetteers;
};

// Whether the tagger learns `type` (the unstructured types).
bool tagger_learns(PiiType type);

class PiiTagger {
 public:
  PiiTagger() = default;

  // Learns the tagged types present in `examples`. An empty result (no such
  // type in the data) tags nothing.
  static PiiTagger train(std::span<const PiiExample> examples, const TaggerOptions& options = {});

  // Appends the spans found in `text` (byte offsets, sorted, not
  // overlapping each other). Thread-safe.
  void tag(std::string_view text, std::vector<PiiSpan>& out) const;
  // The same, asking `stop` (when set) every 1,024 tokens of decoding and
  // before the passes after it: false, with `out` incomplete, when it
  // answered true.
  bool tag(std::string_view text, std::vector<PiiSpan>& out, const ScanStop& stop) const;

  bool empty() const { return types_.empty(); }
  const std::vector<PiiType>& types() const { return types_; }

  // A versioned binary form; parse() names `source` in its errors.
  std::string serialize() const;
  static StatusOr<PiiTagger> parse(std::string_view bytes, std::string_view source);

 private:
  // How tag() reads a text a second time, in small letters: not at all; for
  // the names of listed_words_name() and the streets of numbered_street()
  // (sentence_case_only() text without the first person or a quiz's
  // letters, tagger_rules.h); or for every name and address in small
  // letters (casual_case() text).
  enum class SecondReading { kNone, kListedNames, kAll };
  // One reading of `text` by tag(): as written, or in small letters where
  // it is in capitals throughout. `second` (when set): how tag() reads the
  // text again.
  bool tag_reading(std::string_view text, std::vector<PiiSpan>& out, const ScanStop& stop,
                   SecondReading* second) const;
  // Whether a word in small letters of three letters or more among the
  // tagger's tokens (of `text`) is one a name list knows and no everyday
  // list does, or a given name alone (only_a_given_name()): the words a
  // name of a kListedNames reading opens with; or whether, after a word
  // that leads to a place, a house number before a street's suffix two to
  // four words on or a Romance street word before such a number is: where
  // a numbered_street() may begin.
  bool holds_a_small_name_or_street(std::string_view text) const;
  // Whether text[begin, end) (token j of the tagger's tokens, or its part
  // without a possessive's 's) is a word a name list knows and no everyday
  // list does, or a given name alone: the first word of a kListedNames name.
  bool opens_a_listed_name(std::string_view text, size_t j, uint32_t begin, uint32_t end) const;
  // Whether a name of out[first...] (the first reading's) is followed, one
  // blank after it, by a word in small letters of surname_words(): a
  // surname the second reading may give it ("ms. Oksana hrytsenko").
  bool names_before_small_surnames(std::string_view text, const std::vector<PiiSpan>& out, size_t first) const;
  // Whether `span`, among the tagger's tokens (of `text`'s second reading),
  // is one to three words, the first one a name list knows and no
  // everyday list does or a given name alone, each other such a word or
  // one of surname_words() ("cormac flanagan", "ambrose fairweather"), or
  // any word after a surname's particles, which count as no word ("ilse
  // van den berg", "zainab al-rashid"); not
  // glued to a hyphen outside it nor its first word to one ("mario-like";
  // a surname's parts may be: "adeyemi-okoro"), nor after an article or a
  // determiner ("the jean market") but two words or more whose first, of
  // three letters or more, no everyday list knows ("a david lange
  // concert"; not "an el niño event").
  bool listed_words_name(std::string_view text, const PiiSpan& span) const;
  // Whether the words of text[begin, end) (one at least; marks between
  // them) are each a surname's: three letters or more, no chat shorthand,
  // and a word a name list knows and no everyday list does, a surname of
  // the lists or the census that no everyday list knows, or one no list
  // knows at all ("ilyina"; not "most", "asap").
  bool surname_words(std::string_view text, uint32_t begin, uint32_t end) const;
  // surname_words(), or, after a name at `name_begin` that follows an
  // English title and its stop ("ms. Oksana"), one word of three letters
  // or more that is no function word, no verb that names people too and
  // no chat's shorthand: "mr. Bartholomew quince", whatever lists know it.
  bool titled_surname_words(std::string_view text, uint32_t name_begin, uint32_t begin, uint32_t end) const;
  // Whether `span`, among the tagger's tokens (of `text`'s second reading),
  // is a house number (a digit 1-9 first, five bytes at most) and one to
  // three words in small letters (or a compass point's letter) one blank
  // apart, then a street's suffix of the lists, and whatever follows it:
  // "4 rowan close", "9 cedar court", "1450 n lakeshore dr apt 12b,
  // chicago"; or such a number and unlisted_street_after(), the span's
  // end: "moving to 44 wolska."; or a Romance street word before the name
  // (kStreetWordsBeforeTheName), one to three words in small letters and
  // such a number: "calle mayor 145", "rue des martyrs 77". Each where a
  // word leads to a place (led_to_a_place(): "at", "to", a line's start),
  // not "and 50 dark green spools".
  bool numbered_street(std::string_view text, const PiiSpan& span) const;
  // The last of the one or two words after the tagger's token j (a house
  // number), one blank apart, that the clause ends after, each in small
  // letters, of four letters or more, that no list knows: a street's name
  // in another language ("31 jalan ampang,", "118 hverfisgata"), not
  // before a comma and a number of three digits at most, a series of
  // quantities ("18 zorvath, 18 velmora"); 0 where there are none such.
  size_t unlisted_street_after(std::string_view text, size_t j) const;
  // Whether the word text[begin, end) is a street's suffix of the lists
  // ("Close", "St") or one of kAbbreviatedStreetSuffixes ("dr", "blvd"),
  // in any case.
  bool street_suffix(std::string_view text, uint32_t begin, uint32_t end) const;
  size_t tags() const { return 1 + 2 * types_.size(); }  // O, then B-/I- per type
  // A slot's weights for O and the B- tags are a row of open_rows_, padded
  // to a multiple of 8 (open_width()); for the I- tags, a row of
  // continue_rows_ (continue_width()). Outside a span only O and B- can
  // follow, so tag() reads only open_rows_ there: half the memory.
  size_t open_width() const { return (1 + types_.size() + 7) & ~size_t{7}; }
  size_t continue_width() const { return (types_.size() + 7) & ~size_t{7}; }
  // Where tag k (O, B-1, I-1, B-2, ...) lies in the two rows side by side.
  size_t column(size_t k) const { return k == 0 ? 0 : k % 2 == 1 ? 1 + k / 2 : open_width() + (k - 2) / 2; }
  // Keeps the weights in tag order ([slot * tags() + tag], as saved) and
  // sets the rows tag() reads: the weights in 16-bit fixed point, scaled so
  // that the largest is 32767. A tag's score is the integer sum of the rows
  // of a token's features, exact on every CPU; rounding moves it by half a
  // unit per feature at most. 16 bits halve the rows' memory, read at
  // random for every token scored, and so the cache misses; so does the
  // row of zeros that every slot without a weight shares (row_of_slot_).
  void set_weights(std::vector<float> by_tag);

  // Rows that begin on a cache line: four rows of 8 weights are one line.
  template <class T>
  struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U>&) {}
    T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
    void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t{64}); }
    bool operator==(const CacheLineAllocator&) const { return true; }
  };

  // Whether the span the decoder closed over tokens [from, to) of the text
  // being tagged is kept: it needs a word of two or more letters or a number
  // (not "D." alone), not to be one everyday word alone ("Wrong", "User":
  // a gazetteer category named common*; several words may make a name, such
  // as "Open Data Nation"), not to be a pronoun with its contraction alone
  // ("I'm", "You've") nor an everyday abbreviation alone ("ASAP", "ATM"),
  // nor a language in use alone ("answer in French", "the English
  // translation"), nor a formula or a code alone ("H2O", "B2B":
  // tagger_rules::formula_or_code()), nor a modal verb in small letters
  // alone before an everyday word ("may be": modal_before_a_verb()), nor a
  // word of three letters at most after a number and a unit of measure
  // ("120/80 mm Hg"), and, for an address, a digit or a street word (a
  // category named street*), no sign of arithmetic in or next to it ("(6 ×
  // 5) × 10^2"), not a year of an era ("1500 C.E.") nor names and a year
  // after "(" or a comma ("Esman (1972"), and in text with capitals (`mixed`) more than numbers and small words ("42
  // and a", "18 red, 18", "6379 и"), and more than a number and a unit of
  // measure, a letter or an everyday word ("400 Hz", "7 points"); for any
  // other type, not in a formula ("Px • Sxj", "Kx ⊃": in_a_formula()). A
  // name, place or organisation has a letter ("1819" is none), and alone is
  // no month or weekday as a place or organisation, nor a unit of measure
  // after a number ("440 Hz"), nor a name or place of one word only the
  // everyday lists know in full and no place's name holds ("Church"), nor
  // after "the" a place of one such word that a place's name holds ("the
  // Republic"; not a region: "the South"). In text without capitals, not
  // one word the everyday lists know right after "the", "a" or "an" ("the
  // price of"), nor small Cyrillic words alone that no name, place or
  // street list knows ("напиши басню про оливье").
  bool plausible(std::string_view text, const PiiSpan& span, size_t from, size_t to, bool mixed) const;
  // plausible() of the span narrowed to leave out words that open or end
  // no value ("of", "and", "the"; "who", "this" around a name), and: a
  // sentence's full stop after the value is left out; a name with a number
  // in it or right after it, or an organisation right before a number (not
  // counts_after()), becomes an address (a street and its house number); a
  // name or a place that ends in a company suffix ("Smith Ltd": a category
  // named company*) becomes an organisation, and a name that ends in a
  // street suffix that is no name ("Andreassen Street") an address; a place
  // or organisation of one word that is only_a_name() becomes a name
  // ("shouted at Billy"), and so an address before a number; a name or a
  // place leaves a possessive 's out. False: drop it.
  bool finish_span(std::string_view text, PiiSpan& span, size_t from, size_t to, bool mixed) const;
  // Whether token `number` (of the text being tagged) is digits that count
  // things: an everyday plural in small letters follows it on its line ("2
  // times", "5 minutes"), not a street's word ("51 street") nor another
  // word ("206 last night").
  bool counts_after(std::string_view text, size_t number) const;
  // Whether token i (viewed) of the text being tagged is only a name: a name
  // list knows it, and no list of everyday words, places, streets, company
  // suffixes or titles (a place's only as one word of a longer name:
  // "Timur" of "Jawa Timur"); not in capitals throughout (an acronym), not a
  // nationality, religion or party ("German"), not a month or a weekday
  // ("June"). The second form takes the token's gazetteer matches, for a
  // token that may not be viewed.
  bool only_a_name(std::string_view text, size_t i) const;
  bool only_a_name(std::string_view text, size_t i, const Gazetteer::Match& m) const;
  // Whether token i, with the matches `m` of the lists the tagger learns
  // from, is only a given name of the rule-only list (given_name): no
  // other list knows it (but as one word of a longer place's name: "Tariq"
  // of "Cəbəli-Tariq"), a world city's or a proper adjective's list neither,
  // and it is not in capitals throughout, a group's word ("Irish") nor a
  // month ("June"). Weaker evidence than only_a_name(): a name list of the
  // faker locales knows none of these (2,000 of the census's first names:
  // "Brianna", "Latasha"; and the names given in the US since: "Ayesha",
  // "Kwame"). The first form looks the token up; the second takes its
  // matches and its word hash (word_hash(): a view's `word`).
  bool only_a_given_name(std::string_view text, size_t i) const;
  bool only_a_given_name(std::string_view text, size_t i, const Gazetteer::Match& m, uint64_t word) const;
  // Whether text[begin, end) (ASCII letters, 8 to 24) is two everyday words
  // of four letters or more run together ("Karmadata": "karma", "data").
  bool compound_of_words(std::string_view text, uint32_t begin, uint32_t end) const;
  // Whether a word with these gazetteer matches is only an everyday word.
  bool everyday(const Gazetteer::Match& m) const {
    return (m.full & common_categories_) != 0 && ((m.full | m.part) & ~common_categories_) == 0;
  }
  // Whether token k + 1 of the tagger's tokens is an everyday() word in
  // small letters one blank after token k: a word unknown to every list
  // before it ends a name as the clause's end does ("nkechi eze please",
  // "priyanka raghunathan wants").
  bool everyday_word_after(std::string_view text, size_t k) const;
  // Whether a word with these gazetteer matches is one a name list knows
  // and no everyday list does ("brandon", also a town's; not "will").
  bool listed_as_a_name(const Gazetteer::Match& m) const {
    return (m.full & name_categories_) != 0 && (m.full & common_categories_) == 0;
  }
  // Whether a word with these gazetteer matches is (part of) a title of the
  // name_prefix lists: "Mr." is listed whole, so "mr" is part of an entry.
  bool is_title(const Gazetteer::Match& m) const { return ((m.full | m.part) & prefix_categories_) != 0; }
  // Whether token i (viewed), which the decoder left outside every span in
  // text with capitals, is a name that stands alone: a capitalised word of
  // three letters or more that is only_a_name() or only_a_given_name(),
  // inside a sentence (not
  // after ". ? ! \" :" nor opening a line), not before a number (a street)
  // ("Unlike the Rocha novel", "said Keiko to Jessica"). tag() adds it when
  // no span found before tagging covers it; names side by side make one.
  bool listed_name(std::string_view text, size_t i) const;
  // Adds the names joined to a name found among out[first...] by "and",
  // "or", "&" or a comma ("Árias and Merritt", "Mazzi, Bowman and Hill"):
  // up to three words that no span covers, none an everyday word, each
  // capitalised in text with capitals, and not before a number (a street);
  // a place or organisation of out[first...] that covers just one such word
  // which no place list knows becomes a name. In text with capitals, a
  // capitalised everyday word is a name between two names ("Bowman"); a
  // place or organisation of out[first...] of single words apart by commas
  // ("Mei, Ravi" of "Olu, Mei, Ravi, Sven and Hannah") is a name per word.
  // The joins are read again after a change (up to three rounds: "Olu"
  // comes before the names it is joined to through "Mei, Ravi").
  void add_joined_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // In text without capitals, adds a place over each word of four letters
  // or more that no span covers, that a city or country list knows or a
  // world_city(), and that no name or everyday list knows ("how far is
  // nairobi from curitiba", "its helsinki plant"): the words the decoder,
  // without capitals to go by, left out. `viewed`: the tokens tag() viewed
  // (2), whose views hold their matches; the others are left as they are.
  void add_places_in_small_letters(std::string_view text, std::span<const uint8_t> viewed,
                                   std::vector<PiiSpan>& out) const;
  // In text without capitals, adds an organisation over the words before
  // a noun that ends companies' names (kOrganisationNouns: "logistics",
  // "insurance") or a legal suffix ("inc", "corp", "ltd"): up to three
  // words of three letters or more, one blank apart on the noun's line,
  // none a function word or number, the first no everyday word
  // ("silverline insurance", "redstone mining corp"; not "open source
  // software", "venture capital", which the everyday lists know word by
  // word). A name, place or organisation of out[first...] over just those
  // words becomes the organisation ("halvorsen" of "halvorsen logistics");
  // where another span covers a word, nothing is added. `viewed` as for
  // add_places_in_small_letters().
  void add_organisations_in_small_letters(std::string_view text, std::span<const uint8_t> viewed,
                                          std::vector<PiiSpan>& out, size_t first) const;
  // In text without capitals, a name of out[first...] that is one word a
  // first-name list knows takes the word right after it, one space apart on
  // its line, when that word is of small letters, no everyday word nor
  // function word, no span covers it and no number follows it: a surname
  // the lists know only as one, or not at all ("edward baranova", "jessica
  // castiglione"; not "edward said", nor "maria elm 32"); an everyday
  // word of three letters or more that a last-name list or the census's
  // surnames know too where the name ends: a possessive, or before a mark
  // that ends a clause, the line's or the text's end ("teresa walker's",
  // "this is chad farmer."; not "than kyle so _"). So does a name of two
  // first names, the second no last-name list's, after the second ("john
  // michael doe"). Without it the decoder, which has no capital to go by,
  // redacted the first name and let the surname out.
  void add_surnames_in_small_letters(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // In text without capitals, the word between "the" and "family" (its
  // parts joined by hyphens), each part a surname of the last names' or
  // the census's lists that no first-name or everyday list knows, where
  // no span covers it: the family's surname ("a card for the
  // abernathy-osei family"; not "the rose family" of plants, "the human
  // family"). Appended (the caller sorts). In text with capitals
  // type_firms_of_a_full_name() retypes the decoder's firm there.
  void add_family_names_in_small_letters(std::string_view text, std::vector<PiiSpan>& out) const;
  // A word in small letters of three letters or more after a preposition
  // ("for", "to", "with", "about") one blank before it, and before "who"
  // and a word that is no pronoun (a comma may be glued to it), that no list
  // knows or that only a first-name list knows (no everyday word, no
  // place): a person, as firms and places take "which" or "that" ("a gift
  // for thorsten, who likes hiking", "a card for fenella who is turning
  // 9"; not "for people who", an everyday word). In any text: a keyboard
  // that capitalises sentences leaves such a name in small letters. Where
  // this tagging's firm or place covers just the word, it becomes the
  // name. `whos`: the tokens "who", in order (the cue filter of
  // add_small_letter_names_after_cues() finds them). Appended (the caller
  // sorts).
  void add_names_before_who_in_small_letters(std::string_view text, std::span<const uint32_t> whos,
                                             std::vector<PiiSpan>& out, size_t first) const;
  // In text without capitals, a name of out[first...] that ends in a small
  // letter takes a surname's initial and its stop right after it, one
  // space apart, where no letter and no stop follows the stop: "review by
  // elspeth m.: 'the staff were lovely'", "hermann h., age 28". Not "v."
  // ("morse v. frederick"), "i.", "m.s." or "a.m.".
  void add_surname_initials_in_small_letters(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // In text without capitals, one or two initials (a letter and its stop,
  // not "i.") after "by" or a title, and the surname after them, where no
  // span covers them: a word the last-name lists or the census know, two
  // words joined by a hyphen, or a word no list knows that ends the
  // clause ("signed by p. okafor.", "submitted by t. abernathy-singh", "ms
  // j. okonkwo-bassey"; not "caused by e. coli bacteria"). Appended (the
  // caller sorts).
  void add_initialled_names_in_small_letters(std::string_view text, std::vector<PiiSpan>& out) const;
  // A name of out[first...] takes the initials in small letters right
  // before it, each a letter (not "i", a numeral, "v", versus, nor a
  // compass point's "n", "s", "e", "w": "s. america"), its stop glued to it
  // and one blank, the letter after a blank on its line (at a line's
  // start, an answer's letter: "b. pons"), that no span covers, and a
  // first name a list knows or a given name alone one blank before them
  // ("mail the cheque to p. sandoval", "john f. kennedy", "j. p. taylor").
  void join_small_initials_to_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A name of out[first...] takes a surname of a Gaelic shape in small
  // letters right after it, one space apart on its line, that no span
  // covers but a name of this tagging over it alone, which joins it
  // (tagger_rules::gaelic_surname_in_small_letters(): "whether siobhan
  // o'brien is", "Ask Liam mcallister"), whatever lists know the name: the
  // shape names a person. Such a surname of "o'" that no span covers is a
  // name of its own, with the word in small letters one blank before it
  // that no everyday or place's list knows ("has ruairi o'sullivan
  // confirmed"); appended (the caller sorts).
  void add_gaelic_surnames_in_small_letters(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // In text with capitals, a name of out[first...] that is one word a
  // first-name list knows takes the capitalised word right after it, one
  // space apart on its line, of small letters after its capital, that no
  // span covers, before no other capitalised word, and that no place,
  // street, company, title, first-name or proper adjective's list knows,
  // nor a group's word or one that ends organisations' names: a surname
  // the decoder left out, everyday word or not ("I met Grace Hopper"). A
  // name that is one word only a last-name list knows takes such a word of
  // two to four letters that a first-name list may know too, as Chinese
  // names are written ("I met Wang Lei" gave "Wang").
  void add_capitalised_surnames(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // In text with capitals, a name of out[first...] whose first word a
  // last-name list or the census's surnames know ("Hunter Reed" gave
  // "Reed") takes the capitalised word right before it, one
  // space apart on its line, of small letters after its capital, that no
  // span covers and that a first-name list knows, whatever else the lists
  // know it as, but a title or a group's word, and not after "in", "at" or
  // "near": the first name the decoder left out ("I met Savannah Miller"
  // gave "Miller": "savannah" is a word, a city and a state too, and left
  // the device). Within a sentence, a name of two words takes such a word
  // before it that no list knows at all, no span but a name of its own
  // covers, and that does not end as a doer's noun does ("belongs to
  // Abdullahi Musa Bello" gave "Musa Bello"; not "Cognitivist Albert
  // Ellis").
  void add_capitalised_first_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // In text with capitals, adds a name over two marked words one space
  // apart on their line, each a capital and then small letters, that no
  // span covers and no place's, street's, company's or title's list
  // knows: a word a first-name list knows, then one a last-name list or
  // the census's surnames know that is no group's word nor a noun that
  // ends organisations' names. Names whose words are everyday words too,
  // which the decoder leaves out: "Frank Long called", "lunch with Bill
  // Gray yesterday". Not inside a run of capitalised words (a title's:
  // "How To Pay Your Bill Online"): no capitalised word right before them
  // on their line but a sentence's first word that is an everyday word no
  // name list knows and no determiner ("Tell Bill Gray that"; not "The
  // Princess Royal"), and none of two letters or more right after them
  // ("Tell Bill Gray I said hi" is a name); nor after an article or a
  // determiner ("the Will Power to finish"). `marked`: the indices of the
  // marked tokens, in order.
  void add_full_names_of_listed_words(std::string_view text, std::span<const uint32_t> marked,
                                      std::vector<PiiSpan>& out) const;
  // The name after a title of address that is no name prefix of the lists
  // ("Professor", "Judge", "Nurse", "Sgt."), capitalised in text with
  // capitals (`mixed`): the words one space after it, up to three, written
  // as the title is, each a word a name list or the census's surnames
  // know or, with the everyday lists and capitals, a word no list knows,
  // none a group's word nor a noun that ends organisations' names ("I saw
  // Professor Smith", which went out whole; not "General Motors", "Coach
  // Outlet", "Doctor Who"). Without capitals, a titled_name(). A hyphen
  // glued to a word joins the next, a name's word too ("Professor
  // Smith-Jones"; "Patient Self-Determination Act" names no one). Not after
  // an article
  // ("the Judge Advocate"). A name of its
  // own where no span covers the words, or where a name of this tagging
  // covers only some of them after the first; a place or organisation of
  // this tagging over just the words, or over the title and the words,
  // becomes the name without the title ("Dear Professor Hendricks," and
  // "Nurse Ratched" were firms), as does an address of this tagging from a
  // number that a span found before tagging holds ("On April 2, Officer
  // Delgado": the day of a date). In text with capitals a role written as
  // a title ("Tenant Camille Laurent-Petit", a firm) retypes so too, but
  // adds nothing (add_introduced_names() reads it). `candidates`: in text
  // with capitals the indices, in order, of tokens among which every title
  // is (the cue words' filter's, add_small_letter_names_after_cues());
  // without capitals, every token is (through a filter of its own).
  void add_names_after_titles_of_address(std::string_view text, std::span<const uint32_t> candidates,
                                         std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // In text with capitals, adds a name over a capitalised word that a
  // first-name list knows, whatever else the lists know it as, that no
  // span covers and that a colon and a blank follow: after "for", "to",
  // "from" or "cc" one space before it, the person a heading addresses
  // ("Feedback for Drew:", "Message to Joy:"); after a chat's time stamp,
  // the speaker ("[10:03] Ruby: hi"), or at a line's start where no
  // everyday list knows the word (not a form's field, "Name:"). Not a
  // season or month ("Tips for Summer:", "Plans for May:"). A speaker in
  // small letters too, after a time stamp or at a line's start, where no
  // everyday list knows the word ("[10:02] megan: hi", "kevin: hi"). After
  // a speaker, a capitalised first name one space after a sentence's stop,
  // whatever else the lists know it as: a thread pasted on one line
  // ("Emily: it is booked. Josh: great").
  void add_names_before_a_colon(std::string_view text, std::vector<PiiSpan>& out) const;
  // Whether `word` in small letters after the title of address `title`,
  // `m` its matches, is a name: one a name list or the census's surnames
  // know that is no everyday word, or, after a title that is no verb too,
  // an everyday word only a last-name list knows of the name lists
  // ("professor hendricks", "professor smith"; not "coach class", "the
  // captain will", "nurse young"); after a title that is no kin's word, a
  // given name only that list knows or a word of four letters or more
  // that no list knows ("nurse adaeze", "judge whitcombe"; not "sister
  // chromatids").
  bool titled_name(std::string_view title, const Gazetteer::Match& m, std::string_view word) const;
  // In text without capitals, adds a name over each word of four letters or
  // more that no span covers and that only_a_name() (a name list knows it,
  // no everyday, place, street, company or title list does), that is no
  // data_label() ("iban") nor a part of a word with a hyphen: "unlike the
  // nielsen novel", "early fukuda?". With capitals, listed_name() asks the
  // same of a capitalised word inside a sentence; without them, the
  // decoder has no capital to go by and leaves most such words out. Right
  // after a name of out[first...], one space apart, the word extends it
  // ("anna takeda"). A name of out[first...] that is such a word alone,
  // whatever else the lists know it as ("robert", a place too), takes the
  // surname after it as a word that only_a_name() does ("name = 'robert
  // mills'"). Such a name takes a surname with a hyphen after it, one
  // space apart, too: a surname's particle or a word a name list knows and
  // no everyday list does, or two name lists' words ("abdulrahman
  // al-farsi", "sarah smith-jones"), and a word no list knows at all
  // where the clause ends after it ("thandiwe mokoena?"). `name_words`:
  // the tokens tag() viewed that a name list knows, or the given names
  // alone (only_a_given_name(), which the word asks too), in order (views
  // hold their matches); most tokens are none, and a loop over all of them
  // cost text without capitals 7% of its speed.
  void add_listed_names_in_small_letters(std::string_view text, std::span<const uint32_t> name_words,
                                         std::vector<PiiSpan>& out, size_t first) const;
  // A place's name of several words that the word lists hold whole ("South
  // Korea", "Saint Vincent and the Grenadines", "Democratic Republic of the
  // Congo") is one place, over the names, places and organisations the
  // tagger found inside it ("Korea"), or where it found none, in text with
  // capitals when its words but the joining ones are capitalised and one
  // is no everyday word ("Country Club" is a town too); not where a span
  // found before tagging overlaps it, nor one of another type. It opens at
  // one of `place_words` (in order: the tokens viewed, `viewed` 2, that are
  // one word of a longer place's name), with another within three tokens.
  void join_place_names(std::string_view text, std::span<const uint32_t> place_words,
                        std::span<const uint8_t> viewed, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // In text with capitals, adds an organisation over the capitalised words
  // (up to three, past an article) one blank apart before a noun that ends
  // the names of companies and bodies ("State Farm Insurance", "Liquid
  // Robotics"), where no span covers the noun and no capitalised word
  // follows it ("The International Space Station"); a name, place or
  // organisation of out[first...] right before becomes its first words
  // ("Hackett Publishing Company").
  void add_named_organisations(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                               size_t first) const;
  // In text with capitals, a name found once is a name wherever the text
  // repeats it, written the same, as a whole word or words: each marked
  // token that opens another mention no span covers gets a name of its own,
  // and a place or organisation of out[first...] over just such a mention
  // becomes the name ("Derrick needed Kenneth ... A) Derrick": the list's
  // Derrick, typed an organisation, is the person). Only a name that opens
  // with a word a first-name list knows, of two letters or more and no
  // everyday word alone, is repeated: not "Mongol", "Sun" or "The First
  // New", which the decoder took for names. So a name that the decoder,
  // the passes and the policy see once is redacted wherever it stands. Out
  // of order afterwards when it added any; returns whether it did.
  bool add_other_mentions_of_names(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                   size_t first, bool mixed) const;
  // Adds the name a writer gives as theirs in a script without capitals,
  // after (or before) a cue that says "my name is": Chinese "我叫" and
  // "我的名字是" (two or three ideographs before a mark or a pronoun, not
  // "我叫外卖了"), Japanese "私の名前は" (up to "です") and "と申します"
  // (the name before it), Korean "제 이름은" (less the copula's ending), Arabic "اسمي", Hebrew "שמי", Hindi "मेरा नाम" (up
  // to two words); and in Chinese a common surname and one or two
  // ideographs after a word of telling, contacting, giving to or going
  // with ("告诉", "联系", "给", "和", "找", "问") or before a word of a
  // person's data ("的电话", "的地址"), where a verb, particle, word of
  // time or title ends it ("请给李娜发邮件", "告诉王伟明天开会", "刘洋的电话";
  // not "和高手一起"). Spans of out[first...] inside such a name give way to
  // it; none is added where any other span overlaps it. In order of begin
  // afterwards.
  // `caseless_words`: the tokens of such scripts, in order (as for
  // add_names_in_caseless_scripts()); the cues are looked for between the
  // first and the last of them only.
  void add_self_introductions_in_caseless_scripts(std::string_view text, std::span<const uint32_t> caseless_words,
                                                  std::vector<PiiSpan>& out, size_t first) const;
  // Adds a name over each run of one to four words of a script without
  // capitals (CJK, kana, Hangul, Hebrew, Arabic, the Indic scripts, Thai),
  // one space apart, that no span covers, inside a sentence in Latin script
  // ("Please forward this to 木村 麻衣子", "The patient, ريم سويس, was
  // admitted"): after a Latin word or one of ", ( : ;" and before a Latin
  // word or one of ", . ? ! ; : )", with two Latin words or more within 12
  // tokens on its line, and no word around it that presents a foreign word
  // ("the kanji", "how do you say", "... means", "in Japanese"). Nothing
  // where a word of such a script in the text is no name's word (prose or
  // code comments in such a script). A place in such a script is a name
  // too: the safer reading, as a name typed a place leaves the device under
  // a policy that lets places out. `caseless`: the indices of the tokens
  // decoding left out for their script, in order (see caseless_values_).
  // In order of begin afterwards.
  void add_names_in_caseless_scripts(std::string_view text, std::span<const uint32_t> caseless,
                                     std::vector<PiiSpan>& out, size_t first) const;
  // Adds the addresses that no span covers written as a building's number,
  // a street of one or two words none of which is an everyday word (in
  // text with capitals capitalised; without them, of three letters or more
  // and none the everyday lists know, the number after a mark or a word
  // that leads to a place), and its number, apart on one line ("50
  // Massbyntie 27", "at x, 50 massbyntie 27": the number, then the
  // street); not a verse ("2 Samuel 11:4"). So are a building's number and
  // a street named by its suffix, and a street named by its suffix before its number
  // (street_by_its_suffix(), street_before_its_number(): "at 9084 Juniper
  // Way", "Calle Mayor 5486", "at 3259 juniper way"), over which the spans
  // of names, places and organisations found inside it give way (of
  // out[first...]: those found before tagging stay). Returns whether it
  // added any (after the spans, out of order).
  bool add_numbered_streets(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                            size_t first, bool mixed) const;
  // An address of out[first, decoded) that the decoder ran over the lines
  // of an envelope below it ends at its first line, and the lines below it
  // covered become spans of their own (a unit an address, other words a
  // place, a number an address), as the dev labels write such envelopes:
  // right after a name of out[first...] on its line, or after a name and a
  // unit ("Apt. 434", or "Suite" before the unit's number and the
  // building's) (13 of 13 rows), or opening its line (after any marks, or
  // after the building's number and maybe the street's: "62 47 Kogil
  // Street") with the lines below indented ("35 Kromwater 38 / Apt. 705 /
  // Zoetermeer / Tanzania 53144", each line below opening with a space; 82
  // of 95 rows).
  void cut_envelopes(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const;
  // Adds the house number before an address of out[first, decoded):
  // digits alone, on its line, one blank or more before the address's first
  // token, that no span covers ("61 Wiesenstrasse 31", "09 Avenue des
  // Sartiaux 318": a building's number before a street with its own).
  // Of two such numbers before a street that ends in none, the nearer is
  // the street's own ("26 14 Chatsworth Road": "26" and "14 Chatsworth
  // Road"). A street word right before the address on its line ("Via",
  // "Rue": a street_suffix list's) is the address's first ("16 Via
  // Raffaele Conforti").
  void add_house_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const;
  // Adds the places of the short lines that follow an address of
  // out[0, decoded) (the tagger's or an address unit the structured scan
  // found) which ends its line, as an envelope writes them
  // ("07 Simavikveien 231 / Apt. 585 / MOSS / Turkey 05557"): up to three
  // lines, each of at most six words, after marks that open it ("> ",
  // ", "); in text with capitals, each word capitalised, a number or a
  // small joining word ("Republic of the Congo"). A line whose words no
  // span covers are all everyday words (and not in capitals throughout)
  // ends the block ("Best wishes"), as does a blank line or a line with
  // anything else. Its words no span covers make a place (not opening
  // with a joining word); a number after them, a postcode, is part of the
  // address. In text with capitals, what follows an address on its line
  // after a comma is such a line too ("50 Massbyntie 27, JÄRVENPÄÄ").
  void add_address_lines(std::string_view text, std::vector<PiiSpan>& out, size_t decoded, bool mixed) const;
  // Adds the postcode right after a place or an address of out[first,
  // decoded), one blank after it, as an address of its own, as the dev
  // labels write an envelope's ("Togo 95522"): five digits that end the
  // sentence, the clause or the line ("lives in Springfield, IL 62704.",
  // where the decoder, which learnt postcodes at the end of envelopes,
  // stops before it). Not before a word ("Berlin 20000 people"), nor
  // digits of another length ("Paris 2024"). After a place inside a
  // sentence it is a ZIP code, also where the decoder made it an address
  // alone ("in Santa Clarita 49766 in its mission") or ran the place over
  // it ("in formigliana 11254"), which then gives it up.
  void add_postcodes_after_places(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const;
  // In text with capitals, the line of a letterhead above an address of
  // out[0, decoded) that opens its line, or above any address when it is
  // the text's first line (blank lines between them): one to four
  // capitalised words of two letters or more, no digit, no mark but "-",
  // "&", "." or ",", after marks that open it ("> "), and not one everyday
  // word alone ("Description", as plausible()). No span covering it, it
  // becomes a name when its first word is only_a_name(), else an
  // organisation ("Walk Score", "Demystdata"); a place that the decoder
  // (out[first, decoded)) found over just its words becomes an organisation
  // ("Buena Vista Garden Maintenance"), not one of an envelope's lines.
  void add_letterheads(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded,
                       bool mixed) const;
  // Adds the job title that follows a name of out[first, ...) between ",
  // the" and a comma on its line ("Heidi van der Vlist, the Maxillofacial
  // surgeon, said"): up to six words, no digit, no mark but "-", the last
  // naming a role (names_a_role()). No span may cover its words but one
  // that the decoder (out[first, decoded)) found from its first word on,
  // which becomes the title.
  void add_appositive_titles(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const;
  // An address of out[first...] on one line that opens with a building's
  // number of up to three digits, a space apart, and a street with its own
  // number after its name or before it ("85 Trg revolucije 12", "95 199
  // Beach Road"), after which it ends or goes on only after a comma with
  // no number ("95 Lille Vibyvej 8, Måløv") is two: the building's number
  // and the street, as the dev labels write them, and a place after the
  // comma. Not when more of the address follows on its line, in the span
  // ("1615 Suite 498 Curitiba") or after it. Right after a name on its
  // line, a unit before the building's number ("Apt. 434 40 Rue de la
  // Sarthe 421") is an address of its own too, and an address that opens
  // at the number of a unit outside it ("Suite" and "683 11 Brucknerweg
  // 141", the structured detectors finding "Suite 683") leaves the number
  // to the unit. join_addresses_in_sentences()
  // joins them again where a sentence runs into a whole envelope.
  // Precondition: out[first...] sorted by begin.
  void split_house_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // US military mail addresses, as the Postal Service writes them: a unit's
  // box ("PSC 4665, Box 2778", "Unit 4181 Box 1281") or a ship ("USNS
  // Ujváry", "USS Dam") on one line, then "APO", "FPO" or "DPO", the
  // military "state" ("AA", "AE", "AP") and a ZIP code of five digits on
  // the line after it (or on the same line). Each is one street address,
  // in place of the spans of this tagging inside it (the decoder takes a
  // ship for a person, "PSC 4665" for a firm). Any case. The ZIP code is
  // a marked token (`marked`: their indices, pii_tokens::tokenize()).
  // Precondition: out[first...] sorted by begin; it stays so.
  // A building numbered as South Asian addresses write it: "House No. 14",
  // "Flat No 5", "H.No. 3-4-5", "Door No. 4/12", "Plot no. 22" (any case),
  // with the sector, block, phase or pocket after a comma ("House No. 14,
  // Sector 21") or the street there, up to three words ending in a
  // street's suffix ("Flat No. 5, MG Road"). Each is one street address, in
  // place of the spans of this tagging inside it, as
  // replace_with_an_address() puts one. The number is a marked token (`marked`). `mixed`:
  // the text has capitals (the street's words are capitalised then).
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_numbered_buildings(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                              size_t first, bool mixed) const;
  void add_military_addresses(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                              size_t first) const;
  // The line right above an address line that opens with a word and ends
  // in a number (a unit: "Apt. 217", "Suite 574"), both opening their
  // lines after any marks ("> ", "??? "), is the street when it opens with
  // a number and holds only words and the marks of a street's name (". -
  // ' /"), 16 tokens at most: the number, the building's, is an address of
  // its own, and the rest of the line another, as the dev labels write an
  // envelope ("60 / Aqqusinersuaq 274 / Apt. 217"). The unit may be the
  // tagger's or the structured scan's (out[0, first)). Places, names and
  // organisations of out[first...] the tagger saw on that line give way;
  // another span there leaves it as it is. Precondition: out[0, first) and
  // out[first...] each sorted by begin, none overlapping.
  void add_street_lines(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A street address of out[first...] followed by a comma, a unit's word
  // (kUnitsOfABuilding), maybe its stop, and the unit's letter or number of
  // four characters at most, before the clause's end, takes the unit in:
  // "71 Hawthorne Crescent, Unit B", whose unit the decoder read as a
  // place. The spans of out[first...] over the unit go; one found before
  // tagging there leaves the address as it is.
  // Precondition: out[first...] sorted by begin; it stays so.
  void join_units_after_streets(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // An address that a sentence runs into ("please return to 45 aðalgata 37
  // / kędzierzyn-koźle / , nan / 25033 in case of an issue") is written
  // whole: when a word stands before it on its line, that line opens with
  // no number, and no span covers the token just before it, the addresses
  // and places of out[first...] that follow, each after at most 16 bytes
  // of white space and commas (no blank line), join it as far as the last
  // one that takes the whole past a line break or past two commas ("68
  // Hulsterdreef 100 Apt. 535, København K, Sweden 36018"; one comma parts
  // a street and its town). A list's next address (opening with a number
  // that is no postcode alone) does not join. An address that opens its
  // line, as on an envelope or in a letter, keeps its lines apart.
  // Precondition: out[first...] sorted by begin, none overlapping.
  void join_addresses_in_sentences(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // An envelope that opens its line below a heading, below_a_heading(), is
  // written whole, as the dev labels write it (38 of 38 rows): its first
  // address of out[first...] and the addresses and places that follow, on
  // its line (24 bytes apart at most, no end of a sentence between) and
  // on the lines below (white space and commas between, no blank line),
  // join as one address ("Paula Bjelajac / Demystdata / 11 Eriksbo
  // Västergärde 98 / Suite 568 / ANGERED"). Below a name alone or at the
  // top of the text the labels write an envelope line by line (81 rows),
  // and cut_envelopes() leaves it so. Precondition: out[first...] sorted
  // by begin, none overlapping.
  void join_envelopes_below_headings(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Whether the line above token k (which opens its line) heads an
  // envelope: it ends in a colon ("As promised, here's Liam's address:"),
  // blank lines apart; it opens with an organisation of out[first...] (a
  // letterhead's company: "Knoema"); or it opens with a name, place or
  // title of out[first...] right above, under another line of a
  // letterhead ("Douglas Lundin / Rose, Turner and Thompson / 24 320 St
  // Marys Rd", the company read as names).
  bool below_a_heading(std::string_view text, const std::vector<PiiSpan>& out, size_t first, size_t k) const;
  // A street corner ("the corner of Auenweg 85 and Kesä Street") is one
  // address, "the corner of" and all, as the dev labels write it (15 of 15
  // rows): "corner of" (and the "the" before it), the first street up to
  // the first "and" within 10 tokens on its line, then the second street
  // as far as a span of out[first...] that opens within two tokens after
  // the "and" reaches, or else as far as a street suffix within four on
  // the line ("matković street"). The tagger's spans inside become that
  // one address; a span found before tagging there leaves the corner as
  // it is. Two streets' names each before a literal "St." are two
  // addresses instead (tagger_rules::abbreviated_streets_at_a_corner()).
  // In text with capitals (`mixed`) the first street opens with a marked
  // token (`marked`: their indices, pii_tokens::tokenize()). Precondition:
  // out[first...] sorted by begin; it stays so.
  void join_street_corners(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out, size_t first,
                           bool mixed) const;
  // An address of out[first...] that runs over ", and " is two: a list's
  // addresses ("here they are: 60 Gosposka ulica 47 / Melo, CA 13241, and
  // 93 Via Pisanelli 89, Egkomi, Papua New Guinea"); no labelled address
  // holds ", and " (0 of 1,097). What follows with no digit, capital or
  // non-ASCII letter is no address ("1938 England, and the two").
  // Precondition: out[first...] sorted by begin; it stays so.
  void split_address_lists(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // An address of out[first...] on one line with a street before its first
  // comma (a word opening with a letter, and at its end a number or a
  // street word, or first a house number: "19 rue La Boétie") and a place
  // after it (words without digits and no other marks than - . ', six
  // tokens at most, capitalised in text with capitals, not everyday words
  // alone, no pronoun's contraction) is two values: the street and its
  // place ("Halsey Road, Hayborough", "Wiesenstrasse 31, Barzheim"), as the
  // dev labels write a street and its town (52 pairs). A street, its town
  // and its country, past a second comma, are one address (15 of 15).
  // Precondition: out[first...] sorted by begin; it stays so.
  void split_street_places(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // An address of out[first...] that ends in "Street" or "St" (any case,
  // the stop with it) one blank after a word that names a street's kind
  // ("Bezrukov Street Street", "1121 New Creek Road street", "73 Emily
  // Place St.") or after a house number that follows the street's name
  // ("Koenigstrasse 51 street", "Dózsa György út 78. street") ends before
  // it: the word is the sentence's, which no address writes twice or after
  // its number (the dev labels leave it out: 50 rows of 3 templates).
  void cut_trailing_street_words(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A street of this tagging that ends in a house number, a street word
  // that comes before the name and maybe its particles ("9 rue de", "55
  // calle", "14 via dei") takes the words after it, one blank apart, up to
  // the first that is no particle, three at most: "9 rue de rivoli", "55
  // calle luna", "8 rua das flores"; so one that ends in the house number
  // before such a street word, led to as a place ("77" of "at 77 rue des
  // martyrs").
  void finish_streets_ending_in_a_particle(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A name of out[first...] that opens with a title of the name_prefix
  // lists (two letters or more: a letter alone is an initial, "S. C.
  // Abbott"; with its stop) before more words on its line is two names: the
  // title and the rest ("Mr. Derek Crnić": "Mr." and "Derek Crnić"), as the
  // dev labels mostly write them (42 of 73 titles before a name; 12 within
  // it, 17 as a title type of their own). So is a title or prefix span
  // that runs on past its title ("Mrs Daisy"): the title and a name, which
  // joins a name right after it ("Mrs Daisy Okafor": "Mrs" and "Daisy
  // Okafor").
  // Precondition: out[first...] sorted by begin; it stays so.
  void split_name_titles(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A name of out[first...], one or two particles of a surname in small
  // letters one space after it ("bin", "van", "de la", Irish "ní", "ó")
  // and the capitalised word one space after them are one name, where that
  // word is a name of this tagging, a place or firm of it over just the
  // word, or a word no span covers that a name list or the census's
  // surnames know or no list knows at all ("Ahmad bin Yusof" gave "Ahmad"
  // and "Yusof" and let "bin" out). After a name in small letters, a word
  // in small letters so too ("maria de la cruz", "siobhan ní bhriain").
  // Precondition: out[first...] sorted by begin; it stays so.
  void join_names_across_particles(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A name of out[first...] and what a hyphen right after it joins are one
  // name: the name after it ("Anne-Marie", two names before; "Smith-Jones"),
  // a capitalised word that a last-name list or the census's surnames
  // know, whatever else the lists know it as, that no span covers or a
  // place or firm of this tagging covers just it ("Christian Bale-Smith"
  // gave the firm "Smith", or "Christian Bale" alone), or a word no span
  // covers that a first-name list knows and no everyday list does
  // ("Amy-leigh", "Amy" before; not "Peri-anal"), as double names are
  // written, or after a surname the second syllable of a given name
  // written as Korean ones are ("Kim Ji-woo": "-woo" was left out, which
  // names the person with the rest). So are a name, a surname of the lists
  // one space after it, glued to a hyphen, and a name of this tagging
  // right after the hyphen ("rosamund pike-everett", where the decoder
  // named "rosamund" and "everett"), and a place or firm of this tagging
  // over one word glued by a hyphen to a name of it ("Cassius
  // Montgomery-Reid", where the decoder read "Montgomery" as the town).
  // Precondition: out[first...] sorted by begin; it stays so.
  void join_hyphenated_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A given name of two syllables joined by a hyphen, as Korean and
  // Chinese ones are written ("Hyun-woo", "Mei-Ling": two to four letters,
  // then two to five; in text with capitals the first capitalised), the
  // first no word the everyday lists know ("long-run phillips"), then one
  // blank and a surname a last-name list or the census's knows (in text
  // with capitals capitalised): a person over them all ("Hyun-woo Park", which the decoder parted into a name
  // and a firm, "mei-ling zhou"), where the spans of out[first...] over
  // the words are names, places or firms that lie within them.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_hyphenated_given_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // A word joined by "and" to the address of out[first...] right after it
  // is part of that address, as the dev labels write it (26 of 26 rows:
  // "Herman and 1324 Mosman Rd", "Lauren and Sorlaskeid 32"): the word (a
  // name, place or organisation of out[first...] over it alone gives way;
  // words joined by "-" are one) and the address, with the pieces of
  // address and the number that follow it on its line one space apart,
  // become one address when it holds a digit. The word opens with a
  // letter, a capital in text with capitals (`mixed`), and is no
  // possessive; no span found before tagging covers it. Precondition:
  // out[first...] sorted by begin; it stays so.
  void join_words_before_addresses(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // The line of an envelope between the addressee's name and the line that
  // an address of out[first...] opens (no blank line between them) is the
  // addressee's company ("Anna Novak / Factset / 12 Main Street", "Justin
  // Molnar / Mint / 12 Gralla 30"): up to four words opening with capitals
  // ("Asset4"; in text without capitals, `mixed` false, with letters), no
  // mark but "-", "&", "." or ",".
  // Without a span over them they become an organisation; a name or place
  // of out[first...] over just them becomes one, unless its first word is a
  // name list's ("Anna Novak / Joel Brandt / 12 Main Street": a second
  // addressee). The name above is one of out[first...] over just its line's
  // words. Precondition: out[first...] sorted by begin; it stays so.
  void type_company_lines(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // A name or an organisation of out[first...] that is two words joined by
  // "and" ("Perić and Rodriguez were precision engineers") is two: the dev
  // labels never write such a pair as one name or organisation (60 of 60
  // pairs are two; "Antigua and Barbuda" is a place). Both are names when
  // the span is a name, or either word is a name list's and neither a
  // company suffix. So is a name, place or organisation that is two full
  // names joined so, or a firm up to its company suffix and a full name
  // ("Acme Holdings Ltd and John Paul Jones": split_two_full_names()).
  // Precondition: out[first...] sorted by begin; it stays so.
  void split_coordinated_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A place of out[first...] that runs on over "for" and a first name of
  // the lists that no place's or everyday list knows (capitalised in text
  // with capitals) is two values: the place, and the name from that word to
  // the place's end ("Send flowers to 9 Via Garibaldi, Bologna for Chiara
  // Rinaldi", one place to the decoder).
  // Precondition: out[first...] sorted by begin; it stays so.
  void split_places_before_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // Splits out[s] into two names, the second appended, where it is two
  // sides of one or two capitalised words one space apart joined by "and",
  // one of them two words, each opening with a first name that no company
  // list knows ("Tariq Yilmaz and Mei Fitzgerald", taken for a place). The
  // dev rows write no name over "and". Or into an organisation and a name:
  // capitalised words up to a company suffix (five at most, "Acme Holdings
  // Ltd") and up to three opening with such a first name.
  void split_two_full_names(std::string_view text, std::vector<PiiSpan>& out, size_t s) const;
  // Names and organisations of out[first...] after "the" and before a noun
  // of a company's premises or people ("office", "store", "staff", ...),
  // alone or joined by ", " and "and", one blank apart, are one
  // organisation where a name is among them ("The Xignite office is at",
  // "The Davis, Reynolds and Williamson office"): the company's name. Not a
  // place ("the Paris office"). Precondition: out[first...] sorted by
  // begin; it stays so.
  void join_named_offices(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Firms named after their partners, as company name generators and law
  // firms write them, are one organisation each:
  // - three names or organisations of out[first...], a word each, joined
  //   by ", " and " and " ("Davis, Reynolds and Williamson"), two of them
  //   listed surnames (in text without capitals all three, at most one an
  //   everyday word too), one no first name, none only a place; where a
  //   firm stands: on a line of its own, after "at" or "for", or before
  //   "is", "was" or "has" ("met Davis, Moreau and Takeda", "our 3
  //   founders: Kovalev, Lee and Phillips." are people);
  // - in text with capitals, two capitalised words joined by a hyphen
  //   ("Hubbard-Thomas", "Sanders-Gill"), one a listed surname, neither only
  //   a place, the second no first name alone ("Anne-Lise" is a person),
  //   with no capitalised word or title just before it on its line, nor
  //   after it ("Catherine Zeta-Jones" is a person) or a word in small
  //   letters but a preposition or a verb (kAfterAParty: "the
  //   Hardy-Weinberg equilibrium" is no firm), not next to a slash or in
  //   brackets, nor an answer's option ("C. Chan-Zen"); the spans of this
  //   tagging over its words alone, if any, become it.
  // Precondition: out[first...] sorted by begin; it stays so.
  void join_surname_firms(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // A name or an organisation of out[first...] alone on its line (marks
  // aside), between an address that ends the line above and a place or an
  // address that opens the line below, is the town of an envelope ("???
  // Apt. 580 / ??? Wijchmaal / ??? Guyana 41886"): a place (66 of 66 such
  // spans over fold seeds 1-3 by template). Precondition: out[first...]
  // sorted by begin.
  void type_envelope_places(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // An address of out[first...] that is numbers alone (the dev labels
  // write house numbers and postcodes apart), maybe joined as a list, a
  // range or a sum ("between 15 and 30", "7 × 5"), stays one only among
  // the words of an address on its line: before a street's words ("40 Rue
  // de la Sarthe", "99 Park Avenue", "59 Delta 116", "46 via raffaele", "98
  // P.O. Box", "87 R Nossa"), maybe past a second number ("18 15 Millicent
  // Drive"); after another address ("Apt. 434 40"); or, four digits or
  // more, after a place on its line or alone on its line below one
  // ("Gabon 66298"). Elsewhere it is a quantity ("scored 18 points", "the
  // GCD of 25 and 55", "110 V", "100 тысяч", "50 Americans": a
  // nationality names a street only before a suffix), which redaction would
  // take out of a question the cloud is to answer; and so is an address
  // that opens with a number and a unit of measure ("59 kg (130", "150 Hz,
  // 250 Hz"), and a percentage ("45%", "28 %"), even after an address; and
  // an address that opens with a number before a word that joins or counts
  // ("and", "of", "percent", "years") where no street's word follows in it
  // ("my son is 8 and hates reading"; "4 and 5 Main Street" stays); and
  // one that opens with a year after a word of time and holds no street's
  // word ("In 1909 Frederick Cook claimed"), which is the person over the
  // words after the year where they open with a first name of the lists.
  // Precondition: out[first...] sorted by begin; it stays so.
  void drop_lone_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A name, place, organisation, address or group of out[first...] written
  // against code's marks is an identifier, not personal data: before "(",
  // "[" or "_", or a stop and a small letter ("len(str)", "KCl(aq)",
  // "Car_Run", "Arduino.h", "AI.x"); after "_", "$", "::", "->" or a stop
  // after a small letter or a digit ("Adafruit_GFX", "$EUID", "ttk.Scrollbar",
  // "0.25 mol"); or holding "(" or "[" between word bytes (as the tokenizer
  // reads them: "P4(2", "Π(∅"). A span whose words (tokens) a name list
  // knows stays a name next to "_" ("john_smith", "zoë_horvath"). Nor is a
  // name, place or organisation of letters, "-" and digits alone: a model
  // or version ("SSH-2", "SCP-001"). Precondition: out[first...] sorted by
  // begin; it stays so.
  void drop_code_identifiers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Whether `span` opens a sentence (or the text, or a line) as the
  // subject of "is a" or "was a" and a work that ends its noun phrase, up
  // to seven words on: a work's title ("Zoolander is a 2001 American
  // action-comedy film directed by"; not "Kovalenko is a film director"),
  // where the sentence ends after the work or goes on with a word of
  // tagger_rules::kAfterAWork.
  bool titles_a_work(std::string_view text, const PiiSpan& span) const;
  // Drops each name of out[first...] that is one word alone and either a
  // word that stands in no name or ends none ("The", "If"; a pass after
  // decoding may leave one: "Edward Gibbon, The Decline"), or one the
  // dictionary writes capitalised with the ending of an adjective or a
  // doctrine (the proper_adjective list: "Bayesian network", "Islamic
  // society", "Calvinism") that no name list knows ("Brian", "Dominic")
  // and no relative comes before ("my son Caspian"),
  // or a month or weekday no name list knows ("January", not "June"), or
  // a word of seven letters or more that no list knows with an ending of
  // the sciences' nouns ("Apoptosis", "Constructivism", "Norovirus");
  // and each name, place or organisation that names a feast
  // (tagger_rules::holiday(): "Christmas", "Easter Egg Hunt");
  // and each name, place or organisation that is one word opening with two
  // capitals and holding a small letter ("DVDs", "MHz", "HCl", "ATPase":
  // not "McKay"), a planet not in capitals ("Jupiter", not "MARS"), a
  // capital before the variables of logic ("Px", "Lxy") or the
  // genus_of_a_species(); and each name, place or organisation that
  // titles_a_work(). out[first...] stays in order.
  void drop_words_naming_no_one(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Whether `span`, one word that no name list knows and not in capitals
  // throughout, is the genus of a species' Latin name: a space, then a word
  // of six small letters or more that no list knows, ending in "-us",
  // "-is", "-ens", "-um" or "-ae" ("Homo sapiens", "Canis lupus" is too
  // short to tell; not "Marie vous").
  bool genus_of_a_species(std::string_view text, const PiiSpan& span) const;
  // Makes a place of each name or organisation of out[first...] that is a
  // continent or a region of the world, maybe after the words that name a
  // part of it: "in Asia", "Asia and Africa", "Sub-Saharan Africa", "East
  // Asia" ("Asia" and "America" are first names too, but alone they are
  // the continents; not "Bank of America", an organisation).
  void type_continents(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // A place of out[first...] takes the words before it on its line that
  // name the state it is or a part of it: a compass point ("South Korea",
  // "north korea", where only "Korea" was found), or a polity and "of",
  // maybe then "the", after up to two words that qualify it ("Republic of
  // the Congo", "Kingdom of the Netherlands", "Democratic Republic of
  // the Congo"); in text with capitals each of them capitalised but "of"
  // and "the". A span of this tagging over just some of those words goes.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_names_of_states(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // Makes an organisation of each name of out[first...] whose last word
  // names a state or a ruling house (kPolities: "Roman Empire", "Qing
  // Dynasty", "Weimar Republic"), as the decoder types "Ottoman Empire": a
  // first name at its start ("Roman") made it a person, which the default
  // policy keeps on the device and a question about history loses.
  void type_polities(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // In text with capitals, makes a name of each place of out[first...] of
  // two or three capitalised words one space apart whose last word a
  // last-name list knows and no list of places knows alone, where no list
  // of places knows the whole and the first word is no everyday word: "Anh
  // Tú Nguyễn", "Hải Bình Bùi" (given names that are words of Vietnamese
  // provinces' names), not "Fort Worth", "Mount Vernon" or "Den Haag". A
  // name typed a place leaves under a policy that lets places out. In text
  // without capitals (not `mixed`), such a place of words in small letters
  // whose first word is a first name a list knows, or a given name alone,
  // and no everyday word ("siobhan oconnor"). After such a first name, a
  // surname no list knows counts too, and a surname's particle may stand
  // before the surname ("Anouk de Vries"), unless the place stands where
  // places do: after "in" or "near", after an address or a place of
  // out[first...], or before a number on its line. So is a place of one
  // word that only a given-name list knows ("anneliese works hard"), where
  // it stands where no place does and not after "of" or "the".
  void type_places_ending_in_a_surname(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                       bool mixed) const;
  // In text with capitals, makes a name of each organisation of
  // out[first...] that is two capitalised words one space apart, a first
  // name that no everyday, place or group list knows ("Ngozi", not "Tom",
  // "German") and a word a last-name list knows or no list does, neither
  // a company's suffix, a noun that ends firms' names nor a state's or a
  // ruling house's word (kPolities: "Roman Empire"): "Write a poem
  // for Ngozi Adichie", which the decoder took for a firm after "for" (as
  // the dev rows' "recorded for Datalogix"). So is one of a first name no
  // list knows and a surname of a Gaelic shape ("Siobhan O'Brien", "Aoife
  // MacLeod"). So is one of a surname that no other list knows and a
  // given name of two to four letters that no place's, street's or
  // company's list knows, as Chinese names are written ("Wang Lei", "Chen
  // Wei"); and one of a first name of the lists and a word no place's,
  // street's or company's list knows joined by "and" to a person's full
  // name ("Dallas Green and Austin Reed"). A firm named so ("Oliver Wyman")
  // becomes a name: the safer reading, as a name typed a firm leaves under
  // a policy that lets organisations out. Here a surname of the census
  // list is a last-name list's: "Miles Hunter", "Rusty Banks" (everyday
  // words that a first-name list knows, then the census's surnames). A
  // firm or place set off by commas after an "I" that opens a sentence or
  // a line is the speaker's name too: "I, Cassius Montgomery-Reid, hereby
  // authorise"; so is one of words no place's, company's, street's or
  // everyday list knows before "who" or "born" ("a card for Dagny, who is
  // seven", not after "from" or "the": "monks from Corfu, who"), and one
  // alone on its line between a label's line and an address's ("Ship
  // to:\nFarrukh Tashkentov\n77 Willowbrook Crescent"): the addressee.
  void type_firms_of_a_full_name(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Makes one name of a name and the initials and surname after it ("John
  // F" and "Kennedy" of "John F. Kennedy", "william m. tweed"), and in text
  // with capitals a name of initials and a surname ("A. J. Ayer", "J.
  // Smith" taken for a firm): one initial alone before a word a last-name
  // list knows or that this tagging took for a name or a firm, not an
  // answer's letter ("B. Leitch" where two lines or more open with one);
  // in text without capitals, initials after a first name a list knows
  // ("hannah i. kirlin"), or one initial after a comma, a colon, "by" or
  // "and" before a surname this tagging took for a name ("j. okonkwo").
  // Initials may be glued together ("J.R. Hollingsworth", "George H.W.
  // Bush"), but not an abbreviation's letters ("U.S.", "e.g.").
  // The names, places and organisations of this tagging inside such a name
  // go; nothing changes where another span overlaps it.
  // `capitals_before_a_stop`: in text with capitals, the tokens that are a
  // capital alone before a stop, in order. Precondition: out[first...]
  // sorted by begin; it stays so.
  // In text with capitals, a line that is two or three words in capitals
  // throughout, one space apart (a résumé's or a letter's heading: "JOHN
  // SMITH"), is a name where its first word is a first name a list knows
  // and no place's, and each word after it a name list's or no list's at
  // all, none a place's, a street's or a company's word: the tagger reads
  // a word in capitals as an acronym ("SMITH" was a firm, "JOHN" nothing).
  // The names, places and organisations of this tagging inside the line
  // give way; nothing changes where another span overlaps it. Inside a
  // line, a name, place or organisation of this tagging in capitals
  // throughout, of a first name a list knows and then words a name list
  // or the census's surnames know (none a place's, a street's or a
  // company's), is a name, and takes the words in capitals of such
  // surnames right after it, one space apart, that no span covers, up to
  // three words in all, where the name is then two words or more (a word
  // alone in capitals is an acronym as often): "complaint from JOHN
  // MICHAEL DOE" gave the place "JOHN MICHAEL", "name: AHMED KHAN" the
  // name "AHMED". A surname's particles may stand between the words, and
  // the word after one is a surname's or any word in capitals that no
  // everyday or company list knows; a name ends with no particle ("I met
  // MARIA DE LA CRUZ" was a place, "Plaintiff MARIA JOSE DE LA CRUZ" the
  // name "MARIA JOSE DE LA").
  // `line_starts`: the tokens that open a line (pii_tokens::tokenize()).
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_names_in_capitals(std::string_view text, std::span<const uint32_t> line_starts, std::vector<PiiSpan>& out,
                             size_t first) const;
  // A name as a booking writes it, the surname, "/" and the given names
  // before a title ("HAUGEN/SOLVEIG MS", "1.1OKAFOR/CHINEDU MR", "SMITH/
  // JOHN PAUL MR"), letters only, a first name or a surname a list knows
  // among them (in text read in small letters, no everyday word), or in
  // text with capitals words in capitals of three letters or more that no
  // list knows before a title that ends its clause ("ADEYEMI/TUNDE MR;"):
  // a person over the names, in place of the spans of this tagging over
  // them and the title; nothing where another span overlaps them. Looked
  // for from a "/" inside a span of this tagging or shortly before one (in
  // text with capitals, `mixed`, one that opens with two capitals); in any
  // text (a booking is often in capitals throughout). Precondition:
  // out[first...] sorted by begin; it stays so.
  void add_booked_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // Adds a name over two or three capitalised words in a row, one blank
  // apart, after a word in small letters, that no list knows and no span of
  // out[first...] overlaps: the decoder, which learned names from words the
  // lists know or from their neighbours, found nothing in "The warranty is
  // registered to Anatoly Kuznetsov." (Such words are rare in prompts but
  // as names: one pair of the 12,240 dev prompts.) So over one such word
  // before "and his" or "and her": "a limerick about Barnabas and his
  // goat", which the decoder left out. Not in code ("Bruno
  // Novak_Run", "Exit Sub"), nor without the everyday lists, where no list
  // knows any word. In text with capitals; `marked`: its marked tokens.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_unlisted_full_names(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                               size_t first) const;
  // In text with capitals, a series of three words or more in small
  // letters, one word an item, commas between them and "and" or "or"
  // before the last ("They had 6: layla, harry, michele, james, erika and
  // shelley"), where more than half are first names the lists know and no
  // everyday list does, and the others first names or words no list knows
  // at all (none a place's or a title): a name each, where no span covers
  // it. Not after a word of the same group ("red wine, ..."). The decoder
  // takes names in small letters in such text only after a cue. The names
  // are appended (the caller sorts).
  void add_small_letter_first_names_in_series(std::string_view text, std::vector<PiiSpan>& out) const;
  // A series of full names, items of two words each joined by a comma,
  // "and" or "or" on one line ("Guest list: ottoline marsh, desmond
  // achebe, wren halloway"): beside a name of this tagging of two or three
  // words that is an item whole and opens with a first name of the lists
  // or a given name alone, an item of two words (in text with capitals
  // both capitalised) is a name too where a name of this tagging covers
  // one of its words and no other span covers the other (the decoder left
  // "marsh" out, an everyday word), the first word such a first name where
  // the name is the second's; or where a place or firm of this tagging
  // covers it whole, no place's or company's list knows its words nor an
  // everyday list its last ("Wren Halloway", a firm); and so on along the
  // series. Not an item no span covers: "Anna Berg, product manager".
  void join_full_names_in_series(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // Makes a name of each item of a list of names that the passes left out
  // or took for a place or firm: in a run of three lines or more that open
  // alike (a bullet, a number and its stop, or a word) and hold one to four
  // words of letters each, one space apart (maybe then a tab and a number of
  // up to three digits: a table's age or count), where two in three are names of
  // this tagging over their words, the others become names too, where
  // nothing found before tagging covers them ("- tiara bielecki\n- dallas
  // alves\n- noble grillo", in small letters: "dallas" was a place,
  // "noble" nothing); so do the strings of an array on one line, where two
  // of them at least are names ("[\"tiara bielecki\", \"dallas alves\",
  // ...]"). `line_starts`: the tokens that open a line.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_names_in_lists_of_names(std::string_view text, std::span<const uint32_t> line_starts,
                                   std::vector<PiiSpan>& out, size_t first) const;
  void join_initials(std::string_view text, std::span<const uint32_t> capitals_before_a_stop,
                     std::vector<PiiSpan>& out, size_t first, bool mixed) const;
  // In text with capitals, a name of out[first...] that a capital alone and
  // its stop follow, one space after, takes them in: the surname's initial
  // of a review's or a message's signature ("Review by Gwendolyn P.:",
  // "- Sarah K."), which left the name's initial out. Not where a word
  // follows the stop on its line but a mark, a word in small letters or an
  // everyday word (a surname after a middle initial is join_initials()'s).
  // `capitals_before_a_stop`: the tokens that are a capital alone before a
  // stop, in order. Precondition: out[first...] sorted by begin; it stays so.
  void add_surname_initials(std::string_view text, std::span<const uint32_t> capitals_before_a_stop,
                            std::vector<PiiSpan>& out, size_t first) const;
  // Makes a name of each place or organisation of out[first...] that opens
  // the line after a letter's closing: a line of up to three words that
  // ends in "regards", "sincerely", "thanks" or their like, maybe then a
  // comma ("Best regards,\nCamille Ferreira", taken for a town below an
  // address); or that follows the closing's comma on its line, a name's
  // two or three capitalised words set off by a comma or the line's end
  // ("Signed, Cassius Oyelaran, Head of Operations").
  void type_signatures(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Makes a name of each place or organisation of out[first...] after a
  // thing a person sends and "from" ("an email from Bartholomew Nkemelu",
  // "a voicemail from Horatio Blackwood"), where
  // unlisted_capitalised_name() holds: not "a letter from Santa Cruz",
  // "a call from Acme Labs".
  void type_senders(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Whether `span` is two or three capitalised words, none of which a
  // company's, place's or everyday list knows, the first a name a list
  // knows or a word no list knows.
  bool unlisted_capitalised_name(std::string_view text, const PiiSpan& span) const;
  // Makes a name of each place or organisation of out[first...] followed by
  // its age: ", age 34", ", aged 34", " (age 34)", whatever the case ("Add
  // a row for Chen Wei, age 34", taken for a firm). Firms and places are
  // not given an age so; a place the lists hold whole stays a place
  // ("children in Vietnam (age 8)": the age is the children's).
  void type_people_of_an_age(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // Adds the names a title introduces ("Mr. Young", "dr. freeman": a word of
  // a name_prefix* list and its stop), the author between an article and a
  // work ("the Takuda novel", "a Kubrick film") and the speakers that open
  // a line before a colon and a quote (Troy: "Who are you?"), up to three
  // words, capitalised in text with capitals; a place or organisation of
  // out[first...] that covers just them becomes a name. `marked`: the indices of the
  // marked tokens (pii_tokens::tokenize()).
  void add_introduced_names(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                            size_t first, bool mixed) const;
  // In text with capitals, adds the names written in small letters after a
  // word that introduces a person, which the decoder and the passes above
  // (reading marked tokens only) never see: after "name is", "name's" or a
  // title and its stop ("dr. smith") any word but an everyday one (after a
  // title without it, a name a list knows); after a relative of
  // a possessive ("my landlord, kevin") or written as a title ("aunt
  // linda") a word no everyday list knows, or a first name that is one but
  // no verb or adverb that follows a relative as often ("my boss mike
  // said", not "my son will"); after a verb that
  // addresses someone or a greeting opening a line ("remind maria", "Hi
  // john,") a first name a list knows; after "call", "email", "I'm", a
  // word written or spoken "to" ("reply to jessica") or a form's field of
  // a name or a role ("name: john smith", "Patient: luis fernandez") such
  // a first name that no everyday list knows, or where its clause ends
  // there or a surname follows; before a verb of speech ("what kevin
  // said") such a first name, and a listed surname after it; alone on the
  // line after a letter's closing
  // ("Thanks,\nkevin"), a first name a list knows or a word no everyday
  // list knows. Up to two surnames follow one space apart (a
  // last name a list knows, or a Gaelic shape: "o'brien"). After "with",
  // "from" or "by" ("lunch with derek"), after "me and" and before "and me"
  // or "and I" (`i_after_and`: the pronouns after "and", in order; "priya
  // and I"), a first name a list knows, or a given name alone, that no
  // everyday or place's list knows. After a name so found, the first names
  // coordinated with it ("to jessica and tom"). After an account's key
  // ("user=", "login:") such a first name, and a surname glued after a
  // stop: "user=dmitri.volkov" in a log line. Nothing is added
  // over another span. (tagger_small_letter_names.cc)
  // After "ask for", a capitalised word too: a place or firm of
  // out[first...] over just the word that no place's, company's or everyday
  // list knows becomes the person ("Ask for Siobhan"). After a verb that
  // addresses someone, a capitalised word that a first-name list knows,
  // whatever else the lists know it as, that no span covers and that no
  // other capitalised word follows: "Tell Pat I said hi", which the
  // decoder took for an everyday word. After a title of address in small
  // letters ("professor", "judge"), a titled_name(). Then runs
  // add_names_after_titles_of_address() over the cue words' filter's hits.
  // `line_starts`: the tokens after a line feed, where a form's label may
  // open ("Emergency contact: perpetua okoro").
  void add_small_letter_names_after_cues(std::string_view text, std::span<const uint32_t> i_after_and,
                                         std::span<const uint32_t> line_starts, std::vector<PiiSpan>& out,
                                         size_t first) const;
  // People named by a handle (tagger_handles.cc): a mention, "@" not glued
  // after a word or a stop and up to three words joined by ".", "-" or "_",
  // one a first name no place's list knows, the others no everyday words
  // ("@priya", "cc @bashir.ahmadi"); and a first name and a surname in
  // small letters joined by a stop ("mirela.popescu: deploy is done"). A
  // first name an everyday list knows too only beside a surname a list
  // knows ("@mark.ruffalo", not "@pytest.mark"). In any text; not inside a
  // longer identifier, a path or an email. One person over the handle, in
  // place of the names of out[first...] inside it; nothing where a span of
  // another kind covers a word.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_handles_of_people(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // People named before their relation in brackets
  // (tagger_bracketed_relatives.cc): up to three words in small letters one
  // blank apart before " (", maybe a possessive determiner, a relative of
  // kRelatives and ")" ("ravindra pillai (husband)", "perpetua okoro (my
  // mother)"), none a function word, a title, an everyday word alone or a
  // place's, the first a name's word of a list, a given name alone or a
  // word no list knows; not where a span covers a word.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_names_before_bracketed_relatives(std::string_view text, std::vector<PiiSpan>& out, size_t first) const;
  // People named beside their mailbox (tagger_mailboxes.cc): the words
  // before an email address in angle brackets, up to four one blank apart
  // after a mark that opens a display name (a header's colon, a comma, a
  // quote, "=") or the line's start, are a person where the address's
  // local part spells them: holds one of their words of three letters or
  // more that no everyday list alone knows, or is their initials, or a
  // first initial and the surname ("From: Zorvath Quill <zq@north.com>",
  // `--author="ruairi brennan <ruairi@brennan.dev>"`; not "Acme Support
  // <support@acme.com>"). The name's words are the last of them that are
  // capitalised in text with capitals (`mixed`), or no everyday word
  // alone in text without; none a company's word. One person over them,
  // in place of the names, firms and places of out[first...] inside;
  // nothing where a span of another kind covers a word.
  // Precondition: out[first...] sorted by begin; it stays so.
  void add_mailbox_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const;

  // Whether bytes [begin, end) of the text, one word, are a city of the
  // world_city lists (cities of 100,000 people or more). Such a list is for
  // the rules alone: as features it cost cross-validation (docs/privacy.md).
  bool world_city(std::string_view text, uint32_t begin, uint32_t end) const;
  // Whether bytes [begin, end) of the text, one word, are a last name of
  // the lists or a surname of the census list, as many everyday words are
  // that the last-name lists lack ("Long", "Banks", "Reed").
  bool listed_surname(std::string_view text, uint32_t begin, uint32_t end) const;
  // Whether `span`'s bytes, one or more words, are a place that the place
  // lists or the world_city lists hold whole ("Cape Verde", "Santa Clara").
  bool listed_place(std::string_view text, const PiiSpan& span) const;

  // Sets the category masks below from the gazetteer's category names.
  void find_categories();

  std::vector<PiiType> types_;
  uint32_t buckets_ = 0;
  Gazetteer gazetteer_;
  uint16_t prefix_categories_ = 0;  // gazetteer categories of titles (name_prefix*)
  uint16_t street_categories_ = 0;  // and of street words (street*)
  uint16_t street_suffix_categories_ = 0;  // of which street suffixes (street_suffix*)
  uint16_t common_categories_ = 0;  // and of everyday words (common*)
  uint16_t company_categories_ = 0;  // and of company suffixes (company*)
  uint16_t name_categories_ = 0;     // and of first and last names (first_name*, last_name*)
  uint16_t first_name_categories_ = 0;  // of which first names (first_name*)
  uint16_t last_name_categories_ = 0;   // and last names (last_name*)
  uint16_t place_categories_ = 0;    // and of places (city*, country*, state*)
  uint16_t country_categories_ = 0;  // and of countries (country*)
  uint16_t state_categories_ = 0;    // and of states and provinces (state*)
  // and of the capitalised adjectives ("Bayesian"), which lookup() hides
  uint16_t proper_adjective_categories_ = 0;
  // and of the cities of the world ("Mombasa", "Leeds"), which lookup()
  // hides too: the tagger's features stay those of the other lists
  uint16_t world_city_categories_ = 0;
  // and of the common surnames of the US census ("Long", "Banks"), hidden
  // and set apart (Gazetteer::set_apart()): listed_surname() alone reads
  // them
  uint16_t census_surname_categories_ = 0;
  uint16_t given_name_categories_ = 0;
  // The marks (bytes of one-byte tokens) that continue a labelled span in
  // the training rows ("Apt.", "Smith, Jones", "Saint-Priest"): no other
  // mark continues one, nor opens one right after a span.
  std::bitset<128> continuing_marks_;
  // Whether a labelled value of the training rows holds a word of a script
  // without capitals (kana, CJK, Hangul, Hebrew, Arabic, the Indic
  // scripts, Thai: "東京"; pii_tokens::opens_with_a_caseless_letter()).
  // Without one the tagger has no evidence on such words (its guesses were
  // whole sentences as places): they are O without scoring, in any text.
  bool caseless_values_ = false;
  std::vector<float> weights_;  // [slot * tags() + tag], as trained and saved
  // Most slots hold no weight (three in four, trained on the dev rows):
  // they share row 0, and the rows a scan reads take a quarter of the
  // memory (row_of_slot_[slot] is a slot's row).
  std::vector<uint32_t, CacheLineAllocator<uint32_t>> row_of_slot_;
  std::vector<int16_t, CacheLineAllocator<int16_t>> open_rows_;      // [row * open_width() + column(tag)]
  std::vector<int16_t, CacheLineAllocator<int16_t>> continue_rows_;  // [row * continue_width() + column(tag) - open_width()]
  // The slots of the features whose values come from a small set (the
  // bias, capitals, line breaks, the previous tags, gazetteer categories),
  // hashed once here rather than for every token scored (pii_tagger.cc).
  std::vector<uint32_t> fixed_slots_;
};

// Reads a tagger file. kNotFound when it cannot be read; parse()'s errors
// otherwise.
StatusOr<PiiTagger> load_pii_tagger(const std::string& path);

// The whole scan of one text, as the gateway runs it: the structured
// detectors, then (when given) the tagger, merged by resolve_pii_overlaps.
// Appends to `out`, which should be empty.
void find_pii(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out);
// The same, asking `stop` (when set) between the detectors and while the
// tagger decodes: false, with `out` incomplete, when it answered true.
bool find_pii(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out, const ScanStop& stop);

}  // namespace tiergate
