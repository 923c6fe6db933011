#include "tiergate/privacy/pii_tagger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <random>
#include <utility>

#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_eval.h"

namespace tiergate {
namespace {

// `s` with its ASCII capitals in small letters.
std::string in_small_letters(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Sentences of our own with names and cities in known places: the tagger
// must learn the contexts and shapes, not the names (test names are new).
const std::vector<std::string> kFirst = {"Anna", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiro",
                                         "Ines", "Jonas", "Kofi", "Lena", "Marek", "Nadia", "Oscar", "Priya",
                                         "Quentin", "Rosa", "Sven", "Tariq", "Ulla", "Viktor", "Wanda", "Yusuf"};
const std::vector<std::string> kLast = {"Novak", "Ferreira", "Lindqvist", "Okafor", "Brandt", "Moreau", "Takeda",
                                        "Kowalski", "Haddad", "Petrov", "Sorensen", "Abara", "Castillo", "Dubois",
                                        "Eriksen", "Fischer", "Grant", "Horvath", "Ivanova", "Jensen"};
const std::vector<std::string> kCities = {"Lisbon", "Tampere", "Cork", "Graz", "Porto", "Utrecht", "Brno", "Split",
                                          "Bergen", "Lyon", "Aarhus", "Ghent"};
const std::vector<std::string> kTemplates = {
    "My name is {P} and I live in {L}.",   "Please call {P} tomorrow.",        "{P} moved to {L} last year.",
    "Is {P} still working in {L}?",         "Send the invoice to {P}, thanks.", "Dear {P}, your order shipped.",
    "We met {P} at the office in {L}.",     "Ask {P} about the trip to {L}.",   "I think {P} knows the way."};

TaggerOptions options(int epochs, uint32_t buckets, uint64_t seed) {
  TaggerOptions o;
  o.epochs = epochs;
  o.buckets = buckets;
  o.seed = seed;
  return o;
}

PiiExample make(const std::string& tmpl, const std::string& person, const std::string& city) {
  PiiExample e;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl.compare(i, 3, "{P}") == 0 || tmpl.compare(i, 3, "{L}") == 0) {
      const bool is_person = tmpl[i + 1] == 'P';
      const std::string& value = is_person ? person : city;
      const auto begin = static_cast<uint32_t>(e.text.size());
      e.text += value;
      e.spans.push_back({is_person ? PiiType::kPerson : PiiType::kLocation, begin, static_cast<uint32_t>(e.text.size())});
      i += 2;
    } else {
      e.text += tmpl[i];
    }
  }
  return e;
}

std::vector<PiiExample> sample(size_t n, size_t first_from, size_t first_to, size_t last_from, size_t last_to,
                               size_t city_from, size_t city_to, unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](const std::vector<std::string>& v, size_t from, size_t to) { return v[from + rng() % (to - from)]; };
  std::vector<PiiExample> out;
  for (size_t k = 0; k < n; ++k) {
    const std::string person = pick(kFirst, first_from, first_to) + " " + pick(kLast, last_from, last_to);
    out.push_back(make(kTemplates[rng() % kTemplates.size()], person, pick(kCities, city_from, city_to)));
  }
  return out;
}

// "Please call <who> at <where><tail>", the name and the address labelled.
PiiExample call_at(const std::string& who, const std::string& where, const std::string& tail) {
  PiiExample e;
  // Appended piece by piece: g++ 12 sees a false overlap in a chain of "+".
  e.text = "Please call ";
  e.text.append(who).append(" at ").append(where).append(tail);
  const auto at = static_cast<uint32_t>(16 + who.size());
  e.spans = {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + who.size())},
             {PiiType::kStreetAddress, at, static_cast<uint32_t>(at + where.size())}};
  return e;
}

// 300 rows "Please send the report to {first} {last} today." with the name
// labelled: the names' context is one sentence.
std::vector<PiiExample> reports_sent_to_people() {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string who = kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()];
    PiiExample e;
    e.text = "Please send the report to " + who + " today.";
    e.spans = {{PiiType::kPerson, 26, static_cast<uint32_t>(26 + who.size())}};
    rows.push_back(std::move(e));
  }
  return rows;
}

// What `tagger` finds in `text`: "TYPE:value" per span, in order.
std::vector<std::string> typed_spans(const PiiTagger& tagger, const std::string& text) {
  std::vector<PiiSpan> spans;
  tagger.tag(text, spans);
  EXPECT_TRUE(std::is_sorted(spans.begin(), spans.end(), [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; }));
  std::vector<std::string> out;
  for (const PiiSpan& s : spans) out.push_back(std::string(pii_type_name(s.type)) + ":" + text.substr(s.begin, s.end - s.begin));
  return out;
}

// The same from the whole scan the gateway runs (find_pii: the structured
// detectors, the tagger, the merge).
std::vector<std::string> scanned_spans(const PiiTagger& tagger, const std::string& text) {
  std::vector<PiiSpan> spans;
  find_pii(text, &tagger, spans);
  std::vector<std::string> out;
  for (const PiiSpan& s : spans) out.push_back(std::string(pii_type_name(s.type)) + ":" + text.substr(s.begin, s.end - s.begin));
  return out;
}

// The names the whole scan finds in `text` (scanned_spans()'s PERSON
// values), in order.
std::vector<std::string> scanned_names(const PiiTagger& tagger, const std::string& text) {
  std::vector<std::string> found;
  for (const std::string& span : scanned_spans(tagger, text)) {
    if (span.starts_with("PERSON:")) found.push_back(span.substr(7));
  }
  return found;
}

// The values of the spans of `type` (of any type without one), in order.
std::vector<std::string> values_of(const PiiTagger& tagger, const std::string& text,
                                   std::optional<PiiType> type = std::nullopt) {
  std::vector<PiiSpan> spans;
  tagger.tag(text, spans);
  std::vector<std::string> out;
  for (const PiiSpan& s : spans) {
    if (!type || s.type == *type) out.push_back(text.substr(s.begin, s.end - s.begin));
  }
  return out;
}

// Expects no name in any of `texts`. (Text capitalised only where its
// sentences open is read again for the names the lists know: a text that
// tests that a cue's rule leaves a listed first name in small letters out
// holds a capitalised word inside a sentence, "NASA".)
void expect_no_names(const PiiTagger& tagger, std::initializer_list<const char*> texts) {
  for (const char* text : texts) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kPerson), std::vector<std::string>{}) << text;
  }
}

// The first value of `type`, or "".
std::string first_of(const PiiTagger& tagger, const std::string& text, PiiType type) {
  const std::vector<std::string> values = values_of(tagger, text, type);
  return values.empty() ? std::string() : values[0];
}

TEST(PiiTaggerTest, LearnsContextsAndFindsNamesItNeverSaw) {
  // Train on the first names and cities; test on the others.
  const std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  const std::vector<PiiExample> test = sample(200, 16, 24, 14, 20, 8, 12, 2);
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  ASSERT_EQ(tagger.types(), (std::vector<PiiType>{PiiType::kPerson, PiiType::kLocation}));
  PiiScorer scorer;
  for (const PiiExample& e : test) {
    std::vector<PiiSpan> found;
    tagger.tag(e.text, found);
    scorer.add(e.text, e.spans, found);
  }
  EXPECT_GE(scorer.counts(PiiType::kPerson).recall().value_or(0), 0.95);
  EXPECT_GE(scorer.counts(PiiType::kPerson).precision().value_or(0), 0.95);
  EXPECT_GE(scorer.counts(PiiType::kLocation).recall().value_or(0), 0.9);
  // Exact spans on one sentence: the whole name, nothing else.
  std::vector<PiiSpan> found;
  const std::string text = "Please call Wanda Horvath tomorrow.";
  tagger.tag(text, found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(text.substr(found[0].begin, found[0].end - found[0].begin), "Wanda Horvath");
}

// Text pasted with its line breaks and tabs written out ("\n", as a JSON
// string or a log holds them): the whole scan finds in it what it finds in
// the same text with the blanks themselves, at the same places: the name
// after an escape too, which would otherwise start with the escape's letter
// ("nQuentin").
TEST(PiiTaggerTest, TheScanReadsEscapesForBlanksAsBlanks) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  const std::string name = kFirst[16] + " " + kLast[14];
  const std::pair<const char*, const char*> escapes[] = {{R"(\n)", " \n"}, {R"(\t)", "  "}, {R"(\r\n)", "   \n"}};
  for (const auto& [escape, blanks] : escapes) {
    const std::string written = std::string("Notes:") + escape + name + " called." + escape + "Thanks";
    const std::string blank = std::string("Notes:") + blanks + name + " called." + blanks + "Thanks";
    ASSERT_EQ(written.size(), blank.size());
    const std::vector<std::string> found = scanned_spans(tagger, written);
    EXPECT_EQ(found, scanned_spans(tagger, blank)) << written;
    EXPECT_NE(std::find(found.begin(), found.end(), "PERSON:" + name), found.end()) << written;
  }
}

// That the structured detectors (the whole scan, without a tagger) find in
// `text` one value, of `type`, written as `value`.
void expect_one_value(const std::string& text, const std::string& type, const std::string& value) {
  std::vector<PiiSpan> spans;
  find_pii(text, nullptr, spans);
  ASSERT_EQ(spans.size(), 1u) << text;
  EXPECT_EQ(pii_type_name(spans[0].type), type) << text;
  EXPECT_EQ(text.substr(spans[0].begin, spans[0].end - spans[0].begin), value) << text;
}

// So do the structured detectors: a number right after "\n" is no longer
// glued to the escape's letter ("n4111 ..."), which hid it.
TEST(PiiTaggerTest, TheStructuredDetectorsReadEscapesForBlanksAsBlanks) {
  const std::pair<const char*, const char*> values[] = {
      {"CREDIT_CARD", "4111 1111 1111 1111"}, {"US_SSN", "123-45-6789"},
      {"IBAN_CODE", "GB82 WEST 1234 5698 7654 32"}, {"IP_ADDRESS", "192.168.1.1"},
      {"EMAIL_ADDRESS", "jane@example.com"}, {"PHONE_NUMBER", "+44 20 7946 0958"},
      {"MAC_ADDRESS", "00:1a:2b:3c:4d:5e"}, {"API_KEY", "AKIAIOSFODNN7EXAMPLE"}};
  for (const auto& [type, value] : values) {
    for (const char* escape : {R"(\n)", R"(\t)", R"(\r\n)"}) {
      expect_one_value(std::string("data:") + escape + value + escape + "end", type, value);
    }
  }
}

// A name found once is a name wherever the text repeats it: a mention the
// decoder took for a place ("moved to Quentin") is the person too, so that
// redaction hides every one. Only a name that opens with a listed first
// name is repeated.
TEST(PiiTaggerTest, ANameFoundOnceIsANameWhereverTheTextRepeatsIt) {
  const std::string text = "Please call Quentin tomorrow. Rosa moved to Quentin last year.";
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Quentin", "Rosa"}}, {"last_name", {"Viktor"}}, {"common_word", {"choose", "one", "said"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  EXPECT_EQ(typed_spans(tagger, text), (std::vector<std::string>{"PERSON:Quentin", "PERSON:Rosa", "PERSON:Quentin"}));
  // Viktor, whom a surname list knows but no first-name list, is not
  // repeated: the decoder's place stays.
  EXPECT_EQ(typed_spans(tagger, "Please call Viktor tomorrow. Rosa moved to Viktor last year."),
            (std::vector<std::string>{"PERSON:Viktor", "PERSON:Rosa", "LOCATION:Viktor"}));
}

// So in a long text of many names: each mention is looked up by its text
// (the pass's cost per mention does not grow with the names found).
TEST(PiiTaggerTest, ManyNamesAreEachFoundWhereverTheTextRepeatsThem) {
  std::vector<std::string> first_names;
  for (char a = 'a'; a <= 'z'; ++a) {
    for (char b = 'a'; b <= 'j'; ++b) first_names.push_back(std::string("Quen") + a + b);
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", first_names}, {"common_word", {"choose", "one", "said"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  std::string text;
  for (const std::string& name : first_names) text += "Please call " + name + " tomorrow. Rosa moved to " + name + " last year. ";
  std::vector<std::string> expected, found;
  for (const std::string& name : first_names) expected.insert(expected.end(), 2, "PERSON:" + name);
  for (const std::string& span : typed_spans(tagger, text)) {
    if (span.find(":Quen") != std::string::npos) found.push_back(span);
  }
  EXPECT_EQ(found, expected);
}

// In text without capitals a name does not run on into a contraction
// after it (a verb with its negation: redaction would take the "not" with
// the name), whichever apostrophe it is written with, nor into a
// pronoun's "'s".
TEST(PiiTaggerTest, ANameEndsBeforeAContraction) {
  std::vector<PiiExample> rows = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (PiiExample& e : rows) {
    e.text = in_small_letters(e.text);
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 14, 1));
  EXPECT_EQ(typed_spans(tagger, "i think quentin doesn't know the way."), std::vector<std::string>{"PERSON:quentin"});
  EXPECT_EQ(typed_spans(tagger, "i think quentin doesn\xe2\x80\x99t know the way."),
            std::vector<std::string>{"PERSON:quentin"});
  // (Nor into a pronoun's "'s": "it's", "that's".)
  EXPECT_EQ(typed_spans(tagger, "i think quentin that's the way."), std::vector<std::string>{"PERSON:quentin"});
}

// A capitalised contraction written with a right single quote ("Don’t") is
// scored as the training rows write it, with "'": the word the tagger
// learned is no name, whichever apostrophe it is written with.
TEST(PiiTaggerTest, AContractionWithATypographicApostropheIsTheWordTrainingSaw) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& name = kFirst[k % kFirst.size()];
    train.push_back({"Don't call " + name + " today.", {{PiiType::kPerson, 11, static_cast<uint32_t>(11 + name.size())}}});
    train.push_back({name + " called today.", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
    train.push_back({"Don't call it today.", {}});
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(tagger, "Don't call Greta today."), std::vector<std::string>{"PERSON:Greta"});
  EXPECT_EQ(typed_spans(tagger, "Don\xe2\x80\x99t call Greta today."), std::vector<std::string>{"PERSON:Greta"});
  EXPECT_EQ(typed_spans(tagger, "Don\xe2\x80\x99t call it today."), std::vector<std::string>{});
}

// Rows of the templates, names of one word and towns, in small letters:
// what a tagger for text without capitals learns from.
std::vector<PiiExample> rows_in_small_letters() {
  std::vector<PiiExample> rows;
  std::mt19937 rng(3);
  for (size_t k = 0; k < 600; ++k) {
    rows.push_back(make(kTemplates[rng() % kTemplates.size()], kFirst[rng() % 16], kCities[rng() % 8]));
    rows.back().text = in_small_letters(rows.back().text);
  }
  return rows;
}

// In text without capitals, a listed first name the decoder found alone
// takes the surname after it that no list knows as an everyday word, so
// that redaction does not let the surname out; an everyday word after it,
// possessive or not, stays out, but for one the last-name lists or the
// census's surnames know where the name ends: a possessive, or before a
// stop or the end; so for a first name that a place's list knows too.
TEST(PiiTaggerTest, AFirstNameInSmallLettersTakesTheSurnameAfterIt) {
  const std::vector<PiiExample> rows = rows_in_small_letters();
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Quentin", "Rosa", "Marion"}},
                  {"last_name", {"Zbrozek", "Walker"}},
                  {"common_word", {"fine", "knows", "the", "way", "tomorrow", "office", "walker", "farmer", "where",
                                   "name", "and", "today"}},
                  {"census_surname", {"Farmer"}},
                  {"city", {"Marion"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  EXPECT_EQ(typed_spans(tagger, "please call quentin zbrozek tomorrow."),
            std::vector<std::string>{"PERSON:quentin zbrozek"});
  EXPECT_EQ(typed_spans(tagger, "please call rosa ulveling's office."),
            std::vector<std::string>{"PERSON:rosa ulveling"});
  EXPECT_EQ(typed_spans(tagger, "i think quentin knows the way."), std::vector<std::string>{"PERSON:quentin"});
  EXPECT_EQ(typed_spans(tagger, "please call rosa fine's office."), std::vector<std::string>{"PERSON:rosa"});
  for (const char* text : {"please call rosa walker.", "please call rosa walker", "please call rosa walker's office."}) {
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"PERSON:rosa walker"}) << text;
  }
  EXPECT_EQ(typed_spans(tagger, "please call rosa walker tomorrow."), std::vector<std::string>{"PERSON:rosa"});
  EXPECT_EQ(typed_spans(tagger, "please call rosa farmer."), std::vector<std::string>{"PERSON:rosa farmer"});
  // So does a first name that a place's list knows too, between quote
  // marks or before a bracket.
  ASSERT_EQ(typed_spans(tagger, "please call marion today."), std::vector<std::string>{"PERSON:marion"});
  for (const char* text : {"where name = 'marion walker' and", "please call marion walker (the tenant)."}) {
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"PERSON:marion walker"}) << text;
  }
}

// In text without capitals, a name of two first names that the decoder
// found takes an everyday surname after the second where the name ends
// there, as one first name does ("john michael doe"); not after a second
// word that a last-name list knows (a full name already: "percy jackson
// book.").
TEST(PiiTaggerTest, AMiddleNameInSmallLettersTakesTheSurnameAfterIt) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string name = k % 2 == 0 ? "anna maria" : "rosa elena";
    rows.push_back({"i met " + name + " today.", {{PiiType::kPerson, 6, static_cast<uint32_t>(6 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna", "Maria", "Rosa", "Elena", "Percy", "Jackson"}},
                  {"last_name", {"Walker", "Jackson"}},
                  {"common_word", {"i", "met", "today", "walker", "book"}},
                  {"census_surname", {"Book"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  ASSERT_EQ(typed_spans(tagger, "i met anna maria today."), std::vector<std::string>{"PERSON:anna maria"});
  EXPECT_EQ(typed_spans(tagger, "i met anna maria walker."), std::vector<std::string>{"PERSON:anna maria walker"});
  EXPECT_EQ(typed_spans(tagger, "i met percy jackson book."), std::vector<std::string>{"PERSON:percy jackson"});
}

// In text without capitals, streets are found by their shape: a word that
// ends as streets do before its number, after a word that leads to a
// place; words and a suffix after "on", none an everyday word, the first
// of two suffixes the street's own. Not everyday words on a road.
TEST(PiiTaggerTest, StreetsInSmallLettersAreFoundByTheirShape) {
  const std::vector<PiiExample> rows = rows_in_small_letters();
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Quentin", "Rosa"}},
                  {"common_word", {"busy", "city", "the", "were", "fine", "is", "admitted", "trip", "car"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto streets = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const std::string& s : typed_spans(tagger, text)) {
      if (s.starts_with("STREET_ADDRESS:")) out.push_back(s.substr(15));
    }
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(streets("the bus station is on ziegelgasse 26"), V{"ziegelgasse 26"});
  EXPECT_EQ(streets("the early shows on bezrukov street street were fine."), V{"bezrukov street"});
  EXPECT_EQ(streets("the car is on a busy city street."), V{});
  EXPECT_EQ(streets("the car is on a road trip."), V{});
}

// An address the decoder ran over a building's number and the number of
// the street after it keeps the building's number, and the street takes
// its own: "32" and "2109 gleemoor rd", not "32 2109".
TEST(PiiTaggerTest, ABuildingsNumberLeavesTheStreetItsOwnNumber) {
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    PiiExample e;
    const std::string numbers = std::to_string(10 + k % 80) + " " + std::to_string(100 + k * 7 % 900);
    e.text = "ship it to " + numbers + " now.";
    e.spans = {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + numbers.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(3, 1u << 12, 1));
  ASSERT_EQ(values_of(tagger, "ship it to 32 2109 now.", PiiType::kStreetAddress), std::vector<std::string>{"32 2109"});
  EXPECT_EQ(values_of(tagger, "ship it to 32 2109 gleemoor rd now.", PiiType::kStreetAddress),
            (std::vector<std::string>{"32", "2109 gleemoor rd"}));
}

// Envelopes of our own: a name's line, then a street's and a city's lines
// labelled as one address, after a line that asks for them.
std::vector<PiiExample> envelopes() {
  const std::vector<std::string> streets = {"Oak Street", "Elm Road", "Mill Lane", "Park Avenue", "Hill Drive"};
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 400; ++k) {
    const std::string who = kFirst[k % kFirst.size()] + " " + kLast[k * 7 % kLast.size()];
    const std::string where = std::to_string(2 + k * 13 % 97) + " " + streets[k % streets.size()] + "\n" +
                              kCities[k * 5 % kCities.size()] + " " + std::to_string(1000 + k * 37 % 9000);
    PiiExample e;
    e.text = "Please send it to:\n" + who + "\n" + where;
    const auto name = static_cast<uint32_t>(19), address = static_cast<uint32_t>(20 + who.size());
    e.spans = {{PiiType::kPerson, name, static_cast<uint32_t>(name + who.size())},
               {PiiType::kStreetAddress, address, static_cast<uint32_t>(address + where.size())}};
    rows.push_back(std::move(e));
  }
  return rows;
}

// Lists hold many people, one per line: each stays a name of its own where
// the decoder, having learnt envelopes, would run an address from a
// name's line on over the rest of the list (which the scan then drops
// whole as too long, names and all). No address runs onto a new line
// without a digit near, nor across a blank line, nor a name over more
// than kMaxNameTokens tokens.
TEST(PiiTaggerTest, ListsOfPeopleStayNamesOneEach) {
  std::vector<PiiExample> train = envelopes();
  for (PiiExample& e : sample(400, 0, 16, 0, 14, 0, 8, 2)) train.push_back(std::move(e));
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  std::vector<std::string> people;
  for (size_t k = 0; k < 12; ++k) people.push_back(kFirst[(k * 5 + 3) % kFirst.size()] + " " + kLast[(k * 3 + 1) % kLast.size()]);
  auto names_in = [&](const std::string& text) { return scanned_names(tagger, text); };
  std::string lines, numbered, table, letters;
  for (size_t k = 0; k < people.size(); ++k) {
    lines += people[k] + "\n";
    numbered += std::to_string(k + 1) + ". " + people[k] + "\n";
    table += people[k] + "\t" + std::to_string(20 + k) + "\n";
    letters += people[k] + "\n" + std::to_string(3 + k) + " Oak Street\n" + kCities[k % kCities.size()] + " " +
               std::to_string(1200 + k) + "\n\n";
  }
  EXPECT_EQ(names_in(numbered), people);
  EXPECT_EQ(names_in(letters), people);
  // A table's rows of a name and an age: no address of the name and the
  // number in the next cell, nor opened at the age.
  EXPECT_EQ(names_in(table), people);
  // Without numbers the decoder may still open an address at one name's
  // line, as at an envelope's street (this tagger at "Oscar Lindqvist"),
  // but the address ends with that line and is dropped: the names after it
  // are found.
  const std::vector<std::string> listed = names_in(lines);
  EXPECT_GE(listed.size(), people.size() - 1);
  for (const std::string& name : listed) EXPECT_NE(std::find(people.begin(), people.end(), name), people.end()) << name;
  EXPECT_EQ(listed.back(), people.back());
  // Nor does a list without commas run on as one name over the text.
  std::string repeated;
  for (size_t k = 0; k < 400; ++k) repeated += people[k % 2] + " ";
  std::vector<PiiSpan> spans;
  find_pii(repeated, &tagger, spans);
  EXPECT_GT(spans.size(), 1u);
  for (const PiiSpan& span : spans) EXPECT_LT(span.end - span.begin, 24u * 16u);
}

// A list of addresses, one after the other, runs over more lines than an
// address has: the scan keeps each of its lines covered as an address of
// its own rather than dropping the whole (as it drops no longer a list's
// count alone).
TEST(PiiTaggerTest, AListOfAddressesStaysCoveredLineByLine) {
  const PiiTagger tagger = PiiTagger::train(envelopes(), options(5, 1u << 14, 1));
  for (const std::string blank : {"", "\n"}) {
    std::string text;
    std::vector<std::string> values;
    for (size_t k = 0; k < 10; ++k) {
      values.push_back(std::to_string(3 + k) + " Oak Street");
      values.push_back(std::to_string(4100 + k));
      text += values[values.size() - 2] + "\n" + kCities[k % kCities.size()] + " " + values.back() + "\n" + blank;
    }
    std::vector<PiiSpan> spans;
    find_pii(text, &tagger, spans);
    for (const std::string& value : values) {
      const size_t at = text.find(value);
      EXPECT_TRUE(std::any_of(spans.begin(), spans.end(), [&](const PiiSpan& s) {
        return s.begin <= at && s.end >= at + value.size();
      })) << value << (blank.empty() ? "" : " (blank lines between)");
    }
    for (const PiiSpan& s : spans) {
      EXPECT_LE(std::count(text.begin() + s.begin, text.begin() + s.end, '\n'), 5) << text.substr(s.begin, s.end - s.begin);
    }
  }
}

// And they read the text made plain: a value written with no-break spaces,
// non-breaking hyphens, an en dash, zero-width spaces or full-width digits,
// or an e-mail address whose "@" a URL or HTML encodes, is found, over the
// characters as written.
TEST(PiiTaggerTest, TheStructuredDetectorsReadStandInsAsTheirAscii) {
  const std::pair<const char*, std::string> values[] = {
      {"CREDIT_CARD", "4111\xc2\xa0" "1111\xc2\xa0" "1111\xc2\xa0" "1111"},
      {"PHONE_NUMBER", "+33\xc2\xa0" "6\xc2\xa0" "12\xc2\xa0" "34\xc2\xa0" "56\xc2\xa0" "78"},
      {"US_SSN", "123\xe2\x80\x91" "45\xe2\x80\x91" "6789"},
      {"US_SSN", "123\xe2\x80\x93" "45\xe2\x80\x93" "6789"},
      {"IBAN_CODE", "GB82\xc2\xa0WEST\xc2\xa0" "1234\xc2\xa0" "5698\xc2\xa0" "7654\xc2\xa0" "32"},
      {"CREDIT_CARD", "4111\xe2\x80\x8b" "1111\xe2\x80\x8b" "1111\xe2\x80\x8b" "1111"},
      {"EMAIL_ADDRESS", "jane\xe2\x80\x8b@example.com"},
      {"EMAIL_ADDRESS", "jane.doe%40example.com"},
      {"EMAIL_ADDRESS", "jane&#64;example.com"},
      {"EMAIL_ADDRESS", "jane&#x40;example.com"},
      {"CREDIT_CARD", "\xef\xbc\x94\xef\xbc\x91\xef\xbc\x91\xef\xbc\x91 \xef\xbc\x91\xef\xbc\x91\xef\xbc\x91\xef\xbc\x91 "
                      "\xef\xbc\x91\xef\xbc\x91\xef\xbc\x91\xef\xbc\x91 \xef\xbc\x91\xef\xbc\x91\xef\xbc\x91\xef\xbc\x91"}};
  for (const auto& [type, value] : values) {
    expect_one_value("data\xc2\xa0\xe2\x80\x8b: " + value + " end", type, value);
  }
}

TEST(PiiTaggerTest, AScanStopsWhenItsStopSaysSoEvenInsideOneLongText) {
  const PiiTagger tagger = PiiTagger::train(sample(300, 0, 16, 0, 14, 0, 8, 1), options(3, 1u << 12, 1));
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "Please call Wanda Horvath tomorrow. The weather is fine today. ";
  std::vector<PiiSpan> unstopped;
  find_pii(text, &tagger, unstopped);
  ASSERT_FALSE(unstopped.empty());

  // Asked after the structured detectors, then every 1,024 tokens of
  // decoding and before the passes after it: a stop that never answers
  // true changes nothing.
  int asked = 0;
  std::vector<PiiSpan> spans;
  EXPECT_TRUE(find_pii(text, &tagger, spans, [&asked] {
    ++asked;
    return false;
  }));
  EXPECT_EQ(spans, unstopped);
  EXPECT_GT(asked, 10);  // 2,000 sentences of 14 tokens: most asked while decoding

  // One that answers true on its third question stops the decoding.
  asked = 0;
  spans.clear();
  EXPECT_FALSE(find_pii(text, &tagger, spans, [&asked] { return ++asked == 3; }));
  EXPECT_EQ(asked, 3);
  // Without a tagger the structured detectors alone run, asking nothing.
  spans.clear();
  EXPECT_TRUE(find_pii(text, nullptr, spans, [] { return true; }));
}

TEST(PiiTaggerTest, LeavesTheStructuredTypesToTheDetectors) {
  PiiExample e;
  e.text = "mail me at a@b.example.com";
  e.spans = {{PiiType::kEmailAddress, 11, 26}};
  EXPECT_TRUE(PiiTagger::train(std::vector<PiiExample>{e}).empty());
  std::vector<PiiSpan> found;
  PiiTagger().tag("anything", found);
  EXPECT_TRUE(found.empty());
}

// The two taggers find the same spans in sentences with new names.
void expect_same_spans(const PiiTagger& a, const PiiTagger& b) {
  for (const PiiExample& e : sample(50, 16, 24, 14, 20, 8, 12, 4)) {
    std::vector<PiiSpan> from_a, from_b;
    a.tag(e.text, from_a);
    b.tag(e.text, from_b);
    ASSERT_EQ(from_a.size(), from_b.size()) << e.text;
    for (size_t k = 0; k < from_a.size(); ++k) {
      EXPECT_TRUE(from_a[k].type == from_b[k].type && from_a[k].begin == from_b[k].begin && from_a[k].end == from_b[k].end)
          << e.text;
    }
  }
}

TEST(PiiTaggerTest, SavedTaggersLoadAndDamagedOnesAreRefused) {
  const PiiTagger tagger = PiiTagger::train(sample(100, 0, 16, 0, 14, 0, 8, 3), options(2, 1u << 10, 1));
  const std::string bytes = tagger.serialize();
  auto loaded = PiiTagger::parse(bytes, "t.bin");
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
  expect_same_spans(tagger, *loaded);
  // The file keeps the weights as trained, not the 16-bit ones tag() reads.
  EXPECT_EQ(loaded->serialize(), bytes);
  EXPECT_FALSE(PiiTagger::parse("hello", "t.bin").is_ok());
  EXPECT_FALSE(PiiTagger::parse(bytes.substr(0, bytes.size() - 4), "t.bin").is_ok());
  std::string other_version = bytes;
  other_version[8] = 9;
  auto refused = PiiTagger::parse(other_version, "t.bin");
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.status().message().find("retrain it with `tiergate pii train`"), std::string::npos);
  // The first weight turned into NaN (all bits set). It follows the magic,
  // the version, the types (a count, then a length and a name each), the
  // bucket count, the 16 bytes of marks and the byte of flags.
  size_t first_weight = 8 + 4 + 4 + 4 + 16 + 1;
  for (PiiType t : tagger.types()) first_weight += 1 + pii_type_name(t).size();
  std::string damaged_flags = bytes;
  damaged_flags[first_weight - 1] = 7;
  auto refused_flags = PiiTagger::parse(damaged_flags, "t.bin");
  ASSERT_FALSE(refused_flags.is_ok());
  EXPECT_NE(refused_flags.status().message().find("damaged flags"), std::string::npos);
  std::string nan_weight = bytes;
  for (size_t b = 0; b < 4; ++b) nan_weight[first_weight + b] = static_cast<char>(0xff);
  auto damaged = PiiTagger::parse(nan_weight, "t.bin");
  ASSERT_FALSE(damaged.is_ok());
  EXPECT_NE(damaged.status().message().find("no finite number"), std::string::npos);
}

// PERSON recall of a tagger trained with `o` on the templates above (a fifth
// of the rows lower case) and tested on lower-case sentences of templates
// training never had, with names it never saw: the context words and the
// capitals say nothing there.
double new_template_person_recall(const TaggerOptions& o) {
  const std::vector<std::string> kNewTemplates = {"Yesterday {P} phoned twice.", "Tell {P} that lunch is ready.",
                                                  "The parcel for {P} is late."};
  std::mt19937 rng(5);
  std::vector<PiiExample> test;
  for (int k = 0; k < 120; ++k) {
    const std::string person = kFirst[16 + rng() % 8] + " " + kLast[14 + rng() % 6];
    test.push_back(make(kNewTemplates[rng() % kNewTemplates.size()], person, ""));
    test.back().text = in_small_letters(test.back().text);
  }
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < train.size(); k += 5) {
    train[k].text = in_small_letters(train[k].text);
  }
  const PiiTagger tagger = PiiTagger::train(train, o);
  PiiScorer scorer;
  for (const PiiExample& e : test) {
    std::vector<PiiSpan> found;
    tagger.tag(e.text, found);
    scorer.add(e.text, e.spans, found);
  }
  return scorer.counts(PiiType::kPerson).recall().value_or(0);
}

TEST(PiiTaggerTest, GazetteersFindNamesInTemplatesItNeverSaw) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.context_dropout = 0;  // to isolate what the lists add
  const double without = new_template_person_recall(o);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"city", kCities}};
  const double with = new_template_person_recall(o);
  std::cout << "[tagger] person recall in new templates: " << without << " without gazetteers, " << with << " with\n";
  EXPECT_GE(with, 0.95);
  EXPECT_GT(with, without);
}

// "Viktor's" is looked up in the lists as "Viktor", and the span leaves the
// 's out, so that redaction reads "[PERSON_1]'s keys"; likewise "Wanda’s".
TEST(PiiTaggerTest, PossessivesAreLookedUpAndLeftOutOfTheName) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"city", kCities}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  const std::string text = "We found Viktor Grant's keys and Wanda Jensen\xe2\x80\x99s car.";
  std::vector<PiiSpan> found;
  tagger.tag(text, found);
  std::vector<std::string> names;
  for (const PiiSpan& s : found) {
    if (s.type == PiiType::kPerson) names.push_back(text.substr(s.begin, s.end - s.begin));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Viktor Grant", "Wanda Jensen"}));
}

// A tagger taught that a value runs on past a possessive ("Anna Novak's
// Tales" labelled whole) still ends a name at it; a place or organisation
// that a listed first name and another word open is that person's.
TEST(PiiTaggerTest, ANameEndsAtItsPossessive) {
  auto taught = [](PiiType type, const std::string& owner_word) {
    std::vector<PiiExample> train;
    for (size_t k = 0; k < 300; ++k) {
      PiiExample e;
      const std::string value =
          (k % 2 == 0 ? kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()] : owner_word) + "'s Tales";
      e.text = "I read " + value + " yesterday.";
      e.spans = {{type, 7, static_cast<uint32_t>(7 + value.size())}};
      train.push_back(std::move(e));
    }
    TaggerOptions o = options(5, 1u << 12, 1);
    o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"common_word", {"people", "read", "yesterday"}}};
    return PiiTagger::train(train, o);
  };
  const PiiTagger names = taught(PiiType::kPerson, "Bruno Moreau");
  EXPECT_EQ(typed_spans(names, "I read Greta Brandt's Tales yesterday."), (std::vector<std::string>{"PERSON:Greta Brandt"}));
  const PiiTagger firms = taught(PiiType::kOrganization, "People");
  EXPECT_EQ(typed_spans(firms, "I read Greta Brandt's Tales yesterday."), (std::vector<std::string>{"PERSON:Greta Brandt"}));
  EXPECT_EQ(typed_spans(firms, "I read People's Tales yesterday."),
            (std::vector<std::string>{"ORGANIZATION:People's Tales"}));
}

// Without lists, context dropout makes the tagger learn the names' own
// features (affixes, shapes) instead of the sentences they sat in.
TEST(PiiTaggerTest, ContextDropoutCarriesOverToTemplatesItNeverSaw) {
  // One perceptron per seed (the mechanism, not the ensemble), and the mean
  // over six seeds: on data this small one row order alone decides a lot.
  auto mean_recall = [](double dropout) {
    double sum = 0;
    for (uint64_t seed : {1, 2, 3, 4, 5, 6}) {
      TaggerOptions o = options(5, 1u << 14, seed);
      o.members = 1;
      o.context_dropout = dropout;
      sum += new_template_person_recall(o);
    }
    return sum / 6;
  };
  const double without = mean_recall(0), with = mean_recall(0.25);
  std::cout << "[tagger] person recall in new templates (mean of 6 seeds): " << without << " without context dropout, "
            << with << " with\n";
  // Measured: 0.31 without, 0.60 with.
  EXPECT_GT(with, without + 0.2);
}

// Training always has "First Last": a first name at the end of a line and a
// surname on the next would be one span, but no name runs across a line break.
TEST(PiiTaggerTest, NamesDoNotRunAcrossALineBreak) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  const std::string text = "Please call Wanda\nHorvath";
  std::vector<PiiSpan> found;
  tagger.tag(text, found);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(text.substr(found[0].begin, found[0].end - found[0].begin), "Wanda");
}

// A tagger that learned to tag whatever fills the slot after "call" and
// "at" still drops spans no name or address can be.
TEST(PiiTaggerTest, DropsSpansNoNameOrAddressCanBe) {
  const std::vector<std::string> fillers = {"Q", "Wrong", "Anna", "Bruno", "Zed", "Kofi", "True", "Lena", "TRUE", "ANNA"};
  const std::vector<std::string> places = {"12 Elm Street", "Elm Street", "Oak Road", "7 Birch", "Pine Road 9", "Answer"};
  std::vector<PiiExample> train;
  for (int k = 0; k < 400; ++k) {
    train.push_back(call_at(fillers[static_cast<size_t>(k) % fillers.size()],
                            places[static_cast<size_t>(k / 8) % places.size()], " today."));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"wrong", "true", "answer"}}, {"street_suffix", {"Street", "Road", "C/ Mayor"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Please call Anna at 12 Elm Street today."),
            (std::vector<std::string>{"PERSON:Anna", "STREET_ADDRESS:12 Elm Street"}));
  EXPECT_EQ(found("Please call Lena at Oak Road today."), (std::vector<std::string>{"PERSON:Lena", "STREET_ADDRESS:Oak Road"}));
  // A single letter, an everyday word, an address with neither a number nor a street word.
  EXPECT_EQ(found("Please call Q at Answer today."), std::vector<std::string>{});
  EXPECT_EQ(found("Please call Lena at C Answer today."), std::vector<std::string>{"PERSON:Lena"});
  // In capitals throughout, an everyday word is taken for a name ("SAP").
  EXPECT_EQ(found("Please call TRUE at 7 Birch today."),
            (std::vector<std::string>{"PERSON:TRUE", "STREET_ADDRESS:7 Birch"}));
  EXPECT_EQ(found("Please call Wrong at 7 Birch today."), std::vector<std::string>{"STREET_ADDRESS:7 Birch"});
  // A pronoun with its contraction.
  EXPECT_EQ(found("Please call You've at 7 Birch today."), std::vector<std::string>{"STREET_ADDRESS:7 Birch"});
  EXPECT_EQ(found("Please call I'm at 7 Birch today."), std::vector<std::string>{"STREET_ADDRESS:7 Birch"});
  // An everyday abbreviation, one of science or computing, an office in a
  // company, a Roman numeral.
  for (const std::string word : {"ASAP", "DNA", "GDP", "PHP", "CEO", "III"}) {
    EXPECT_EQ(found("Please call " + word + " at 7 Birch today."), std::vector<std::string>{"STREET_ADDRESS:7 Birch"}) << word;
  }
  // A formula or a code of capitals and digits; not with small letters.
  for (const std::string word : {"H2O", "CO2", "SA8000", "B2B", "M2"}) {
    EXPECT_EQ(found("Please call " + word + " at 7 Birch today."), std::vector<std::string>{"STREET_ADDRESS:7 Birch"}) << word;
  }
  EXPECT_EQ(found("Please call Ideas42 at 7 Birch today."),
            (std::vector<std::string>{"PERSON:Ideas42", "STREET_ADDRESS:7 Birch"}));
  // A number and small words: no address, in text with capitals.
  EXPECT_EQ(found("Please call Lena at 7 and a today."), std::vector<std::string>{"PERSON:Lena"});
  // A formula's letters, next to a sign of logic or arithmetic or with a
  // bullet inside (formal logic: "Px \u2283 Sx", "Px \u2022 Sx"); "=" may
  // stand between a key and a name.
  EXPECT_EQ(found("Please call Kofi \u2283 at 12 Elm Street today."), std::vector<std::string>{"STREET_ADDRESS:12 Elm Street"});
  EXPECT_EQ(found("Please call Kofi \u2228 Lena at 12 Elm Street today."),
            std::vector<std::string>{"STREET_ADDRESS:12 Elm Street"});
  EXPECT_EQ(found("Please call Kofi\u00d7Lena at 12 Elm Street today."), std::vector<std::string>{"STREET_ADDRESS:12 Elm Street"});
  EXPECT_EQ(found("Please call \U0001d70e\U0001d467 at 12 Elm Street today."),
            std::vector<std::string>{"STREET_ADDRESS:12 Elm Street"});
  EXPECT_EQ(found("Please call Kofi = at 12 Elm Street today."),
            (std::vector<std::string>{"PERSON:Kofi", "STREET_ADDRESS:12 Elm Street"}));
  // Without the lists, the same tagger has no everyday or street words to go by.
  o.gazetteers.clear();
  const PiiTagger bare = PiiTagger::train(train, o);
  std::vector<PiiSpan> spans;
  bare.tag("Please call Wrong at Oak Road today.", spans);
  EXPECT_EQ(spans.size(), 1u);  // Wrong is kept; Oak Road has no digit and no street word
}

// A tagger that learned to take whatever opens a sentence before a small
// word for a name, or a number after "at" for an address, opens no span at
// a small everyday word that is no name ("The", "If"; though "the" is part
// of a city and "if" a state in the lists), nor at a number before an
// everyday word that is no street word ("60 to 70 percent").
TEST(PiiTaggerTest, SmallEverydayWordsAndCountsOpenNoSpan) {
  const std::vector<std::string> openers = {"Anna", "Bob", "Kofi", "Lena", "Bruno", "Zed"};
  const std::vector<std::string> places = {"12 Elm Street", "7 Birch", "40 Pine Road"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 400; ++k) {
    PiiExample e = call_at(openers[k % openers.size()], places[k % places.size()], " today.");
    // "<opener> wrote: please call ..." with the opener labelled a name.
    const std::string opener = openers[(k + 1) % openers.size()];
    e.text = opener + " wrote: " + e.text;
    const auto shift = static_cast<uint32_t>(opener.size() + 8);
    for (PiiSpan& span : e.spans) span.begin += shift, span.end += shift;
    e.spans.insert(e.spans.begin(), {PiiType::kPerson, 0, static_cast<uint32_t>(opener.size())});
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"the", "if", "bob", "to", "percent", "today"}},
                  {"first_name", {"bob"}},
                  {"city", {"the hague"}},
                  {"state", {"if"}},
                  {"street_suffix", {"Street", "Road"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Bob wrote: please call Anna at 12 Elm Street today."),
            (std::vector<std::string>{"PERSON:Bob", "PERSON:Anna", "STREET_ADDRESS:12 Elm Street"}));
  EXPECT_EQ(found("The wrote: please call Anna at 7 Birch today."),
            (std::vector<std::string>{"PERSON:Anna", "STREET_ADDRESS:7 Birch"}));
  EXPECT_EQ(found("If wrote: please call Anna at 7 Birch today."),
            (std::vector<std::string>{"PERSON:Anna", "STREET_ADDRESS:7 Birch"}));
  EXPECT_EQ(found("Lena wrote: please call Anna at 60 to 70 percent today."),
            (std::vector<std::string>{"PERSON:Lena", "PERSON:Anna"}));
}

// A tagger whose rows label signs as places ("…", "—", the replacement
// character, an ideographic full stop, non-breaking spaces) still reports
// no span without a letter or a digit in it: such a span names no one.
// (Its rows hold a place in ideographs too, "大阪": a word of them may be
// one.)
TEST(PiiTaggerTest, ASpanOfSignsIsNoSpan) {
  const std::vector<std::string> signs = {"\u2026", "\u2014", "\ufffd", "\u3002", "\u00a0\u00a0", "\u200b"};
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string place = k % 10 == 0  ? std::string("\u5927\u962a")
                              : k % 2 == 0 ? kCities[k % kCities.size()]
                                           : signs[k % signs.size()];
    PiiExample e;
    e.text = "we moved here from " + place + " last year.";
    e.spans = {{PiiType::kLocation, 19, static_cast<uint32_t>(19 + place.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  EXPECT_EQ(values_of(tagger, "we moved here from Graz last year."), std::vector<std::string>{"Graz"});
  EXPECT_EQ(values_of(tagger, "we moved here from Ünye last year."), std::vector<std::string>{"Ünye"});
  EXPECT_EQ(values_of(tagger, "we moved here from 東京 last year."), std::vector<std::string>{"東京"});
  for (const std::string& sign : signs) {
    EXPECT_EQ(values_of(tagger, "we moved here from " + sign + " last year."), std::vector<std::string>{}) << sign;
  }
}

// A tagger trained on 200 rows in small letters, row k naming one person by
// one word, names[k % 4], with around(k) the row's text before and after
// the name.
PiiTagger small_letter_names_tagger(const std::array<std::string, 4>& names,
                                    const std::function<std::pair<std::string, std::string>(size_t)>& around,
                                    std::vector<GazetteerList> gazetteers) {
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    const std::string& name = names[k % names.size()];
    const auto [before, after] = around(k);
    const auto at = static_cast<uint32_t>(before.size());
    train.push_back({before + name + after, {{PiiType::kPerson, at, static_cast<uint32_t>(at + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = std::move(gazetteers);
  return PiiTagger::train(train, o);
}

// A name takes a surname of a Gaelic shape in small letters right after it
// ("whether siobhan o'brien is"), whatever lists know the name; here the
// decoder names single words no list knows after "check whether", the
// surname too. Not "o'clock" (which that decoder names), nor a word beyond
// the line.
TEST(PiiTaggerTest, ANameTakesAGaelicSurnameInSmallLetters) {
  const PiiTagger tagger = small_letter_names_tagger(
      {"velmora", "quillon", "dastra", "brask"},
      [](size_t) { return std::pair<std::string, std::string>{"check whether ", " is here"}; },
      {{"common_word", {"check", "whether", "is", "here"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(persons("check whether velmora is here"), V{"velmora"});
  EXPECT_EQ(persons("check whether velmora o'brien is here"), V{"velmora o'brien"});
  EXPECT_EQ(persons("check whether velmora o\u2019brien is here"), V{"velmora o\u2019brien"});
  EXPECT_EQ(persons("check whether velmora mcallister is here"), V{"velmora mcallister"});
  EXPECT_EQ(persons("check whether velmora o'clock is here"), (V{"velmora", "o'clock"}));
  EXPECT_EQ(persons("check whether velmora\no'brien is here"), (V{"velmora", "o'brien"}));
}

// After a cue in small letters, a name of the decoder's over the first
// word alone takes the surname the cue's reading finds after it ("my
// neighbour barnaby whitcombe keeps", "my neighbour velmora marsh."); not
// a verb that names people too ("will"). Here the decoder names single
// words after "my neighbour".
TEST(PiiTaggerTest, ANameOfTheDecodersAfterACueTakesItsSurname) {
  const PiiTagger tagger = small_letter_names_tagger(
      {"velmora", "quillon", "dastra", "brask"},
      [](size_t) { return std::pair<std::string, std::string>{"my neighbour ", " keeps parking here"}; },
      {{"common_word", {"my", "neighbour", "keeps", "parking", "here", "will", "pick", "up", "marsh"}},
       {"last_name", {"Will", "Marsh"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(persons("my neighbour velmora keeps parking here"), V{"velmora"});
  EXPECT_EQ(persons("my neighbour velmora marsh."), V{"velmora marsh"});
  EXPECT_EQ(persons("my neighbour velmora will."), V{"velmora"});
}

// In text without capitals, a modal verb that a name list holds ("may")
// is no name alone before an everyday word that no name list knows; before
// a name ("may novak") it may be one.
TEST(PiiTaggerTest, AModalVerbBeforeAnEverydayWordIsNoName) {
  // "<name> <verb> ...", in small letters: the tagger learns that a first
  // name opening a text is a person's, whatever follows.
  const std::vector<std::string> verbs = {"be", "give", "not", "cause"};
  const PiiTagger tagger = small_letter_names_tagger(
      {"may", "anna", "lena", "kofi"},
      [&](size_t k) {
        return std::pair<std::string, std::string>{"", " " + verbs[(k / 4) % verbs.size()] + " it today."};
      },
      {{"first_name", {"May", "Anna", "Lena", "Kofi"}},
       {"last_name", {"Novak"}},
       {"common_word", {"may", "be", "give", "not", "cause", "it", "today", "late"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(persons("anna be late today."), std::vector<std::string>{"anna"});
  EXPECT_EQ(persons("may be late today."), std::vector<std::string>{});
  EXPECT_EQ(persons("may not give it today."), std::vector<std::string>{});
  // Not before a word a name list knows: the name, with its surname.
  EXPECT_EQ(persons("may novak today."), std::vector<std::string>{"may novak"});
}

// In text without capitals, outside a span, no span opens at a mark, at a
// word that opens no value ("the", "of", "a": articles, prepositions,
// pronouns), nor at a word only the everyday lists know before a word some
// list knows, whatever the tagger learned: here its rows label such a word
// with the name after it. An everyday word still opens a value before a
// number ("suite 12") or a word no list knows ("cite zorvath").
TEST(PiiTaggerTest, InTextWithoutCapitalsMarksAndFunctionWordsOpenNoSpan) {
  const std::vector<std::pair<std::string, PiiType>> values = {
      {"the anna", PiiType::kPerson},  {"- anna", PiiType::kPerson},          {"of lena", PiiType::kPerson},
      {"ring kofi", PiiType::kPerson}, {"suite 12", PiiType::kStreetAddress}, {"cite zorvath", PiiType::kLocation}};
  const std::vector<std::string> days = {"today", "tomorrow", "on monday", "at noon"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 300; ++k) {
    const auto& [value, type] = values[k % values.size()];
    const std::string before = "we met ";
    const auto at = static_cast<uint32_t>(before.size());
    train.push_back({before + value + " " + days[(k / values.size()) % days.size()] + ".",
                     {{type, at, static_cast<uint32_t>(at + value.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna", "Lena", "Kofi"}},
                  {"common_word", {"the", "of", "ring", "suite", "cite", "we", "met", "today", "tomorrow", "on",
                                   "monday", "at", "noon"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto opens = [&](const std::string& text, std::string_view word) {
    std::vector<PiiSpan> spans;
    tagger.tag(text, spans);
    const size_t at = text.find(word);
    return std::any_of(spans.begin(), spans.end(), [&](const PiiSpan& s) { return s.begin == at; });
  };
  for (const std::string value : {"the anna", "- anna", "of lena", "ring kofi"}) {
    const std::string text = "we met " + value + " today.";
    EXPECT_FALSE(opens(text, value)) << text;
  }
  EXPECT_EQ(first_of(tagger, "we met suite 12 today.", PiiType::kStreetAddress), "suite 12");
  EXPECT_EQ(first_of(tagger, "we met cite zorvath today.", PiiType::kLocation), "cite zorvath");
}

// In text without capitals, one word that the everyday lists know (a name
// list may know it too) is no name right after "the", "a" or "an" or a
// possessive determiner: a noun ("the price of a house", "in its mission").
TEST(PiiTaggerTest, AnEverydayWordAfterAnArticleIsNoName) {
  const PiiTagger tagger = small_letter_names_tagger(
      {"price", "anna", "lena", "kofi"},
      [](size_t) { return std::pair<std::string, std::string>{"we met ", " today."}; },
      {{"first_name", {"Anna", "Lena", "Kofi"}},
       {"last_name", {"Price"}},
       {"common_word", {"we", "met", "today", "the", "a", "price", "of", "house", "your", "its", "our"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(persons("we met price today."), std::vector<std::string>{"price"});
  EXPECT_EQ(persons("we met the price today."), std::vector<std::string>{});
  EXPECT_EQ(persons("we met a price today."), std::vector<std::string>{});
  EXPECT_EQ(persons("we met your price today."), std::vector<std::string>{});
  EXPECT_EQ(persons("we met its price today."), std::vector<std::string>{});
  // A word no everyday list knows stays a name there.
  EXPECT_EQ(persons("we met the anna today."), std::vector<std::string>{"anna"});
  EXPECT_EQ(persons("we met our anna today."), std::vector<std::string>{"anna"});
}

// A tagger whose rows hold no value in a script without capitals (kana,
// CJK, Hangul, Hebrew, Arabic, the Indic scripts, Thai) does not decode
// such words: it has no evidence on them. (It saves that and loads it.)
// Inside text in Latin script a short run of them is a name
// (add_names_in_caseless_scripts(), below), a place included: the safer
// reading. A word with such letters after a quote mark ("“東京"), digits
// ("2024年") or a letter ("Q方法") is none.
TEST(PiiTaggerTest, WordsOfScriptsWithoutCapitalsAreNotDecodedWhereTheRowsHadNone) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string place = kCities[k % kCities.size()];
    PiiExample e;
    e.text = "we moved here from " + place + " last year.";
    e.spans = {{PiiType::kLocation, 19, static_cast<uint32_t>(19 + place.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "moved", "here", "from", "last", "year"}}};
  const PiiTagger latin = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(latin, "We moved here from Graz last year."), std::vector<std::string>{"LOCATION:Graz"});
  for (const char* word : {"\u6771\u4eac", "\u3068\u3046\u304d\u3087\u3046", "\uc11c\uc6b8",
                           // Hebrew, Arabic, Devanagari, Thai
                           "\u05d7\u05d9\u05e4\u05d4", "\u062f\u0628\u064a", "\u0926\u093f\u0932\u094d\u0932\u0940",
                           "\u0e20\u0e39\u0e40\u0e01\u0e47\u0e15"}) {
    for (const std::string opening : {"we", "We"}) {
      EXPECT_EQ(typed_spans(latin, opening + " moved here from " + word + " last year."),
                std::vector<std::string>{std::string("PERSON:") + word})
          << word;
    }
  }
  for (const char* word : {"\u201c\u6771\u4eac", "2024\u5e74", "Q\u65b9\u6cd5"}) {
    EXPECT_EQ(values_of(latin, std::string("We moved here from ") + word + " last year."), std::vector<std::string>{})
        << word;
  }
  auto loaded = PiiTagger::parse(latin.serialize(), "t.bin");
  ASSERT_TRUE(loaded.is_ok());
  EXPECT_EQ(typed_spans(*loaded, "we moved here from \u6771\u4eac last year."),
            std::vector<std::string>{"PERSON:\u6771\u4eac"});
  // With such a value in the rows ("大阪"), the decoder reads such words,
  // as the rows taught it.
  train[0].text = "we moved here from \u5927\u962a last year.";
  train[0].spans = {{PiiType::kLocation, 19, 25}};
  const PiiTagger seen = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(seen, "we moved here from \u6771\u4eac last year."),
            std::vector<std::string>{"LOCATION:\u6771\u4eac"});
  auto seen_loaded = PiiTagger::parse(seen.serialize(), "t.bin");
  ASSERT_TRUE(seen_loaded.is_ok());
  EXPECT_EQ(typed_spans(*seen_loaded, "we moved here from \u6771\u4eac last year."),
            std::vector<std::string>{"LOCATION:\u6771\u4eac"});
}

// A tagger whose rows had no value in a script without capitals finds a
// name of such a script inside a sentence in Latin script, with capitals
// or without, of one to four words one space apart; not a foreign word
// that the sentence presents, nor such words in code's comments or in text
// largely written in such a script.
TEST(PiiTaggerTest, NamesInScriptsWithoutCapitalsInsideTextInLatinScript) {
  const PiiTagger tagger = PiiTagger::train(reports_sent_to_people(), options(5, 1u << 12, 1));
  // The names with a byte >= 0x80: this small tagger, without word lists,
  // takes some capitalised words for names too ("The Japanese").
  auto persons = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const std::string& v : values_of(tagger, text, PiiType::kPerson)) {
      if (std::any_of(v.begin(), v.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) out.push_back(v);
    }
    return out;
  };
  using V = std::vector<std::string>;
  // Chinese, Japanese (with an honorific's kana), Korean, Arabic, Persian
  // (a zero-width non-joiner inside), Hebrew, Hindi, Thai.
  EXPECT_EQ(persons("Please forward this to \u738b\u5c0f\u660e before Monday."), V{"\u738b\u5c0f\u660e"});
  EXPECT_EQ(persons("remind \u9234\u6728 \u4e00\u90ce about the dentist on friday."), V{"\u9234\u6728 \u4e00\u90ce"});
  EXPECT_EQ(persons("Our new hire, \uae40\ubbfc\uc900, starts Monday."), V{"\uae40\ubbfc\uc900"});
  EXPECT_EQ(persons("The contract was signed by \u0623\u062d\u0645\u062f \u0627\u0644\u062e\u0637\u064a\u0628 yesterday."),
            V{"\u0623\u062d\u0645\u062f \u0627\u0644\u062e\u0637\u064a\u0628"});
  EXPECT_EQ(persons("The tenant, \u0645\u06cc\u200c\u0646\u0627, has not paid."), V{"\u0645\u06cc\u200c\u0646\u0627"});
  EXPECT_EQ(persons("Patient name: \u05de\u05e9\u05d4 \u05db\u05d4\u05df"), V{"\u05de\u05e9\u05d4 \u05db\u05d4\u05df"});
  EXPECT_EQ(persons("We interviewed \u0930\u093e\u0939\u0941\u0932 for the role."), V{"\u0930\u093e\u0939\u0941\u0932"});
  EXPECT_EQ(persons("Book a table for \u0e2a\u0e21\u0e0a\u0e32\u0e22 at seven."), V{"\u0e2a\u0e21\u0e0a\u0e32\u0e22"});
  // Four words at most; one letter alone is no name ("水").
  EXPECT_EQ(persons("I met \u0645\u0635\u0644\u062d \u0628\u0646 \u0639\u0628\u062f \u0627\u0644\u0633\u0644\u0627\u0645 today."),
            V{"\u0645\u0635\u0644\u062d \u0628\u0646 \u0639\u0628\u062f \u0627\u0644\u0633\u0644\u0627\u0645"});
  EXPECT_EQ(persons("I met \u0645\u0635\u0644\u062d \u0628\u0646 \u0639\u0628\u062f \u0627\u0644\u0633\u0644\u0627\u0645 \u0628\u0646 today."), V{});
  EXPECT_EQ(persons("I wrote \u6c34 on the board."), V{});
  // A foreign word the sentence presents: after a word of language ("the
  // word", "the meaning of"), a language in use, "... means", quotes.
  EXPECT_EQ(persons("What does \u4f60\u597d mean?"), V{});
  EXPECT_EQ(persons("Look up the word \u5173\u7cfb for me."), V{});
  EXPECT_EQ(persons("The Japanese \u5173\u7cfb is hard."), V{});
  EXPECT_EQ(persons("What is the meaning of \u05e9\u05dc\u05d5\u05dd?"), V{});
  EXPECT_EQ(persons("it is \u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 in Thai."), V{});
  EXPECT_EQ(persons("He wrote \"\u4f60\u597d\" on the card."), V{});
  // Comments in code, and text with other words in such a script.
  EXPECT_EQ(persons("result = update(values)  # \u66f4\u65b0\u65b9\u5411"), V{});
  EXPECT_EQ(persons("push {r4, lr} // \ucee8\ud14d\uc2a4\ud2b8 \uc800\uc7a5"), V{});
  // Nor without a sentence in Latin script around it.
  EXPECT_EQ(persons("Ask \u738b\u5c0f\u660e"), V{});
  EXPECT_EQ(persons("\u8bf7\u628a\u8fd9\u4e2a\u7ffb\u8bd1\u6210English\u3002 Send it to \u738b\u5c0f\u660e today."), V{});
  // Names one after another are each a name.
  EXPECT_EQ(persons("Send \u674e\u5a1c, \u738b\u4f1f, \u5f20\u654f and \u5218\u6d0b the report today."),
            (V{"\u674e\u5a1c", "\u738b\u4f1f", "\u5f20\u654f", "\u5218\u6d0b"}));
}

// In text with capitals, a place the decoder found of two or three
// capitalised words that ends in a word a last-name list knows, and no list
// of places, is a name: given names that are words of places' names ("Anh
// Tú Nguyễn"). Not where a list of places knows the whole ("Fort Worth"),
// nor after an everyday word ("Den Haag").
TEST(PiiTaggerTest, APlaceEndingInASurnameIsAName) {
  std::vector<PiiExample> train;
  const std::vector<std::string> places = {"Lisbon",     "Tampere",  "Cork",      "Graz",          "Lake Tahoe",
                                           "Santa Cruz", "New Ross", "Bad Ischl", "Vila do Conde", "Bergen op Zoom"};
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& place = places[k % places.size()];
    PiiExample e;
    e.text = "We moved here from " + place + " last year.";
    e.spans = {{PiiType::kLocation, 19, static_cast<uint32_t>(19 + place.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"city", {"Lisbon", "Tampere", "Cork", "Graz", "Fort Worth", "Santa Cruz", "New Ross", "Den Helder"}},
                  {"common_word", {"we", "moved", "here", "from", "last", "year", "den", "new", "bad", "lake"}},
                  {"first_name", {"Anna"}},
                  {"last_name", {"Nguyen", "Worth", "Haag", "Ross", "Cruz", "Tahoe", "Tran", "Healy", "Cork"}},
                  {"census_surname", {"Okonkwo"}},
                  {"given_name", {"Anneliese"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& place) { return typed_spans(tagger, "We moved here from " + place + " last year."); };
  ASSERT_EQ(found("Graz"), std::vector<std::string>{"LOCATION:Graz"});
  EXPECT_EQ(found("Anh Tu Nguyen"), std::vector<std::string>{"PERSON:Anh Tu Nguyen"});
  EXPECT_EQ(found("Hai Nguyen"), std::vector<std::string>{"PERSON:Hai Nguyen"});
  EXPECT_EQ(found("Anh Tu Minh"), std::vector<std::string>{"LOCATION:Anh Tu Minh"});
  EXPECT_EQ(found("Fort Worth"), std::vector<std::string>{"LOCATION:Fort Worth"});
  EXPECT_EQ(found("Den Haag"), std::vector<std::string>{"LOCATION:Den Haag"});
  EXPECT_EQ(found("Santa Cruz"), std::vector<std::string>{"LOCATION:Santa Cruz"});
  // A double-barrelled surname by its first part; a Gaelic one by its
  // shape, which no list needs to know.
  EXPECT_EQ(found("Hai Nguyen-Tran"), std::vector<std::string>{"PERSON:Hai Nguyen-Tran"});
  EXPECT_EQ(found("Siobhan O'Connor"), std::vector<std::string>{"PERSON:Siobhan O'Connor"});
  EXPECT_EQ(found("Siobhan O'Connor-Healy"), std::vector<std::string>{"PERSON:Siobhan O'Connor-Healy"});
  EXPECT_EQ(found("Aoife McAllister"), std::vector<std::string>{"PERSON:Aoife McAllister"});
  // After a listed first name, a surname that is a town's too, and one of
  // the census's; not after another word.
  EXPECT_EQ(found("Anna Cork"), std::vector<std::string>{"PERSON:Anna Cork"});
  EXPECT_EQ(found("Anna Okonkwo"), std::vector<std::string>{"PERSON:Anna Okonkwo"});
  EXPECT_EQ(found("Tu Cork"), std::vector<std::string>{"LOCATION:Tu Cork"});
  EXPECT_EQ(found("Tu Okonkwo"), std::vector<std::string>{"LOCATION:Tu Okonkwo"});
  // After a listed first name, a surname of four letters or more that no
  // list knows, or a particle and a surname; not in a place's stead (here
  // after "in").
  EXPECT_EQ(found("Anna Zorvathy"), std::vector<std::string>{"PERSON:Anna Zorvathy"});
  EXPECT_EQ(found("Anna de Zorvathy"), std::vector<std::string>{"PERSON:Anna de Zorvathy"});
  EXPECT_EQ(found("Anna van Okonkwo"), std::vector<std::string>{"PERSON:Anna van Okonkwo"});
  EXPECT_EQ(found("Anna Zor"), std::vector<std::string>{"LOCATION:Anna Zor"});
  EXPECT_EQ(found("Tu Zorvathy"), std::vector<std::string>{"LOCATION:Tu Zorvathy"});
  EXPECT_EQ(typed_spans(tagger, "We moved here in Anna Zorvathy last year."),
            std::vector<std::string>{"LOCATION:Anna Zorvathy"});
  EXPECT_EQ(typed_spans(tagger, "We moved here in Anna de Okonkwo last year."),
            std::vector<std::string>{"LOCATION:Anna de Okonkwo"});
  // A place of one word that only a given-name list knows; not where places
  // stand: after "in", "of" or "the", after a place.
  EXPECT_EQ(found("Anneliese"), std::vector<std::string>{"PERSON:Anneliese"});
  EXPECT_EQ(typed_spans(tagger, "We moved here in Anneliese last year."),
            std::vector<std::string>{"LOCATION:Anneliese"});
  EXPECT_EQ(typed_spans(tagger, "We moved here from the Anneliese last year."),
            std::vector<std::string>{"LOCATION:Anneliese"});
  EXPECT_EQ(found("Graz, Anneliese"), (std::vector<std::string>{"LOCATION:Graz", "LOCATION:Anneliese"}));
  // In text without capitals, after a first name a list knows alone (the
  // decoder read the prompts' "juan de sepulveda", "frederick douglass"
  // as places).
  for (PiiExample& e : train) e.text = in_small_letters(e.text);
  const PiiTagger caseless = PiiTagger::train(train, o);
  auto found_in_small_letters = [&](const std::string& place) {
    return typed_spans(caseless, "we moved here from " + place + " last year.");
  };
  ASSERT_EQ(found_in_small_letters("graz"), std::vector<std::string>{"LOCATION:graz"});
  ASSERT_EQ(found_in_small_letters("tu okonkwo"), std::vector<std::string>{"LOCATION:tu okonkwo"});
  EXPECT_EQ(found_in_small_letters("anna okonkwo"), std::vector<std::string>{"PERSON:anna okonkwo"});
  EXPECT_EQ(found_in_small_letters("anna cork"), std::vector<std::string>{"PERSON:anna cork"});
  EXPECT_EQ(found_in_small_letters("santa cruz"), std::vector<std::string>{"LOCATION:santa cruz"});
}

// Each item of a list of names is a name: where two in three lines of a
// run that open alike are names the passes found, the others become names
// too ("noble" is an everyday word, "dallas" a place), a table's age after
// a tab too, and so are an array's strings; not a list whose
// items are mostly no names, nor an item with a digit, nor lines of
// another shape or opening.
TEST(PiiTaggerTest, TheItemsOfAListOfNamesAreNames) {
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst},
                  {"last_name", kLast},
                  {"city", {"Dallas"}},
                  {"common_word", {"please", "send", "the", "report", "to", "today", "noble", "buy", "milk", "call",
                                   "mom", "walk", "dog"}}};
  const PiiTagger tagger = PiiTagger::train(reports_sent_to_people(), o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  const V all = {"anna novak", "bruno ferreira", "noble okafor", "dallas brandt", "elena moreau", "farid takeda"};
  EXPECT_EQ(names("- anna novak\n- bruno ferreira\n- noble okafor\n- dallas brandt\n- elena moreau\n- farid takeda"), all);
  EXPECT_EQ(names("1. anna novak\n2. bruno ferreira\n3. noble okafor\n4. dallas brandt\n5. elena moreau\n"
                  "6. farid takeda"),
            all);
  EXPECT_EQ(names("anna novak\nbruno ferreira\nnoble okafor\ndallas brandt\nelena moreau\nfarid takeda"), all);
  // An array's strings, on one line.
  EXPECT_EQ(names("[\"anna novak\", \"bruno ferreira\", \"noble okafor\", \"dallas brandt\", \"elena moreau\", "
                  "\"farid takeda\"]"),
            all);
  EXPECT_EQ(names("x = ['anna novak', 'bruno ferreira', 'noble okafor', 'dallas brandt', 'elena moreau', 'farid takeda']"),
            all);
  // A table's rows, an age after a tab.
  EXPECT_EQ(names("anna novak\t34\nbruno ferreira\t41\nnoble okafor\t29\ndallas brandt\t52\nelena moreau\t38\n"
                  "farid takeda\t45"),
            all);
  // Mostly no names: the list stays as it was.
  for (const std::string& v : names("- buy milk\n- call mom\n- walk the dog\n- noble okafor\n- anna novak")) {
    EXPECT_NE(v, "noble okafor");
  }
  // An item with a digit; an item with another opening.
  for (const std::string& v :
       names("- anna novak\n- bruno ferreira\n- noble okafor 3\n* dallas brandt\n- elena moreau\n- farid takeda")) {
    EXPECT_TRUE(v != "noble okafor 3" && v != "dallas brandt") << v;
  }
}

// A name that its surname's initial and stop follow takes them in ("Review
// by Gwendolyn P.:"), not where a word that may be a surname follows (a
// middle initial's, join_initials()'s).
TEST(PiiTaggerTest, InitialsAfterANameAreTheNames) {
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna", "Bruno", "Gwendolyn", "Sarah"}},
                  {"street_suffix", {"Road"}},
                  {"common_word", {"please", "send", "the", "report", "parcel", "to", "today", "review", "by", "she",
                                   "said", "great", "plan", "then"}}};
  const PiiTagger tagger = PiiTagger::train(reports_sent_to_people(), o);
  using V = std::vector<std::string>;
  ASSERT_EQ(typed_spans(tagger, "Please send the report to Anna Novak today."), V{"PERSON:Anna Novak"});
  EXPECT_EQ(typed_spans(tagger, "Please send the report to Gwendolyn P.: great"), V{"PERSON:Gwendolyn P."});
  EXPECT_EQ(typed_spans(tagger, "Please send the report to Gwendolyn P."), V{"PERSON:Gwendolyn P."});
  EXPECT_EQ(typed_spans(tagger, "Please send the report to Sarah K. She said yes."), V{"PERSON:Sarah K."});
  EXPECT_EQ(typed_spans(tagger, "Please send the report to Anna L. Novak today."), V{"PERSON:Anna L. Novak"});
}

// Names written with initials are one name: a first name, its initials
// and the surname; initials and a surname; with the surname's particles
// and hyphens. Not an answer's letter among lines of choices, a letter
// before a pronoun that opens the next sentence, a compass point before a
// place, a firm named after a person, nor the "v." of a court case in text
// without capitals.
TEST(PiiTaggerTest, NamesWithInitialsAreOneName) {
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"John", "Hannah", "Anna", "Gideon"}},
                  {"last_name", {"Kennedy", "Smith", "Kirlin", "Hackett", "Wilson", "Velde", "He", "Wainwright"}},
                  {"common_word", {"please", "send", "the", "report", "to", "today", "he", "has", "farm", "goats",
                                   "who", "wrote", "it", "reached", "first", "in", "court", "ruled", "doe", "baker",
                                   "an"}},
                  {"company_suffix", {"Company"}},
                  {"census_surname", {"Doe", "Baker"}}};
  const PiiTagger tagger = PiiTagger::train(reports_sent_to_people(), o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(names("Please send the report to Anna Smith today."), V{"Anna Smith"});
  EXPECT_EQ(names("Please send the report to John F. Kennedy today."), V{"John F. Kennedy"});
  EXPECT_EQ(names("Please send the report to A. J. Ayer today."), V{"A. J. Ayer"});
  EXPECT_EQ(names("Please send the report to J. Smith today."), V{"J. Smith"});
  EXPECT_EQ(names("Please send the report to N. Hackett-Lind today."), V{"N. Hackett-Lind"});
  // Initials glued together, as many write them ("J.R. Smith", "George
  // H.W. Bush"); not an abbreviation's letters ("U.S. Wilson" stays the
  // surname alone).
  EXPECT_EQ(names("Please send the report to J.R. Smith today."), V{"J.R. Smith"});
  EXPECT_EQ(names("Please send the report to J.R.R. Kirlin today."), V{"J.R.R. Kirlin"});
  EXPECT_EQ(names("Please send the report to John H.W. Kennedy today."), V{"John H.W. Kennedy"});
  EXPECT_EQ(names("Please send the report to U.S. Wilson today."), V{"Wilson"});
  EXPECT_EQ(names("Please send the report to Anna M. van der Velde today."), V{"Anna M. van der Velde"});
  EXPECT_EQ(names("please send the report to hannah i. kirlin today."), V{"hannah i. kirlin"});
  // Without capitals, an initial before a surname the tagging took for a
  // name, after a comma, a colon, "by" or "and" on its line; not an
  // answer's letter that opens a line.
  EXPECT_EQ(names("present: j. kirlin, a. smith and n. wilson."), (V{"j. kirlin", "a. smith", "n. wilson"}));
  EXPECT_EQ(names("the authors:\na. smith,\nb. kirlin"), (V{"smith", "kirlin"}));
  // After a listed first name, an initial and any capitalised word that is
  // no everyday word, as no last-name list holds every surname.
  // Not names of initials.
  for (const std::string& v : names("Who wrote it?\nA. Smith\nB. Kennedy\nC. Wilson\nD. Kirlin")) {
    EXPECT_NE(v[1], '.') << v;
  }
  // A letter after a colon opens a list of names with initials, not an
  // answer, where another initial follows the surname (maybe a word in
  // brackets) and a comma.
  EXPECT_EQ(names("Present: A. Smith, J. Kennedy."), (V{"A. Smith", "J. Kennedy"}));
  EXPECT_EQ(names("Present: A. Smith (chair), J. Kennedy."), (V{"A. Smith", "J. Kennedy"}));
  for (const std::string& v : names("Who wrote it? A. Smith")) EXPECT_EQ(v.find("A."), std::string::npos) << v;
  for (const std::string& v : names("The Farm Y. He has goats.")) EXPECT_EQ(v.find("Y."), std::string::npos) << v;
  EXPECT_EQ(names("It reached N. America first."), V{});
  for (const std::string& v : names("Please send the report to H. J. Wilson & Company today.")) {
    EXPECT_EQ(v.find("H. J."), std::string::npos) << v;
  }
  // (In text without capitals each party is a name the lists hold alone.)
  EXPECT_EQ(names("in gideon v. wainwright the court ruled."), (V{"gideon", "wainwright"}));
  // After a listed first name, an initial and a capitalised word that is no
  // everyday word, where the decoder took none of them (here it learned
  // that such words opening a text are none), though no last-name list
  // holds the surname ("Harry S. Truman").
  std::vector<PiiExample> rows = reports_sent_to_people();
  for (size_t k = 0; k < 100; ++k) {
    const std::string words[] = {"Section", "Table", "John", "Anna"};
    rows.push_back({words[k % 4] + " " + std::string(1, static_cast<char>('A' + k % 3)) + ". Index follows.", {}});
  }
  const PiiTagger unnamed_tagger = PiiTagger::train(rows, o);
  EXPECT_EQ(values_of(unnamed_tagger, "Hannah S. Truax follows.", PiiType::kPerson), V{"Hannah S. Truax"});
  EXPECT_EQ(values_of(unnamed_tagger, "Section S. Truax follows.", PiiType::kPerson), V{});
  // An initial inside a sentence before a capitalised word that no list
  // knows at all, which the decoder (here taught that such words are none)
  // left out, a bracket or quote mark glued before it too; opening the text
  // or a line where the sentence goes on in small letters. Not after a noun
  // the letter names the instance of, nor opening a line of a text that
  // lists answers.
  EXPECT_EQ(values_of(unnamed_tagger, "Please send the report to R. Okafor today.", PiiType::kPerson), V{"R. Okafor"});
  EXPECT_EQ(values_of(unnamed_tagger, "A male patient (R. Okafor) follows.", PiiType::kPerson), V{"R. Okafor"});
  EXPECT_EQ(values_of(unnamed_tagger, "R. Okafor was admitted.", PiiType::kPerson), V{"R. Okafor"});
  EXPECT_EQ(values_of(unnamed_tagger, "We follow.\nB. Truax follows.", PiiType::kPerson), V{"B. Truax"});
  EXPECT_EQ(values_of(unnamed_tagger, "Please send the report to group B. Truax follows.", PiiType::kPerson), V{});
  EXPECT_EQ(values_of(unnamed_tagger, "A. Truax follows.\nB. Index follows.", PiiType::kPerson), V{});
  // So is a surname of the census's that is an everyday word too, after a
  // letter that follows a word in small letters, not an article.
  EXPECT_EQ(values_of(unnamed_tagger, "Please send the report to J. Doe today.", PiiType::kPerson), V{"J. Doe"});
  EXPECT_EQ(values_of(unnamed_tagger, "Please send the report to R. Baker today.", PiiType::kPerson), V{"R. Baker"});
  EXPECT_EQ(values_of(unnamed_tagger, "Please send the report to an A. Baker today.", PiiType::kPerson), V{});
  EXPECT_EQ(values_of(unnamed_tagger, "Please send the report to group B. Baker today.", PiiType::kPerson), V{});
  // A text of 50,000 such names (1.4 MB) keeps them all: the names are
  // applied at the end, which keeps the pass linear.
  std::string many;
  for (int k = 0; k < 25000; ++k) many += "Please send the report to J. Smith and A. J. Ayer today. ";
  const V found = names(many);
  EXPECT_EQ(std::count(found.begin(), found.end(), "J. Smith"), 25000);
  EXPECT_EQ(std::count(found.begin(), found.end(), "A. J. Ayer"), 25000);
}

// A letter that the decoder took for a name by itself, or with the title
// before it, is the initial of the surname after its stop ("Mr. K" of "Mr.
// K. Smith", from rows that name people by a letter); and a letter
// after a label of a person's field that opens its line ("Signed:",
// "From:") is an initial, not an answer's letter as after "Answer:".
TEST(PiiTaggerTest, ALetterAfterATitleOrAPersonsLabelIsAnInitial) {
  std::vector<PiiExample> train = reports_sent_to_people();
  for (size_t k = 0; k < 100; ++k) {
    const std::string who = std::string("Mr. ") + static_cast<char>('A' + k % 20);
    const std::string before = "I spoke with ";
    const auto at = static_cast<uint32_t>(before.size());
    train.push_back({before + who + " about the case.", {{PiiType::kPerson, at, static_cast<uint32_t>(at + who.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"John", "Anna"}},
                  {"last_name", {"Vasquez", "Smith"}},
                  {"name_prefix", {"Mr.", "Mrs.", "Ms.", "Dr."}},
                  {"common_word", {"please", "send", "the", "report", "to", "today", "i", "spoke", "with", "about",
                                   "case", "signed", "answer", "from", "dear", "thanks", "best", "regards", "cc"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  // (The title is a name of its own, as the dev rows label it.)
  ASSERT_EQ(names("I spoke with Mr. K about the case."), (V{"Mr.", "K"}));
  EXPECT_EQ(names("Please send the report to Mr. K. Smith today."), (V{"Mr.", "K. Smith"}));
  EXPECT_EQ(names("I spoke with Mr. K. Vasquez today."), (V{"Mr.", "K. Vasquez"}));
  EXPECT_EQ(names("Signed: M. Vasquez"), V{"M. Vasquez"});
  EXPECT_EQ(names("From: R. Okafor"), V{"R. Okafor"});
  // (After a label a surname the lists know only as an everyday word.)
  EXPECT_EQ(names("Patient: J. Answer, seen today"), V{"J. Answer"});
  EXPECT_EQ(names("Signed: R. Report"), V{"R. Report"});
  // So after a greeting, a closing or "cc", or on the line after a closing.
  EXPECT_EQ(names("Dear R. Report, please send the report today."), V{"R. Report"});
  EXPECT_EQ(names("Thanks, R. Report"), V{"R. Report"});
  EXPECT_EQ(names("Please send the report today.\ncc R. Report"), V{"R. Report"});
  EXPECT_EQ(names("Please send the report today.\nBest regards,\nR. Report"), V{"R. Report"});
  for (const std::string& v : names("Who wrote it? Answer: M. Vasquez")) EXPECT_NE(v.substr(0, 2), "M.") << v;
  // (A label's word inside a sentence is a question's: "discovered by:".)
  for (const std::string& v : names("It was first found by: M. Vasquez")) EXPECT_NE(v.substr(0, 2), "M.") << v;
}

// Text in capitals throughout has no case to go by: it is read as the same
// text in small letters (at the same offsets), not as text whose every
// word is capitalised.
TEST(PiiTaggerTest, TextInCapitalsThroughoutIsReadAsTextInSmallLetters) {
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna", "John", "Lena"}},
                  {"last_name", {"Smith", "Kirlin"}},
                  {"common_word", {"please", "send", "the", "report", "to", "today", "and", "copy", "boss"}}};
  const PiiTagger tagger = PiiTagger::train(reports_sent_to_people(), o);
  for (const std::string text : {"PLEASE SEND THE REPORT TO ANNA SMITH TODAY.",
                                 "PLEASE SEND THE REPORT TO JOHN AND COPY THE BOSS TODAY.",
                                 "SEND THE REPORT TO LENA KIRLIN, 12 ELM STREET."}) {
    std::vector<PiiSpan> shouted, small;
    tagger.tag(text, shouted);
    tagger.tag(small_letters(text), small);
    EXPECT_EQ(shouted, small) << text;
    EXPECT_FALSE(shouted.empty()) << text;
  }
}

// Text whose only capitals are letters alone or inside words ("I", "39C")
// is read as text without capitals, where a name in small letters is found:
// read as text with capitals, its unmarked words were passed over.
TEST(PiiTaggerTest, TextWithoutCapitalisedWordsIsReadAsTextInSmallLetters) {
  std::vector<PiiExample> rows = reports_sent_to_people();
  for (PiiExample& row : rows) row.text = in_small_letters(row.text);
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"given_name", {"Anastasiya"}},
                  {"census_surname", {"Fairweather"}}, {"street_suffix", {"Court"}},
                  {"common_word", {"please", "send", "the", "report", "to", "today", "i", "think", "it", "is"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  const std::string name = in_small_letters(kFirst[2] + " " + kLast[4]);
  ASSERT_EQ(names("please send the report to " + name + " today."), std::vector<std::string>{name});
  EXPECT_EQ(names("please send the report to " + name + " today, I think. it is 39C."), std::vector<std::string>{name});
  EXPECT_EQ(names("I think: please send the report to " + name + " today."), std::vector<std::string>{name});
  // So is text whose capitalised words only open its sentences, where the
  // writer speaks of their own life: a phone's keyboard capitalised it.
  EXPECT_EQ(names("Please send my report to " + name + " today. It is 39C."), std::vector<std::string>{name});
  // Without the first person, only names whose every word a name list
  // knows and no everyday list does; not in a quiz with answers' letters,
  // after an article or a determiner, nor glued to a hyphen.
  EXPECT_EQ(names("Please send the report to " + name + " today. It is 39C."), std::vector<std::string>{name});
  EXPECT_EQ(names("Please send the report to zorvath today. It is 39C."), std::vector<std::string>{});
  // (After its first word, a surname no list knows.)
  const std::string first_name = in_small_letters(kFirst[2]);
  EXPECT_EQ(names("Please send the report to " + first_name + " zorvath today. It is 39C."),
            std::vector<std::string>{first_name + " zorvath"});
  // A name the first reading found, capitalised after a title's stop, takes
  // its surname in small letters; not an everyday word nor chat's shorthand.
  const std::string last_name = in_small_letters(kLast[4]);
  EXPECT_EQ(names("Please send my report to dr. " + kFirst[2] + " " + last_name + " today. It is 39C."),
            std::vector<std::string>{kFirst[2] + " " + last_name});
  EXPECT_EQ(names("Please send my report to dr. " + kFirst[2] + " zorvath. It is 39C."),
            std::vector<std::string>{kFirst[2] + " zorvath"});
  EXPECT_EQ(names("Please send the report to dr. " + kFirst[2] + " asap. It is 39C."), std::vector<std::string>{kFirst[2]});
  // (Without the first person, where no other word in small letters is a
  // listed name, the text is read again for the surname alone.)
  EXPECT_EQ(names("Please send the report to dr. " + kFirst[2] + " zorvath. It is 39C."),
            std::vector<std::string>{kFirst[2] + " zorvath"});
  // And a house number, words and a street's suffix in small letters.
  EXPECT_EQ(values_of(tagger, "Please send the report to " + name + " at 9 zorvath court today. It is 39C.",
                      PiiType::kStreetAddress),
            std::vector<std::string>{"9 zorvath court"});
  // (A given name alone first; a census surname after it.)
  EXPECT_EQ(names("Please send the report to anastasiya today. It is 39C."), std::vector<std::string>{"anastasiya"});
  EXPECT_EQ(names("Please send the report to " + first_name + " fairweather today. It is 39C."),
            std::vector<std::string>{first_name + " fairweather"});
  EXPECT_EQ(names("Please send the report to " + name + " today.\nA. It is 39C.\nB. It is not."),
            std::vector<std::string>{});
  EXPECT_EQ(names("Please send the " + first_name + " report today. It is 39C."), std::vector<std::string>{});
  EXPECT_EQ(names("Please send the report to " + first_name + "-like people today. It is 39C."),
            std::vector<std::string>{});
}

// A place that the decoder opens at a rank or office before a first name
// and its initial ("President John F", from rows where capitalised words
// after "from" are a place) is the name after the rank, with its surname.
TEST(PiiTaggerTest, ARankBeforeANameWithAnInitialIsNoPartOfIt) {
  const std::vector<std::string> places = {"New Castle", "Port Royal", "Green Bay", "Palm Springs"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    const std::string before = "The letter came from ";
    const std::string& place = places[k % places.size()];
    const auto at = static_cast<uint32_t>(before.size());
    train.push_back({before + place + " yesterday.", {{PiiType::kLocation, at, static_cast<uint32_t>(at + place.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"John"}},
                  {"last_name", {"Kennedy"}},
                  {"common_word", {"the", "letter", "came", "from", "yesterday", "president"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  const std::string text = "The letter came from President John F. Kennedy yesterday.";
  EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"PERSON:John F. Kennedy"});
}

// Rows that label "wants" after a name an organisation and the "30" of
// "30%" an address teach the tagger to open spans there; in text with
// capitals neither opens one: a lower-case word that may not continue the
// name opens nothing, as outside a span, and a house number comes before
// its street, not before a mark. Lower-case text is scored throughout,
// though "30%" stays no address there either (a percentage:
// drop_lone_numbers()).
TEST(PiiTaggerTest, WordsThatEndANameAndNumbersBeforeAMarkOpenNoSpan) {
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 300; ++k) {
    PiiExample e;
    const std::string who = kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()];
    e.text = who + " wants 30% of it.";
    const auto at = static_cast<uint32_t>(who.size());
    e.spans = {{PiiType::kPerson, 0, at},
               {PiiType::kOrganization, at + 1, at + 6},
               {PiiType::kStreetAddress, at + 7, at + 9}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath wants 30% of it."), std::vector<std::string>{"PERSON:Wanda Horvath"});
  const std::vector<std::string> lower = values_of(tagger, "wanda horvath wants 30% of it.");
  EXPECT_NE(std::find(lower.begin(), lower.end(), "wants"), lower.end());
  EXPECT_EQ(std::find(lower.begin(), lower.end(), "30"), lower.end());
}

// Only the marks that continued a labelled span in training continue one:
// "Graz-Brno" as the rows wrote it, but a place does not run on over "/" or
// ";", which no row had inside a span, nor over a hyphen or an en dash with
// a blank on each side (a line's fields apart). The saved tagger keeps
// them.
TEST(PiiTaggerTest, OnlyMarksSeenInsideSpansContinueThem) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string place = kCities[k % kCities.size()] + "-" + kCities[(k + 3) % kCities.size()];
    PiiExample e;
    e.text = "we moved here from " + place + " last year.";
    e.spans = {{PiiType::kLocation, 19, static_cast<uint32_t>(19 + place.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  auto places = [](const PiiTagger& t, const std::string& text) { return values_of(t, text, PiiType::kLocation); };
  EXPECT_EQ(places(tagger, "we moved here from porto-lisbon last year."), std::vector<std::string>{"porto-lisbon"});
  const std::vector<std::string> slash = places(tagger, "we moved here from porto/lisbon last year.");
  ASSERT_FALSE(slash.empty());
  EXPECT_EQ(slash[0], "porto");
  const std::vector<std::string> semicolon = places(tagger, "we moved here from porto;lisbon last year.");
  ASSERT_FALSE(semicolon.empty());
  EXPECT_EQ(semicolon[0], "porto");
  const std::vector<std::string> apart = places(tagger, "we moved here from porto - lisbon last year.");
  ASSERT_FALSE(apart.empty());
  EXPECT_EQ(apart[0], "porto");
  auto loaded = PiiTagger::parse(tagger.serialize(), "t.bin");
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
  EXPECT_EQ(places(*loaded, "we moved here from porto-lisbon last year."), std::vector<std::string>{"porto-lisbon"});
  EXPECT_EQ(places(*loaded, "we moved here from porto/lisbon last year."), slash);
}

// A tagger that learned job titles from "<Title> wants the report" drops a
// title that does not end in a word for who does something ("Takuda novel").
TEST(PiiTaggerTest, AJobTitleEndsInARole) {
  const std::vector<std::string> titles = {"Benefits manager", "Civil drafter", "Booth cashier", "Outside order clerk",
                                           "Maxillofacial surgeon", "Science technician"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 300; ++k) {
    PiiExample e;
    const std::string& title = titles[k % titles.size()];
    e.text = "Our " + title + " wants the report by " + kFirst[k % kFirst.size()] + ".";
    e.spans = {{PiiType::kTitle, 4, static_cast<uint32_t>(4 + title.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  auto titles_in = [&](const std::string& text) { return values_of(tagger, text, PiiType::kTitle); };
  EXPECT_EQ(titles_in("Our Payroll clerk wants the report by noon."), std::vector<std::string>{"Payroll clerk"});
  EXPECT_EQ(titles_in("Our Takuda novel wants the report by noon."), std::vector<std::string>{});
}

// Rows where a name runs on into a small word teach the tagger to follow it;
// in text with capitals a name still ends before "horvath" or "wants".
TEST(PiiTaggerTest, NamesInTextWithCapitalsDoNotRunIntoSmallWords) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (PiiExample& e : train) {
    for (PiiSpan& s : e.spans) {
      if (s.type == PiiType::kPerson) {
        const size_t space = e.text.find(' ', s.begin);
        if (space != std::string::npos && space + 1 < s.end) e.text[space + 1] = static_cast<char>(std::tolower(e.text[space + 1]));
      }
    }
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  std::vector<PiiSpan> found;
  const std::string text = "Please call Wanda horvath tomorrow.";
  tagger.tag(text, found);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(text.substr(found[0].begin, found[0].end - found[0].begin), "Wanda");
}

// In text with capitals a word in small letters of Latin-1, Greek or
// Cyrillic is a small word as one in a-z is: it opens no span ("call
// ванда"), and a name does not run into it ("Wanda завтра утром"). (Which
// type this small tagger gives the name is not the point.)
TEST(PiiTaggerTest, SmallWordsOfOtherScriptsOpenAndContinueNoName) {
  // Half the rows in small letters, where a name's second word is one: the
  // tagger learns that a word of small letters may continue a name.
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < train.size(); k += 2) {
    train[k].text = in_small_letters(train[k].text);
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  // "Please call Wanda tomorrow morning, we will meet in town."
  const std::string text =
      "Please call Wanda \xd0\xb7\xd0\xb0\xd0\xb2\xd1\x82\xd1\x80\xd0\xb0 \xd1\x83\xd1\x82\xd1\x80\xd0\xbe\xd0\xbc, "
      "\xd0\xbc\xd1\x8b \xd0\xb2\xd1\x81\xd1\x82\xd1\x80\xd0\xb5\xd1\x82\xd0\xb8\xd0\xbc\xd1\x81\xd1\x8f "
      "\xd0\xb2 \xd0\xb3\xd0\xbe\xd1\x80\xd0\xbe\xd0\xb4\xd0\xb5.";
  EXPECT_EQ(values_of(tagger, text), (std::vector<std::string>{"Wanda"}));
  // Nor, in Greek or Cyrillic, into a small word of any length, as names
  // there hold none: "Wanda \u0432 \u0433\u043e\u0440\u043e\u0434\u0435" ("Wanda in town"),
  // "Wanda \u03ba\u03b1\u03b9" ("Wanda and").
  EXPECT_EQ(values_of(tagger, "Please call Wanda \xd0\xb2 \xd0\xb3\xd0\xbe\xd1\x80\xd0\xbe\xd0\xb4\xd0\xb5."),
            (std::vector<std::string>{"Wanda"}));
  EXPECT_EQ(values_of(tagger, "Please call Wanda \xce\xba\xce\xb1\xce\xb9 Greta."),
            (std::vector<std::string>{"Wanda", "Greta"}));
  // The same with Latin-1: "Greta \u00e9tait pr\u00e9venue".
  const std::string latin = "Please call Greta \xc3\xa9tait pr\xc3\xa9venue.";
  EXPECT_EQ(values_of(tagger, latin), (std::vector<std::string>{"Greta"}));
  // Where a name in small letters would stand ("please call wanda"): in
  // text with capitals, as "Please call wanda", nothing.
  EXPECT_EQ(values_of(tagger, "Please call \xd0\xb2\xd0\xb0\xd0\xbd\xd0\xb4\xd0\xb0 tomorrow."), (std::vector<std::string>{}));
  EXPECT_EQ(values_of(tagger, "Please call wanda tomorrow."), (std::vector<std::string>{}));
  // A capital of Cyrillic, Greek or Latin-1 makes text with capitals, as an
  // A-Z does: "please call ванда tomorrow. Да." is no lower-case text, where
  // every word would be scored ("ванда tomorrow" a name).
  const std::string wanda = "\xd0\xb2\xd0\xb0\xd0\xbd\xd0\xb4\xd0\xb0";
  for (const std::string& value : values_of(tagger, "please call " + wanda + " tomorrow. \xd0\x94\xd0\xb0.")) {
    EXPECT_EQ(value.find(wanda), std::string::npos) << value;
  }
}

// A capitalised Cyrillic word that opens a sentence before small Cyrillic
// words, and that no list knows, is the sentence's first word, not a name:
// no list of everyday words holds Russian ones. A listed name still is one.
TEST(PiiTaggerTest, AnUnlistedCyrillicWordOpeningASentenceOpensNoName) {
  // "<name> пошёл домой." ("<name> went home."), names no list holds: the
  // tagger learns that such a word opening the text is a name.
  const std::vector<std::string> names = {"\xd0\x9e\xd0\xbb\xd0\xb5\xd0\xb3", "\xd0\x91\xd0\xbe\xd1\x80\xd0\xb8\xd1\x81",
                                          "\xd0\x93\xd0\xbb\xd0\xb5\xd0\xb1", "\xd0\xa0\xd0\xbe\xd0\xbc\xd0\xb0\xd0\xbd"};
  const std::string went_home = " \xd0\xbf\xd0\xbe\xd1\x88\xd1\x91\xd0\xbb \xd0\xb4\xd0\xbe\xd0\xbc\xd0\xbe\xd0\xb9.";
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    const std::string& name = names[k % names.size()];
    train.push_back({name + went_home, {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  const std::string ivan = "\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd";  // "Иван"
  o.gazetteers = {{"first_name", {ivan}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(values_of(tagger, ivan + went_home), std::vector<std::string>{ivan});
  // "Дан список чисел." ("Given a list of numbers."), "Какая масса?"
  for (const std::string text : {"\xd0\x94\xd0\xb0\xd0\xbd \xd1\x81\xd0\xbf\xd0\xb8\xd1\x81\xd0\xbe\xd0\xba "
                                 "\xd1\x87\xd0\xb8\xd1\x81\xd0\xb5\xd0\xbb.",
                                 "ok then. \xd0\x9a\xd0\xb0\xd0\xba\xd0\xb0\xd1\x8f \xd0\xbc\xd0\xb0\xd1\x81\xd1\x81\xd0\xb0?"}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{}) << text;
  }
  // So does one after a mark that opens a clause: a comment's "#", a
  // bracket, a quote, a colon ("x = 1  # Дан список."), from a tagger that
  // learned names after such marks; not after a comma.
  const std::vector<std::string> befores = {"x = 1  # ", "see (", "print(\"", "note: ", "ok, "};
  std::vector<PiiExample> after_marks;
  for (size_t k = 0; k < 400; ++k) {
    const std::string& before = befores[k % befores.size()];
    const std::string& name = names[k % names.size()];
    after_marks.push_back({before + name + went_home,
                           {{PiiType::kPerson, static_cast<uint32_t>(before.size()), static_cast<uint32_t>(before.size() + name.size())}}});
  }
  const PiiTagger marks_tagger = PiiTagger::train(after_marks, o);
  const std::string given_a_list = "\xd0\x94\xd0\xb0\xd0\xbd \xd1\x81\xd0\xbf\xd0\xb8\xd1\x81\xd0\xbe\xd0\xba.";
  for (size_t k = 0; k + 1 < befores.size(); ++k) {
    EXPECT_EQ(values_of(marks_tagger, befores[k] + given_a_list), std::vector<std::string>{}) << befores[k];
  }
  EXPECT_EQ(values_of(marks_tagger, "ok, " + given_a_list).size(), 1u);
  EXPECT_EQ(values_of(marks_tagger, "x = 1  # " + ivan + went_home), std::vector<std::string>{ivan});
}

// In any script, a capitalised word that opens a sentence before a word of
// small letters, where no list knows either, is the sentence's first word
// in a language the everyday lists do not hold ("Terdapat barisan", "Tính
// tổng"), not a name. A listed name, an unlisted one before a listed word
// ("Zorvath went") and a possessive ("Zorvath's kolom") still are names.
TEST(PiiTaggerTest, AnUnlistedWordOpeningASentenceBeforeAnUnlistedWordOpensNoName) {
  const std::vector<std::string> names = {"Zorvath", "Quillan", "Brondel", "Kestrin"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    const std::string& name = names[k % names.size()];
    train.push_back({name + " went home.", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Anna"}}, {"common_word", {"went", "home", "then", "ok"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  for (const std::string text : {"Terdapat barisan kolom.", "ok then. Tinh tong hai so.", "T\xc3\xadnh t\xe1\xbb\x95ng.",
                                 "x = 1  # Terdapat barisan."}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{}) << text;
  }
  // (A listed name stays one; text capitalised only where its sentences
  // open reads the word no list knows after it as its surname.)
  EXPECT_EQ(values_of(tagger, "Anna barisan."), std::vector<std::string>{"Anna barisan"});
  EXPECT_EQ(values_of(tagger, "Zorvath went home."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(values_of(tagger, "Zorvath's kolom."), std::vector<std::string>{"Zorvath"});
  // Not after a comma: "ok, Terdapat barisan" goes on with a clause.
  EXPECT_EQ(values_of(tagger, "ok, Terdapat barisan.").size(), 1u);
}

// In text without capitals, small Cyrillic words that no name, place or
// street list knows are no value: the everyday lists (English) cannot turn
// away a Russian word ("напиши басню про оливье" was a name). A listed name
// still is one.
TEST(PiiTaggerTest, UnlistedSmallCyrillicWordsInTextWithoutCapitalsAreNoValue) {
  // "<name> пошёл домой." ("<name> went home."), all in small letters.
  const std::vector<std::string> names = {"\xd0\xbe\xd0\xbb\xd0\xb5\xd0\xb3", "\xd0\xb1\xd0\xbe\xd1\x80\xd0\xb8\xd1\x81",
                                          "\xd0\xb3\xd0\xbb\xd0\xb5\xd0\xb1", "\xd1\x80\xd0\xbe\xd0\xbc\xd0\xb0\xd0\xbd"};
  const std::string went_home = " \xd0\xbf\xd0\xbe\xd1\x88\xd1\x91\xd0\xbb \xd0\xb4\xd0\xbe\xd0\xbc\xd0\xbe\xd0\xb9.";
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    const std::string& name = names[k % names.size()];
    train.push_back({name + went_home, {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd"}}};  // "Иван"
  const PiiTagger tagger = PiiTagger::train(train, o);
  const std::string ivan = "\xd0\xb8\xd0\xb2\xd0\xb0\xd0\xbd", sergei = "\xd1\x81\xd0\xb5\xd1\x80\xd0\xb3\xd0\xb5\xd0\xb9";
  EXPECT_EQ(values_of(tagger, ivan + went_home), std::vector<std::string>{ivan});
  EXPECT_EQ(values_of(tagger, sergei + went_home), std::vector<std::string>{});
  // "ѐ" to "џ" and "р" to "я" are capitalised too: "юрий" as "Юрий".
  o.gazetteers = {{"first_name", {"\xd0\xae\xd1\x80\xd0\xb8\xd0\xb9", "\xd0\x89\xd1\x83\xd0\xb1\xd0\xb0"}}};
  const PiiTagger listed = PiiTagger::train(train, o);
  for (const std::string name : {"\xd1\x8e\xd1\x80\xd0\xb8\xd0\xb9", "\xd1\x99\xd1\x83\xd0\xb1\xd0\xb0"}) {
    EXPECT_EQ(values_of(listed, name + went_home), std::vector<std::string>{name});
  }
}

// Rows whose addresses run on into the next word teach the tagger to follow
// it; in text with capitals an address still ends before an everyday word
// ("today"), but not before a street word ("lane").
TEST(PiiTaggerTest, AddressesInTextWithCapitalsDoNotRunIntoEverydayWords) {
  const std::vector<std::string> streets = {"12 Elm Street", "7 Oak Road", "3 Birch Street", "44 Pine Road"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 400; ++k) train.push_back(call_at(kFirst[k % kFirst.size()], streets[k % streets.size()] + " today", "."));
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"today", "lane"}}, {"street_suffix", {"Street", "Road", "Lane"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto address = [&](const std::string& text) { return first_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(address("Please call Anna at 9 Elm Street today."), "9 Elm Street");
  EXPECT_EQ(address("Please call Anna at 9 Elm lane today."), "9 Elm lane");
  // Lower-case text has no capitals to tell a sentence from a name, but no
  // address runs into a word of time (never_in_a_name()), though these rows
  // taught the tagger that "today" continues one.
  EXPECT_EQ(address("please call anna at 9 elm street today."), "9 elm street");
}

// Speakers' lines ("Anna Novak: hello") teach the tagger that capitalised
// words before a colon at a line's start are a name; words that the
// everyday lists alone know there are a form's label.
TEST(PiiTaggerTest, EverydayWordsBeforeAColonAreAFormsLabel) {
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 300; ++k) {
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[(k / 3) % kLast.size()];
    train.push_back({name + ": hello there.", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"personal", "info", "hello", "there"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Zorvath Quillborne: hello there."),
            std::vector<std::string>{"PERSON:Zorvath Quillborne"});
  EXPECT_EQ(typed_spans(tagger, "Personal Info: hello there."), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "Hana Kobayashi\nPersonal Info:\nhello"), std::vector<std::string>{"PERSON:Hana Kobayashi"});
}

// Rows that leave a literal "Street" after the street's name out of the
// label teach the tagger to stop before it; after a number and a name the
// suffix still continues the address ("15 Elm Street.").
TEST(PiiTaggerTest, AStreetsSuffixContinuesANumberedAddress) {
  const std::vector<std::string> streets = {"12 Elm", "7 Oak", "3 Birch", "44 Pine"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 400; ++k) train.push_back(call_at(kFirst[k % kFirst.size()], streets[k % streets.size()], " Street."));
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"street_suffix", {"Street", "Road"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto address = [&](const std::string& text) { return first_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(address("Please call Anna at 9 Maple Street."), "9 Maple Street");
  EXPECT_EQ(address("please call anna at 9 maple street."), "9 maple street");
}

// Rows whose addresses run on after an abbreviation's stop ("12 Elm St.
// Apt. 4") teach the tagger to follow one; a pronoun, determiner or
// conjunction in capitals there opens the next sentence instead.
TEST(PiiTaggerTest, AnAddressEndsBeforeASentenceAfterItsAbbreviation) {
  const std::vector<std::string> streets = {"12 Elm St. Apt. 4", "7 Oak St. Suite 9", "3 Birch St. Unit 2",
                                            "44 Pine St. Floor 3"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 400; ++k) train.push_back(call_at(kFirst[k % kFirst.size()], streets[k % streets.size()], " today."));
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"street_suffix", {"St", "Street"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto address = [&](const std::string& text) { return first_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(address("Please call Anna at 9 Maple St. It is near."), "9 Maple St.");
  EXPECT_EQ(address("Please call Anna at 9 Maple St. Then turn left."), "9 Maple St.");
  // (A unit's number is no street's own: the building's number stays.)
  EXPECT_EQ(values_of(tagger, "Please call Anna at 9 Maple St. Apt. 5 today.", PiiType::kStreetAddress),
            (std::vector<std::string>{"9 Maple St. Apt. 5"}));
}

// Streets whose names hold lower-case words ("Trg slobode 4") teach the
// tagger to run an address into such words; in text with capitals it does
// so only before the street's number, not into the sentence after a value
// without one ("RR commenter Trevor").
TEST(PiiTaggerTest, AddressesRunIntoUnknownSmallWordsOnlyBeforeTheirNumber) {
  const std::vector<std::string> streets = {"12 Trg slobode 4", "7 Put mira 9", "3 Ulica kralja, 8", "44 Obala pomorstva 2"};
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 400; ++k) train.push_back(call_at(kFirst[k % kFirst.size()], streets[k % streets.size()], " today."));
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"today"}}, {"street_suffix", {"Trg", "Put", "Ulica", "Obala"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto address = [&](const std::string& text) { return first_of(tagger, text, PiiType::kStreetAddress); };
  // (The building's number is then an address of its own:
  // TheBuildingsNumberIsAnAddressOfItsOwn.)
  EXPECT_EQ(values_of(tagger, "Please call Anna at 5 Trg pobjede 8 today.", PiiType::kStreetAddress),
            (std::vector<std::string>{"5", "Trg pobjede 8"}));
  EXPECT_EQ(address("Please call Anna at 5 Trg pobjede reportedly."), "5 Trg");
  // Nor does a number open an address before such a word.
  EXPECT_EQ(values_of(tagger, "Please call Anna at 60 mambas today.", PiiType::kStreetAddress),
            std::vector<std::string>{});
  // The look for the number ahead reads a few tokens, not the long run of
  // marks after each of them ("kralja, 8" taught the comma to continue an
  // address; reading them all took this text 9 s).
  const std::vector<std::string> found =
      values_of(tagger, "Please call Anna at 5 Trg" + std::string(100000, ',') + " today.", PiiType::kStreetAddress);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].substr(0, 5), "5 Trg");
}

// Rows that label a city with the full stop after it teach the tagger to
// take the stop; the sentence's full stop is still left out of a place.
TEST(PiiTaggerTest, ASentencesFullStopIsNoPartOfAValue) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (PiiExample& e : train) {
    for (PiiSpan& span : e.spans) {
      if (span.type == PiiType::kLocation && span.end < e.text.size() && e.text[span.end] == '.') ++span.end;
    }
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"street_suffix", {"St"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto place = [&](const std::string& text) { return first_of(tagger, text, PiiType::kLocation); };
  EXPECT_EQ(place("We met Wanda Horvath at the office in Utrecht."), "Utrecht");
  EXPECT_EQ(place("We met Wanda Horvath at the office in Graz."), "Graz");
}

// Names joined to a name the tagger found by "and", "or", "&" or a comma
// are names too, unless they are everyday words, an acronym or "I'm".
// Row k of a tagger that learns places of two capitalised words whose
// last is an everyday word: "<before><city> Harbour today.", the place
// labelled.
PiiExample harbour_row(const std::string& before, uint32_t k) {
  const std::string place = kCities[k % kCities.size()] + " Harbour";
  const auto begin = static_cast<uint32_t>(before.size());
  return {before + place + " today.", {{PiiType::kLocation, begin, begin + static_cast<uint32_t>(place.size())}}};
}

// A place or organisation of several capitalised words that the tagger
// found joined to a name is a name too ("Ophelia Thistlewood and Barnaby
// Crumb"), where no word is a place's, a company's or an everyday first
// word, and, after a comma alone, the last no word only the everyday lists
// know ("Ronald Reagan, First Inaugural Address", "Darwin, Galapagos
// Islands").
TEST(PiiTaggerTest, PlacesOfSeveralWordsJoinedToANameAreNames) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    train.push_back(harbour_row("We sailed to ", k));
    // (A place that opens with a first name the everyday lists know too,
    // and places whose first word is two joined by a hyphen.)
    if (k % 10 == 0) train.push_back({"We sailed to Rose Harbour today.", {{PiiType::kLocation, 13, 25}}});
    if (k % 10 == 5) train.push_back({"We sailed to Li Harbour today.", {{PiiType::kLocation, 13, 23}}});
    if (k % 3 == 0) {
      const std::string place = kCities[k % kCities.size()] + "-" + kCities[(k + 1) % kCities.size()] + " Harbour";
      train.push_back({"We sailed to " + place + " today.", {{PiiType::kLocation, 13, static_cast<uint32_t>(13 + place.size())}}});
    }
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[(k / 3) % kLast.size()];
    train.push_back({"Please call " + name + " today.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  std::vector<std::string> first_names = kFirst;
  first_names.push_back("Rose");
  o.gazetteers = {{"first_name", first_names}, {"last_name", kLast},
                  {"common_word", {"harbour", "we", "sailed", "to", "today", "please", "call", "and", "town", "rose"}},
                  {"city", {"Tampere Harbour"}}, {"state", {"LI"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(found("We sailed to Zorvath Harbour today."), std::vector<std::string>{"LOCATION:Zorvath Harbour"});
  EXPECT_EQ(found("We sailed to Wanda Horvath and Zorvath Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "PERSON:Zorvath Harbour"}));
  EXPECT_EQ(found("We sailed to Zorvath Harbour and Wanda Horvath today."),
            (std::vector<std::string>{"PERSON:Zorvath Harbour", "PERSON:Wanda Horvath"}));
  // Not after a comma alone where the last word is only an everyday word,
  // nor an everyday word first, nor a place the lists know.
  EXPECT_EQ(found("We sailed to Wanda Horvath, Zorvath Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Zorvath Harbour"}));
  EXPECT_EQ(found("We sailed to Wanda Horvath and Town Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Town Harbour"}));
  EXPECT_EQ(found("We sailed to Wanda Horvath and Tampere Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Tampere Harbour"}));
  // A first name opens a name, everyday word or not, whatever the last word
  // ("Tom Baker" after "Priya Raman, "); words joined by a hyphen are one
  // ("Jean-Luc Picard"), but not with an everyday word after the hyphen
  // ("Neo-Colonialism").
  ASSERT_EQ(found("We sailed to Rose Harbour today."), std::vector<std::string>{"LOCATION:Rose Harbour"});
  EXPECT_EQ(found("We sailed to Wanda Horvath, Rose Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "PERSON:Rose Harbour"}));
  EXPECT_EQ(found("We sailed to Wanda Horvath and Zorvath-Quill Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "PERSON:Zorvath-Quill Harbour"}));
  // A word of two letters not in capitals is no state's code ("Li Wei").
  ASSERT_EQ(found("We sailed to Li Harbour today."), std::vector<std::string>{"LOCATION:Li Harbour"});
  EXPECT_EQ(found("We sailed to Wanda Horvath and Li Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "PERSON:Li Harbour"}));
  EXPECT_EQ(found("We sailed to Wanda Horvath and Zorvath-Town Harbour today."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Zorvath-Town Harbour"}));
}

// A name the decoder opened on a date found before tagging ("Tuesday
// Zorvath") keeps its words after the date in the whole scan, where the
// date wins the overlap: here a tagger that learned such names.
TEST(PiiTaggerTest, ANameOpenedOnADateKeepsItsWordsAfterIt) {
  std::vector<PiiExample> train;
  const std::vector<std::string> days = {"Monday", "Tuesday", "Friday"};
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string name = days[k % days.size()] + " " + kLast[k % kLast.size()];
    train.push_back({"Recorded for " + name + " today.", {{PiiType::kPerson, 13, static_cast<uint32_t>(13 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"common_word", {"recorded", "for", "today"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  ASSERT_EQ(typed_spans(tagger, "Recorded for Tuesday Zorvath today."), std::vector<std::string>{"PERSON:Tuesday Zorvath"});
  EXPECT_EQ(scanned_spans(tagger, "Recorded for Tuesday Zorvath today."),
            (std::vector<std::string>{"DATE_TIME:Tuesday", "PERSON:Zorvath"}));
}

// An organisation of the tagger's of single words apart by commas, joined
// to a name, is a name per word ("Olu, Mei, Ravi, Sven and Hannah"), read
// again until the joins change nothing: here a tagger that learned such
// firms.
TEST(PiiTaggerTest, FirmsOfWordsApartByCommasJoinedToANameAreNames) {
  std::vector<PiiExample> train;
  const std::vector<std::string> words = {"Zorvath", "Quill", "Brask", "Ondine", "Velmora", "Tusk"};
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string firm = words[k % words.size()] + ", " + words[(k + 1) % words.size()];
    train.push_back({"Recorded for " + firm + " today.", {{PiiType::kOrganization, 13, static_cast<uint32_t>(13 + firm.size())}}});
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[(k / 3) % kLast.size()];
    train.push_back({"Please call " + name + " today.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast},
                  {"common_word", {"recorded", "for", "today", "please", "call", "and"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(found("Recorded for Zorvath, Quill today."), std::vector<std::string>{"ORGANIZATION:Zorvath, Quill"});
  // (And a name before the next item's number of a numbered list is no
  // street before its house number.)
  EXPECT_EQ(found("Please call 1. Wanda Horvath 2. Anna Novak"),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "PERSON:Anna Novak"}));
  EXPECT_EQ(found("Please call Wanda Horvath 2. Anna Novak"),
            (std::vector<std::string>{"STREET_ADDRESS:Wanda Horvath", "PERSON:Anna Novak"}));
  EXPECT_EQ(found("Recorded for Zorvath, Quill and Wanda Horvath today."),
            (std::vector<std::string>{"PERSON:Zorvath", "PERSON:Quill", "PERSON:Wanda Horvath"}));
}

TEST(PiiTaggerTest, NamesJoinedToANameAreNames) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"common_word", {"wrong", "go", "town", "were", "grant"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  // Zephyrine and Quillborne are in no list and in no training row.
  EXPECT_EQ(names("Zephyrine and Wanda Horvath were engineers."),
            (std::vector<std::string>{"Zephyrine", "Wanda Horvath"}));
  // Unknown words in a list read as places to this tagger: joined to a name,
  // they are names, and a name added is joined to in turn.
  EXPECT_EQ(names("Wanda Horvath, Zephyrine, and Quillborne were engineers."),
            (std::vector<std::string>{"Wanda Horvath", "Zephyrine", "Quillborne"}));
  EXPECT_EQ(names("We thank Wanda Horvath & Zephyrine."), (std::vector<std::string>{"Wanda Horvath", "Zephyrine"}));
  EXPECT_EQ(names("Wrong and Wanda Horvath were engineers."), (std::vector<std::string>{"Wanda Horvath"}));
  // An everyday word is a name only between names: "Town" here, not "Go".
  EXPECT_EQ(names("Wanda Horvath, Town and Quillborne were engineers."),
            (std::vector<std::string>{"Wanda Horvath", "Town", "Quillborne"}));
  EXPECT_EQ(names("Wanda Horvath, Go and Wrong were engineers."), (std::vector<std::string>{"Wanda Horvath"}));
  // At the head of a list of names, an everyday word that a name list
  // knows ("grant") is a name; not one that no name list knows, nor one
  // before a single name. Half of these rows in lower case teach the tagger
  // names there.
  std::vector<PiiExample> rows = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < rows.size(); k += 2) {
    rows[k].text = in_small_letters(rows[k].text);
  }
  const PiiTagger lower_tagger = PiiTagger::train(rows, o);
  auto lower_names = [&](const std::string& text) { return values_of(lower_tagger, text, PiiType::kPerson); };
  EXPECT_EQ(lower_names("grant, wanda horvath and ines novak were engineers."),
            (std::vector<std::string>{"grant", "wanda horvath", "ines novak"}));
  EXPECT_EQ(lower_names("town, wanda horvath and ines novak were engineers."),
            (std::vector<std::string>{"wanda horvath", "ines novak"}));
  EXPECT_EQ(lower_names("grant, wanda horvath were engineers."), (std::vector<std::string>{"wanda horvath"}));
  const std::vector<std::string> lower = names("wanda horvath, town and quillborne were engineers.");
  EXPECT_EQ(std::count(lower.begin(), lower.end(), "town"), 0);
  EXPECT_EQ(names("NASA and Wanda Horvath were engineers."), (std::vector<std::string>{"Wanda Horvath"}));
  EXPECT_EQ(names("Please call Wanda Horvath and I'm off."), (std::vector<std::string>{"Wanda Horvath"}));
  // Nor a contraction in text without capitals.
  EXPECT_EQ(lower_names("wanda horvath and i'm wrong."), (std::vector<std::string>{"wanda horvath"}));
  EXPECT_EQ(lower_names("wanda horvath and we've were wrong."), (std::vector<std::string>{"wanda horvath"}));
  // Not across a line break, nor a word followed by a number: a street.
  EXPECT_EQ(names("Zephyrine\nand Wanda Horvath were engineers."), (std::vector<std::string>{"Wanda Horvath"}));
  EXPECT_EQ(names("Please call Wanda Horvath and Zephyrine 32 tomorrow."), (std::vector<std::string>{"Wanda Horvath"}));
  // Nor a city of the world's that the tagger took for a place ("Kwame
  // Mensah, Accra"): the world_city list adds no feature, so the decoder
  // reads the text as before.
  o.gazetteers.push_back({"world_city", {"Quillborne"}});
  const PiiTagger cities_tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  EXPECT_EQ(values_of(cities_tagger, "Wanda Horvath, Zephyrine, and Quillborne were engineers.", PiiType::kPerson),
            (std::vector<std::string>{"Wanda Horvath", "Zephyrine"}));
}

// A tagger that learned nothing but numbers as addresses (which alone it
// then drops): the names it reports come from the passes after decoding.
PiiTagger numbers_only_tagger(std::vector<GazetteerList> gazetteers) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string number = std::to_string(10 + k);
    rows.push_back({"the code is " + number + " today.", {{PiiType::kStreetAddress, 12, static_cast<uint32_t>(12 + number.size())}}});
  }
  TaggerOptions o = options(3, 1u << 12, 1);
  o.gazetteers = std::move(gazetteers);
  return PiiTagger::train(rows, o);
}

// In text with capitals, a series of words in small letters, most of them
// first names no everyday list knows and the rest first names or words no
// list knows, is a name each ("They had 6: layla, harry, erika and
// shelley"); here a tagger that learned only numbers.
TEST(PiiTaggerTest, ASeriesOfFirstNamesInSmallLettersIsNames) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Layla", "Harry", "Erika", "Mark", "Will", "Bill", "Paris"}},
       {"city", {"Paris"}},
       {"common_word", {"the", "code", "is", "today", "they", "had", "mark", "will", "bill", "kids", "and", "or", "red",
                        "green", "blue", "buy", "paint"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("They had 6: layla, harry, erika and shelley."), (V{"layla", "harry", "erika", "shelley"}));
  EXPECT_EQ(names("They had: layla, zorvath or harry."), (V{"layla", "zorvath", "harry"}));
  // Not everyday words, nor first names that are everyday words too, nor a
  // place's; not without "and" or "or", nor two items; not after a word
  // of the first item's group. (In text with a capitalised word inside a
  // sentence: text capitalised only where its sentences open is read
  // again for the names the lists know, which finds these.)
  for (const char* text : {"Buy red, green and blue paint.", "They had: mark, will and bill.",
                           "In Paris they had: layla, harry and paris.", "In Paris they had: layla, harry, erika.",
                           "In Paris they had: layla and harry.", "In Paris they had the kids, layla and harry."}) {
    EXPECT_EQ(names(text), V{}) << text;
  }
  EXPECT_EQ(names("They had: layla and harry."), (V{"layla", "harry"}));
}

// Text capitalised only where its sentences open, as a phone types it, is
// read in small letters for its group words too ("As a 34-year-old hindu
// woman", "My catholic in-laws"), which the structured detectors read only
// capitalised in text with capitals; not a group word that describes no
// one, nor in text with a capital inside a sentence. Here a tagger that
// learned only numbers.
TEST(PiiTaggerTest, TextCapitalisedOnlyWhereSentencesOpenHasGroupWordsInSmallLetters) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"common_word", {"as", "a", "year", "old", "woman", "what", "should", "i", "know", "my", "in", "laws", "want",
                        "church", "wedding", "like", "fries", "and", "am", "she", "is", "from"}}});
  auto groups = [&](const std::string& text) { return values_of(tagger, text, PiiType::kNrp); };
  using V = std::vector<std::string>;
  EXPECT_EQ(groups("As a 34-year-old hindu woman, what should I know?"), V{"hindu"});
  EXPECT_EQ(groups("My catholic in-laws want a church wedding."), V{"catholic"});
  EXPECT_EQ(groups("I like french fries. She is jewish."), V{"jewish"});
  // (A group word capitalised where the sentence opens is the structured
  // detectors'.)
  EXPECT_EQ(groups("Catholic in-laws want a church wedding."), V{});
  EXPECT_EQ(groups("I like french fries."), V{});
  EXPECT_EQ(groups("She is jewish and from Zorvath."), V{});
}

// In text capitalised only where its sentences open, without the first
// person, a name read again in small letters whose surname has two parts
// joined by a hyphen is kept whatever the second part is, as the first
// part is a surname ("The defendant, cornelius ashby-grant, pleaded": "grant"
// is an everyday word too). Here a tagger that learned only numbers.
TEST(PiiTaggerTest, TextCapitalisedOnlyWhereSentencesOpenKeepsADoubleSurname) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Cornelius"}},
       {"last_name", {"Ashby", "Grant"}},
       {"common_word", {"the", "defendant", "pleaded", "not", "guilty", "grant"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("The defendant, cornelius ashby-grant, pleaded not guilty."), V{"cornelius ashby-grant"});
  EXPECT_EQ(names("The defendant, cornelius ashby, pleaded not guilty."), V{"cornelius ashby"});
}

// In text capitalised only where its sentences open, a first name that the
// keyboard capitalised after a title's stop takes the surname after it in
// small letters, whatever the lists know that word as ("The landlord, mr.
// Bartholomew quince, refuses"); not a function word nor a verb that names
// people too ("mr. Velmora will"). Here a tagger that learned only numbers.
TEST(PiiTaggerTest, AFirstNameCapitalisedAfterATitlesStopTakesItsSurname) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Velmora", "Will"}},
       {"last_name", {"Quince"}},
       {"name_prefix", {"Mr.", "Mrs."}},
       {"common_word", {"the", "landlord", "refuses", "to", "fix", "it", "quince", "ask", "will", "you", "and", "team"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("The landlord, mr. Velmora quince, refuses to fix it."), V{"Velmora quince"});
  EXPECT_EQ(names("The landlord, mrs. Velmora zorvath, refuses to fix it."), V{"Velmora zorvath"});
  EXPECT_EQ(names("Ask mr. Velmora will you fix it."), V{"Velmora"});
  EXPECT_EQ(names("Ask mr. Velmora and the team."), V{"Velmora"});
}

// So where the reading in small letters parts the first name from the
// surname ("oksana" and "hrytsenko"): here a tagger taught such names as two
// spans.
TEST(PiiTaggerTest, AFirstNameCapitalisedAfterATitlesStopTakesASurnameReadApart) {
  const std::vector<std::string> first = {"velmora", "brask", "quill", "dellack"};
  const std::vector<std::string> last = {"tesk", "ondine", "quarrow", "finch"};
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string& a = first[k % first.size()];
    const std::string& b = last[(k / first.size()) % last.size()];
    const std::string text = "the witness, ms. " + a + " " + b + ", stated it.";
    const auto begin = static_cast<uint32_t>(std::string("the witness, ms. ").size());
    const auto second = static_cast<uint32_t>(begin + a.size() + 1);
    rows.push_back({text, {{PiiType::kPerson, begin, static_cast<uint32_t>(begin + a.size())},
                           {PiiType::kPerson, second, static_cast<uint32_t>(second + b.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna"}},
                  {"name_prefix", {"Ms."}},
                  {"common_word", {"the", "witness", "ms", "stated", "it"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(names("the witness, ms. zorvath hrytsenko, stated it."), (V{"zorvath", "hrytsenko"}));
  EXPECT_EQ(names("The witness, ms. Zorvath hrytsenko, stated it."), V{"Zorvath hrytsenko"});
}

// In text capitalised only where its sentences open, without the first
// person, a name read again in small letters keeps any word after a
// surname's particles ("Did ilse van den berg send it?"); a name of two
// words or more keeps the capital the keyboard gave its sentence's first
// letter ("Nikhil raghunathan was promoted"). Here a tagger that learned
// only numbers.
TEST(PiiTaggerTest, TextCapitalisedOnlyWhereSentencesOpenKeepsParticlesAndOpeners) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Cornelius"}},
       {"last_name", {"Ashby", "Berg"}},
       {"common_word", {"the", "defendant", "pleaded", "not", "guilty", "berg", "den", "van", "was", "late"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("The defendant, cornelius van den berg, pleaded not guilty."), V{"cornelius van den berg"});
  EXPECT_EQ(names("The defendant, cornelius al-zorvath, pleaded not guilty."), V{"cornelius al-zorvath"});
  EXPECT_EQ(names("Cornelius ashby pleaded not guilty."), V{"Cornelius ashby"});
  EXPECT_EQ(names("Not guilty. Cornelius ashby pleaded."), V{"Cornelius ashby"});
  // (Not one word so capitalised, which the first reading read as such.)
  EXPECT_EQ(names("Cornelius pleaded not guilty."), V{});
  // A name of one word in a series with a kept name of one word, joined by
  // a comma, "and" or "or".
  EXPECT_EQ(names("Not guilty: cornelius, zorvath and velmora."), (V{"cornelius", "zorvath", "velmora"}));
  // (Not beside a name of more words.)
  EXPECT_EQ(names("Not guilty: cornelius ashby, zorvath and velmora."), V{"cornelius ashby"});
}

// In text capitalised only where its sentences open, without the first
// person or a name, a street in small letters led to as a place is found
// too: a house number, words and a street's suffix, or a Romance street
// word, words and a house number ("Ship it to calle de alcalá 145"); not
// without a word that leads to a place ("Buy 50 dark green apples"). Here
// a tagger that learned only numbers.
TEST(PiiTaggerTest, TextCapitalisedOnlyWhereSentencesOpenHasStreetsInSmallLetters) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"street_suffix", {"Court", "Green"}},
       {"common_word", {"ship", "it", "to", "buy", "dark", "green", "apples", "today", "de", "the", "court"}}});
  auto streets = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(streets("Ship it to calle de zorvath 145, today."), V{"calle de zorvath 145"});
  EXPECT_EQ(streets("Ship it to 9 zorvath court today."), V{"9 zorvath court"});
  EXPECT_EQ(streets("Buy 50 dark green apples today."), V{});
  EXPECT_EQ(streets("Buy the calle zorvath 145 today."), V{});
}

// A street found by its suffix takes in a unit, its number and a comma
// before its house number on its line ("Flat 3, 27 Marchmont Crescent");
// here a tagger that learned only numbers.
TEST(PiiTaggerTest, AStreetFoundByItsSuffixTakesInTheUnitBeforeIt) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"common_word", {"the", "code", "is", "today", "send", "it", "to", "for", "rent", "flat", "unit"}},
       {"street_suffix", {"Street", "Crescent"}}});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(addresses("Send it to Flat 3, 27 Zorvath Crescent today."), V{"Flat 3, 27 Zorvath Crescent"});
  EXPECT_EQ(addresses("the rent for unit 12b, 9 zorvath street is due"), V{"unit 12b, 9 zorvath street"});
  // Not a number that is no unit's, nor a unit on the line before.
  EXPECT_EQ(addresses("Send it to Flat, 3, 27 Zorvath Crescent today."), V{"27 Zorvath Crescent"});
  EXPECT_EQ(addresses("Send it to Flat 3,\n27 Zorvath Crescent today."), V{"27 Zorvath Crescent"});
}

// A street in small letters in text with capitals, after a lead to a place
// ("at", maybe with "number" between), ends in any suffix of the street
// lists, as in text without capitals, and takes in a unit before it;
// without the lead, a number before small words stays a quantity. Here a
// tagger that learned only numbers.
TEST(PiiTaggerTest, AStreetInSmallLettersInTextWithCapitalsEndsInAnySuffixOfTheLists) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"common_word", {"she", "lives", "at", "number", "now", "the", "from", "flat", "we", "saw", "i", "moved",
                        "to", "last", "year", "close", "mews", "cedar", "address", "is", "was"}},
       {"street_suffix", {"Mews", "Close", "Crescent"}}});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(addresses("She lives at 9 cedar mews now."), V{"9 cedar mews"});
  EXPECT_EQ(addresses("She lives at number 9 cedar mews."), V{"9 cedar mews"});
  // (After an address's "is" or "was" too.)
  EXPECT_EQ(addresses("The last address was 9 cedar mews, Dundee."), V{"9 cedar mews"});
  EXPECT_EQ(addresses("The address is 9 cedar mews, Dundee."), V{"9 cedar mews"});
  EXPECT_EQ(addresses("The last year was 9 cedar mews, Dundee."), V{});
  // (And "address" alone, where a unit without a number alone follows the
  // street, which takes it in: join_units_after_streets().)
  EXPECT_EQ(addresses("Verify the address 9 cedar mews, flat 9b."), V{"9 cedar mews, flat 9b"});
  EXPECT_EQ(addresses("Verify the last 9 cedar mews, flat 9b."), V{});
  EXPECT_EQ(addresses("I moved to 3 zorvath crescent last year."), V{"3 zorvath crescent"});
  EXPECT_EQ(addresses("The noise from flat 4, 19 zorvath close, Dundee."), V{"flat 4, 19 zorvath close"});
  // (And a quadrant's compass point after the suffix, before the clause's
  // end; where the clause goes on after it, the street ends no clause.)
  EXPECT_EQ(addresses("She lives at 9 cedar mews nw, Dundee."), V{"9 cedar mews nw"});
  EXPECT_EQ(addresses("I moved to 3 zorvath crescent se."), V{"3 zorvath crescent se"});
  EXPECT_EQ(addresses("She lives at 9 cedar mews se now."), V{});
  // (A compass point in full too.)
  EXPECT_EQ(addresses("She lives at 9 cedar mews north, Dundee."), V{"9 cedar mews north"});
  EXPECT_EQ(addresses("She lives at 9 cedar mews northward, Dundee."), V{});
  // (A Romance street word, particles and the name's words in small
  // letters, where the clause ends after them, as in text without
  // capitals.)
  EXPECT_EQ(addresses("She lives at 4 rue de la zorvath."), V{"4 rue de la zorvath"});
  EXPECT_EQ(addresses("We saw 4 rue de la zorvath."), V{"4"});
  // (Words joined to the name's by hyphens go with them.)
  EXPECT_EQ(addresses("She lives at 48 rue sainte-zorvath, Dundee."), V{"48 rue sainte-zorvath"});
  EXPECT_EQ(addresses("She lives at 48 rue cedar sainte-zorvath."), V{"48 rue cedar sainte-zorvath"});
  // (The tagger here reads a number alone as an address.)
  EXPECT_EQ(addresses("We saw 9 cedar mews now."), V{"9"});
}

// A surname of "o'" and small letters that no span covers is a name of
// its own, with the word in small letters one blank before it that no
// everyday or place's list knows: "has ruairi o'sullivan confirmed". Not
// "o'clock".
TEST(PiiTaggerTest, AGaelicSurnameInSmallLettersIsANameOfItsOwn) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"city", {"Paris"}}, {"common_word", {"has", "confirmed", "the", "note", "at", "see", "you", "is", "here"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(persons("has zorvath o'brien confirmed?"), V{"zorvath o'brien"});
  EXPECT_EQ(persons("Has zorvath o'brien's note come?"), V{"zorvath o'brien"});
  EXPECT_EQ(persons("o'brien is here"), V{"o'brien"});
  EXPECT_EQ(persons("see the note o'brien has"), V{"o'brien"});
  EXPECT_EQ(persons("see paris o'brien"), V{"o'brien"});
  EXPECT_EQ(persons("see you at 5 o'clock"), V{});
  EXPECT_EQ(persons("see you at zo'o"), V{});
}

// A name takes the initials in small letters right before it, and a first
// name a list knows before them ("mail the cheque to p. sandoval", "john f.
// kennedy"); not an answer's letter at a line's start ("b. pons"), nor
// "v." (versus) or a compass point ("s. america"). Here the decoder names
// single words no list knows after "check whether".
TEST(PiiTaggerTest, ANameTakesItsInitialsInSmallLetters) {
  const PiiTagger tagger = small_letter_names_tagger(
      {"velmora", "quillon", "dastra", "brask"},
      [](size_t) { return std::pair<std::string, std::string>{"check whether ", " is here"}; },
      {{"first_name", {"John"}}, {"common_word", {"check", "whether", "is", "here", "the", "and"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(persons("check whether velmora is here"), V{"velmora"});
  EXPECT_EQ(persons("check whether p. velmora is here"), V{"p. velmora"});
  EXPECT_EQ(persons("check whether j. p. velmora is here"), V{"j. p. velmora"});
  EXPECT_EQ(persons("check whether john f. velmora is here"), V{"john f. velmora"});
  EXPECT_EQ(persons("check whether the f. velmora is here"), V{"f. velmora"});
  EXPECT_EQ(persons("check whether\nb. velmora is here"), V{"velmora"});
  EXPECT_EQ(persons("check whether v. velmora is here"), V{"velmora"});
  EXPECT_EQ(persons("check whether s. velmora is here"), V{"velmora"});
}

// An hour ("at 5 o'clock", "6 o’clock position") is no address; here a
// tagger that learned only numbers.
TEST(PiiTaggerTest, AnHourIsNoAddress) {
  const PiiTagger tagger = numbers_only_tagger({{"common_word", {"at", "ask", "anna", "we", "left", "position"}}});
  for (const char* text : {"at 5 o'clock, ask anna", "we left at 6 o\u2019clock", "AT 5 O'CLOCK, ASK ANNA",
                           "at 9 O\u2019clock position"}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{}) << text;
  }
}

// A mailbox's display name is a person where the address's local part
// spells it: holds one of its words that no everyday list alone knows, or
// is its initials, or a first initial and the surname; here a tagger that
// learned only numbers, through the whole scan (which finds the address).
TEST(PiiTaggerTest, AMailboxsDisplayNameSpelledByItsAddressIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"John"}},
       {"last_name", {"Smith"}},
       {"common_word", {"the", "code", "is", "today", "from", "to", "please", "email", "support", "quill", "smith"}},
       {"company_suffix", {"Ltd"}}});
  auto people = [&](const std::string& text) { return scanned_names(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(people("From: Zorvath Quill <zq@northwind.com>"), V{"Zorvath Quill"});
  EXPECT_EQ(people("from: zorvath quill <zorvath.quill@northwind.com>"), V{"zorvath quill"});
  EXPECT_EQ(people("git commit --author=\"zorvath brask <zorvath@brask.dev>\""), V{"zorvath brask"});
  EXPECT_EQ(people("to: john smith <jsmith@example.com>"), V{"john smith"});
  EXPECT_EQ(people("Please email Zorvath Quill <zquill@example.com> today."), V{"Zorvath Quill"});
  // Not an everyday word the address holds, nor a company's words, nor
  // words the address does not spell, nor an address without brackets.
  for (const char* text : {"From: Acme Support <support@acme.com>", "From: Zorvath Ltd <zl@example.com>",
                           "From: Zorvath Quill <info@northwind.com>", "From: Zorvath Quill zq@northwind.com"}) {
    EXPECT_EQ(people(text), V{}) << text;
  }
}

// A table's header types its columns' cells, and a form's labels their
// values, where the tagger read them as nothing or as something else: here
// one that learned only numbers (tagger_tables_test.cc has the rules).
TEST(PiiTaggerTest, TablesHeadersTypeTheirCells) {
  const PiiTagger tagger = numbers_only_tagger({{"common_word", {"the", "code", "is", "today"}}});
  EXPECT_EQ(typed_spans(tagger, "name,email,city\nLiam Byrne,liam@example.ie,Cork\n"),
            (std::vector<std::string>{"PERSON:Liam Byrne", "LOCATION:Cork"}));
  EXPECT_EQ(typed_spans(tagger, "name,price\nWidget,9\n"), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "Name: Liam Byrne\nCity: Cork"), (std::vector<std::string>{"PERSON:Liam Byrne", "LOCATION:Cork"}));
  // The whole scan: a URL's query, its span cut around the values.
  EXPECT_EQ(scanned_spans(tagger, "see https://crm.example.com/c?first_name=liam&city=Cork&page=2 today"),
            (std::vector<std::string>{"DOMAIN_NAME:https://crm.example.com/c?first_name=", "PERSON:liam",
                                      "DOMAIN_NAME:&city=", "LOCATION:Cork", "DOMAIN_NAME:&page=2"}));
  EXPECT_EQ(scanned_spans(tagger, "see https://www.example.com/search?q=cork+hotels&page=2 today"),
            (std::vector<std::string>{"DOMAIN_NAME:https://www.example.com/search?q=cork+hotels&page=2"}));
}

// A state's code and a ZIP code after a place and its comma are an
// address, whatever follows them ("Cupertino, CA 95014 opens at 9").
TEST(PiiTaggerTest, AStatesCodeAndAZipCodeAfterAPlaceAreAnAddress) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"state", {"CA", "TX"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(found("Wanda Horvath moved to Graz last year."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Graz"}));
  EXPECT_EQ(found("Wanda Horvath moved to Graz, CA 95014 opens at 9."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Graz", "STREET_ADDRESS:CA 95014"}));
  EXPECT_EQ(found("Wanda Horvath moved to Graz, TX 78701-1234 last year."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "LOCATION:Graz", "STREET_ADDRESS:TX 78701-1234"}));
  // Not a code no state list knows, nor other digits.
  for (const std::string& v : found("Wanda Horvath moved to Graz, QQ 95014 opens at 9.")) EXPECT_EQ(v.find("QQ"), std::string::npos) << v;
  for (const std::string& v : found("Wanda Horvath moved to Graz, CA 950 opens at 9.")) EXPECT_EQ(v.find(":CA"), std::string::npos) << v;
}

// A tagger taught values of `type` between a prefix and `after`: 200
// rows, row k of prefixes[k % prefixes.size()], values[k % values.size()]
// (labelled `type`) and `after`.
PiiTagger values_tagger(PiiType type, const std::vector<std::string>& prefixes, const std::vector<std::string>& values,
                        const std::string& after, std::vector<GazetteerList> gazetteers) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string& prefix = prefixes[k % prefixes.size()];
    const std::string& value = values[k % values.size()];
    const auto begin = static_cast<uint32_t>(prefix.size());
    rows.push_back({prefix + value + after, {{type, begin, static_cast<uint32_t>(begin + value.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = std::move(gazetteers);
  return PiiTagger::train(rows, o);
}

// A tagger taught firms so (values_tagger()).
PiiTagger firms_tagger(const std::vector<std::string>& prefixes, const std::vector<std::string>& firms,
                       const std::string& after, std::vector<GazetteerList> gazetteers) {
  return values_tagger(PiiType::kOrganization, prefixes, firms, after, std::move(gazetteers));
}

// A name as a booking writes it, in capitals, the surname, "/" and the
// given names before a title, is a person over the names, where the tagger
// put a span over it or shortly after; here one taught firms there. In
// text in capitals throughout too (read in small letters). Not words no
// name list knows (but in capitals, where the title ends its clause), nor
// everyday words in text in capitals throughout.
TEST(PiiTaggerTest, ANameAsABookingWritesItIsAName) {
  const PiiTagger tagger = firms_tagger({"Passenger ", "Booked for "}, {"Zorvath", "Brask", "Velmora", "Quarrow"}, " MS, seat 4.",
                                        {{"first_name", {"Solveig", "Marie", "John"}},
                                         {"last_name", {"Haugen", "Okafor"}},
                                         {"common_word", {"passenger", "booked", "for", "seat", "john", "smith", "ms", "mr"}}});
  auto found = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(typed_spans(tagger, "Passenger Zorvath MS, seat 4.").size(), 1u);
  EXPECT_EQ(found("Passenger HAUGEN/SOLVEIG MS, seat 4."), V{"HAUGEN/SOLVEIG"});
  EXPECT_EQ(found("Passenger HAUGEN/SOLVEIG MARIE MS, seat 4."), V{"HAUGEN/SOLVEIG MARIE"});
  EXPECT_EQ(found("Booked for OKAFOR/CHINEDU MR, seat 4."), V{"OKAFOR/CHINEDU"});
  EXPECT_EQ(found("PASSENGER 1.1HAUGEN/SOLVEIG MS SEAT 4"), V{"HAUGEN/SOLVEIG"});
  EXPECT_EQ(found("PASSENGER SMITH/JOHN MR SEAT 4"), V{});
  // Words no list knows: in capitals, of three letters or more, where the
  // title ends its clause.
  auto has = [&](const std::string& text, const std::string& name) {
    const V all = found(text);
    return std::find(all.begin(), all.end(), name) != all.end();
  };
  EXPECT_EQ(found("Passenger ZORVATH/BRASK MS, seat 4."), V{"ZORVATH/BRASK"});
  EXPECT_TRUE(has("Passenger Zorvath MS, seat 4 and DELLACK/ONDINE MR", "DELLACK/ONDINE"));
  EXPECT_EQ(found("Passenger ZORVATH/BRASK MS seat 4."), V{});
  EXPECT_FALSE(has("Passenger Zorvath/Brask MS, seat 4.", "Zorvath/Brask"));
  EXPECT_EQ(found("Passenger TCP/IP MS, seat 4."), V{});
}

// A firm of the tagger's over a possessive and a relative after it is the
// owner's name ("Later Zorvath's dad, hi", a firm to the decoder): here a
// tagger that learned such firms.
TEST(PiiTaggerTest, AFirmOverAPossessiveAndARelativeIsTheOwnersName) {
  const PiiTagger tagger =
      firms_tagger({"Recorded for "}, {"Zorvath's dad", "Quill's dad", "Brask's dad", "Ondine's dad", "Velmora's dad"},
                   " today.", {{"first_name", kFirst}, {"last_name", kLast}, {"common_word", {"recorded", "for", "today"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Recorded for Brask's dad today."), std::vector<std::string>{"PERSON:Brask"});
}

// A firm after the label of a field that only a person's name fills and
// its colon is the person ("Attn: Zorvath Quill"); here a tagger taught
// firms there. Not after a label firms fill too, nor a firm named by a
// company's word, nor a label inside a line.
TEST(PiiTaggerTest, AFirmAfterAPersonsLabelIsAName) {
  const PiiTagger tagger = firms_tagger({"Attn: ", "Client: ", "(Attn: "}, {"Zorvath Quill", "Brask Velmora", "Quarrow Dellack"},
                                        "\nThanks.", {{"company_suffix", {"Dellack"}}, {"common_word", {"thanks"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Client: Zorvath Quill\nThanks."), V{"ORGANIZATION:Zorvath Quill"});
  EXPECT_EQ(found("Attn: Zorvath Quill\nThanks."), V{"PERSON:Zorvath Quill"});
  EXPECT_EQ(found("Ship it (Attn: Brask Velmora)\nThanks."), V{"PERSON:Brask Velmora"});
  EXPECT_EQ(found("Patient: Brask Velmora\nThanks."), V{"PERSON:Brask Velmora"});
  EXPECT_EQ(found("Attn: Quarrow Dellack\nThanks."), V{"ORGANIZATION:Quarrow Dellack"});
  EXPECT_EQ(found("Ship it Attn: Brask Velmora\nThanks."), V{"ORGANIZATION:Brask Velmora"});
}

// A firm set off by commas after an "I" that opens a sentence or a line is
// the speaker's name, as a declaration writes it; here a tagger taught
// firms there. Not after another word, nor without the comma after it.
TEST(PiiTaggerTest, AFirmAfterADeclarantsIIsAName) {
  const PiiTagger tagger = firms_tagger({"I, ", "We, ", "Hello. I, "}, {"Zorvath Quill", "Brask Velmora", "Quarrow Dellack"},
                                        ", hereby agree.", {{"common_word", {"we", "hello", "hereby", "agree"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("We, Zorvath Quill, hereby agree."), V{"ORGANIZATION:Zorvath Quill"});
  EXPECT_EQ(found("I, Zorvath Quill, hereby agree."), V{"PERSON:Zorvath Quill"});
  EXPECT_EQ(found("Hello. I, Brask Velmora, hereby agree."), V{"PERSON:Brask Velmora"});
  EXPECT_EQ(found("Hello.\nI, Brask Velmora, hereby agree."), V{"PERSON:Brask Velmora"});
  EXPECT_EQ(found("Hello I, Brask Velmora, hereby agree."), V{"ORGANIZATION:Brask Velmora"});
}

// A firm before "who" or "born" and a word is a person ("a card for
// Zorvath, who is seven", "Zorvath (born 1990)"); here a tagger taught
// firms there. Not one a company's or place's list knows, nor after a
// place's preposition or a determiner, where "who" is of the people before
// ("monks from Brask, who"), nor before "which" or "who" in capitals.
TEST(PiiTaggerTest, AFirmBeforeWhoOrBornIsAName) {
  const PiiTagger tagger = firms_tagger({"a card for ", "monks from ", "we met ", "the "},
                                        {"Zorvath", "Brask", "Quarrow Dellack", "Velmora", "Ondine"}, ", who is seven.",
                                        {{"company_suffix", {"Velmora"}}, {"city", {"Ondine"}},
                                         {"common_word", {"a", "card", "for", "monks", "from", "we", "met", "the", "who", "is", "seven", "which"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("a card for Zorvath, which is seven."), V{"ORGANIZATION:Zorvath"});
  EXPECT_EQ(found("a card for Zorvath, who is seven."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("we met Quarrow Dellack who is seven."), V{"PERSON:Quarrow Dellack"});
  EXPECT_EQ(found("monks from Brask, who is seven."), V{"ORGANIZATION:Brask"});
  EXPECT_EQ(found("the Brask, who is seven."), V{"ORGANIZATION:Brask"});
  EXPECT_EQ(found("a card for Zorvath, WHO is seven."), V{"ORGANIZATION:Zorvath"});
  EXPECT_EQ(found("a card for Zorvath, who?"), V{"ORGANIZATION:Zorvath"});
  EXPECT_EQ(found("a card for Zorvath, born 1990."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("a card for Zorvath (born 1990)."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("a card for Zorvath (\nborn 1990)."), V{"ORGANIZATION:Zorvath"});
  for (const std::string listed : {"a card for Velmora, who is seven.", "a card for Ondine, who is seven."}) {
    const V spans = found(listed);
    EXPECT_TRUE(std::none_of(spans.begin(), spans.end(), [](const std::string& s) { return s.starts_with("PERSON"); }))
        << listed;
  }
}

// A firm alone on its line between a label's line and a line that an
// address opens is the addressee; here a tagger taught firms there. Not
// one with a company's word, nor without the label's colon, nor where no
// address follows.
TEST(PiiTaggerTest, AFirmBetweenALabelAndAnAddressIsTheAddressee) {
  const PiiTagger tagger = firms_tagger({"Ship to:\n", "Ship it\n"}, {"Zorvath Brask", "Quarrow Dellack", "Ondine Velmora"},
                                        "\n12 Elm Street\nThanks.",
                                        {{"street_suffix", {"Street"}}, {"company_suffix", {"Dellack"}},
                                         {"common_word", {"ship", "to", "it", "thanks"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Ship it\nZorvath Brask\n12 Elm Street\nThanks."),
            (V{"ORGANIZATION:Zorvath Brask", "STREET_ADDRESS:12 Elm Street"}));
  EXPECT_EQ(found("Ship to:\nZorvath Brask\n12 Elm Street\nThanks."),
            (V{"PERSON:Zorvath Brask", "STREET_ADDRESS:12 Elm Street"}));
  EXPECT_EQ(found("Ship to:\nQuarrow Dellack\n12 Elm Street\nThanks."),
            (V{"ORGANIZATION:Quarrow Dellack", "STREET_ADDRESS:12 Elm Street"}));
  EXPECT_EQ(found("Ship to:\nZorvath Brask\nThanks."), V{"ORGANIZATION:Zorvath Brask"});
}

// A firm of the tagger's over just a name after a cue that names people
// alone (a relative, an in-law, "name is") is the name; here a tagger
// taught such firms. Not without the cue.
TEST(PiiTaggerTest, AFirmOverANameAfterARelativeIsTheName) {
  const PiiTagger tagger =
      firms_tagger({"a gift for my father-in-law, ", "a gift for the office-in-law, "}, {"zorvath", "brask", "quarrow"},
                   ", who is fine.",
                   {{"first_name", {"Maria"}},
                    {"common_word", {"a", "gift", "for", "my", "the", "father", "office", "in", "law", "who", "is",
                                     "fine"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("a gift for the office-in-law, zorvath, who is fine."), V{"ORGANIZATION:zorvath"});
  EXPECT_EQ(found("a gift for my father-in-law, zorvath, who is fine."), V{"PERSON:zorvath"});
}

// A given name of two syllables joined by a hyphen, as Korean and Chinese
// ones are written, then a surname of the lists, is a name over them all,
// in either case; here a tagger that learned nothing of names. Not where
// the first syllable is an everyday word, the surname is not listed or
// (with capitals) not capitalised, or a hyphen runs on.
TEST(PiiTaggerTest, AHyphenatedGivenNameBeforeASurnameIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"last_name", {"Park", "Kim", "Zhou"}}, {"common_word", {"the", "is", "late", "long", "run", "park", "ask", "today"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Hyun-woo Park is late."), V{"PERSON:Hyun-woo Park"});
  EXPECT_EQ(found("Ask Mei-Ling Zhou, today."), V{"PERSON:Mei-Ling Zhou"});
  EXPECT_EQ(found("ask mei-ling zhou today."), V{"PERSON:mei-ling zhou"});
  EXPECT_EQ(found("HYUN-WOO PARK IS LATE."), V{"PERSON:HYUN-WOO PARK"});
  expect_no_names(tagger, {"Ask Long-run Park today.", "Ask re-Hyun-woo Park today.",
                           "Ask Hyungwook-woo Park today.", "the long-run park is late."});
  // (Its syllables a given name's, the name alone is one: below.)
  EXPECT_EQ(found("Ask Hyun-woo park today."), V{"PERSON:Hyun-woo"});
  EXPECT_EQ(found("Ask Hyun-woo Zorvath today."), V{"PERSON:Hyun-woo"});
  const V run_on = found("Ask Hyun-woo Park-Kim today.");
  EXPECT_TRUE(std::none_of(run_on.begin(), run_on.end(), [](const std::string& s) { return s.starts_with("PERSON:Hyun-woo Park"); }));
}

// A given name of two syllables joined by a hyphen, both of them those of
// Korean or Chinese given names, is a name without a surname too, in any
// case and in small letters in text with capitals ("Tell Hyun-woo", "my
// friend Seo-yeon", "Tell hyun-woo"); here a tagger that learned nothing of
// names. Not syllables alike ("Ha-ha"), both everyday words ("a sin-bin"),
// a syllable no given name has ("Pre-war"), nor where a hyphen runs on
// ("Yu-Gi-Oh").
TEST(PiiTaggerTest, AHyphenatedGivenNameOfTheSyllablesOfGivenNamesIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"last_name", {"Park"}},
       {"common_word", {"tell", "the", "meeting", "moved", "my", "friend", "is", "here", "a", "ha", "moment", "sin", "bin",
                        "pre", "war", "cards", "min", "park"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Tell Hyun-woo the meeting moved."), V{"PERSON:Hyun-woo"});
  // (With a surname of the lists after it that is a syllable of the same
  // case, an everyday word too; not one a hyphen joins to another.)
  EXPECT_EQ(found("Tell hyun-woo park the meeting moved."), V{"PERSON:hyun-woo park"});
  EXPECT_EQ(found("Tell Hyun-woo Park the meeting moved."), V{"PERSON:Hyun-woo Park"});
  EXPECT_EQ(found("Tell hyun-woo Park the meeting moved."), V{"PERSON:hyun-woo"});
  EXPECT_EQ(found("Tell Hyun-woo Park-Lee the meeting moved."), V{"PERSON:Hyun-woo"});
  EXPECT_EQ(found("tell hyun-woo the meeting moved."), V{"PERSON:hyun-woo"});
  EXPECT_EQ(found("TELL HYUN-WOO THE MEETING MOVED."), V{"PERSON:HYUN-WOO"});
  // (In text with capitals, in small letters too, as a phone types them.)
  EXPECT_EQ(found("Tell hyun-woo the meeting moved."), V{"PERSON:hyun-woo"});
  EXPECT_EQ(found("My friend Seo-yeon is here."), V{"PERSON:Seo-yeon"});
  EXPECT_EQ(found("Tell Min-jun the meeting moved."), V{"PERSON:Min-jun"});
  EXPECT_EQ(found("Tell Hsiao-mei the meeting moved."), V{"PERSON:Hsiao-mei"});
  EXPECT_EQ(found("The meeting moved, Hyun-woo."), V{"PERSON:Hyun-woo"});
  expect_no_names(tagger, {"Tell a Ha-ha moment.", "tell a sin-bin moment.", "Tell Pre-war cards.", "Tell Yu-Gi-Oh cards.",
                           "tell hyun-woo-min the meeting moved."});
}

// A word before "and", a person's possessive and a relative is a person
// ("Zorvath and her husband"): in text with capitals a capitalised word no
// everyday, place's or company's list knows; without capitals a first
// name of the lists. Here a tagger that learned nothing of names.
TEST(PiiTaggerTest, AWordBeforeAndHerRelativeIsAName) {
  const PiiTagger tagger = numbers_only_tagger({{"first_name", {"Maria"}},
                                                {"city", {"Berlin"}},
                                                {"common_word", {"then", "and", "her", "his", "their", "left", "sister",
                                                                 "city", "sextuplets", "the"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Then Zorvath and her husband left."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("Then Zorvath and their son left."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("then maria and his wife left."), V{"PERSON:maria"});
  expect_no_names(tagger, {"Then Berlin and her sister city left.", "Then Zorvath and her city left.",
                           "then zorvath and her husband left.", "Then the sextuplets and her mother left.",
                           "Then ZORVATH and her husband left.", "Then Zorvath and\nher husband left."});
}

// A firm right after a person's "name is" or "under the name" is the
// person ("My name is Vasquez-Lindgren"); here a tagger taught firms of
// two surnames joined by a hyphen, as the dev rows' are. Not after "our
// name is", a firm's.
TEST(PiiTaggerTest, AFirmAfterAPersonsNameIsIsThePerson) {
  const PiiTagger tagger = firms_tagger({"It was "}, {"Brask-Dellack", "Quarrow-Tusk", "Velmora-Quill"}, " again.",
                                        {{"common_word", {"it", "was", "again", "my", "name", "is", "our", "under", "the", "book"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("It was Brask-Dellack again."), V{"ORGANIZATION:Brask-Dellack"});
  EXPECT_EQ(found("My name is Brask-Dellack again."), V{"PERSON:Brask-Dellack"});
  EXPECT_EQ(found("Her name's Brask-Dellack again."), V{"PERSON:Brask-Dellack"});
  EXPECT_EQ(found("Book it under the name Brask-Dellack again."), V{"PERSON:Brask-Dellack"});
  EXPECT_EQ(found("Our name is Brask-Dellack again."), V{"ORGANIZATION:Brask-Dellack"});
  // After "the family of", where no place's list knows the firm.
  EXPECT_EQ(found("Write to the family of Brask-Dellack again."), V{"PERSON:Brask-Dellack"});
  EXPECT_EQ(found("Write to a family of Brask-Dellack again."), V{"ORGANIZATION:Brask-Dellack"});
}

// A firm of a capitalised word and two joined by a hyphen is a first name
// and a double surname ("my call with Rosamund Pike-Everett"), where no
// place's, company's or everyday list knows the first word; here a tagger
// taught firms of such words. A firm of the double surname alone stays one.
TEST(PiiTaggerTest, AFirmOfAWordAndADoubleSurnameIsAName) {
  const PiiTagger tagger =
      firms_tagger({"It was "}, {"Olvira Brask-Dellack", "Quarrow Tusk-Velm", "Velmora Quill-Brask", "Brask-Dellack"}, " again.",
                   {{"common_word", {"it", "was", "again", "acme"}}, {"company", {"Zentrix"}}, {"city", {"Dorvale"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("It was Brask-Dellack again."), V{"ORGANIZATION:Brask-Dellack"});
  EXPECT_EQ(found("It was Olvira Brask-Dellack again."), V{"PERSON:Olvira Brask-Dellack"});
  EXPECT_EQ(found("It was Rosamund Pike-Everett again."), V{"PERSON:Rosamund Pike-Everett"});
  for (const char* text : {"It was Acme Brask-Dellack again.", "It was Zentrix Brask-Dellack again.",
                           "It was Dorvale Brask-Dellack again."}) {
    const V spans = found(text);
    EXPECT_TRUE(std::none_of(spans.begin(), spans.end(), [](const std::string& s) { return s.starts_with("PERSON"); }))
        << text;
  }
}

// In text without capitals, initials after "by" or a title and the surname
// after them are a name: a surname of the lists, two words joined by a
// hyphen, or a word no list knows that ends the clause. Not "i.", nor a
// word no list knows before another word ("by e. coli bacteria"), nor
// initials after another word. Here a tagger that learned only numbers.
TEST(PiiTaggerTest, InitialsAfterByOrATitleAndASurnameInSmallLettersAreAName) {
  const PiiTagger tagger = numbers_only_tagger({{"last_name", {"Okafor"}},
                                                {"common_word", {"the", "letter", "was", "signed", "by", "report", "ms",
                                                                 "caused", "bacteria", "see", "part", "answer"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(persons("the letter was signed by p. okafor today"), V{"p. okafor"});
  EXPECT_EQ(persons("the report by t. zorvath-quill today"), V{"t. zorvath-quill"});
  EXPECT_EQ(persons("the letter for ms. j. k. zorvath."), V{"j. k. zorvath"});
  EXPECT_EQ(persons("the letter was signed by p. zorvath"), V{"p. zorvath"});
  for (const char* text : {"caused by e. zorvath bacteria", "signed by i. zorvath.", "see part a. zorvath.",
                           "the letter was signed by p.\nzorvath."}) {
    EXPECT_EQ(persons(text), V{}) << text;
  }
}

// In text without capitals, a name takes a surname's initial and its stop
// right after it ("review by elspeth m.:"); not "v." of a case's name, "i."
// or an abbreviation's letters. Here the name is the cue's, "name is".
TEST(PiiTaggerTest, ASurnamesInitialAfterANameInSmallLettersIsTheNames) {
  const PiiTagger tagger = numbers_only_tagger({{"common_word", {"the", "code", "is", "today", "my", "name"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(persons("my name is zorvath m.: today"), V{"zorvath m."});
  EXPECT_EQ(persons("my name is zorvath m."), V{"zorvath m."});
  for (const char* text : {"my name is zorvath v. today", "my name is zorvath i. today", "my name is zorvath m.s. today",
                           "my name is zorvath a.m. today"}) {
    EXPECT_EQ(persons(text), V{"zorvath"}) << text;
  }
}

// In text without capitals, the word between "the" and "family", each of
// its parts a surname no first-name or everyday list knows, is the
// family's surname; here a tagger that learned only numbers.
TEST(PiiTaggerTest, ASurnameBeforeFamilyInSmallLettersIsAName) {
  const PiiTagger tagger = numbers_only_tagger({{"last_name", {"Osei", "Human"}},
                                                {"census_surname", {"Brask"}},
                                                {"common_word", {"the", "code", "is", "today", "a", "card", "for",
                                                                 "family", "human"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(persons("a card for the brask family today."), V{"brask"});
  EXPECT_EQ(persons("a card for the brask-osei family today."), V{"brask-osei"});
  for (const char* text : {"a card for the human family today.", "a card for the zorvath family today.",
                           "a card for the brask familyx today.", "a card for brask family today."}) {
    EXPECT_EQ(persons(text), V{}) << text;
  }
}

// A firm of a first name and a capital alone before a stop that ends it is
// a first name and a surname's initial ("Review by Elspeth M.:"); here a
// tagger taught firms there. Not a word an everyday list knows, nor before
// a letter glued after the stop ("D.C.").
TEST(PiiTaggerTest, AFirmOfAFirstNameAndAnInitialIsAName) {
  const PiiTagger tagger = firms_tagger({"Review by "}, {"Zorvath K", "Brask M", "Quarrow T", "Country A"}, ".: fine.",
                                        {{"first_name", {"Wanda"}}, {"common_word", {"review", "by", "fine", "country"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Review by Zorvath K.: fine."), V{"PERSON:Zorvath K."});
  EXPECT_EQ(found("Review by Quarrow T. today."), V{"PERSON:Quarrow T."});
  EXPECT_EQ(found("Review by Country A.: fine."), V{"ORGANIZATION:Country A"});
  EXPECT_EQ(found("Review by Zorvath K.C.: fine."), V{"ORGANIZATION:Zorvath K"});
}

// A firm of one word between "the" and "family" is the family's surname
// ("a card for the Abernathy-Osei family"); here a tagger taught firms
// there. Not a taxon's Latin plural, nor a maker's line of things, nor
// without "the", nor a firm of two words.
TEST(PiiTaggerTest, AFirmBeforeFamilyIsASurname) {
  const PiiTagger tagger =
      firms_tagger({"a card for the ", "a gift for the "}, {"Zorvath", "Brask-Dellack", "Velmora", "Rosaceae", "Quarrow Tusk"},
                   " family today.", {{"common_word", {"a", "card", "gift", "for", "the", "family", "of", "today", "things"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("a card for the Zorvath family of things."), V{"ORGANIZATION:Zorvath"});
  EXPECT_EQ(found("a card for the Zorvath family today."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("a gift for the Brask-Dellack family today."), V{"PERSON:Brask-Dellack"});
  EXPECT_EQ(found("a card for the Rosaceae family today."), V{"ORGANIZATION:Rosaceae"});
  EXPECT_EQ(found("a card for the Quarrow Tusk family today."), V{"ORGANIZATION:Quarrow Tusk"});
  EXPECT_EQ(found("a card for Zorvath family today."), V{"ORGANIZATION:Zorvath"});
}

// In text without capitals, a legal suffix ends a company's name: a firm
// of the tagger's that runs on past one over "and" and a name ends there;
// here a tagger taught firms of two companies.
TEST(PiiTaggerTest, ALegalSuffixEndsAFirmInSmallLetters) {
  const PiiTagger tagger = firms_tagger({"a deal between "}, {"quarrow ltd and brask", "velmora inc and dellack"}, " today.",
                                        {{"company_suffix", {"Ltd", "Inc"}},
                                         {"common_word", {"a", "deal", "between", "and", "today", "ltd", "inc"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("a deal between zorvath today."), V{"ORGANIZATION:zorvath"});
  EXPECT_EQ(found("a deal between quarrow ltd and brask today."), V{"ORGANIZATION:quarrow ltd"});
}

// A place or firm of the tagger's of one word after a verb that addresses
// someone ("Tell Priyanka that", "remind Siobhan", "Help Wojciech", "Pick
// up Persephone") is a person; here a
// tagger taught firms there. Not a word a place, company or everyday list
// knows, nor an acronym; nothing is added where the tagger found nothing.
TEST(PiiTaggerTest, AFirmAfterAVerbThatAddressesSomeoneIsAPerson) {
  const PiiTagger tagger =
      firms_tagger({"Tell ", "Please remind "}, {"Zorvath", "Brask", "Velmora", "Quarrow", "Dellack", "Ondine"},
                   " that it rained.",
                   {{"city", {"Lisbon", "Guadalupe"}},
                    {"first_name", {"Guadalupe"}},
                    {"common_word", {"tell", "please", "remind", "that", "it", "rained", "apple"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Tell Zorvath that it rained."), std::vector<std::string>{"PERSON:Zorvath"});
  EXPECT_EQ(found("Please remind Quillborne that it rained."), std::vector<std::string>{"PERSON:Quillborne"});
  // (And one helped or picked up, in text with capitals.)
  EXPECT_EQ(found("Please help Quillborne that it rained."), std::vector<std::string>{"PERSON:Quillborne"});
  EXPECT_EQ(found("Please pick up Quillborne that it rained."), std::vector<std::string>{"PERSON:Quillborne"});
  expect_no_names(tagger, {"Tell Lisbon that it rained.", "Tell Apple that it rained.", "Tell ZORVATH that it rained."});
  // A place's name that a first-name list knows too is the person before
  // "that" or "about", not before other words.
  EXPECT_EQ(found("Please remind Guadalupe that it rained."), std::vector<std::string>{"PERSON:Guadalupe"});
  EXPECT_EQ(found("Tell Guadalupe about it."), std::vector<std::string>{"PERSON:Guadalupe"});
  EXPECT_EQ(values_of(tagger, "Tell Guadalupe it rained.", PiiType::kPerson), std::vector<std::string>{});
}

// In text with capitals, the capitalised words after a word of writing or
// speaking to someone, or of something sent, and "to" ("an email to",
// "talk to", "a reminder to") are a person,
// where the tagger found nothing: here one that learned no names at all.
// Not words a place list knows (but a name list does not), nor everyday
// or company words, nor words in capitals.
TEST(PiiTaggerTest, APersonWrittenToIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"city", {"Lisbon"}},
       {"company_name", {"Acme"}},
       {"name_prefix", {"Mrs."}},
       {"common_word", {"the", "code", "is", "today", "write", "an", "email", "to", "send", "letter", "forward",
                        "note", "accounting", "i", "talked", "reach", "out", "a", "reminder", "flowers"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Write an email to Zorvath Quillborne today."), V{"PERSON:Zorvath Quillborne"});
  EXPECT_EQ(found("I talked to Velmora today."), V{"PERSON:Velmora"});
  EXPECT_EQ(found("Reach out to Brask Ondine today."), V{"PERSON:Brask Ondine"});
  // Or sent something: "a reminder to", "flowers to".
  EXPECT_EQ(found("Send a reminder to Velmora today."), V{"PERSON:Velmora"});
  EXPECT_EQ(found("Send flowers to Velmora today."), V{"PERSON:Velmora"});
  // A title and its stop after the cue leave the name to the title's rule.
  EXPECT_EQ(values_of(tagger, "Write an email to Mrs. Zorvath-Quill today.", PiiType::kPerson), V{"Zorvath-Quill"});
  expect_no_names(tagger, {"Send the letter to Lisbon today.", "Forward the note to Accounting today.",
                           "Write an email to Acme today.", "Write an email to ZORVATH today.",
                           "Send it to Zorvath today."});
}

// In text without capitals, "i'm" or "i am" before a word that no list
// knows or a first name that no everyday list knows, where the word ends a
// clause, is a speaker saying who they are, as after "im" without its
// apostrophe; here a tagger that learned no names at all. A greeting takes
// no contraction for a name, nor "im".
TEST(PiiTaggerTest, ASpeakerSayingWhoTheyAreInSmallLettersIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Anna"}},
       {"common_word", {"the", "code", "is", "today", "i", "am", "and", "need", "help", "tired", "hungry", "nice", "to",
                        "meet", "you", "hi", "so"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("i'm zorvath and i need help."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("i am zorvath, nice to meet you."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("hi i'm anna."), V{"PERSON:anna"});
  EXPECT_EQ(found("hi im anna and i need help"), V{"PERSON:anna"});
  EXPECT_EQ(found("hi im anna"), V{"PERSON:anna"});
  expect_no_names(tagger, {"i'm tired and hungry.", "i'm zorvath so tired today.", "i'm zo.", "im tired and hungry.",
                           "hi im tired."});
}

// In text with capitals, a capitalised first name that no span covers
// one space after a verb that addresses or contacts someone is a name,
// whatever else the lists know it as ("Tell Pat I said hi", "and cc
// Kwame"), as is a given name alone ("cc Brianna"); here a tagger that
// learned no names at all. Not a word no first-name list knows, one in
// capitals throughout, nor one before another capitalised word (a full
// name, whose rule takes both words).
TEST(PiiTaggerTest, ACapitalisedFirstNameAfterAVerbThatAddressesSomeoneIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Pat", "Bill", "Kwame"}},
       {"last_name", {"Gates"}},
       {"city", {"Pat", "Kwame Danso"}},
       {"common_word", {"the", "code", "is", "today", "tell", "remind", "i", "said", "hi", "pat", "bill", "to", "pay",
                        "me", "more", "gates", "about", "send", "it", "him", "and", "cc", "email"}},
       {"given_name", {"Brianna"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Tell Pat I said hi."), V{"PERSON:Pat"});
  EXPECT_EQ(found("Please remind Bill to pay."), V{"PERSON:Bill"});
  EXPECT_EQ(found("Tell Bill Gates I said hi."), V{"PERSON:Bill Gates"});
  EXPECT_EQ(found("Send it to him and cc Kwame."), V{"PERSON:Kwame"});
  EXPECT_EQ(found("Send it to him and email Brianna today."), V{"PERSON:Brianna"});
  expect_no_names(tagger, {"Tell Zorvath I said hi.", "Tell PAT I said hi.", "Remind Me More about it.",
                           "Send it to him and cc Zorvath."});
}

// Two or three capitalised words set off by a comma after a noun in small
// letters that names one doer ("our keynote speaker, Wangari Muta") are a
// person, here where the tagger learned firms there; not after a plural,
// nor words a place's list knows, a firm's noun or a group's word.
TEST(PiiTaggerTest, ANameSetOffAfterADoerIsAPerson) {
  const PiiTagger tagger =
      firms_tagger({"Meet our speaker, ", "Meet our speakers, "}, {"Zorvath Quill", "Brask Ondine", "Velmora Tusk"},
                   " today.", {{"city", {"Lisbon"}}, {"common_word", {"meet", "our", "speaker", "speakers", "today"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Meet our speaker, Quarrow Dellack today."), V{"PERSON:Quarrow Dellack"});
  EXPECT_EQ(found("Meet our speaker, Zorvath Quill today."), V{"PERSON:Zorvath Quill"});
  expect_no_names(tagger, {"Meet our speakers, Quarrow Dellack today.", "Meet our speaker, Lisbon Quill today.",
                           "Meet our speaker, Quarrow Logistics today.", "Meet our speaker, African Quill today.",
                           "Meet our speaker, Quarrow today."});
}

// In text with capitals, a name written in small letters after a word that
// introduces a person is a name, where the decoder and the other passes
// read capitalised words alone: here a tagger that learned no names at
// all. After "name is" or a title with its stop any word but an everyday
// one; after a relative of a possessive, or one written as a title
// ("aunt"), a word no everyday list knows or a first name that is no verb
// or adverb after a relative ("will"); after a verb that addresses
// someone a first name a list knows; after "call", "I'm", a greeting or a
// word written or spoken "to", or a form's field of a name or a role
// ("name:", "Patient:") such a first name that is no everyday word, or
// one a surname follows; before a verb of speech such a first name, and a
// surname after it.
TEST(PiiTaggerTest, ANameInSmallLettersAfterACueIsANameInTextWithCapitals) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Kevin", "Sarah", "Maria", "John", "Emma", "Tom", "David", "Will", "Priya", "Baby", "Dies"}},
       {"last_name", {"Jones", "Garcia", "Miller", "Smith", "Hurst"}},
       {"common_word", {"the", "code", "is", "today", "will", "john", "maria", "tom", "miller", "smith", "baby", "be",
                        "fine", "important", "yeah", "that", "about", "keeps", "said", "won't", "moved", "dies",
                        "landlord", "boss", "out", "friend", "son", "law", "uncle", "so"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Write to my landlord, kevin o'brien, about the heater."), V{"PERSON:kevin o'brien"});
  EXPECT_EQ(found("Summarize this: my friend sarah jones moved."), V{"PERSON:sarah jones"});
  EXPECT_EQ(found("Please remind maria garcia about it."), V{"PERSON:maria garcia"});
  EXPECT_EQ(found("Tell my boss, priya, that I am out."), V{"PERSON:priya"});
  EXPECT_EQ(found("Tell john that I am out."), V{"PERSON:john"});
  EXPECT_EQ(found("Hi, I'm emma. Plan a trip."), V{"PERSON:emma"});
  EXPECT_EQ(found("My name is david miller and I work."), V{"PERSON:david miller"});
  EXPECT_EQ(found("Call dr. hurst about it."), V{"PERSON:hurst"});
  EXPECT_EQ(found("Forward it and cc tom."), V{"PERSON:tom"});
  // (In text without capitals too.)
  EXPECT_EQ(found("forward it and cc tom."), V{"PERSON:tom"});
  EXPECT_EQ(found("Hi kevin, the code is ready."), V{"PERSON:kevin"});
  // The name alone, without its 's.
  EXPECT_EQ(found("Find my son kevin's keys."), V{"PERSON:kevin"});
  // After a relative of a possessive, or an in-law.
  EXPECT_EQ(found("My friend's son, zorvath, is fine."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("My mother-in-law, zorvath, is fine."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"If my son dies today, the code is fine."});
  // After a relative as chat writes it, and an everyday first name whose
  // possessive follows the relative.
  EXPECT_EQ(found("Find my gf priya's keys."), V{"PERSON:priya"});
  EXPECT_EQ(found("Find my son tom's keys."), V{"PERSON:tom"});
  // After a relative, an everyday word that is a first name too where the
  // clause goes on, but a verb that follows a relative as often ("will").
  EXPECT_EQ(found("My son tom keeps it."), V{"PERSON:tom"});
  // After a relative written as a title, a word written or spoken "to",
  // and before a verb of speech (a first name and a surname too).
  EXPECT_EQ(found("Write a card for aunt maria today."), V{"PERSON:maria"});
  EXPECT_EQ(found("Write an email to kevin about it."), V{"PERSON:kevin"});
  EXPECT_EQ(found("Please reply to sarah today."), V{"PERSON:sarah"});
  EXPECT_EQ(found("Summarize what kevin said today."), V{"PERSON:kevin"});
  EXPECT_EQ(found("Summarize what priya hurst said today."), V{"PERSON:priya hurst"});
  // (An everyday first name, where what is said of it follows.)
  EXPECT_EQ(found("Write an email to john about it."), V{"PERSON:john"});
  // (Contacted or addressed, a word no list knows before what is said of
  // it; not before another word.)
  EXPECT_EQ(found("Please call zorvath about it."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Please remind zorvath regarding it."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Please call zorvath today."});
  expect_no_names(tagger, {"Write to disk today.", "My uncle said so.", "Summarize what the code said today.",
                           "Summarize what john said today.", "Write an email to john today."});
  // A form's field of a name or a role, with a colon or an equals sign.
  EXPECT_EQ(found("Fix this record. name: david miller, born here."), V{"PERSON:david miller"});
  EXPECT_EQ(found("Fix this form: Patient: kevin jones, age 4."), V{"PERSON:kevin jones"});
  EXPECT_EQ(found("Fix this row: name=sarah"), V{"PERSON:sarah"});
  expect_no_names(tagger, {"Define Customer: will be created.", "Set name: zorvath today.", "Set name: tom today."});
  // A form's field whose label opens its line holds any words of a name
  // that end its clause: a word no list knows, and a surname the lists
  // know after it, an everyday word too. Not words the clause goes on
  // after, nor an everyday word alone.
  EXPECT_EQ(found("Fix this record.\nName: zorvath"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Fix this record.\nPatient: zorvath smith, born here."), V{"PERSON:zorvath smith"});
  expect_no_names(tagger, {"Fix this record.\nName: zorvath today.", "Fix this record.\nName: the code"});
  // So a field whose label is a person's (kPersonLabels) that the cue
  // words do not find, its value set off by a bracket too; a word no list
  // knows as the surname. Not a title's abbreviation.
  EXPECT_EQ(found("Fix this record.\nEmergency contact: zorvath quill (uncle)"), V{"PERSON:zorvath quill"});
  EXPECT_EQ(found("Fix this record.\nShip to: zorvath quill, 9 Elm St"),
            (V{"PERSON:zorvath quill", "STREET_ADDRESS:9 Elm St"}));
  EXPECT_EQ(found("Ship to: zorvath quill\nFix this record."), V{"PERSON:zorvath quill"});
  expect_no_names(tagger, {"Fix this record.\nShip to: the code", "Fix this record.\nAttn: lt. zorvath",
                           "Fix this record. Ship to: zorvath quill", "Fix this record.\nSent to: zorvath quill"});
  // An everyday word that is a first name too, where the clause goes on
  // ("will be"); an everyday word after a relative; a name only the
  // everyday lists know after "name is"; a contraction's first part; code.
  expect_no_names(tagger, {"My son will be fine.", "My friend said so.",
                           "My name is important.", "My son didn't go.", "Hey baby yeah, the code is ready.",
                           "We call kevin { Foo }.", "A gap of 30 ms yeah."});
  // A name alone on the line after a letter's closing.
  EXPECT_EQ(found("See the notes.\nBest regards,\nsarah jones"), V{"PERSON:sarah jones"});
  EXPECT_EQ(found("See the notes.\nThanks,\nkevin\n"), V{"PERSON:kevin"});
  EXPECT_EQ(found("See the notes.\nCheers,\npriya zorvath"), V{"PERSON:priya zorvath"});
  expect_no_names(tagger, {"See the notes.\nThanks,\nthe code is fine", "See the notes.\nThanks,\nwill do",
                           "This one works the best at NASA,\nkevin", "See the NASA notes.\nThanks,\nkevin said so"});
  // A cue that ends the text names no one.
  expect_no_names(tagger, {"Tell me my name", "Who is my friend", "Ask dr.", "Hi"});
  // A title without its stop only before a name a list knows; "mr" and
  // "mrs" before any word no everyday list knows.
  EXPECT_EQ(found("Ask ms hurst today."), V{"PERSON:hurst"});
  EXPECT_EQ(values_of(tagger, "It took 30 ms para el timer.", PiiType::kPerson), V{});
  EXPECT_EQ(found("Ask mr zorvath today."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Then mrs zorvath said so."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Ask ms zorvath today.", "Ask mr today."});
  // A caller's "it's" after a greeting, at a line's start or a quote's.
  EXPECT_EQ(found("Reply to this: 'hi it's sarah from the school'"), V{"PERSON:sarah"});
  EXPECT_EQ(found("hey it's kevin, the code is ready. Reply."), V{"PERSON:kevin"});
  expect_no_names(tagger, {"Reply to this: 'hi baby' today."});
  // After a verb that gives something to a person or stars one, or one
  // said "at" a person: such a first name, no everyday word; "given" only
  // as a verb after an auxiliary.
  EXPECT_EQ(found("Then she shouted at kevin today."), V{"PERSON:kevin"});
  EXPECT_EQ(found("He had given sarah the code."), V{"PERSON:sarah"});
  EXPECT_EQ(found("A film starring emma today."), V{"PERSON:emma"});
  expect_no_names(tagger, {"Find the given sarah at NASA today.", "Then she shouted at tom today.", "Then she smiled at the code."});
  // Or its "this is", maybe after a comma, before any word but an everyday
  // one, as after "name is".
  EXPECT_EQ(found("hi, this is zorvath from the code team. Reply."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Reply to this: 'hello this is sarah'"), V{"PERSON:sarah"});
  expect_no_names(tagger, {"hi, this is important. Reply.", "Reply: hi, this is the code.", "Say hi, this is zorvath."});
  // A role without its colon, or a word that gives a name, before such a
  // first name.
  EXPECT_EQ(found("Summarise: patient sarah hurst, 54, is fine."), V{"PERSON:sarah hurst"});
  // (A surname no list knows where the clause ends after it; not chat's
  // shorthand.)
  EXPECT_EQ(found("Summarise: patient sarah zorvath, 54, is fine."), V{"PERSON:sarah zorvath"});
  EXPECT_EQ(found("Please call kevin asap, the code is ready."), V{"PERSON:kevin"});
  // (Or before an everyday word; not before a word no list knows.)
  EXPECT_EQ(found("Summarise: patient sarah zorvath is fine."), V{"PERSON:sarah zorvath"});
  EXPECT_EQ(found("Please call kevin asap today."), V{"PERSON:kevin"});
  EXPECT_EQ(found("Summarise: patient sarah zorvath velmora."), V{"PERSON:sarah"});
  // (A role and its comma before a name set off by another: a first
  // name, an everyday word too, or a word no list knows.)
  EXPECT_EQ(found("Summarise: the tenant, will zorvath, is fine."), V{"PERSON:will zorvath"});
  EXPECT_EQ(found("Summarise: the tenant, zorvath, is fine."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Summarise: the tenant, will, is fine.", "Summarise: the tenant, the code, is fine.",
                           "Summarise: the tenant, zorvath is fine."});
  // (A word no list knows before a surname a list knows, an everyday word
  // too, after a role.)
  EXPECT_EQ(found("Summarise: patient zorvath miller is fine."), V{"PERSON:zorvath miller"});
  expect_no_names(tagger, {"Summarise: patient zorvath velmora is fine.", "Summarise: patient code miller is fine."});
  EXPECT_EQ(found("Write about a girl called sarah today."), V{"PERSON:sarah"});
  EXPECT_EQ(found("Write about a boy named kevin."), V{"PERSON:kevin"});
  expect_no_names(tagger, {"Summarise: the patient will be fine.", "Summarise: patient baby is fine.",
                           "Write a function called baby today.", "Write a file named code today."});
  // A word no list knows before "who" and a word, after a cue that asks
  // for a first name a list knows: "respond to fenella who asked".
  EXPECT_EQ(found("Please reply to zorvath who is fine."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Write about a girl called zorvath, who is fine."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Please reply to zorvath today.", "Please reply to the code who is fine.",
                           "Please reply to zorvath who?", "Please reply to zo who is fine."});
  // So is one addressed before "to" and a verb, one blank apart: "could
  // you ask fenella to send me the slides". Not before "to" and a word
  // that opens a noun phrase, nor before "to" alone.
  // After "name was" too, and after a surname's "is", "was" or "to".
  EXPECT_EQ(found("His name was zorvath, it is fine."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Please fix my surname to zorvath."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("my surname is zorvath."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Please fix my surname for zorvath.", "The name to zorvath is fine."});
  EXPECT_EQ(found("Could you ask zorvath to send the code?"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("could you ask zorvath to send the code?"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Please remind zorvath to be fine."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Could you ask zorvath to the code?", "Could you ask zorvath to?",
                           "Could you ask zorvath  to send the code?", "Could you ask the code to send it?"});
}

// A word in small letters that no list knows, or that a first-name list
// alone knows, after "for", "to", "with" or "about" and before "who" and
// a word that is no pronoun, maybe after a comma: a person, as firms and
// places take "which" or "that" ("a gift for thorsten, who likes
// hiking"). In any text; a firm or place of the decoder over the word
// alone becomes the name.
TEST(PiiTaggerTest, AWordInSmallLettersBeforeWhoIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Kevin", "Will"}},
       {"city", {"Paris"}},
       {"common_word", {"the", "for", "to", "with", "from", "who", "is", "a", "gift", "people", "like", "likes", "will",
                        "find", "cats", "hiking", "she", "told", "us", "monks", "two"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Find a gift for zorvath, who likes hiking."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("find a gift for zorvath who likes hiking."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Find a gift for kevin, who likes hiking."), V{"PERSON:kevin"});
  EXPECT_EQ(found("FIND A GIFT FOR ZORVATH, WHO LIKES HIKING."), V{"PERSON:ZORVATH"});
  // Not an everyday word or a place, nor after "from" (the people of a
  // place), nor where "who" asks ("who she is"), nor a word of two letters.
  expect_no_names(tagger, {"Find a gift for people who like cats.", "Find a gift for will, who likes hiking.",
                           "Find a gift for paris, who likes hiking.", "two monks from zorvath, who told us",
                           "Find a gift to zorvath who she is.", "Find a gift for zo, who likes hiking.",
                           "Find a gift for zorvath, who?"});
}

// In text with capitals, a first name in small letters after "with",
// "from" or "by" ("lunch with derek", "the notes from rachel") that no
// everyday or place's list knows, or a given name alone, is a name; so are
// the first names coordinated with a name found after a cue ("to jessica
// and tom", "carlos, maria, and jen"). A contacted everyday first name is
// one before "that" ("text mike that"); so is such a first name beside
// the speaker: "me and kevin", "kevin and me", "priya and I"; and an
// account's name after "user=" or "login:" ("user=dmitri.volkov").
TEST(PiiTaggerTest, APersonMetOrHeardFromInSmallLettersIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Derek", "Rachel", "Jessica", "Tom", "Carlos", "Maria", "Mike", "Paris", "Will", "Melissa"}},
       {"city", {"Paris"}},
       {"given_name", {"Jen", "Priya"}},
       {"common_word", {"the", "and", "or", "to", "with", "from", "by", "python", "tom", "maria", "mike", "will", "that",
                        "about", "next", "notes", "lunch", "is", "a", "draft", "sure", "default", "can", "was"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Schedule lunch with derek next Tuesday."), V{"PERSON:derek"});
  EXPECT_EQ(found("Summarize the notes from rachel."), V{"PERSON:rachel"});
  EXPECT_EQ(found("Review the draft by priya today."), V{"PERSON:priya"});
  EXPECT_EQ(found("Plan lunch with derek and priya."), (V{"PERSON:derek", "PERSON:priya"}));
  // (Before a closing quote mark too.)
  EXPECT_EQ(found("Say 'lunch with derek' today."), V{"PERSON:derek"});
  // Not a word an everyday or a place's list knows, nor one not one space
  // after the cue.
  expect_no_names(tagger, {"Run it with python today.", "I flew from paris today.", "Sort it by default.",
                           "Plan lunch with tom next week.", "Plan lunch at NASA with\nderek next week."});
  // The names coordinated with a name after a cue.
  EXPECT_EQ(found("Draft a message to jessica and tom about the launch."), (V{"PERSON:jessica", "PERSON:tom"}));
  EXPECT_EQ(found("Invite carlos, maria, and jen to the party."),
            (V{"PERSON:carlos", "PERSON:maria", "PERSON:jen"}));
  EXPECT_EQ(found("Lunch with derek or melissa today."), (V{"PERSON:derek", "PERSON:melissa"}));
  // Not a verb that names people too, nor a place.
  EXPECT_EQ(found("Write to jessica and will do it."), V{"PERSON:jessica"});
  EXPECT_EQ(found("Write to jessica and paris at NASA today."), V{"PERSON:jessica"});
  // A word written "to" that responds; a contacted everyday first name
  // before "that".
  EXPECT_EQ(found("Help me respond to melissa today."), V{"PERSON:melissa"});
  EXPECT_EQ(found("Can you text mike that I'm late?"), V{"PERSON:mike"});
  expect_no_names(tagger, {"Can you text mike today?"});
  // Beside the speaker: after "me and", before "and me" or "and I".
  EXPECT_EQ(found("Yesterday me and derek went out."), V{"PERSON:derek"});
  EXPECT_EQ(found("Me and derek or rachel went out."), (V{"PERSON:derek", "PERSON:rachel"}));
  EXPECT_EQ(found("It was derek and me in the end."), V{"PERSON:derek"});
  EXPECT_EQ(found("So priya and I are going to Rome."), V{"PERSON:priya"});
  expect_no_names(tagger, {"So python and I are friends.", "It was paris and me in the end.",
                           "Yesterday me and tom went out.", "So priya\nand I went to Rome.",
                           "Yesterday me and\nderek went to Rome."});
  // After "me and", a word no list knows too; so before "and I" or "and
  // me", in small letters or capitalised (but in capitals throughout, or a
  // word a place's or everyday list knows).
  EXPECT_EQ(found("Yesterday me and zorvath went out."), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Yesterday me and zo went out.", "Yesterday me and lunch went out."});
  EXPECT_EQ(found("Can zorvath and I split the bill?"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Can Zorvath and I split the bill?"), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("It was Zorvath and me in the end."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("Can Priya and I split the bill?"), V{"PERSON:Priya"});
  expect_no_names(tagger, {"Can ZORVATH and I split the bill?", "Can Paris and I split the bill?",
                           "Can Python and I split the bill?", "Can Zo and I split the bill?"});
  // (Only where it opens its words: not a name's last word, "ruairí ó
  // dochartaigh and I".)
  expect_no_names(tagger, {"So \u00f3 zorvath and I left.", "So velmora zorvath and I left."});
  // Explained to, before what is explained, a word no list knows.
  EXPECT_EQ(found("Can you explain to zorvath why the sky is blue?"), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Can you explain to zorvath today?", "Can you explain to python why it is slow?"});
  // A key of a person's name joined by an underscore, before ':' or '='
  // and maybe a quote: any word no everyday list knows that ends the
  // clause.
  EXPECT_EQ(found("saved first_name=derek last_name=zorvath"), (V{"PERSON:derek", "PERSON:zorvath"}));
  EXPECT_EQ(found("patient_name = 'derek zorvath'  # intake"), V{"PERSON:derek zorvath"});
  expect_no_names(tagger, {"saved file_name=zorvath", "saved last_name=python"});
  // A given name alone, contacted; a contacted word no list knows before
  // what the speaker says of themselves.
  EXPECT_EQ(found("Can you text jen that I'm late?"), V{"PERSON:jen"});
  EXPECT_EQ(found("Can you text zorvath I'll be late?"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Can you text zorvath we're late?"), V{"PERSON:zorvath"});
  expect_no_names(tagger, {"Can you text zorvath today?", "Can you text zorvath it'll be late?",
                           "Can you text zorvath Iowa is late?"});
  // (A pronoun joined to a name is none: "Me and Derek".)
  EXPECT_EQ(found("Me and Derek went out."), V{"PERSON:Derek"});
  // An account's field: a first name, maybe a surname after ".".
  EXPECT_EQ(found("Log: login ok user=derek.zorvath at 10:11"), V{"PERSON:derek.zorvath"});
  EXPECT_EQ(found("Login: rachel.zorvath failed."), V{"PERSON:rachel.zorvath"});
  EXPECT_EQ(found("ERROR user=derek"), V{"PERSON:derek"});
  expect_no_names(tagger, {"Set user=python today.", "Log: user=derek.zorvath.example ok", "Log: user=maria ok",
                           "Log: NASA user derek ok"});
}

// A handle that names a person: a mention in a chat or a code review, a
// first name and a surname joined by a stop in a chat's export. Not a
// decorator, a package's scope or code's identifier, nor an email's parts.
TEST(PiiTaggerTest, AHandleThatNamesAPersonIsAName) {
  const PiiTagger tagger = numbers_only_tagger({{"first_name", {"Derek", "Mark", "Lund", "Len"}},
                                                {"last_name", {"Zorvath", "Ruffalo", "Marsh"}},
                                                {"city", {"Lund", "Kelvra"}},
                                                {"given_name", {"Priya", "Json"}},
                                                {"common_word", {"the", "cc", "please", "can", "you", "mark", "app", "route",
                                                                 "types", "node", "thanks", "deploy", "is", "done", "on",
                                                                 "dm", "from", "marsh", "x"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Please look, and cc @derek.vantrell on it."), V{"PERSON:derek.vantrell"});
  EXPECT_EQ(found("@vantrell-derek can you look?"), V{"PERSON:vantrell-derek"});
  EXPECT_EQ(found("Thanks @priya!"), V{"PERSON:priya"});
  EXPECT_EQ(found("Ping @Priya_Kelvra on it."), V{"PERSON:Priya_Kelvra"});
  EXPECT_EQ(found("@mark.ruffalo thanks"), V{"PERSON:mark.ruffalo"});
  EXPECT_EQ(found("[10:02] derek.kelvra: deploy is done"), V{"PERSON:derek.kelvra"});
  EXPECT_EQ(found("[10:03] priya.zorvath: thanks"), V{"PERSON:priya.zorvath"});
  // Joined by an underscore, a surname the lists know, an everyday word
  // too after a first name that is none.
  // The owner of a note of code, in brackets after it; not an everyday
  // word, nor a bug's number.
  EXPECT_EQ(found("// TODO(zorvath): remove it"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("# FIXME(Vantrell) on it"), V{"PERSON:Vantrell"});
  expect_no_names(tagger, {"// TODO(deploy): remove it", "// TODO(b/12345): remove it", "// TODO: zorvath"});
  EXPECT_EQ(found("DM from derek_zorvath: thanks"), V{"PERSON:derek_zorvath"});
  EXPECT_EQ(found("DM from derek_marsh: thanks"), V{"PERSON:derek_marsh"});
  expect_no_names(tagger,
                  {"Set derek_done = 1 on NASA.", "DM from mark_marsh: thanks", "Set derek_vantrell = 1 on NASA."});
  // Not an everyday first name alone nor beside a word no surname's list
  // knows, not a place's, nor a word of code (an inner capital, a word too
  // long for a name), not the first name second after a stop, nor a
  // longer identifier or an email.
  expect_no_names(tagger, {"@app.route('/')", "@pytest.mark.parametrize", "see @types/node", "@mark.vantrell thanks",
                           "@lund thanks", "const t = bytesToSend.len;", "except json.jsondecodeerror:",
                           "x = derek.vantrell.name", "the.derek.vantrell", "vantrell.derek is done",
                           "call derek.vantrell(x)", "write to derek.vantrell@example.org"});
}

// A place or firm of the tagger's of one word after "ask for" ("Ask for
// Siobhan at the front desk") is the person asked for; here a tagger
// taught firms there. Not a word a place, company or everyday list knows,
// nor one in capitals throughout; nothing is added where the tagger found
// nothing.
TEST(PiiTaggerTest, AFirmAskedForIsAPerson) {
  const PiiTagger tagger =
      firms_tagger({"Ask for ", "Please ask for "}, {"Zorvath", "Brask", "Velmora", "Quarrow", "Dellack", "Ondine"},
                   " at the desk.",
                   {{"city", {"Lisbon"}},
                    {"first_name", {"Anna"}},
                    {"common_word", {"ask", "for", "please", "at", "the", "desk", "apple"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(found("Ask for Zorvath at the desk."), std::vector<std::string>{"PERSON:Zorvath"});
  EXPECT_EQ(found("Please ask for Quillborne at the desk."), std::vector<std::string>{"PERSON:Quillborne"});
  expect_no_names(tagger, {"Ask for Lisbon at the desk.", "Ask for Apple at the desk.", "Ask for ZORVATH at the desk."});
  // In small letters, a first name a list knows.
  EXPECT_EQ(found("Please ask for anna at the desk."), std::vector<std::string>{"PERSON:anna"});
}

// In text with capitals, a firm of the tagger's that is a first name and a
// surname (or a word no list knows) is a person: here a tagger that learned
// firms of two unknown words after "recorded for".
TEST(PiiTaggerTest, FirmsOfAFirstNameAndASurnameArePeople) {
  const PiiTagger tagger =
      firms_tagger({"It was recorded for "}, {"Zorvath Quill", "Brask Ondine", "Velmora Tusk", "Quarrow Finch", "Dellack Rue"},
                   " today.",
                   {{"first_name", {"Wanda", "Tom", "German"}},
                    {"last_name", {"Horvath", "Wang", "Rue"}},
                    {"city", {"Lyon"}},
                    {"common_word", {"it", "was", "recorded", "for", "today", "tom", "lei", "and", "rue"}},
                    {"company_suffix", {"Ltd"}}});
  auto found = [&](const std::string& who) { return typed_spans(tagger, "It was recorded for " + who + " today."); };
  ASSERT_EQ(found("Zorvath Quill"), std::vector<std::string>{"ORGANIZATION:Zorvath Quill"});
  EXPECT_EQ(found("Wanda Horvath"), std::vector<std::string>{"PERSON:Wanda Horvath"});
  EXPECT_EQ(found("Wanda Quill"), std::vector<std::string>{"PERSON:Wanda Quill"});
  // A first name no list knows before a surname of a Gaelic shape.
  EXPECT_EQ(found("Siobhan O'Brien"), std::vector<std::string>{"PERSON:Siobhan O'Brien"});
  EXPECT_EQ(found("Aoife MacLeod"), std::vector<std::string>{"PERSON:Aoife MacLeod"});
  EXPECT_EQ(found("Siobhan Quill"), std::vector<std::string>{"ORGANIZATION:Siobhan Quill"});
  // ... or before a surname of the last-name lists; not a first word of
  // two letters, nor one a list knows as something else.
  EXPECT_EQ(found("Cressida Horvath"), std::vector<std::string>{"PERSON:Cressida Horvath"});
  EXPECT_EQ(found("Jj Horvath"), std::vector<std::string>{"ORGANIZATION:Jj Horvath"});
  EXPECT_EQ(found("Lyon Horvath"), std::vector<std::string>{"ORGANIZATION:Lyon Horvath"});
  // A first name that an everyday list knows too only before a surname a
  // list knows; not a group word first; not a firm's noun or suffix after
  // it.
  EXPECT_EQ(found("Tom Horvath"), std::vector<std::string>{"PERSON:Tom Horvath"});
  EXPECT_EQ(found("Tom Quill"), std::vector<std::string>{"ORGANIZATION:Tom Quill"});
  EXPECT_EQ(found("German Quill"), std::vector<std::string>{"ORGANIZATION:German Quill"});
  EXPECT_EQ(found("Wanda Logistics"), std::vector<std::string>{"ORGANIZATION:Wanda Logistics"});
  // The family name first, as Chinese names are written: a surname no
  // other list knows, then a given name of two to four letters that no
  // place's or company's list knows.
  EXPECT_EQ(found("Wang Lei"), std::vector<std::string>{"PERSON:Wang Lei"});
  EXPECT_EQ(found("Wang Quillby"), std::vector<std::string>{"ORGANIZATION:Wang Quillby"});
  EXPECT_EQ(found("Wang Lyon"), std::vector<std::string>{"ORGANIZATION:Wang Lyon"});
  EXPECT_EQ(found("Rue Lei"), std::vector<std::string>{"ORGANIZATION:Rue Lei"});
  EXPECT_EQ(found("Wang Labs"), std::vector<std::string>{"ORGANIZATION:Wang Labs"});
  // A first name and a word no list knows after "and" and a person's full
  // name.
  const std::vector<std::string> pair = typed_spans(tagger, "It was recorded for Wanda Horvath and Tom Quill today.");
  EXPECT_EQ(pair, (std::vector<std::string>{"PERSON:Wanda Horvath", "PERSON:Tom Quill"}));
}

// The census's surnames, which are everyday words too ("Hunter", "Banks"),
// make a firm of a first name and one a person as a last name's do; not
// after a place's name ("Florida Keys").
TEST(PiiTaggerTest, FirmsOfAFirstNameAndACensusSurnameArePeople) {
  const std::vector<GazetteerList> lists = {
      {"first_name", {"Miles", "Florida"}},
      {"state", {"Florida"}},
      {"common_word", {"it", "was", "recorded", "for", "today", "miles", "hunter", "keys", "quill"}},
      {"company_suffix", {"Ltd"}}};
  std::vector<GazetteerList> with_census = lists;
  with_census.push_back({"census_surname", {"Hunter", "Keys"}});
  const std::vector<std::string> firms = {"Zorvath Quill", "Brask Ondine", "Velmora Tusk", "Quarrow Finch"};
  const PiiTagger tagger = firms_tagger({"It was recorded for "}, firms, " today.", with_census);
  const PiiTagger without = firms_tagger({"It was recorded for "}, firms, " today.", lists);
  auto found = [](const PiiTagger& t, const std::string& who) {
    return typed_spans(t, "It was recorded for " + who + " today.");
  };
  ASSERT_EQ(found(without, "Miles Hunter"), std::vector<std::string>{"ORGANIZATION:Miles Hunter"});
  EXPECT_EQ(found(tagger, "Miles Hunter"), std::vector<std::string>{"PERSON:Miles Hunter"});
  EXPECT_EQ(found(tagger, "Miles Quill"), std::vector<std::string>{"ORGANIZATION:Miles Quill"});
  EXPECT_EQ(found(tagger, "Florida Keys"), std::vector<std::string>{"ORGANIZATION:Florida Keys"});
  // A given name alone (only_a_given_name()) counts as a first name, but
  // not before a census surname that is an everyday word too.
  std::vector<GazetteerList> with_given = with_census;
  with_given[2].entries.push_back("woods");
  with_given.push_back({"census_surname", {"Siddiqui", "Woods"}});
  with_given.push_back({"given_name", {"Ayesha", "Bretton"}});
  const PiiTagger given = firms_tagger({"It was recorded for "}, firms, " today.", with_given);
  EXPECT_EQ(found(given, "Ayesha Siddiqui"), std::vector<std::string>{"PERSON:Ayesha Siddiqui"});
  EXPECT_EQ(found(given, "Bretton Woods"), std::vector<std::string>{"ORGANIZATION:Bretton Woods"});
  // A firm of one such word right after "from", "to", "with" or "cc"
  // (not elsewhere: "at Uber").
  const PiiTagger one_word = firms_tagger({"An email from ", "I work at "}, {"Zorvath", "Brask", "Velmora", "Quarrow"},
                                          " today.", {{"given_name", {"Latasha", "Uber"}}});
  EXPECT_EQ(typed_spans(one_word, "An email from Latasha today."), std::vector<std::string>{"PERSON:Latasha"});
  EXPECT_EQ(typed_spans(one_word, "I work at Uber today."), std::vector<std::string>{"ORGANIZATION:Uber"});
  // (Elsewhere a firm of one word that is only a given name is a person,
  // but after "at", an article, a determiner, "of" or "in": "Brask and
  // Latasha", not "at Uber", "the Uber", "of Uber".)
  for (const char* text : {"I work at Brask and Latasha today.", "I work at Brask, Latasha today."}) {
    const std::vector<std::string> spans = typed_spans(one_word, text);
    EXPECT_TRUE(std::find(spans.begin(), spans.end(), "PERSON:Latasha") != spans.end()) << text;
  }
  for (const char* text : {"I work at the Uber today.", "I work at of Uber today.", "I work in Uber today."}) {
    const std::vector<std::string> spans = typed_spans(one_word, text);
    EXPECT_TRUE(std::find(spans.begin(), spans.end(), "PERSON:Uber") == spans.end()) << text;
  }
}

// In text with capitals, two capitalised words that no span covers, a
// first name and a surname of the lists or the census, are a name where
// the decoder, which took them for everyday words, found none; not inside
// a run of capitalised words (but after a sentence's first word, not a
// determiner), nor after an article, nor after a place's name, nor a
// street's word; here a tagger that learned no names at all.
TEST(PiiTaggerTest, AFirstNameAndACensusSurnameAreAName) {
  const std::vector<GazetteerList> lists = {
      {"first_name", {"Frank", "Bill", "Florida"}},
      {"state", {"Florida"}},
      {"street_suffix", {"Park"}},
      {"common_word", {"the", "code", "is", "today", "frank", "long", "bill", "gray", "called", "thank", "said", "i",
                       "had", "lunch", "with", "yesterday", "how", "to", "pay", "your", "online", "we", "sailed", "keys",
                       "park"}}};
  std::vector<GazetteerList> with_census = lists;
  with_census.push_back({"census_surname", {"Long", "Gray", "Keys", "Park"}});
  const PiiTagger tagger = numbers_only_tagger(with_census);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(typed_spans(numbers_only_tagger(lists), "Frank Long called."), std::vector<std::string>{});
  EXPECT_EQ(found("Frank Long called."), std::vector<std::string>{"PERSON:Frank Long"});
  EXPECT_EQ(found("I had lunch with Bill Gray yesterday."), std::vector<std::string>{"PERSON:Bill Gray"});
  EXPECT_EQ(found("Thank Frank Long today. Thank Bill Gray I said."),
            (std::vector<std::string>{"PERSON:Frank Long", "PERSON:Bill Gray"}));
  expect_no_names(tagger, {"How To Pay Your Bill Gray Online", "How to pay Bill Gray Online",
                           "We sailed to the Florida Keys today.", "Frank Park called.", "Frank Zorvath called.",
                           "FRANK LONG called.", "The Frank Long called.", "I had the Bill Gray today."});
}

// In text written in a script without capitals, the name a writer gives
// as theirs after a cue that says "my name is" (or before Japanese "と申し
// ます") is a name; here a tagger that learned only numbers. Not where the
// cue's words say something else ("我叫外卖了": I ordered a takeaway; "我叫
// 他过来": I called him over). In Chinese also a person told, contacted
// or asked about by a common surname ("请给李娜发邮件"), not an everyday word
// that opens with a surname's ideograph ("和高手一起").
TEST(PiiTaggerTest, ANameGivenAfterMyNameIsInAScriptWithoutCapitalsIsAName) {
  const PiiTagger tagger = numbers_only_tagger({{"common_word", {"the"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(persons("我叫王伟，我住在北京。"), V{"王伟"});
  EXPECT_EQ(persons("你好，我的名字是李小明。"), V{"李小明"});
  EXPECT_EQ(persons("私の名前は田中太郎です。"), V{"田中太郎"});
  EXPECT_EQ(persons("こちらは山田と申します。"), V{"山田"});
  EXPECT_EQ(persons("제 이름은 김민수입니다."), V{"김민수"});
  EXPECT_EQ(persons("اسمي أحمد الخطيب وأسكن في عمان"), V{"أحمد الخطيب"});
  EXPECT_EQ(persons("שמי דוד כהן"), V{"דוד כהן"});
  EXPECT_EQ(persons("मेरा नाम राहुल शर्मा है।"), V{"राहुल शर्मा"});
  for (const char* text : {"我叫外卖了。", "我叫他过来。", "我叫车", "이 제품의 이름은 갤럭시입니다.", "मेरा नाम है"}) {
    EXPECT_EQ(persons(text), V{}) << text;
  }
  // In Chinese, a common surname and one or two ideographs after a word of
  // telling, contacting or going with, or before a word of a person's
  // data, where a verb, particle or word of time ends it.
  EXPECT_EQ(persons("请给李娜发邮件。"), V{"李娜"});
  EXPECT_EQ(persons("告诉王伟明天开会。"), V{"王伟"});
  EXPECT_EQ(persons("把报告交给王小明吧。"), V{"王小明"});
  EXPECT_EQ(persons("请问刘洋的电话是多少？"), V{"刘洋"});
  for (const char* text : {"请帮我给客户写一封邮件。", "我们和高手一起比赛。", "找方法解决问题。", "计算龙身和龙尾的位置"}) {
    EXPECT_EQ(persons(text), V{}) << text;
  }
}

// A building numbered as South Asian addresses write it ("House No. 14",
// "H.No. 3-4-5") is an address, with the sector or the street after a
// comma; here a tagger that learned only numbers. Not "no" alone before a
// number, nor a span that a span found before overlaps.
TEST(PiiTaggerTest, ABuildingNumberedAsSouthAsianAddressesWriteItIsAnAddress) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"street_suffix", {"Road", "Hills"}},
       {"common_word", {"house", "no", "sector", "flat", "road", "main", "my", "address", "is", "there", "here",
                        "hills", "door", "plot", "phase"}}});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(addresses("House No. 14, Sector 21, Gurugram"), V{"House No. 14, Sector 21"});
  EXPECT_EQ(addresses("Flat No. 5, MG Road, Bengaluru"), V{"Flat No. 5, MG Road"});
  EXPECT_EQ(addresses("H.No. 3-4-5, Banjara Hills, Hyderabad"), V{"H.No. 3-4-5, Banjara Hills"});
  EXPECT_EQ(addresses("Door No 4/12, Chennai"), V{"Door No 4/12"});
  EXPECT_EQ(addresses("my address is flat no 7, 12th main road, indiranagar"), V{"flat no 7, 12th main road"});
  EXPECT_EQ(addresses("There is no 14 here."), V{});
  EXPECT_EQ(addresses("House\nNo. 14 here."), V{});
}

// A word that only the rule-only given names know ("Brianna", which the
// faker lists miss), or only they and a longer place's name ("Tariq" of
// "Jebel Tariq", as a first name's "Timur" of "Jawa Timur"), counts as a
// listed first name where the decoder left
// it out: capitalised inside a sentence, in text with capitals, with a
// surname of the lists or the census, or a word no list knows, right after
// it; in text without capitals as a name list's word, with a census
// surname that no other list knows right after it, but not before a
// street's word, after an article or a determiner, after a word that
// leads to a format or a tool ("as json"), as an answer's choice or in a
// path. Not a world city, a group's word or a month, nor in
// capitals throughout. Here a tagger that learned no names.
TEST(PiiTaggerTest, AGivenNameNoOtherListKnowsIsAName) {
  const std::vector<GazetteerList> lists = {
      {"common_word", {"assign", "the", "ticket", "to", "and", "cc", "please", "forward", "invoice", "by", "friday",
                       "we", "flew", "are", "in", "was", "a", "note", "for", "flowers", "street", "c", "d", "desert",
                       "answer", "application", "your", "cadi", "said"}},
      {"street_suffix", {"Street"}},
      {"first_name", {"Timur"}},
      {"state", {"Jawa Timur", "Jebel Tariq"}}};
  std::vector<GazetteerList> with_given = lists;
  with_given.push_back({"given_name", {"Brianna", "Kwame", "Sherrie", "Nan", "Rome", "Irish", "June", "Taiga",
                                       "Json", "Cadi", "Maclean", "Tariq"}});
  with_given.push_back({"world_city", {"Rome"}});
  with_given.push_back({"census_surname", {"Haddad", "Doe"}});
  with_given[0].entries.push_back("doe");
  const PiiTagger tagger = numbers_only_tagger(with_given);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(typed_spans(numbers_only_tagger(lists), "Assign the ticket to Brianna and cc Kwame."),
            std::vector<std::string>{});
  EXPECT_EQ(found("Assign the ticket to Brianna and cc Kwame."),
            (std::vector<std::string>{"PERSON:Brianna", "PERSON:Kwame"}));
  EXPECT_EQ(found("Please forward the invoice to Sherrie Haddad by Friday."),
            std::vector<std::string>{"PERSON:Sherrie Haddad"});
  EXPECT_EQ(found("Please forward the invoice to Nan Okafor by Friday."),
            std::vector<std::string>{"PERSON:Nan Okafor"});
  EXPECT_EQ(found("a note to brianna for the flowers"), std::vector<std::string>{"PERSON:brianna"});
  // (A name that is one word of a longer place's name stays a name alone.)
  EXPECT_EQ(found("Please forward the invoice to Tariq by Friday."), std::vector<std::string>{"PERSON:Tariq"});
  EXPECT_EQ(found("Assign the ticket to Timur and cc the team."), std::vector<std::string>{"PERSON:Timur"});
  EXPECT_EQ(found("please forward the invoice to sherrie haddad by friday"),
            std::vector<std::string>{"PERSON:sherrie haddad"});
  // A surname that an everyday list knows too, set off by a bracket or a
  // comma after it, or between quote marks; not before a stop, a hyphen,
  // a word or a quote mark that opened before the first name.
  EXPECT_EQ(found("please forward the invoice to brianna doe (the tenant)"),
            std::vector<std::string>{"PERSON:brianna doe"});
  EXPECT_EQ(found("please forward the invoice to brianna doe, the tenant"),
            std::vector<std::string>{"PERSON:brianna doe"});
  EXPECT_EQ(found("please forward the invoice to 'brianna doe' by friday"),
            std::vector<std::string>{"PERSON:brianna doe"});
  // A surname with a hyphen: a particle or a name list's word first.
  EXPECT_EQ(found("a note to brianna al-zorvath for the flowers"), std::vector<std::string>{"PERSON:brianna al-zorvath"});
  EXPECT_EQ(found("a note to brianna timur-zorvath for the flowers"),
            std::vector<std::string>{"PERSON:brianna timur-zorvath"});
  EXPECT_EQ(found("a note to brianna re-sent for the flowers"), std::vector<std::string>{"PERSON:brianna"});
  // Or two words of three letters or more that no list knows.
  EXPECT_EQ(found("a note to brianna zorquil-velmora for the flowers"),
            std::vector<std::string>{"PERSON:brianna zorquil-velmora"});
  EXPECT_EQ(found("a note to brianna zorquil-flowers for the flowers"), std::vector<std::string>{"PERSON:brianna"});
  {
    // Or a surname of the lists (the census's too) before a word that the
    // decoder names alone: here one taught single names after "a note to".
    std::vector<GazetteerList> census = with_given;
    census.push_back({"first_name", {"Brianna"}});
    const PiiTagger decoder = small_letter_names_tagger(
        {"velmora", "quillon", "dastra", "brianna"},
        [](size_t) { return std::pair<std::string, std::string>{"a note to ", " for the flowers"}; }, census);
    ASSERT_EQ(typed_spans(decoder, "a note to velmora for the flowers"), std::vector<std::string>{"PERSON:velmora"});
    EXPECT_EQ(typed_spans(decoder, "a note to brianna haddad-velmora for the flowers"),
              std::vector<std::string>{"PERSON:brianna haddad-velmora"});
    EXPECT_EQ(typed_spans(decoder, "a note to brianna doe-velmora for the flowers"),
              std::vector<std::string>{"PERSON:brianna doe-velmora"});
  }
  // A word no list knows where the clause ends after it or before an
  // everyday word; not before a word no everyday list knows, nor chat's
  // shorthand.
  EXPECT_EQ(found("a note to brianna zorquil?"), std::vector<std::string>{"PERSON:brianna zorquil"});
  EXPECT_EQ(found("a note to brianna zorquil"), std::vector<std::string>{"PERSON:brianna zorquil"});
  EXPECT_EQ(found("a note to brianna zorquil for the flowers"), std::vector<std::string>{"PERSON:brianna zorquil"});
  EXPECT_EQ(found("a note to brianna zorquil velmora"), std::vector<std::string>{"PERSON:brianna"});
  EXPECT_EQ(found("a note to brianna pls for the flowers"), std::vector<std::string>{"PERSON:brianna"});
  for (const std::string text : {"please forward the invoice to brianna doe.", "a note to brianna doe-eyed",
                                 "a note to brianna doe by friday", "a note to brianna doe' by friday"}) {
    EXPECT_EQ(found(text), std::vector<std::string>{"PERSON:brianna"}) << text;
  }
  expect_no_names(tagger, {"It was Rome in June.", "We are Irish.", "Assign the ticket to BRIANNA.",
                           "Assign the ticket to a Brianna.", "Assign the ticket to your Brianna.",
                           "the cadi said", "your cadi said", "a note for maclean street", "c. taiga\nd. desert",
                           "we export it as json for the invoice", "import json",
                           "application/json;", "a note for config.json"});
}

// A capitalised first name before a colon that heads a note ("Feedback
// for Drew:") or after a chat's time stamp ("[10:03] Ruby: hi") is a name,
// whatever else the lists know it as; at a line's start only where no
// everyday list knows it, and after a speaker after a sentence's stop. Not
// a season or month. In small letters a speaker only, no everyday word.
// Here a tagger that learned no names.
TEST(PiiTaggerTest, AFirstNameBeforeAColonThatHeadsANoteIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Drew", "Ruby", "Priya", "Name", "May", "Summer"}},
       {"common_word", {"feedback", "for", "drew", "great", "job", "ruby", "hi", "name", "john", "plans", "may", "tips",
                        "summer", "rest", "the", "code", "is", "today", "can", "you", "send", "it"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Feedback for Drew: great job."), V{"PERSON:Drew"});
  EXPECT_EQ(found("The code is today.\n[10:03] Ruby: hi"), V{"PERSON:Ruby"});
  EXPECT_EQ(found("The code is today.\nPriya: can you send it?"), V{"PERSON:Priya"});
  expect_no_names(tagger, {"Plans for May: rest.", "Tips for Summer: rest.", "The code is today.\nName: john",
                           "The code is today.\nRuby: hi", "Feedback for Drew:great job.", "Feedback for DREW: hi",
                           "Feedback for Zorvath: hi"});
  // A speaker in small letters, after a time stamp or at a line's start,
  // where no everyday list knows the word.
  EXPECT_EQ(found("The code is today.\n[10:03] priya: hi"), V{"PERSON:priya"});
  EXPECT_EQ(found("The code is today.\npriya: can you send it?"), V{"PERSON:priya"});
  expect_no_names(tagger, {"The code is today.\n[10:03] ruby: hi", "The code is today.\nname: it",
                           "Feedback for priya: hi NASA"});
  // After a speaker, a thread pasted on one line goes on after a
  // sentence's stop, whatever else the lists know the name as; not before
  // a speaker, nor a word no first-name list knows.
  EXPECT_EQ(found("The code is today.\nPriya: can you send it? Ruby: hi"), (V{"PERSON:Priya", "PERSON:Ruby"}));
  EXPECT_EQ(found("The code is today.\nPriya: it is. Feedback: great job."), V{"PERSON:Priya"});
  expect_no_names(tagger, {"The code is today. Ruby: hi", "Send it today. Drew: great job."});
}

// After a title of address that the name-prefix lists do not hold
// ("Professor", "Nurse", "Sgt."), the words of a name are a name:
// capitalised in text with capitals, in small letters where no everyday
// list knows them or, after a title that is no verb too, only a last-name
// list of the name lists does; in small letters also a given name only
// that list knows, or a word of four letters or more that no list knows,
// but after a kin's word ("sister"). Here a tagger that learned no names.
TEST(PiiTaggerTest, ANameAfterATitleOfAddressIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Maria", "Will"}},
       {"given_name", {"Adaeze"}},
       {"last_name", {"Smith", "Young", "Will"}},
       {"name_prefix", {"Dr."}},
       {"city", {"Cambridge"}},
       {"census_surname", {"Hendricks"}},
       {"common_word", {"i",      "saw",   "at",    "the",   "store", "smith", "young",   "will",   "general", "motors",
                        "coach",  "outlet", "is",   "small", "nurse", "gave",  "me",      "pills",  "dear",    "emeritus",
                        "of",     "physics", "emailed", "yesterday", "professor", "captain", "said", "so"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("I saw Professor Smith at the store."), V{"PERSON:Smith"});
  EXPECT_EQ(found("Dear Professor Hendricks,"), V{"PERSON:Hendricks"});
  EXPECT_EQ(found("Nurse Zorvath gave me the pills."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("I saw Sgt. Maria Smith at the store."), V{"PERSON:Maria Smith"});
  EXPECT_EQ(found("I saw Professor Hendricks's pills."), V{"PERSON:Hendricks"});
  EXPECT_EQ(found("I saw Professor Zorvath-Quill at the store."), V{"PERSON:Zorvath-Quill"});
  // As other languages address people in full, and a title of the lists
  // with its stop after the title.
  EXPECT_EQ(found("Bitte antworte Herrn Zorvath heute."), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("Sehr geehrter Herr Dr. Zorvath,"), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("Ch\u00e8re Madame Zorvath,"), V{"PERSON:Zorvath"});
  EXPECT_EQ(found("Estimada Se\u00f1ora Hendricks:"), V{"PERSON:Hendricks"});
  // In small letters, in text with capitals and without.
  EXPECT_EQ(found("I emailed professor hendricks yesterday."), V{"PERSON:hendricks"});
  EXPECT_EQ(found("I emailed professor smith yesterday."), V{"PERSON:smith"});
  EXPECT_EQ(found("i saw professor hendricks at the store"), V{"PERSON:hendricks"});
  EXPECT_EQ(found("i saw professor smith at the store"), V{"PERSON:smith"});
  expect_no_names(tagger, {"I saw General Motors at the store.", "I saw the Professor Smith at the store.",
                           "I saw Coach Outlet at the store.", "I saw Captain Cambridge at the store.",
                           "I saw Professor SMITH at the store.", "I emailed the captain will so.",
                           "i saw nurse young at the store", "i saw professor emeritus of physics",
                           "i saw nurse zor at the store", "i saw sister zorvath at the store"});
  EXPECT_EQ(found("i saw nurse zorvath at the store"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("i saw nurse adaeze at the store"), V{"PERSON:adaeze"});
  EXPECT_EQ(found("i emailed judge zorvath"), V{"PERSON:zorvath"});
}

// After a date's day that the tagger read as an address's number ("On
// April 2, Officer Delgado" was an address, the date cut from it a place),
// the name after the title is a name; not where the number is a house's.
// Here a tagger taught addresses of a number and two capitalised words.
TEST(PiiTaggerTest, ANameAfterATitleAfterADatesDayIsAName) {
  std::vector<PiiExample> rows;
  const std::array<std::string, 4> words = {"Quill Brask", "Velmora Dell", "Ondine Tusk", "Quarrow Hale"};
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string address = std::to_string(10 + k) + (k % 2 == 0 ? ", " : " ") + words[k % words.size()];
    rows.push_back({"Send it to " + address + " today.",
                    {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + address.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", {"Zorvath"}}, {"common_word", {"on", "send", "it", "to", "today", "saw", "me"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  using V = std::vector<std::string>;
  ASSERT_EQ(scanned_spans(tagger, "Send it to 12 Velmora Dell today."), V{"STREET_ADDRESS:12 Velmora Dell"});
  for (const char* text : {"On April 12, Officer Zorvath saw me.", "On April 12 Officer Zorvath saw me."}) {
    EXPECT_EQ(scanned_spans(tagger, text), (V{"DATE_TIME:April 12", "PERSON:Zorvath"})) << text;
  }
  EXPECT_EQ(scanned_spans(tagger, "Send it to 12 Officer Zorvath today."), V{"STREET_ADDRESS:12 Officer Zorvath"});
}

// A role written as a title ("Tenant", "Landlord") before a name: a firm
// of the tagger's over the role and the name is the name without the role
// ("Tenant Camille Laurent-Petit" was a firm). A hyphen glued to a word of
// the name joins the next word, which must be a name's too: not "Patient
// Self-Determination Act". Here a tagger taught firms there.
TEST(PiiTaggerTest, ARoleBeforeANameIsNoPartOfIt) {
  const PiiTagger tagger = firms_tagger(
      {"I saw "}, {"Tenant Zorvath Quill", "Landlord Brask Ondine", "Velmora Tusk", "Quarrow Dell"}, " at the store.",
      {{"last_name", {"Okonkwo"}},
       {"common_word", {"i", "saw", "at", "the", "store", "self", "determination", "act", "tenant", "landlord", "patient"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("I saw Velmora Tusk at the store."), V{"ORGANIZATION:Velmora Tusk"});
  EXPECT_EQ(found("I saw Tenant Zorvath Quill at the store."), V{"PERSON:Zorvath Quill"});
  EXPECT_EQ(found("I saw Landlord Brask Ondine at the store."), V{"PERSON:Brask Ondine"});
  EXPECT_EQ(values_of(tagger, "I saw Patient Self-Determination Act at the store.", PiiType::kPerson), V{});
}

// After "I'm", a firm of the tagger's that opens with a surname of the
// lists that no everyday or place's list knows is the speaker, as one
// that opens with a first name is: a family name said first ("I'm Nguyen
// Van An" was a place). Here a tagger taught firms there.
TEST(PiiTaggerTest, AFirmAfterIAmThatOpensWithASurnameIsTheSpeaker) {
  const PiiTagger tagger =
      firms_tagger({"Hi, I'm "}, {"Zorvath Quill", "Brask Ondine", "Velmora Tusk", "Quarrow Dell"}, " and it is late.",
                   {{"last_name", {"Okonkwo", "Young"}},
                    {"common_word", {"hi", "and", "it", "is", "late", "young"}}});
  auto found = [&](const std::string& who) { return typed_spans(tagger, "Hi, I'm " + who + " and it is late."); };
  using V = std::vector<std::string>;
  // (An everyday word that a last-name list knows too stays the firm's.)
  ASSERT_EQ(found("Young Quill"), V{"ORGANIZATION:Young Quill"});
  EXPECT_EQ(found("Okonkwo Quill"), V{"PERSON:Okonkwo Quill"});
}

// In text with capitals, a line of two or three words in capitals
// throughout is a name where a first name opens it and the words after it
// are names' or no list's (a résumé's heading), here where the tagger
// learned no names at all.
TEST(PiiTaggerTest, ALineOfANameInCapitalsIsAName) {
  const PiiTagger tagger = numbers_only_tagger({{"first_name", {"John", "Anna", "Jordan"}},
                                                {"last_name", {"Smith"}},
                                                {"city", {"Jordan"}},
                                                {"common_word", {"the", "code", "is", "today", "smith", "gold", "and"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("JOHN SMITH\nEngineer, Boston"), std::vector<std::string>{"PERSON:JOHN SMITH"});
  EXPECT_EQ(found("Resume\nANNA ZORVATH QUILL\nEngineer"), std::vector<std::string>{"PERSON:ANNA ZORVATH QUILL"});
  // Not an everyday word after the first name, a place's word, more than
  // three words, nor words in capitals inside a sentence.
  EXPECT_EQ(found("ANNA GOLD\nEngineer"), std::vector<std::string>{});
  EXPECT_EQ(found("JORDAN SMITH\nEngineer"), std::vector<std::string>{});
  EXPECT_EQ(found("JOHN SMITH AND ZORVATH\nEngineer"), std::vector<std::string>{});
  EXPECT_EQ(found("Please write to JOHN SMITH today."), std::vector<std::string>{});
}

// Inside a line, a place or firm of the tagger's in capitals throughout,
// a first name and surnames' words (with a surname's particles, "DE LA
// CRUZ"), is a name, and takes the surnames in capitals right after it;
// not a word alone (an acronym as often), nor
// words a place's list knows. Here a tagger that learned firms in
// capitals after "recorded for".
TEST(PiiTaggerTest, ANameInCapitalsInsideALineIsAName) {
  const PiiTagger tagger =
      firms_tagger({"It was recorded for "}, {"ZORVATH QUILL", "BRASK ONDINE", "VELMORA", "QUARROW"}, " today.",
                   {{"first_name", {"John", "Michael", "Anna"}},
                    {"last_name", {"Doe", "Khan"}},
                    {"city", {"Paris"}},
                    {"common_word", {"it", "was", "recorded", "for", "today", "doe"}},
                    {"census_surname", {"Long"}}});
  auto found = [&](const std::string& who) { return typed_spans(tagger, "It was recorded for " + who + " today."); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("ZORVATH QUILL"), V{"ORGANIZATION:ZORVATH QUILL"});
  EXPECT_EQ(found("JOHN MICHAEL"), V{"PERSON:JOHN MICHAEL"});
  EXPECT_EQ(found("ANNA KHAN"), V{"PERSON:ANNA KHAN"});
  EXPECT_EQ(found("ANNA LONG"), V{"PERSON:ANNA LONG"});
  EXPECT_EQ(found("ANNA"), V{"ORGANIZATION:ANNA"});
  EXPECT_EQ(found("ANNA PARIS"), V{"ORGANIZATION:ANNA PARIS"});
  EXPECT_EQ(found("ANNA ZORVATH"), V{"ORGANIZATION:ANNA ZORVATH"});
  // A surname's particles, and the word after them whatever a place's
  // list knows it as; not a particle last.
  EXPECT_EQ(found("ANNA DE LA PARIS"), V{"PERSON:ANNA DE LA PARIS"});
  EXPECT_EQ(found("JOHN VAN DOE"), V{"PERSON:JOHN VAN DOE"});
  EXPECT_EQ(found("ANNA DE"), V{"ORGANIZATION:ANNA DE"});
  // A tagger that learned firms of one word takes the first name alone.
  const PiiTagger one_word =
      firms_tagger({"It was recorded for "}, {"ZORVATH", "BRASK", "VELMORA", "QUARROW"}, " today.",
                   {{"first_name", {"Anna"}}, {"last_name", {"Khan"}},
                    {"common_word", {"it", "was", "recorded", "for", "today"}}});
  auto found_by_one = [&](const std::string& who) {
    return typed_spans(one_word, "It was recorded for " + who + " today.");
  };
  ASSERT_EQ(found_by_one("ZORVATH"), V{"ORGANIZATION:ZORVATH"});
  EXPECT_EQ(found_by_one("ANNA KHAN"), V{"PERSON:ANNA KHAN"});
}

// In text with capitals, a word a name list knows and no list of everyday
// words, places, streets, company suffixes or titles, nor a month, a
// weekday or a group, is a name where it stands inside a sentence, and no
// span covers it.
TEST(PiiTaggerTest, ListedNamesInsideASentenceAreNames) {
  const PiiTagger tagger =
      numbers_only_tagger({{"first_name", {"Anna", "June", "Sven", "Iban"}},
                           {"last_name", {"Takeda", "Ivanova", "Grant", "Bergen", "German"}},
                           {"common_word", {"grant", "novel"}},
                           {"city", {"Bergen"}}, {"name_prefix", {"Sven"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("We read the old Takeda novel."), std::vector<std::string>{"PERSON:Takeda"});
  EXPECT_EQ(found("We read the old Takeda's novel."), std::vector<std::string>{"PERSON:Takeda"});
  // Names side by side are one person's.
  EXPECT_EQ(found("We thank Anna Takeda and Ivanova."),
            (std::vector<std::string>{"PERSON:Anna Takeda", "PERSON:Ivanova"}));
  // Not the first word of a sentence, a line, a quote or a list after a colon.
  EXPECT_EQ(found("Takeda read it."), std::vector<std::string>{});
  EXPECT_EQ(found("The old novel. Takeda read it."), std::vector<std::string>{});
  EXPECT_EQ(found("The old novel? Takeda read it."), std::vector<std::string>{});
  EXPECT_EQ(found("The old novel\nTakeda read it."), std::vector<std::string>{});
  EXPECT_EQ(found("The old novel: Takeda read it."), std::vector<std::string>{});
  EXPECT_EQ(found("The old \"Takeda novel\" is fine."), std::vector<std::string>{});
  // Not a word another list knows, one in capitals throughout, nor a street.
  EXPECT_EQ(found("We read the old Grant novel."), std::vector<std::string>{});
  EXPECT_EQ(found("We read the old Bergen novel."), std::vector<std::string>{});
  EXPECT_EQ(found("We read the old Sven novel."), std::vector<std::string>{});
  EXPECT_EQ(found("We read the old TAKEDA novel."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at Takeda 32 today."), std::vector<std::string>{});
  // Nor a month, a weekday or a nationality that a name list also knows.
  EXPECT_EQ(found("We read the old novel in June."), std::vector<std::string>{});
  EXPECT_EQ(found("We read the old German novel."), std::vector<std::string>{});
  // In text without capitals, where the decoder has no capital to go by, a
  // word of four letters or more that only a name list knows is a name
  // wherever it stands; not one another list knows, a data label, nor a
  // part of a word with a hyphen.
  EXPECT_EQ(found("we read the old takeda novel."), std::vector<std::string>{"PERSON:takeda"});
  EXPECT_EQ(found("takeda read it."), std::vector<std::string>{"PERSON:takeda"});
  EXPECT_EQ(found("we read the old grant novel."), std::vector<std::string>{});
  EXPECT_EQ(found("we read the old takeda-bergen novel."), std::vector<std::string>{});
  EXPECT_EQ(found("my iban is due."), std::vector<std::string>{});
  // A word a detector already covers stays as it is.
  std::vector<PiiSpan> spans = {{PiiType::kOrganization, 16, 22}};
  tagger.tag("We read the old Takeda novel.", spans);
  EXPECT_EQ(spans.size(), 1u);
}

// A place or organisation of one word that a name list knows and no place
// list is a name: the sentence misled the tagger, the word did not. This
// tagger learned places from text without capitals, and reads any unknown
// word after "drove through" as one (no place's cue: "flew to" is one).
TEST(PiiTaggerTest, OneWordPlaceThatOnlyANameListKnowsIsAName) {
  const std::vector<std::string> templates = {"i live in {L} now.", "we drove through {L} last year.",
                                              "is the office in {L}?", "they moved to {L} in may."};
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    PiiExample row = make(templates[k % templates.size()], "", kCities[k % 8]);
    row.text = in_small_letters(row.text);
    rows.push_back(std::move(row));
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"city", kCities}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("We drove through Lisbon last year."), std::vector<std::string>{"LOCATION:Lisbon"});
  EXPECT_EQ(found("We drove through Zorvath last year."), std::vector<std::string>{"LOCATION:Zorvath"});
  EXPECT_EQ(found("We drove through Takeda last year."), std::vector<std::string>{"PERSON:Takeda"});
  EXPECT_EQ(found("we drove through takeda last year."), std::vector<std::string>{"PERSON:takeda"});
  // A name before a number is a street, as for the names the tagger finds.
  EXPECT_EQ(found("We drove through Takeda 32 last year."), std::vector<std::string>{"STREET_ADDRESS:Takeda"});
}

// A tagger that reads any word in a name's place as a name: one that two
// everyday words run together make, and no name list knows, is a brand
// ("Woodward", a surname and a town, is in the lists).
TEST(PiiTaggerTest, TwoEverydayWordsRunTogetherAreAnOrganisation) {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string& name = kLast[k % kLast.size()];
    rows.push_back({"Please call " + name + " tomorrow.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", {"Novak", "Woodward"}},
                  {"city", {"Woodward"}},
                  {"common_word", {"karma", "data", "wood", "ward", "simple", "tuition", "call", "tomorrow", "please"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Please call Karmadata tomorrow."), std::vector<std::string>{"ORGANIZATION:Karmadata"});
  EXPECT_EQ(found("Please call Simpletuition tomorrow."), std::vector<std::string>{"ORGANIZATION:Simpletuition"});
  // A name the lists know; parts of fewer than four letters; not letters only.
  EXPECT_EQ(found("Please call Woodward tomorrow."), std::vector<std::string>{"PERSON:Woodward"});
  EXPECT_EQ(found("Please call Woodwar tomorrow."), std::vector<std::string>{"PERSON:Woodwar"});
  EXPECT_EQ(found("Please call Karma2data tomorrow."), std::vector<std::string>{"PERSON:Karma2data"});
}

// A title with its stop introduces a name; so does a line that opens with a
// speaker, a colon and a quote. An everyday word before the colon is none.
TEST(PiiTaggerTest, TitlesAndSpeakersIntroduceNames) {
  TaggerOptions o = options(5, 1u << 14, 1);
  // The list may write a title with its stop ("Mrs.", as the one of
  // scripts/setup.sh writes "Mr.").
  std::vector<std::string> first_names = kFirst;
  first_names.push_back("Phoenix");
  o.gazetteers = {{"first_name", first_names}, {"last_name", kLast}, {"name_prefix", {"Mr", "Dr", "Mrs.", "Bay"}},
                  {"common_word", {"note", "young", "phoenix", "mother"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("the report of dr. zorvath is late."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("The report of Mr. Young is late."), std::vector<std::string>{"Young"});
  EXPECT_EQ(names("the report of mrs. zorvath is late."), std::vector<std::string>{"zorvath"});
  // A hyphen joins a name's words (where the tagger's spans allow: here
  // places of one word each, of which the first becomes the name); a
  // relative before the title is no cue of its own.
  EXPECT_EQ(names("the report of mrs. zorvath-quill is late."), std::vector<std::string>{"zorvath-quill"});
  EXPECT_EQ(names("The report of Mr. Zorvath-Quill is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("my landlord mr. zorvath is late."), std::vector<std::string>{"zorvath"});
  // In text with capitals, an English title in small letters, not any word
  // of the list before a stop.
  EXPECT_EQ(names("The report of dr. Zorvath is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("We sailed into the bay. Zorvath is late."), std::vector<std::string>{});
  // The owner of an address, a phone, a name: a person, without the 's.
  EXPECT_EQ(names("Here is Zorvath's address."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("here is zorvath's phone."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("here is the note's address."), std::vector<std::string>{});
  EXPECT_EQ(names("Here is NASA's address."), std::vector<std::string>{});
  EXPECT_EQ(names("Here is Zorvath's car."), std::vector<std::string>{});
  // And of an event of a life or the closest family; in text with capitals
  // an everyday word a first-name list knows too.
  EXPECT_EQ(names("Here is Zorvath's wedding."), std::vector<std::string>{"Zorvath"});
  // And of a paper or a medicine of one person's; not of what a state has
  // too.
  EXPECT_EQ(names("Here is Zorvath's invitation."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("here is zorvath's prescription."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("here is zorvath's cv."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("Here is Zorvath's visa."), std::vector<std::string>{});
  // And of what one carries; with a first name a list knows one blank
  // before it, no everyday word.
  EXPECT_EQ(names("is this zorvath's laptop?"), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("is this " + in_small_letters(kFirst[0]) + " zorvath's wallet?"),
            std::vector<std::string>{in_small_letters(kFirst[0]) + " zorvath"});
  EXPECT_EQ(names("is this the note zorvath's wallet?"), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("Here is Phoenix's recital."), std::vector<std::string>{"Phoenix"});
  EXPECT_EQ(names("here is phoenix's recital."), std::vector<std::string>{});
  EXPECT_EQ(names("here is the note's wedding."), std::vector<std::string>{});
  // And of an ordinal, a birthday's or an age's.
  EXPECT_EQ(names("Plan Zorvath's 30th today."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("plan zorvath's 1st today."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("plan the note's 30th today."), std::vector<std::string>{});
  EXPECT_EQ(names("plan zorvath's 30 today."), std::vector<std::string>{});
  // And of a relative: in text without capitals a word a first-name list
  // knows (everyday or not), in text with capitals an everyday word
  // capitalised inside a sentence too; not a relative's own word.
  EXPECT_EQ(names("Here is Zorvath's teacher."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("here is phoenix's teacher."), std::vector<std::string>{"phoenix"});
  EXPECT_EQ(names("here is zorvath's teacher."), std::vector<std::string>{});
  EXPECT_EQ(names("here is the note's teacher."), std::vector<std::string>{});
  EXPECT_EQ(names("Here is Note's teacher."), std::vector<std::string>{"Note"});
  EXPECT_EQ(names("Here is Mother's teacher."), std::vector<std::string>{});
  EXPECT_EQ(names("Here is Mother's husband."), std::vector<std::string>{});
  EXPECT_EQ(names("Here is the Note's teacher."), std::vector<std::string>{});
  EXPECT_EQ(names("Zorvath: \"Who are you?\"\nQuillborne Ashby: \"A friend.\""),
            (std::vector<std::string>{"Zorvath", "Quillborne Ashby"}));
  EXPECT_EQ(names("Note: \"Who are you?\""), std::vector<std::string>{});
  // Without a quote: a first name alone that the lists know as nothing
  // else, or a place of this tagger, not in capitals, before a word.
  EXPECT_EQ(names("Hello there.\n" + kFirst[3] + ": Remember me?"), std::vector<std::string>{kFirst[3]});
  // (The tagger takes this unknown word for a place.)
  EXPECT_EQ(names("Hello there.\nZorvath: Remember me?"), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("Hello there.\nNote: Remember me?"), std::vector<std::string>{});
}

// A word no list knows that opens a line before a colon, where a line
// within two opens with a speaker, is a dialogue's speaker too, past a
// chat's time stamp as well. The tagger here learned the capitalised words
// before a line's colon as no one's.
TEST(PiiTaggerTest, ADialogueNamesItsSpeakers) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& name = kFirst[k % kFirst.size()];
    train.push_back({"Note: call " + name + " today.", {{PiiType::kPerson, 11, static_cast<uint32_t>(11 + name.size())}}});
    train.push_back({kLast[k % kLast.size()] + ": call them today.", {}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst},
                  {"common_word", {"note", "call", "them", "today", "what", "a", "day", "remember", "me", "hello",
                                   "there"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("Hello there.\nQwyllo: Remember me?"), std::vector<std::string>{});
  EXPECT_EQ(names(kFirst[3] + ": What a day.\nQwyllo: Remember me?"), (std::vector<std::string>{kFirst[3], "Qwyllo"}));
  EXPECT_EQ(names("Qwyllo: Remember me?\n\n" + kFirst[3] + ": What a day."), (std::vector<std::string>{"Qwyllo", kFirst[3]}));
  // Not an everyday word, nor three lines away.
  EXPECT_EQ(names(kFirst[3] + ": What a day.\nNote: Remember me?"), std::vector<std::string>{kFirst[3]});
  EXPECT_EQ(names(kFirst[3] + ": What a day.\n\n\nQwyllo: Remember me?"), std::vector<std::string>{kFirst[3]});
  EXPECT_EQ(names("Qwyllo: Remember me?\n\n\n" + kFirst[3] + ": What a day."), std::vector<std::string>{kFirst[3]});
  // A chat's time stamp before the speaker.
  EXPECT_EQ(names("[10:32] " + kFirst[3] + ": What a day.\n[10:33] Qwyllo: Remember me?"),
            (std::vector<std::string>{kFirst[3], "Qwyllo"}));
  EXPECT_EQ(names("10:32 - " + kFirst[3] + ": What a day.\n10:33:05 PM - Qwyllo: Remember me?"),
            (std::vector<std::string>{kFirst[3], "Qwyllo"}));
  EXPECT_EQ(names("[10:32] " + kFirst[3] + ": What a day.\n[10:33] Note: Remember me?"), std::vector<std::string>{kFirst[3]});
}

// A greeting that opens a line introduces a name: up to three words, then
// a comma, a stop, '!' or the line's end; so does a line that opens with a
// name, a comma and a request. The tagger here takes unknown capitalised
// words for organisations; what the greeting introduces becomes a name.
TEST(PiiTaggerTest, AGreetingIntroducesAName) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string org = kLast[k % kLast.size()] + (k % 3 == 0 ? " Labs" : "");
    train.push_back({"We thank " + org + " for the report.", {{PiiType::kOrganization, 9, static_cast<uint32_t>(9 + org.size())}}});
    train.push_back({"We thank you for the report.", {}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"note", "the", "report", "is", "late", "and", "so", "it", "hi", "hey", "dear", "hello",
                                   "can", "could", "you", "see", "i", "please"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("Hi Zorvath, the report is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("Dear Quillborne Ashby,\nthe report is late."), std::vector<std::string>{"Quillborne Ashby"});
  EXPECT_EQ(names("Dear Quillborne Note! The report is late."), std::vector<std::string>{"Quillborne Note"});
  EXPECT_EQ(names("the report is late.\nhello zorvath! it is."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("Hey Zorvath. The report is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("Hey Zorvath\nThe report is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("Hey Zorvath"), std::vector<std::string>{"Zorvath"});
  // Not an everyday word or an acronym first, nor a word of one letter; in
  // text without capitals no everyday word; not after a line's first word
  // nor on the next line; nor before anything else.
  for (const char* text : {"Hi Note, the report is late.", "Hi NASA, the report is late.", "Hi Q, the report is late.",
                           "hi zorvath note, the report is late.", "So Hi Zorvath, the report is late.",
                           "Hi\nZorvath, the report is late.", "Hi Zorvath and the report is late."}) {
    EXPECT_EQ(names(text), std::vector<std::string>{}) << text;
  }
  // A name that opens a line before a comma and a request is one too; not
  // an everyday word or an acronym, nor before anything else.
  EXPECT_EQ(names("Zorvath, can I see the report?"), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("The report is late.\nZorvath Quillborne, please see it."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("zorvath, i see the report."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("zorvath, could you see it?"), std::vector<std::string>{"zorvath"});
  for (const char* text : {"Note, can I see the report?", "NASA, can I see the report?", "Zorvath, the report is late.",
                           "Zorvath,\ncan I see the report?", "So Zorvath, can I see the report?",
                           "Zorvath can I see the report?", "Zorvath can I, see the report?"}) {
    EXPECT_EQ(names(text), std::vector<std::string>{}) << text;
  }
  // Without the everyday lists a line's first word may be any ("Now"):
  // none is taken.
  o.gazetteers.clear();
  const PiiTagger without_lists = PiiTagger::train(train, o);
  EXPECT_EQ(values_of(without_lists, "Now, can I see the report?", PiiType::kPerson), std::vector<std::string>{});
}

// A tagger that learnt places after "We flew to" and nothing else, with
// `gazetteers` and the city list: the cue rules after it find the names.
PiiTagger flew_to_places_tagger(std::vector<GazetteerList> gazetteers) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& city = kCities[k % kCities.size()];
    train.push_back({"We flew to " + city + " today.", {{PiiType::kLocation, 11, static_cast<uint32_t>(11 + city.size())}}});
    train.push_back({"We flew to it today.", {}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  gazetteers.push_back({"city", kCities});
  o.gazetteers = std::move(gazetteers);
  return PiiTagger::train(train, o);
}

// US military mail addresses are one street address each, whatever the
// decoder made of their words: a unit's box or a ship, then APO, FPO or
// DPO, the military "state" and a ZIP code.
TEST(PiiTaggerTest, MilitaryMailAddressesAreOneAddress) {
  const PiiTagger tagger = flew_to_places_tagger({});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(addresses("The office is at PSC 4665, Box 2778\nAPO AE 80338"),
            std::vector<std::string>{"PSC 4665, Box 2778\nAPO AE 80338"});
  EXPECT_EQ(addresses("Unit 4181 Box 1281\nDPO AA 57553"), std::vector<std::string>{"Unit 4181 Box 1281\nDPO AA 57553"});
  EXPECT_EQ(addresses("it's in usns ujv\xc3\xa1ry\nfpo ap 24796"), std::vector<std::string>{"usns ujv\xc3\xa1ry\nfpo ap 24796"});
  EXPECT_EQ(addresses("Ship it to USS Dam, FPO AE 94560 please."), std::vector<std::string>{"USS Dam, FPO AE 94560"});
  EXPECT_EQ(typed_spans(tagger, "Write to USS Dam\nFPO AE 94560"),
            std::vector<std::string>{"STREET_ADDRESS:USS Dam\nFPO AE 94560"});
  EXPECT_EQ(scanned_spans(tagger, "The office is at PSC 4665, Box 2778\nAPO AE 80338."),
            std::vector<std::string>{"STREET_ADDRESS:PSC 4665, Box 2778\nAPO AE 80338"});
  // Not without the head, nor with a head over two lines, nor a "state" or
  // ZIP code of another shape.
  for (const std::string text : {"Box 2778\nAPO AE 80338", "USS\nDam\nFPO AE 94560", "USS Dam\nFPO XY 94560",
                                 "USS Dam\nFPO AE 9456"}) {
    for (const std::string& value : addresses(text)) EXPECT_EQ(value.find("PO A"), std::string::npos) << text;
  }
}

// No place or organisation is a number alone (a year), a month or a
// weekday, and no place one word that only the everyday lists know in full
// and no place's name holds ("Church"; "Kingdom" may be of "United
// Kingdom").
TEST(PiiTaggerTest, YearsMonthsAndEverydayWordsAloneAreNoPlaces) {
  const PiiTagger tagger = flew_to_places_tagger(
      {{"common_word", {"church", "united", "kingdom", "today"}}, {"country", {"United Kingdom"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(found("We flew to Zorvath today."), std::vector<std::string>{"LOCATION:Zorvath"});
  for (const char* text : {"We flew to 1984 today.", "We flew to December today.", "We flew to Sunday today.",
                           "We flew to Church today.", "we flew to church today."}) {
    EXPECT_EQ(found(text), std::vector<std::string>{}) << text;
  }
  EXPECT_EQ(found("We flew to United Kingdom today."), std::vector<std::string>{"LOCATION:United Kingdom"});
  EXPECT_EQ(found("We flew to Kingdom today."), std::vector<std::string>{"LOCATION:Kingdom"});
  // Nor is a union of a continent's states, which a country list may hold.
  const PiiTagger unions = flew_to_places_tagger(
      {{"common_word", {"today"}}, {"country", {"European Union", "African Union", "Zorvath Union"}}});
  ASSERT_EQ(typed_spans(unions, "We flew to Zorvath Union today."), std::vector<std::string>{"LOCATION:Zorvath Union"});
  for (const char* text : {"We flew to European Union today.", "we flew to african union today."}) {
    for (const std::string& span : typed_spans(unions, text)) EXPECT_FALSE(span.starts_with("LOCATION")) << text;
  }
}

// A span leaves out the marks around it: quote marks, an em dash or an
// ellipsis are tokens of their own (pii_tokens::separate_mark_length()),
// and the whole scan trims the dashes and no-break spaces (bytes >= 0x80)
// that the tokenizer counts into the words they touch.
TEST(PiiTaggerTest, ASpanLeavesOutTheMarksAroundIt) {
  const PiiTagger tagger = flew_to_places_tagger({});
  EXPECT_EQ(typed_spans(tagger, "We flew to \xe2\x80\x9cParis\xe2\x80\x9d today."),
            (std::vector<std::string>{"LOCATION:Paris"}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to \xe2\x80\x9cParis\xe2\x80\x9d today."),
            (std::vector<std::string>{"LOCATION:Paris"}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to \xe2\x80\x93\xc2\xa0Paris today."), (std::vector<std::string>{"LOCATION:Paris"}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to \xe2\x80\x94\xc2\xa0Paris\xe2\x80\xa6 today."),
            (std::vector<std::string>{"LOCATION:Paris"}));
  // A quoted word in small letters opens no span; "”" alone neither.
  EXPECT_EQ(scanned_spans(tagger, "We flew to \xe2\x80\x9cparis\xe2\x80\x9d today."), (std::vector<std::string>{}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to \xe2\x80\x9d today."), (std::vector<std::string>{}));
  // Small letters glued after an ellipsis or a dash are the next clause's;
  // after "’" an "s" is a possessive's, other letters stay.
  EXPECT_EQ(scanned_spans(tagger, "We flew to Paris\xe2\x80\xa6" "do today."), (std::vector<std::string>{"LOCATION:Paris"}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to Paris\xe2\x80\x94the town."), (std::vector<std::string>{"LOCATION:Paris"}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to Paris\xe2\x80\x99s today."), (std::vector<std::string>{"LOCATION:Paris"}));
  EXPECT_EQ(scanned_spans(tagger, "We flew to Paris\xe2\x80\x99" "d today."),
            (std::vector<std::string>{"LOCATION:Paris\xe2\x80\x99" "d"}));
}

// A firm of the decoder's that the cue opens and that stops inside the
// name ("Mein Name ist Jürgen" of "Mein Name ist Jürgen Weiß und ich") is
// the whole name without the cue; here a tagger that learned such firms.
TEST(PiiTaggerTest, AFirmThatACueOpensIsTheNameAfterIt) {
  const PiiTagger tagger = firms_tagger({"Heute: "}, {"Mein Name ist Zorvath", "Mein Name ist Brask", "Mein Name ist Velmora"},
                                        " Quillborne und ich wohne hier.", {{"common_word", {"heute", "und", "ich", "wohne", "hier"}}});
  ASSERT_EQ(typed_spans(tagger, "Heute: Mein Name ist Zorvath Quillborne und ich wohne hier."),
            std::vector<std::string>{"PERSON:Zorvath Quillborne"});
}

// After "name is", "name's" or a relative ("my son"), a word no list knows
// as an everyday word is a name, with the capitalised words after it; a
// place or organisation the tagger took it for becomes one.
TEST(PiiTaggerTest, ANameCueIntroducesAName) {
  const PiiTagger tagger =
      flew_to_places_tagger({{"common_word", {"the", "is", "late", "and", "it", "my", "name", "son", "told", "had", "we", "to", "will",
                                              "mike", "grace", "under", "plumber", "electrician"}},
                             {"first_name", {"Will", "Mike", "Grace"}},
                             {"state", {"IS"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("My name is Zorvath Quillborne and it is late."), std::vector<std::string>{"Zorvath Quillborne"});
  // As other languages write the cue; a span of the tagger's that the cue
  // opens gives way to the name.
  EXPECT_EQ(names("Mein Name ist Zorvath Quillborne und ich wohne hier."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("Mon nom est Zorvath et j'habite ici."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("me llamo zorvath y vivo aqui"), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("Ik heet Zorvath Quillborne."), std::vector<std::string>{"Zorvath Quillborne"});
  // "and" as German writes it ends no name.
  EXPECT_EQ(names("Ich heiße Zorvath Quillborne und wohne hier."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("La casa es Grande."), std::vector<std::string>{});
  // A word the everyday lists know and another list too: a name where it is
  // capitalised in text with capitals, not in text without capitals ("is"
  // is also a state's code).
  EXPECT_EQ(names("We told my son Will it is late."), std::vector<std::string>{"Will"});
  // A group's word, which the tagger reads as an adjective before a noun.
  EXPECT_EQ(names("We told my son Christian stories."), std::vector<std::string>{"Christian"});
  EXPECT_EQ(names("my son is late and we told my son will"), std::vector<std::string>{});
  // Without capitals, a first name that is a word too right after a
  // relative or "name is", but a verb that follows a relative as often.
  EXPECT_EQ(names("we told my son mike it is late"), std::vector<std::string>{"mike"});
  EXPECT_EQ(names("my name is grace and it is late"), std::vector<std::string>{"grace"});
  EXPECT_EQ(names("Her maiden name is Zorvath"), std::vector<std::string>{"Zorvath"});
  // Without capitals, a relative written as a title alone; not before an
  // everyday word.
  EXPECT_EQ(names("it is late and uncle zorvath is late"), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("it is late and uncle late is late"), std::vector<std::string>{});
  // A booking's "under the name".
  EXPECT_EQ(names("It is under the name Zorvath Quillborne."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("it is under the name zorvath."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("It is under the name zorvath quillborne."), std::vector<std::string>{"zorvath quillborne"});
  EXPECT_EQ(names("It is the name Zorvath."), std::vector<std::string>{});
  EXPECT_EQ(names("It is the name zorvath."), std::vector<std::string>{});
  // A speaker who says who they are ("I'm", "I am"), in text with
  // capitals: a first name of the lists or a word no list knows, not a
  // group nor an everyday word.
  EXPECT_EQ(names("Hi, I'm Zorvath and it is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("I am Will and it is late."), std::vector<std::string>{"Will"});
  EXPECT_EQ(names("Hi, I'm American and it is late."), std::vector<std::string>{});
  EXPECT_EQ(names("Hi, I'm Late and it is late."), std::vector<std::string>{});
  EXPECT_EQ(names("my name's zorvath quillborne"), std::vector<std::string>{"zorvath quillborne"});
  EXPECT_EQ(names("We told my son Lisbon it is late."), std::vector<std::string>{"Lisbon"});
  for (const char* determiner : {"our", "his", "her", "their", "your"}) {
    const std::string text = std::string("We told ") + determiner + " son Zorvath it is late.";
    EXPECT_EQ(names(text), std::vector<std::string>{"Zorvath"}) << text;
  }
  for (const char* relative : {"daughter", "wife", "husband", "friend", "boss", "cousin", "fiancee", "manager", "landlord",
                               "doctor", "roommate", "bride", "groom", "ex", "twin", "sibling", "godson", "classmate",
                               "babysitter", "parents", "kids", "sisters", "nurse", "assistant", "driver"}) {
    const std::string text = std::string("We told my ") + relative + " Zorvath it is late.";
    EXPECT_EQ(names(text), std::vector<std::string>{"Zorvath"}) << text;
  }
  // With a word in small letters between the possessive and the relative.
  EXPECT_EQ(names("We told my pen pal Zorvath it is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("we told our little son zorvath it is late."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("We told my Little son Zorvath it is late."), std::vector<std::string>{});
  // Not a contraction nor an acronym after a relative.
  EXPECT_EQ(names("we told my son couldn't do it"), std::vector<std::string>{});
  EXPECT_EQ(names("We told my brothers ID it is late."), std::vector<std::string>{});
  // With a comma between ("my manager, Zorvath Quillborne"), but not a
  // contraction or a word in capitals after it, which open a clause.
  EXPECT_EQ(names("We told my son, Zorvath Quillborne, it is late."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("We told my son, I'll be late."), std::vector<std::string>{});
  EXPECT_EQ(names("We told my son, ZORVATH is late."), std::vector<std::string>{});
  // (An in-law's relative is the one before "-in-law".)
  EXPECT_EQ(names("We told my son-in-law, Zorvath, it is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("We told my Little-in-law, Zorvath, it is late."), std::vector<std::string>{});
  // After "the" and the relative, where a comma sets the name off after it
  // too; tradespeople are relatives so.
  EXPECT_EQ(names("The plumber, Zorvath Quillborne, is late."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("the plumber, zorvath, is late."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("We told my electrician Zorvath it is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("The plumber, Zorvath is late."), std::vector<std::string>{});
  // Or one blank before a capitalised name, in text with capitals; not in
  // text without them ("the friend drew a pistol").
  EXPECT_EQ(names("We told the plumber Zorvath it is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("we told the plumber zorvath it is late."), std::vector<std::string>{});
  // A role names the person after it, capitalised ("Patient Zorvath"); not
  // in text without capitals, where any word may follow one.
  EXPECT_EQ(names("The patient Zorvath Quillborne is late."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("Customer Zorvath is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("the patient zorvath is late."), std::vector<std::string>{});
  EXPECT_EQ(names("The patient ZORVATH is late."), std::vector<std::string>{});
  // So does a relative written as a title, which stays out of the name;
  // not before a possessive, as a work's title writes one.
  EXPECT_EQ(names("Uncle Zorvath is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("We told cousin Zorvath it is late."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("Uncle Zorvath's Cabin is late."), std::vector<std::string>{});
  // After a possessive, a relative that is also a role asks no more than
  // the other relatives ("his cousin Bob").
  EXPECT_EQ(names("We told my cousin Will it is late."), std::vector<std::string>{"Will"});
  // A place the tagger found that opens with the word and runs on over
  // capitalised words is the person whole, though its last word is an
  // everyday word (this tagger learned "Lisbon Harbour" there).
  {
    std::vector<PiiExample> train;
    for (uint32_t k = 0; k < 300; ++k) {
      train.push_back(harbour_row("We told my son ", k));
      train.push_back({"We told my son it today.", {}});
    }
    TaggerOptions o = options(5, 1u << 12, 1);
    o.gazetteers = {{"common_word", {"harbour", "we", "told", "my", "son", "today"}}};
    const PiiTagger harbours = PiiTagger::train(train, o);
    ASSERT_EQ(typed_spans(harbours, "We flew to Zorvath Harbour today."), std::vector<std::string>{"LOCATION:Zorvath Harbour"});
    EXPECT_EQ(typed_spans(harbours, "We told my son Zorvath Harbour today."), std::vector<std::string>{"PERSON:Zorvath Harbour"});
  }
  // Not an everyday word, a letter alone, a word on the next line, nor
  // without the whole cue.
  for (const char* text : {"my name is late.", "We told my son I had it.", "My name is\nZorvath.", "My name\nis Zorvath.",
                           "The name was Zorvath.", "We told a son Zorvath it is late.", "We told my dog Zorvath it is late.",
                           "We told it is Zorvath."}) {
    EXPECT_EQ(names(text), std::vector<std::string>{}) << text;
  }
}

// After a verb of giving, a word before "his", "her" or "their" is the
// receiver, a person: "had given Selam his address". A place the tagger
// took it for becomes one.
TEST(PiiTaggerTest, AVerbOfGivingIntroducesTheReceiver) {
  const PiiTagger tagger = flew_to_places_tagger(
      {{"common_word", {"the", "it", "its", "had", "we", "given", "gave", "sent", "his", "her", "their", "address", "keys"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("We had given Zorvath his address."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("We sent Zorvath Quillborne her keys."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("we gave zorvath their keys."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("We had given " + kCities[0] + " his address."), std::vector<std::string>{kCities[0]});
  // Not without the possessive after the name, across a line, an everyday
  // word, a letter alone, nor after another verb.
  for (const char* text : {"We had given Zorvath the address.", "We had given Zorvath\nhis address.",
                           "We had given\nZorvath his address.", "We gave it its keys.", "We gave the his keys.",
                           "We gave Q his keys.", "We had Zorvath his keys.", "Where is Zorvath their keys?",
                           "we gave the his keys."}) {
    EXPECT_EQ(names(text), std::vector<std::string>{}) << text;
  }
}

// After "starring", a word no list knows as an everyday word is an actor,
// with the capitalised words after it; in text without capitals past a
// joining word ("starring de vaan").
TEST(PiiTaggerTest, StarringIntroducesAnActor) {
  const PiiTagger tagger = flew_to_places_tagger({{"common_word", {"the", "it", "and", "film", "starring", "we", "saw"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("We saw the film starring Zorvath"), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("We saw the film starring Zorvath Quillborne."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("we saw the film starring zorvath"), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("we saw the film starring de vaan"), std::vector<std::string>{"de vaan"});
  EXPECT_EQ(names("We saw the film starring " + kCities[0] + "."), std::vector<std::string>{kCities[0]});
  for (const char* text : {"We saw the film starring it.", "We saw the film starring\nZorvath.", "We saw the film Zorvath.",
                           "we saw the film starring the"}) {
    EXPECT_EQ(names(text), std::vector<std::string>{}) << text;
  }
}

// An age set off after a name, as news writes it ("Jane Doe, 34, of ...",
// "Mark Olsen (52)"), or stated of it at a clause's end ("Jennifer Lopez is
// 52."), is an age in the whole scan (find_pii), once.
TEST(PiiTaggerTest, AnAgeSetOffAfterANameIsAnAge) {
  const PiiTagger tagger =
      flew_to_places_tagger({{"common_word", {"the", "is", "late", "and", "it", "my", "son", "told", "we", "to", "years", "old"}}});
  auto ages = [&](const std::string& text) {
    std::vector<PiiSpan> spans;
    find_pii(text, &tagger, spans);
    std::vector<std::string> out;
    for (const PiiSpan& span : spans) {
      if (span.type == PiiType::kAge) out.push_back(text.substr(span.begin, span.end - span.begin));
    }
    for (size_t k = 1; k < spans.size(); ++k) EXPECT_LE(spans[k - 1].end, spans[k].begin) << text;
    return out;
  };
  EXPECT_EQ(ages("We told my son Zorvath, 12, it is late."), std::vector<std::string>{"12"});
  EXPECT_EQ(ages("We told my son Zorvath (7) it is late."), std::vector<std::string>{"7"});
  EXPECT_EQ(ages("We told my son Zorvath, 12 years old, it is late."), std::vector<std::string>{"12"});
  // Stated of the name, where the number ends the clause.
  EXPECT_EQ(ages("We told my son Zorvath is 12."), std::vector<std::string>{"12"});
  EXPECT_EQ(ages("We told my son Zorvath turned 7!"), std::vector<std::string>{"7"});
  EXPECT_EQ(ages("We told my son Zorvath is 12 minutes late."), std::vector<std::string>{});
  EXPECT_EQ(ages("We told my son Zorvath is 2.5 km away."), std::vector<std::string>{});
  // Not 0, not past 129, not four digits, not without its closing mark, not
  // after a place.
  for (const char* text : {"We told my son Zorvath, 0, it is late.", "We told my son Zorvath, 200, it is late.",
                           "We told my son Zorvath, 0012, it is late.", "We told my son Zorvath, 12 it is late.",
                           "We told my son Zorvath (12 it is late.", "We flew to Lisbon, 12, it is late."}) {
    EXPECT_EQ(ages(text), std::vector<std::string>{}) << text;
  }
}

// The words before or after a verb of speech are the speaker, where no
// span covers them: "Zorvath shouted at us", "said Zorvath to us".
TEST(PiiTaggerTest, AVerbOfSpeechIntroducesTheSpeaker) {
  const PiiTagger tagger = flew_to_places_tagger(
      {{"common_word", {"the", "is", "late", "and", "it", "we", "to", "at", "us", "police", "he", "in", "so"}},
       {"name_prefix", {"Dr"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(names("Zorvath shouted at us."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("So Zorvath Quillborne said it is late."), std::vector<std::string>{"Zorvath Quillborne"});
  EXPECT_EQ(names("It is late, said Zorvath."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("It is late, says Zorvath"), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(names("it is late, said zorvath to us."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("it is late, said zorvath in it."), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(names("it is late, said zorvath\nand us."), std::vector<std::string>{"zorvath"});
  for (const char* verb : {"asked", "replied", "told", "wrote", "yelled", "whispered", "answered", "explained", "added"}) {
    const std::string text = std::string("Zorvath ") + verb + " it.";
    EXPECT_EQ(names(text), std::vector<std::string>{"Zorvath"}) << text;
  }
  // Not a word the everyday lists know, a title, a place, an acronym, a
  // word of one letter, a possessive, the word after the verb before more
  // words, nor across a line break.
  for (const char* text : {"Police said it is late.", "He said it is late.", "Dr said it is late.", "Lisbon said it is late.",
                           "NASA said it is late.", "Q said it is late.", "Zorvath's said it.", "it is late, said zorvath and us.",
                           "Zorvath\nsaid it.", "It is late, said\nZorvath.", "it is late, said \u201cyes.\u201d"}) {
    EXPECT_EQ(names(text), std::vector<std::string>{}) << text;
  }
}

// A first name that the everyday lists know too ("Dawn", "Bill") is the
// speaker before a verb of speech where it opens a sentence; not after an
// article, not a month's, not before "wrote" (a firm writes costs off). An
// auxiliary that opens a question and is a first name too stays out of the
// name after it ("Can Novak come?").
TEST(PiiTaggerTest, AnEverydayFirstNameThatSpeaksIsAName) {
  const PiiTagger tagger = flew_to_places_tagger(
      {{"common_word", {"the", "is", "late", "and", "it", "we", "to", "at", "us", "dawn", "bill", "can", "may", "come"}},
       {"first_name", {"Dawn", "Bill", "May", "Can"}},
       {"last_name", {"Novak"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("Dawn said it is late."), V{"Dawn"});
  EXPECT_EQ(names("It is late. Bill told us."), V{"Bill"});
  EXPECT_EQ(names("dawn said it is late."), V{"dawn"});
  EXPECT_EQ(names("Can Novak come?"), V{"Novak"});
  EXPECT_EQ(names("It is late. Can Novak come?"), V{"Novak"});
  for (const char* text : {"The dawn said it is late.", "May said it is late.", "dawn wrote it off."}) {
    EXPECT_EQ(names(text), V{}) << text;
  }
}

// A name that ends in a street suffix that is no name is an address; one
// that opens with a listed name is one only when the suffix is "Street",
// "Road", "Avenue" or "Boulevard" ("Rosa Parks", "John Stuart Mill").
TEST(PiiTaggerTest, ANameEndingInAStreetSuffixIsAnAddress) {
  TaggerOptions o = options(5, 1u << 14, 1);
  std::vector<std::string> last = kLast;
  last.push_back("Hill");
  o.gazetteers = {{"first_name", kFirst}, {"last_name", last}, {"street_suffix", {"Street", "Hill", "Mill"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Please call Wanda Street tomorrow."), std::vector<std::string>{"STREET_ADDRESS:Wanda Street"});
  EXPECT_EQ(found("Please call Wanda Hill tomorrow."), std::vector<std::string>{"PERSON:Wanda Hill"});
  EXPECT_EQ(found("Please call Wanda Mill tomorrow."), std::vector<std::string>{"PERSON:Wanda Mill"});
  EXPECT_EQ(found("Please call Zorvath Mill tomorrow."), std::vector<std::string>{"STREET_ADDRESS:Zorvath Mill"});
}

// A nationality, religion or party alone, or its plural, is a group (NRP),
// not a name, unless a name list knows it ("Christian") and it stands
// where a name does.
TEST(PiiTaggerTest, AGroupWordAloneIsAGroup) {
  TaggerOptions o = options(5, 1u << 14, 1);
  std::vector<std::string> first = kFirst;
  first.push_back("Christian");
  first.push_back("Islam");
  std::vector<std::string> last = kLast;
  last.push_back("King");
  // ("king" is an everyday word too, as in the lists of scripts/setup.sh.)
  o.gazetteers = {{"first_name", first}, {"last_name", last}, {"common_word", {"king"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  EXPECT_EQ(typed_spans(tagger, "Please call Muslim tomorrow."), std::vector<std::string>{"NRP:Muslim"});
  EXPECT_EQ(typed_spans(tagger, "Please call Islam tomorrow."), std::vector<std::string>{"NRP:Islam"});
  // A rank after "the" stands for its holder: no name, no group.
  ASSERT_EQ(typed_spans(tagger, "Please call King tomorrow.").size(), 1u);
  EXPECT_EQ(typed_spans(tagger, "Please call the King tomorrow."), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "Please call Muslims tomorrow."), std::vector<std::string>{"NRP:Muslims"});
  EXPECT_EQ(typed_spans(tagger, "Please call Buddhism tomorrow."), std::vector<std::string>{"NRP:Buddhism"});
  const std::vector<std::string> christian = typed_spans(tagger, "Please call Christian tomorrow.");
  ASSERT_EQ(christian.size(), 1u);
  EXPECT_NE(christian[0], "NRP:Christian");
  // After an article, one that a name list knows is a group too; so is one
  // before a noun (an adjective), and a religion's name.
  for (const char* text : {"Please call the Christian tomorrow.", "Please call a Christian tomorrow.",
                           "Please call an Christian tomorrow.", "Please call The Christian tomorrow.",
                           "Please call Christian missionaries tomorrow."}) {
    const std::vector<std::string> spans = typed_spans(tagger, text);
    EXPECT_EQ(std::count(spans.begin(), spans.end(), "NRP:Christian"), 1) << text;
  }
  EXPECT_NE(typed_spans(tagger, "Please call Christian had tomorrow."), std::vector<std::string>{"NRP:Christian"});
  // So is a group of two words, one space apart, that ends the span.
  EXPECT_EQ(typed_spans(tagger, "Please call Costa Rican tomorrow."), std::vector<std::string>{"NRP:Costa Rican"});
  EXPECT_EQ(typed_spans(tagger, "Please call South Africans tomorrow."), std::vector<std::string>{"NRP:South Africans"});
  for (const char* text : {"Please call Costa  Rican tomorrow.", "Please call South Africa tomorrow."}) {
    const std::vector<std::string> spans = typed_spans(tagger, text);
    EXPECT_EQ(std::count_if(spans.begin(), spans.end(), [](const std::string& s) { return s.starts_with("NRP:"); }), 0)
        << text;
  }
}

// A word alone that only a country or city list knows is a place, whatever
// the tagger took it for; not one a name list knows too. So is a continent
// or a region of the world ("Europe", "North America").
TEST(PiiTaggerTest, ACountryOrCityAloneIsAPlace) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()];
    PiiExample e;
    e.text = name + " was super fun to visit!";
    e.spans = {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  std::vector<std::string> first = kFirst;
  first.push_back("Chad");
  o.gazetteers = {{"first_name", first},
                  {"country", {"Norway", "Chad"}},
                  {"state", {"Ohio", "AR"}},
                  {"city", {"Zorvath", "Anna"}},
                  {"common_word", {"was", "super", "fun", "to", "visit"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Norway was super fun to visit!"), std::vector<std::string>{"LOCATION:Norway"});
  EXPECT_EQ(typed_spans(tagger, "Chad was super fun to visit!"), std::vector<std::string>{"PERSON:Chad"});
  EXPECT_EQ(typed_spans(tagger, "Europe was super fun to visit!"), std::vector<std::string>{"LOCATION:Europe"});
  // A state's name, not its code; a city's name, not a name too.
  EXPECT_EQ(typed_spans(tagger, "Ohio was super fun to visit!"), std::vector<std::string>{"LOCATION:Ohio"});
  EXPECT_EQ(typed_spans(tagger, "AR was super fun to visit!"), std::vector<std::string>{"PERSON:AR"});
  EXPECT_EQ(typed_spans(tagger, "Zorvath was super fun to visit!"), std::vector<std::string>{"LOCATION:Zorvath"});
  EXPECT_EQ(typed_spans(tagger, "Anna was super fun to visit!"), std::vector<std::string>{"PERSON:Anna"});
  // A tagger that learnt names of two words.
  std::vector<PiiExample> pairs;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()];
    pairs.push_back({name + " was super fun to visit!", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  const PiiTagger two_words = PiiTagger::train(pairs, o);
  EXPECT_EQ(typed_spans(two_words, "North America was super fun to visit!"),
            std::vector<std::string>{"LOCATION:North America"});
  EXPECT_EQ(typed_spans(two_words, "North Carolina was super fun to visit!"),
            std::vector<std::string>{"PERSON:North Carolina"});
}

// So is a city of the world_city list (the cities of 100,000 people or
// more), which only the rules read: the tagger's weights, and its spans
// elsewhere, are those of a tagger trained without it, and the list
// travels with the saved tagger.
TEST(PiiTaggerTest, AWorldCityAloneIsAPlace) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()];
    train.push_back({name + " was super fun to visit!", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}, {"common_word", {"was", "super", "fun", "to", "visit"}}};
  const PiiTagger without = PiiTagger::train(train, o);
  o.gazetteers.push_back({"world_city", {"Mombasa", "Anna", "Gdańsk", "Gdansk"}});
  const PiiTagger tagger = PiiTagger::train(train, o);
  ASSERT_EQ(typed_spans(without, "Mombasa was super fun to visit!"), std::vector<std::string>{"PERSON:Mombasa"});
  for (const PiiTagger& t : {tagger, PiiTagger::parse(tagger.serialize(), "t.bin").value()}) {
    EXPECT_EQ(typed_spans(t, "Mombasa was super fun to visit!"), std::vector<std::string>{"LOCATION:Mombasa"});
    EXPECT_EQ(typed_spans(t, "Gdansk was super fun to visit!"), std::vector<std::string>{"LOCATION:Gdansk"});
    // Not a city that a name list knows too, nor a word the list lacks.
    EXPECT_EQ(typed_spans(t, "Anna was super fun to visit!"), std::vector<std::string>{"PERSON:Anna"});
    EXPECT_EQ(typed_spans(t, "Zorvath was super fun to visit!"), std::vector<std::string>{"PERSON:Zorvath"});
  }
  // The files agree up to the word lists, past the weights (2^12 slots of
  // 3 tags, O and B-/I- of PERSON, 4 bytes each).
  const std::string bytes = tagger.serialize(), bytes_without = without.serialize();
  const auto differ = std::mismatch(bytes.begin(), bytes.end(), bytes_without.begin(), bytes_without.end());
  EXPECT_GT(static_cast<size_t>(differ.first - bytes.begin()), (size_t{1} << 12) * 3 * sizeof(float));
}

// In text without capitals, a word of four letters or more that a city or
// country list knows, or the world_city list, and no name or everyday list
// knows, is a place where the tagger left it out: without capitals it has
// little to go by. Not a planet, and a possessive's "s" stays out.
TEST(PiiTaggerTest, ACityInSmallLettersIsAPlace) {
  const std::vector<std::string> kCityWords = {"zorvath", "quillborne", "vexmoor", "tarrowgate", "brindlecombe"};
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()];
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    train.push_back({"we met " + lower + " there.", {{PiiType::kPerson, 7, static_cast<uint32_t>(7 + name.size())}}});
    // (Where the rows label no place, the tagger learns to leave words out.)
    train.push_back({"how far is " + kCityWords[k % kCityWords.size()] + " from here?", {}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  std::vector<std::string> first = kFirst;
  first.push_back("Adelaide");
  o.gazetteers = {{"first_name", first},
                  {"country", {"Norway"}},
                  {"city", {"Jupiter", "Porto", "Adelaide"}},
                  {"common_word", {"we", "met", "there", "how", "far", "is", "from", "here", "porto"}},
                  {"world_city", {"Mombasa", "Leeds"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  o.gazetteers.pop_back();
  const PiiTagger without = PiiTagger::train(train, o);
  ASSERT_EQ(typed_spans(without, "how far is mombasa from here?"), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "how far is mombasa from leeds?"),
            (std::vector<std::string>{"LOCATION:mombasa", "LOCATION:leeds"}));
  EXPECT_EQ(typed_spans(tagger, "how far is norway from here?"), std::vector<std::string>{"LOCATION:norway"});
  EXPECT_EQ(typed_spans(tagger, "how far is norway's coast?"), std::vector<std::string>{"LOCATION:norway"});
  // Not a name too, an everyday word, a planet, nor in text with capitals.
  EXPECT_EQ(typed_spans(tagger, "how far is adelaide from here?"), std::vector<std::string>{"PERSON:adelaide"});
  EXPECT_EQ(typed_spans(tagger, "how far is porto from here?"), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "how far is jupiter from here?"), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "How far is mombasa from here?"), std::vector<std::string>{});
}

// In text without capitals, the words before a noun that ends companies'
// names or a legal suffix are an organisation when the first of them is
// no everyday word; a name the tagger found over just those words becomes
// it. Not everyday words ("venture capital"), adjectives ("abelian"), nor
// "group" or "systems" in small letters; not in text with capitals, whose
// rule reads the capitals.
TEST(PiiTaggerTest, ACompanyInSmallLettersIsAnOrganisation) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    std::string name = kFirst[k % kFirst.size()];
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    train.push_back({"we met " + name + " there.", {{PiiType::kPerson, 7, static_cast<uint32_t>(7 + name.size())}}});
    train.push_back({"the ceo of the firm is here.", {}});
    train.push_back({"Zorvath Labs is here.", {{PiiType::kOrganization, 0, 12}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst},
                  {"last_name", {"Halvorsen"}},
                  {"common_word", {"we", "met", "there", "the", "ceo", "of", "firm", "is", "here", "venture", "mining",
                                   "who", "works", "at"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("the ceo of silverline insurance is here."),
            std::vector<std::string>{"ORGANIZATION:silverline insurance"});
  EXPECT_EQ(found("the ceo of redstone mining corp is here."),
            std::vector<std::string>{"ORGANIZATION:redstone mining corp"});
  EXPECT_EQ(found("anna works at brightwave analytics."),
            (std::vector<std::string>{"PERSON:anna", "ORGANIZATION:brightwave analytics"}));
  // The function words and everyday words before it stay out.
  auto organisation = [&](const std::string& text) { return first_of(tagger, text, PiiType::kOrganization); };
  EXPECT_EQ(organisation("the ceo of the firm mining corp is here."), "");
  EXPECT_EQ(organisation("the ceo of venture capital is here."), "");
  EXPECT_EQ(organisation("the ceo of abelian software is here."), "");
  EXPECT_EQ(organisation("the ceo of quillborne group is here."), "");
  EXPECT_EQ(organisation("the ceo of quillborne systems is here."), "");
  EXPECT_EQ(organisation("The ceo of quillborne software is here."), "");
  // A name over the words becomes the organisation.
  ASSERT_EQ(found("we met halvorsen there."), std::vector<std::string>{"PERSON:halvorsen"});
  EXPECT_EQ(found("we met halvorsen logistics there."), std::vector<std::string>{"ORGANIZATION:halvorsen logistics"});
}

// A place's name of several words that the word lists hold whole is one
// place: over what the tagger found inside it, or where it found nothing,
// capitalised in text with capitals and not of everyday words alone.
TEST(PiiTaggerTest, APlacesNameOfSeveralWordsIsOnePlace) {
  std::vector<PiiExample> train;
  const std::vector<std::string> places = {"Norway", "Korea", "Chad", "Peru", "Kenya", "Fiji"};
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& place = places[k % places.size()];
    train.push_back({"She moved here from " + place + " last year.", {{PiiType::kLocation, 20, static_cast<uint32_t>(20 + place.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"city", {"Country Club", "New York", "St. Petersburg", "Korea Bay"}},
                  {"common_word", {"she", "moved", "here", "from", "last", "year", "we", "met", "at", "the", "country",
                                   "club", "new", "south", "and", "today", "love", "isle", "of", "man"}},
                  {"country", {"Norway", "Korea", "Chad", "Peru", "Kenya", "Fiji", "South Korea", "Trinidad and Tobago",
                               "Isle of Man", "Saint Vincent and the Grenadines"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(found("She moved here from Korea last year."), std::vector<std::string>{"LOCATION:Korea"});
  EXPECT_EQ(found("She moved here from South Korea last year."), std::vector<std::string>{"LOCATION:South Korea"});
  EXPECT_EQ(found("She moved here from Trinidad and Tobago last year."),
            std::vector<std::string>{"LOCATION:Trinidad and Tobago"});
  EXPECT_EQ(found("She moved here from Isle of Man last year."), std::vector<std::string>{"LOCATION:Isle of Man"});
  EXPECT_EQ(found("She moved here from Saint Vincent and the Grenadines last year."),
            std::vector<std::string>{"LOCATION:Saint Vincent and the Grenadines"});
  EXPECT_EQ(found("She moved here from St. Petersburg last year."), std::vector<std::string>{"LOCATION:St. Petersburg"});
  EXPECT_EQ(found("she moved here from south korea last year."), std::vector<std::string>{"LOCATION:south korea"});
  EXPECT_EQ(found("We love New York today."), std::vector<std::string>{"LOCATION:New York"});
  // Not of everyday words alone where the tagger found nothing, nor in
  // small letters in text with capitals, nor across a line.
  EXPECT_EQ(found("we met at the country club today."), std::vector<std::string>{});
  EXPECT_EQ(found("We love new york today."), std::vector<std::string>{});
  // One name at a time: not "Korea Bay" inside "South Korea Bay".
  const std::vector<std::string> bay = found("She moved here from South Korea Bay last year.");
  EXPECT_EQ(std::count(bay.begin(), bay.end(), "LOCATION:South Korea"), 1);
  EXPECT_EQ(std::count(bay.begin(), bay.end(), "LOCATION:Korea Bay"), 0);
  const std::vector<std::string> small = found("She moved here from South korea last year.");
  EXPECT_EQ(std::count(small.begin(), small.end(), "LOCATION:South korea"), 0);
  const std::vector<std::string> across = found("We love New\nYork today.");
  EXPECT_EQ(std::count(across.begin(), across.end(), "LOCATION:New\nYork"), 0);
}

// A name alone on its line between an address ending the line above and a
// place opening the line below is an envelope's town: a place. The address
// above may be one the tagger found or a unit the structured detectors
// found. Not a name below a name.
TEST(PiiTaggerTest, ANameBetweenAnEnvelopesLinesIsItsTown) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    // The town labelled a name, as a decoder may take it; no unit.
    const std::string street = "> " + kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70),
                      town = kFirst[k % kFirst.size()], country = "Turkey";
    PiiExample e;
    e.text = "Send it to.\n" + street + "\n> " + town + "\n> " + country + "\nThanks, " + town + ".";
    const auto street_at = static_cast<uint32_t>(12 + 2), town_at = static_cast<uint32_t>(12 + street.size() + 1 + 2),
               country_at = static_cast<uint32_t>(town_at + town.size() + 3),
               thanks_at = static_cast<uint32_t>(country_at + country.size() + 9);
    e.spans = {{PiiType::kStreetAddress, street_at, static_cast<uint32_t>(12 + street.size())},
               {PiiType::kPerson, town_at, static_cast<uint32_t>(town_at + town.size())},
               {PiiType::kLocation, country_at, static_cast<uint32_t>(country_at + country.size())},
               {PiiType::kPerson, thanks_at, static_cast<uint32_t>(thanks_at + town.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"send", "it", "to", "thanks", "apt"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(scanned_spans(tagger, "Send it to.\n> Novakweg 31\n> Apt. 5\n> Wanda\n> Turkey\nThanks, Wanda."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "STREET_ADDRESS:Apt. 5", "LOCATION:Wanda", "LOCATION:Turkey",
                                      "PERSON:Wanda"}));
  const std::vector<std::string> below_a_name = scanned_spans(tagger, "Send it to, Wanda.\n> Wanda\n> Turkey\nThanks, Wanda.");
  EXPECT_EQ(std::count(below_a_name.begin(), below_a_name.end(), "PERSON:Wanda"), 3) << ::testing::PrintToString(below_a_name);
}

// A name after words that announce a place ("the city of", "City:", "grew
// up in", "flew to", "she is from", "a woman from") is a place; not after
// other words ("the quote is from"), nor past a line break.
TEST(PiiTaggerTest, ANameAfterAPlaceCueIsAPlace) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()];
    PiiExample e;
    e.text = "We wrote to " + name + " today.";
    e.spans = {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  for (const char* cue : {"the city of", "the town", "the city:", "people who grew up in", "those born in",
                          "friends originally from",
                          "those who moved to", "people relocating to", "those who arrived in",
                          "those who flew to", "those who traveled to", "those who travelled to", "a trip to",
                          "the flight to", "a woman who is from", "the men from", "a guy who comes from"}) {
    EXPECT_EQ(typed_spans(tagger, "We wrote to " + std::string(cue) + " Wanda today."), std::vector<std::string>{"LOCATION:Wanda"})
        << cue;
  }
  EXPECT_EQ(typed_spans(tagger, "We wrote to the friends of Wanda today."), std::vector<std::string>{"PERSON:Wanda"});
  EXPECT_EQ(typed_spans(tagger, "We wrote to those who talked to Wanda today."), std::vector<std::string>{"PERSON:Wanda"});
  EXPECT_EQ(typed_spans(tagger, "We wrote to a quote that is from Wanda today."), std::vector<std::string>{"PERSON:Wanda"});
  // A move from a place to another ("moved from Graz to").
  auto wanda = [&](const std::string& text) {
    for (const std::string& span : typed_spans(tagger, text)) {
      if (span.ends_with(":Wanda")) return span;
    }
    return std::string("none");
  };
  EXPECT_EQ(wanda("We wrote to those who moved from Graz to Wanda today."), "LOCATION:Wanda");
  EXPECT_EQ(wanda("We wrote to those who moved here from Graz Upper to Wanda today."), "LOCATION:Wanda");
  EXPECT_EQ(wanda("We wrote to those who wrote from Graz to Wanda today."), "PERSON:Wanda");
  EXPECT_EQ(typed_spans(tagger, "We wrote to the city\nWanda today."), std::vector<std::string>{"PERSON:Wanda"});
  EXPECT_EQ(typed_spans(tagger, "We wrote to the name: Wanda today."), std::vector<std::string>{"PERSON:Wanda"});
  // Even a word that only a name list knows, which is a name elsewhere.
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}};
  const PiiTagger listed = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(listed, "We wrote to people who grew up in Wanda today."), std::vector<std::string>{"LOCATION:Wanda"});
}

// After a place's cue, words that no list knows as everyday words and that
// end the clause are a place, where the tagger found nothing there.
TEST(PiiTaggerTest, UnknownWordsAfterAPlaceCueAreAPlace) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()];
    train.push_back({"We wrote to " + name + " today.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "wrote", "to", "today", "he", "she", "grew", "up", "in", "moved", "here", "from",
                                   "poverty", "with", "his", "family", "born", "went", "on", "friday", "last", "year"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("he grew up in onnezies."), std::vector<std::string>{"LOCATION:onnezies"});
  EXPECT_EQ(found("She grew up in Zrvx Qlbrn."), std::vector<std::string>{"LOCATION:Zrvx Qlbrn"});
  EXPECT_EQ(found("she moved here from zrvx"), std::vector<std::string>{"LOCATION:zrvx"});
  EXPECT_EQ(found("she moved to zrvx"), std::vector<std::string>{"LOCATION:zrvx"});
  // Before a word of time or another place's preposition.
  EXPECT_EQ(found("she moved to zrvx on friday."), std::vector<std::string>{"LOCATION:zrvx"});
  EXPECT_EQ(found("She moved to Zrvx Qlbrn last year."), std::vector<std::string>{"LOCATION:Zrvx Qlbrn"});
  // Not an everyday word, a number, a sign, nor words that go on.
  for (const char* text : {"he grew up in poverty.", "she was born in 1990.", "she moved here from \u2026.",
                           "he grew up in onnezies with his family.", "she went to zrvx"}) {
    EXPECT_EQ(found(text), std::vector<std::string>{}) << text;
  }
}

// Words after "lives on" or "the north side of" are a street: before a
// street's suffix (one in small letters left out), or, in text with
// capitals, words no list knows.
TEST(PiiTaggerTest, WordsAfterAStreetCueAreAStreet) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()];
    train.push_back({"We wrote to " + name + " today.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "wrote", "to", "today", "he", "she", "lives", "on", "the", "north", "side",
                                   "of", "elm", "hope", "farm", "each"}},
                  {"city", {"Chicago"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("she lives on zrvx street."), std::vector<std::string>{"STREET_ADDRESS:zrvx"});
  EXPECT_EQ(found("She lives on Elm Street."), std::vector<std::string>{"STREET_ADDRESS:Elm Street"});
  EXPECT_EQ(found("She lives on Zrvx Qlbrn street."), std::vector<std::string>{"STREET_ADDRESS:Zrvx Qlbrn"});
  EXPECT_EQ(found("He lives on the north side of Zrvx."), std::vector<std::string>{"STREET_ADDRESS:Zrvx"});
  // Not an everyday word or a place without a suffix, an owner, a planet,
  // nor in text without capitals words without one.
  for (const char* text : {"She lives on hope.", "He lives on the north side of Chicago.", "She lives on Zrvx's farm.",
                           "They lived on Venus.", "she lives on zrvx.", "it is located on each side."}) {
    for (const std::string& span : found(text)) EXPECT_FALSE(span.starts_with("STREET_ADDRESS")) << text;
  }
}

// In the whole scan, an age or a group that the words around it confirm
// wins over the tagger's guess at the same words; and a number with small
// words after it is no address.
TEST(PiiTaggerTest, ConfirmedAgesAndGroupsWinOverTheTagger) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  // Rows that teach the tagger "age 67" and "is italian" as other types
  // (in lower case, where the tagger scores every token: in text with
  // capitals, a number before a mark opens nothing). A house number, as
  // the tagger keeps a number alone before a word no list knows
  // (ANumberAloneIsAnAddressOnlyAmongAddressWords).
  for (size_t k = 0; k < 200; ++k) {
    PiiExample e;
    e.text = "the patient, age 67 zorvath, is italian.";
    e.spans = {{PiiType::kStreetAddress, 17, 19}, {PiiType::kPerson, 32, 39}};
    train.push_back(e);
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  const std::string text = "the patient, age 67 zorvath, is italian.";
  const std::vector<std::string> guessed = typed_spans(tagger, text);
  ASSERT_FALSE(guessed.empty());
  EXPECT_EQ(guessed[0], "STREET_ADDRESS:67");
  EXPECT_EQ(scanned_spans(tagger, text), (std::vector<std::string>{"AGE:67", "NRP:italian"}));
}

// "Send it to.\n<number> <surname> Street\nThanks.", the street labelled.
std::vector<PiiExample> addresses_on_their_line() {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string street = std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + " Street";
    PiiExample e;
    e.text = "Send it to.\n" + street + "\nThanks.";
    e.spans = {{PiiType::kStreetAddress, 12, static_cast<uint32_t>(12 + street.size())}};
    rows.push_back(std::move(e));
  }
  return rows;
}

// Below an address that ends its line, the short lines of an envelope are
// its place and postcode; a blank line, a line of everyday words or one
// with lower-case words ends the block.
TEST(PiiTaggerTest, TheLinesBelowAnAddressAreItsPlace) {
  const std::vector<PiiExample> train = addresses_on_their_line();
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"moss", "best", "wishes", "of", "the", "see", "you"}},
                  {"country", {"turkey", "republic of the congo"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\n MOSS\n Turkey 05557\nthanks"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS", "LOCATION:Turkey",
                                      "STREET_ADDRESS:05557"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\nBest Wishes\nGraz"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\n> Republic of the Congo\n\nZephyrine"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:Republic of the Congo"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\nSee you Zephyrine"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  // Nor a number that is no postcode, nor a single letter ("C." of a list).
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\nGraz 0.02"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\nC. Graz"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  // What follows an address on its line after a comma is a line of its own
  // (the address in a sentence: written whole once it crosses a line, see
  // AnAddressInASentenceIsWrittenWhole).
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street, Zephyrine"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:Zephyrine"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street, Zephyrine\nGraz"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street, Zephyrine\nGraz"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street, see you\nGraz"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street Zephyrine\nGraz"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  // A joining word opens no place.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\n, of Graz"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:Graz"}));
}

// An address a sentence runs into is one span with the lines of its
// envelope below it, or with a town and a country after two commas on its
// line; one that opens its line keeps its lines apart, as does one after a
// span on its line, and a list's next address stays its own.
TEST(PiiTaggerTest, AnAddressInASentenceIsWrittenWhole) {
  const std::vector<PiiExample> train = addresses_on_their_line();
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"send", "it", "to", "thanks"}}, {"country", {"turkey"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street\n MOSS\n Turkey 05557\nThanks"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street\n MOSS\n Turkey 05557"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street, Moss, Turkey 05557\nThanks"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street, Moss, Turkey 05557"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to 12\n MOSS"), (std::vector<std::string>{"STREET_ADDRESS:12\n MOSS"}));
  // A blank line ends the envelope (and the numbers alone, among no
  // address words, are none: ANumberAloneIsAnAddressOnlyAmongAddressWords).
  EXPECT_EQ(typed_spans(tagger, "Send it to 12\n\n13\n MOSS"), (std::vector<std::string>{"LOCATION:MOSS"}));
  // Not past six lines: a list or a table, no envelope, whose lines are
  // left to the other spans.
  EXPECT_EQ(scanned_spans(tagger, "Send it to 12 Novak Street\n MOSS\n Turkey 05557\nThanks"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street\n MOSS\n Turkey 05557"}));
  for (const std::string& span :
       scanned_spans(tagger, "Send it to 12 Novak Street\n MOSS\n 13\n GRAZ\n 14\n LINZ\n 15\n WELS\n Turkey 05557\nThanks")) {
    EXPECT_LE(std::count(span.begin(), span.end(), '\n'), 5) << span;
  }
  // A street and its town.
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street, Moss."),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:Moss"}));
  // A list of addresses.
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street, Moss, 13 Novak Street, Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:Moss", "STREET_ADDRESS:13 Novak Street",
                                      "LOCATION:Graz"}));
  // An envelope: the address opens its line, or a number opens the line,
  // or a span stands right before it.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street\n MOSS\n Turkey 05557"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS", "LOCATION:Turkey",
                                      "STREET_ADDRESS:05557"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n12 Novak Street R 14 Novak Street\n MOSS"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "STREET_ADDRESS:14 Novak Street", "LOCATION:MOSS"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to 12 Novak Street 14 Novak Street\n MOSS"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "STREET_ADDRESS:14 Novak Street", "LOCATION:MOSS"}));
}

// The line above an envelope's unit ("Apt. 217"), opening with a number,
// is the street: the building's number and the rest of the line, each an
// address; a place the tagger saw there gives way.
TEST(PiiTaggerTest, TheLineAboveAUnitIsItsStreet) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    // A tagger that learned the unit, and not the street above it.
    PiiExample unit;
    const std::string street = std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + " Street\n";
    const std::string apt = "Apt. " + std::to_string(100 + k);
    unit.text = "Send it to.\n" + street + apt + "\nThanks.";
    const auto at = static_cast<uint32_t>(12 + street.size());
    unit.spans = {{PiiType::kStreetAddress, at, static_cast<uint32_t>(at + apt.size())}};
    train.push_back(std::move(unit));
    PiiExample place;
    const std::string city = kCities[k % kCities.size()];
    place.text = "We met in " + city + " today.";
    place.spans = {{PiiType::kLocation, 10, static_cast<uint32_t>(10 + city.size())}};
    train.push_back(std::move(place));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"send", "it", "to", "thanks", "see"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n> 60 Aqqusinersuaq\n> Apt. 217\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:60", "STREET_ADDRESS:Aqqusinersuaq", "STREET_ADDRESS:Apt. 217"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n60 Porto\nApt. 217\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:60", "STREET_ADDRESS:Porto", "STREET_ADDRESS:Apt. 217"}));
  // Not a line without the building's number (here a letterhead), nor one
  // a blank line parts from the unit, nor one with other marks, nor one
  // above a unit inside its line.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nAqqusinersuaq\nApt. 217\nThanks."),
            (std::vector<std::string>{"ORGANIZATION:Aqqusinersuaq", "STREET_ADDRESS:Apt. 217"}));
  for (const char* text : {"Send it to.\n60 Aqqusinersuaq\n\nApt. 217\nThanks.", "Send it to.\n60 Aqqusinersuaq: x\nApt. 217\nThanks.",
                           "Send it to.\n60 Aqqusinersuaq\nSee Apt. 217\nThanks."}) {
    EXPECT_EQ(typed_spans(tagger, text), (std::vector<std::string>{"STREET_ADDRESS:Apt. 217"})) << text;
  }
  // A unit the structured scan found, before tagging, heads the street too.
  {
    const std::string text = "Send it to.\n60 Porto\nSuite 217\nThanks.";
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{});  // no unit this tagger knows
    std::vector<PiiSpan> spans = {{PiiType::kStreetAddress, 21, 30}};
    tagger.tag(text, spans);
    std::vector<std::string> found;
    for (const PiiSpan& s : spans) found.push_back(std::string(pii_type_name(s.type)) + ":" + text.substr(s.begin, s.end - s.begin));
    EXPECT_EQ(found, (std::vector<std::string>{"STREET_ADDRESS:Suite 217", "STREET_ADDRESS:60", "STREET_ADDRESS:Porto"}));
  }
  // Nor a line where a span found before tagging stands.
  const std::string text = "Send it to.\n60 Porto\nApt. 217\nThanks.";
  std::vector<PiiSpan> spans = {{PiiType::kZipCode, 12, 14}};
  tagger.tag(text, spans);
  EXPECT_TRUE(std::none_of(spans.begin(), spans.end(), [&](const PiiSpan& s) {
    return s.type == PiiType::kStreetAddress && text.substr(s.begin, s.end - s.begin) == "Porto";
  }));
}

// The line above an address, as a letterhead writes it, is the sender: an
// organisation, or a person whose first word is only a name; a place the
// tagger saw there is an organisation.
TEST(PiiTaggerTest, ALetterheadAboveAnAddressIsItsSender) {
  const std::vector<PiiExample> train = addresses_on_their_line();
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"description", "walk", "score", "send", "it", "to"}}, {"first_name", kFirst}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Walk Score\n\n12 Novak Street"),
            (std::vector<std::string>{"ORGANIZATION:Walk Score", "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "> Zephyr Lark\n> 12 Novak Street"),
            (std::vector<std::string>{"ORGANIZATION:Zephyr Lark", "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nWanda Quillborne\n12 Novak Street"),
            (std::vector<std::string>{"PERSON:Wanda Quillborne", "STREET_ADDRESS:12 Novak Street"}));
  // The first line of a text heads an address anywhere below it.
  EXPECT_EQ(typed_spans(tagger, "Zephyr Lark\nSend it to 12 Novak Street"),
            (std::vector<std::string>{"ORGANIZATION:Zephyr Lark", "STREET_ADDRESS:12 Novak Street"}));
  // Not an everyday word alone, a line with a digit or other marks, or one
  // above an address inside its line below the first.
  EXPECT_EQ(typed_spans(tagger, "Description\n12 Novak Street"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Hi\nZephyr Lark B4\n12 Novak Street"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Hi\nZephyr Lark: see\n12 Novak Street"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Hi\nZephyr Lark\nSend it to 12 Novak Street"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));

  // One long line of many addresses below a letterhead: each address is
  // found, the letterhead once (and each pass walks the line once, not once
  // per address: 40,000 addresses took 16 s when they did).
  std::string line = "Zephyr Lark\n";
  for (int k = 0; k < 20000; ++k) line += std::to_string(10 + k % 80) + " Novak Street, Graz, ";
  std::vector<PiiSpan> spans;
  tagger.tag(line, spans);
  EXPECT_EQ(std::count_if(spans.begin(), spans.end(), [](const PiiSpan& s) { return s.type == PiiType::kStreetAddress; }),
            20000);
  ASSERT_FALSE(spans.empty());
  EXPECT_EQ(spans[0].type, PiiType::kOrganization);
  EXPECT_EQ(std::count_if(spans.begin(), spans.end(), [](const PiiSpan& s) { return s.type == PiiType::kOrganization; }), 1);

  // A tagger that saw such lines as places.
  std::vector<PiiExample> places;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string city = kCities[k % kCities.size()];
    const std::string street = std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + " Street";
    PiiExample e;
    e.text = "Send it to:\n" + city + "\n" + street;
    const auto at = static_cast<uint32_t>(13 + city.size());
    e.spans = {{PiiType::kLocation, 12, static_cast<uint32_t>(12 + city.size())},
               {PiiType::kStreetAddress, at, static_cast<uint32_t>(at + street.size())}};
    places.push_back(std::move(e));
  }
  const PiiTagger place_tagger = PiiTagger::train(places, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(place_tagger, "Send it to\nPorto\n12 Novak Street"),
            (std::vector<std::string>{"ORGANIZATION:Porto", "STREET_ADDRESS:12 Novak Street"}));
  // (Below a label's line, the addressee: type_firms_of_a_full_name().)
  EXPECT_EQ(typed_spans(place_tagger, "Send it to:\nPorto\n12 Novak Street"),
            (std::vector<std::string>{"PERSON:Porto", "STREET_ADDRESS:12 Novak Street"}));

  // A job title's line, above the sender or the address, ending in a role.
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nCrushing, grinding, and polishing machine tender\nZephyr Lark\n12 Novak Street"),
            (std::vector<std::string>{"TITLE:Crushing, grinding, and polishing machine tender", "ORGANIZATION:Zephyr Lark",
                                      "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nBenefits manager\n12 Novak Street"),
            (std::vector<std::string>{"TITLE:Benefits manager", "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nBenefits package\n12 Novak Street"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Benefits manager\n\nZephyr Lark\n12 Novak Street"),
            (std::vector<std::string>{"ORGANIZATION:Zephyr Lark", "STREET_ADDRESS:12 Novak Street"}));
}

// An envelope's line between the addressee's name and the address is the
// company's: added where nothing covers it (an everyday word alone too),
// and a name of the tagger over it retyped, unless a name list knows its
// first word (a second addressee).
TEST(PiiTaggerTest, TheLineBetweenANameAndItsAddressIsTheCompany) {
  // Envelopes whose second line the rows label as a name.
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()];
    const std::string second = kLast[(k + 3) % kLast.size()] + " " + kLast[(k + 7) % kLast.size()];
    const std::string street = std::to_string(2 + k % 90) + " " + kLast[(k + 5) % kLast.size()] + " Street";
    PiiExample e;
    e.text = "Send it to:\n" + name + "\n" + second + "\n" + street;
    const auto at_second = static_cast<uint32_t>(12 + name.size() + 1);
    const auto at_street = static_cast<uint32_t>(at_second + second.size() + 1);
    e.spans = {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())},
               {PiiType::kPerson, at_second, static_cast<uint32_t>(at_second + second.size())},
               {PiiType::kStreetAddress, at_street, static_cast<uint32_t>(at_street + street.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"mint", "send", "it", "to"}}, {"first_name", kFirst}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nWanda Novak\nZephyr Quillborne\n12 Novak Street"),
            (std::vector<std::string>{"PERSON:Wanda Novak", "ORGANIZATION:Zephyr Quillborne", "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nWanda Novak\nMint\n12 Novak Street"),
            (std::vector<std::string>{"PERSON:Wanda Novak", "ORGANIZATION:Mint", "STREET_ADDRESS:12 Novak Street"}));
  // A second addressee; a blank line between; no name above.
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nWanda Novak\nGreta Brandt\n12 Novak Street"),
            (std::vector<std::string>{"PERSON:Wanda Novak", "PERSON:Greta Brandt", "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nWanda Novak\n\nMint\n12 Novak Street"),
            (std::vector<std::string>{"PERSON:Wanda Novak", "STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\nMint\n12 Novak Street"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  // In text without capitals, words with letters.
  EXPECT_EQ(typed_spans(tagger, "send it to:\nwanda novak\nzephyr labs\n12 novak street"),
            (std::vector<std::string>{"PERSON:wanda novak", "ORGANIZATION:zephyr labs", "STREET_ADDRESS:12 novak street"}));
}

// "<name>, the <job title>, said": the title between ", the" and a comma,
// ending in a role; the tagger's guess over its first words becomes it.
TEST(PiiTaggerTest, AJobTitleAfterANameIsATitle) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath, the Maxillofacial surgeon, said so."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "TITLE:Maxillofacial surgeon"}));
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath, the chief executive officer, said so."),
            (std::vector<std::string>{"PERSON:Wanda Horvath", "TITLE:chief executive officer"}));
  // Not without a role, a closing comma, or with a number.
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath, the best of them, said so."),
            (std::vector<std::string>{"PERSON:Wanda Horvath"}));
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath, the officer said so."), (std::vector<std::string>{"PERSON:Wanda Horvath"}));
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath, the 2 officer, said so."), (std::vector<std::string>{"PERSON:Wanda Horvath"}));
  EXPECT_EQ(typed_spans(tagger, "Wanda Horvath, the good government, said so."), (std::vector<std::string>{"PERSON:Wanda Horvath"}));
}

// A tagger that learned to run an address on into the phone number below
// it keeps, in the whole scan, the address's lines above the number, which
// the structured detector finds: cut before it, ending on a word.
TEST(PiiTaggerTest, AnAddressRunningIntoAPhoneNumberKeepsItsLines) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string address = std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + " Street\n " +
                                kCities[k % kCities.size()] + "\n 212-555-0" + std::to_string(100 + k % 900);
    PiiExample e;
    e.text = "Write to " + address + " today.";
    e.spans = {{PiiType::kStreetAddress, 9, static_cast<uint32_t>(9 + address.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  const std::string text = "Write to 40 Novak Street\n Graz\n 212-555-0199 today.";
  ASSERT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{"40 Novak Street\n Graz\n 212-555-0199"});
  EXPECT_EQ(scanned_spans(tagger, text), (std::vector<std::string>{"STREET_ADDRESS:40 Novak Street\n Graz", "PHONE_NUMBER:212-555-0199"}));
}

// A building's number, a street of words that are no everyday words (in
// text with capitals capitalised) and its number, apart on one line, are an
// address, whatever the tagger learned: one that learned only job titles
// finds them.
TEST(PiiTaggerTest, ANumberedStreetIsAnAddress) {
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    PiiExample e;
    e.text = "Our Payroll clerk wants the report by " + kFirst[k % kFirst.size()] + ".";
    e.spans = {{PiiType::kTitle, 4, 17}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(3, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"today"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(addresses("We'll meet at the office, 50 Massbyntie 27, in June."),
            (std::vector<std::string>{"50", "Massbyntie 27"}));
  EXPECT_EQ(addresses("It is at 7 Änggårda Anga 12 now."), (std::vector<std::string>{"7", "Änggårda Anga 12"}));
  EXPECT_EQ(addresses("Read 2 Samuel 11:4 and 2 Kings 11:4 again."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Grades 4 Today 7 and 4 • 8 or 4 – 7."), std::vector<std::string>{});
  EXPECT_EQ(addresses("we'll meet at the office, 50 massbyntie 27, in june."),
            (std::vector<std::string>{"50", "massbyntie 27"}));
  // Without capitals, only after a mark or a word that leads to a place.
  EXPECT_EQ(addresses("a 25-year-old gravida 3 para 2 is admitted."), std::vector<std::string>{});
  EXPECT_EQ(addresses("It is at 50 Massbyntie\n27 now."), std::vector<std::string>{});
  // A long text of many envelopes, each street opening its line: every one
  // is found (and fast: the passes after decoding look up what covers a
  // token in the tokens' cover, not through all the spans found).
  std::string envelopes;
  for (int k = 0; k < 5000; ++k) envelopes += std::to_string(10 + k % 80) + " Massbyntie " + std::to_string(2 + k % 50) + "\n Graz\n\n";
  std::vector<PiiSpan> spans;
  tagger.tag(envelopes, spans);
  EXPECT_EQ(spans.size(), 15000u);
  EXPECT_EQ(std::count_if(spans.begin(), spans.end(), [](const PiiSpan& s) { return s.type == PiiType::kLocation; }), 5000);
}

// 200 rows of "Please call <first> <last> today." with the person
// labelled: a tagger that learns only names, for the address rules.
std::vector<PiiExample> people_to_call() {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 200; ++k) {
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[(k / 3) % kLast.size()];
    PiiExample e;
    e.text = "Please call " + name + " today.";
    e.spans = {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}};
    rows.push_back(std::move(e));
  }
  return rows;
}

// In text with capitals, a building's number and a street named by its
// suffix, one space apart on one line, are an address, whatever the tagger
// took its words for: one that learned only names finds them, and the
// names it found inside give way. So is a street before its number, named
// by its suffix last or by a street word first. Not a year after a suffix
// everyday words share, a place and its postcode, or a quantity. In text
// without capitals, with a suffix that only streets have; or, after a word
// that leads to a place, with any suffix, a street word first, or a German
// street's ending, where the street ends its clause or its town follows.
TEST(PiiTaggerTest, AStreetNamedByItsSuffixNextToItsNumberIsAnAddress) {
  const std::vector<PiiExample> train = people_to_call();
  TaggerOptions o = options(3, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"juniper", "chestnut", "old", "mill", "olympic", "today", "see", "you", "at", "near"}},
                  {"street_suffix",
                   {"Way", "Boulevard", "Road", "Park", "Street", "Lane", "Calle", "Cape", "Close", "Mews", "Square",
                    "Squares"}},
                  {"country", {"Cape Verde"}},
                  {"city", {"Leeds"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(addresses("See you at 9084 Juniper Way then."), std::vector<std::string>{"9084 Juniper Way"});
  EXPECT_EQ(values_of(tagger, "Please call 9084 Juniper Way today.", PiiType::kPerson), std::vector<std::string>{});
  EXPECT_EQ(addresses("It moved from 12 Old Mill Road to 4028 Chestnut Boulevard."),
            (std::vector<std::string>{"12 Old Mill Road", "4028 Chestnut Boulevard"}));
  EXPECT_EQ(addresses("It opened in 1999 Chestnut Street first."), std::vector<std::string>{"1999 Chestnut Street"});
  // With a compass point before the street's name, and a suffix the lists
  // write in full abbreviated ("Ave").
  EXPECT_EQ(addresses("See you at 120 N. Juniper Way then."), std::vector<std::string>{"120 N. Juniper Way"});
  EXPECT_EQ(addresses("See you at 4417 W. Chestnut Ave then."), std::vector<std::string>{"4417 W. Chestnut Ave"});
  EXPECT_EQ(addresses("See you at 77 SW Old Mill Road then."), std::vector<std::string>{"77 SW Old Mill Road"});
  // An ordinal among the street's words.
  EXPECT_EQ(addresses("See you at 310 East 46th Street then."), std::vector<std::string>{"310 East 46th Street"});
  // A unit's number after a number sign, after an abbreviation's stop too.
  EXPECT_EQ(addresses("See you at 77 Juniper Way #210, Graz."), std::vector<std::string>{"77 Juniper Way #210"});
  EXPECT_EQ(addresses("See you at 77 Juniper Ave. #210, Graz."), std::vector<std::string>{"77 Juniper Ave. #210"});
  EXPECT_EQ(addresses("see you at 12 old mill road #4 then."), std::vector<std::string>{"12 old mill road #4"});
  EXPECT_EQ(addresses("See you at 55 W 14th St #2R then."), std::vector<std::string>{"55 W 14th St #2R"});
  // "Dr" is a drive's where no name follows it; a city's quadrant after
  // the suffix is the street's.
  EXPECT_EQ(addresses("Draft a listing for 4821 Juniper Dr, Graz."), std::vector<std::string>{"4821 Juniper Dr"});
  EXPECT_EQ(addresses("Draft a listing for 4821 Juniper Dr."), std::vector<std::string>{"4821 Juniper Dr"});
  EXPECT_EQ(addresses("Draft a listing for 4821 Juniper Dr Apt 4."), std::vector<std::string>{"4821 Juniper Dr Apt 4"});
  EXPECT_EQ(addresses("See you at 1600 Chestnut Ave NW, Graz."), std::vector<std::string>{"1600 Chestnut Ave NW"});
  // (Without capitals where the clause ends after it.)
  EXPECT_EQ(addresses("see you at 1600 chestnut avenue ne, graz."), std::vector<std::string>{"1600 chestnut avenue ne"});
  // A building's number with a letter, or a range of them.
  EXPECT_EQ(addresses("See you at 221B Juniper Way then."), std::vector<std::string>{"221B Juniper Way"});
  EXPECT_EQ(addresses("see you at 12a juniper road then."), std::vector<std::string>{"12a juniper road"});
  EXPECT_EQ(addresses("See you at 7-9 Old Mill Road then."), std::vector<std::string>{"7-9 Old Mill Road"});
  EXPECT_EQ(addresses("See you at 16/42 Old Mill Road then."), std::vector<std::string>{"16/42 Old Mill Road"});
  EXPECT_EQ(addresses("See you at 14\u201316 Old Mill Road then."), std::vector<std::string>{"14\u201316 Old Mill Road"});
  // A value in quotes or brackets, as JSON and code write it.
  EXPECT_EQ(addresses("{\"address\": \"9084 Juniper Way, Graz\"}"), std::vector<std::string>{"9084 Juniper Way"});
  // (And after a field's separator: a CSV row, a vCard.)
  EXPECT_EQ(addresses("Anna,9084 Juniper Way,Graz"), std::vector<std::string>{"9084 Juniper Way"});
  EXPECT_EQ(addresses("ADR:;;9084 Juniper Way;Graz"), std::vector<std::string>{"9084 Juniper Way"});
  EXPECT_EQ(addresses("ship_to = '12 Old Mill Road'"), std::vector<std::string>{"12 Old Mill Road"});
  // (This tagger takes "2012 Olympic" and "9084 Juniper" for a house
  // number and a name, which finish_span() makes an address.)
  auto found = [&](const std::string& text, const std::string& address) {
    const std::vector<std::string> all = addresses(text);
    return std::find(all.begin(), all.end(), address) != all.end();
  };
  EXPECT_FALSE(found("It was built for the 2012 Olympic Park.", "2012 Olympic Park"));
  EXPECT_FALSE(found("I read the 3 Juniper Dr. Smith wrote.", "3 Juniper Dr"));
  EXPECT_FALSE(found("I read the 3 Juniper Dr. Smith wrote.", "3 Juniper Dr."));
  EXPECT_FALSE(found("See you at 9084 Juniper\nWay then.", "9084 Juniper\nWay"));
  EXPECT_FALSE(found("See you at 12ab Juniper Way then.", "12ab Juniper Way"));
  EXPECT_FALSE(found("See you at 12 Old Mill Road. #4 is mine.", "12 Old Mill Road. #4"));
  EXPECT_EQ(addresses("The property at Birchwood Lane 1368 was sold."), std::vector<std::string>{"Birchwood Lane 1368"});
  EXPECT_EQ(addresses("It goes to Calle Mayor 5486."), std::vector<std::string>{"Calle Mayor 5486"});
  EXPECT_EQ(addresses("It goes to Calle de la Mayor 5486."), std::vector<std::string>{"Calle de la Mayor 5486"});
  EXPECT_EQ(addresses("It goes to Juniper of Calle Mayor 5486."), std::vector<std::string>{"Calle Mayor 5486"});
  // With capitals, a Romance street word in small letters before the name,
  // as running text writes it; "via" after a word that leads to a place.
  EXPECT_EQ(addresses("He lives at calle Mayor 12 now."), std::vector<std::string>{"calle Mayor 12"});
  EXPECT_EQ(addresses("It goes to avenida de la Juniper 45."), std::vector<std::string>{"avenida de la Juniper 45"});
  EXPECT_EQ(addresses("Send it to via Garibaldi 3504, Graz."), std::vector<std::string>{"via Garibaldi 3504"});
  EXPECT_FALSE(found("I paid via PayPal 20 dollars.", "via PayPal 20"));
  // One word that ends as streets do, before its number.
  EXPECT_EQ(addresses("It goes to Lindenstraße 12, Berlin."), std::vector<std::string>{"Lindenstraße 12"});
  EXPECT_EQ(addresses("The bus stops on Kuefsteinstrasse 91"), std::vector<std::string>{"Kuefsteinstrasse 91"});
  EXPECT_EQ(addresses("It goes to Nørregade 12, Berlin."), std::vector<std::string>{"Nørregade 12"});
  EXPECT_EQ(addresses("It goes to Aleksanterinkatu 7, Berlin."), std::vector<std::string>{"Aleksanterinkatu 7"});
  EXPECT_EQ(addresses("Does it go to Calle Mayor 5486?"), std::vector<std::string>{"Calle Mayor 5486"});
  // A "Street" or "St" that ends the address after a word of a street's
  // kind or after the number of a street named first is the sentence's;
  // not after another word ("Park Street").
  EXPECT_EQ(addresses("See you at 9084 Juniper Road Street then."), std::vector<std::string>{"9084 Juniper Road"});
  EXPECT_EQ(addresses("See you at 9084 Juniper Road St. then."), std::vector<std::string>{"9084 Juniper Road"});
  EXPECT_EQ(addresses("The bus stops on Kuefsteinstrasse 91 street now."), std::vector<std::string>{"Kuefsteinstrasse 91"});
  EXPECT_EQ(addresses("See you at 9084 Juniper Park Street then."), std::vector<std::string>{"9084 Juniper Park Street"});
  // (Without capitals, after a word that leads to a place, German's
  // article ("an der") or a comma between an address's fields; after any
  // word where the ending has five letters or more, not "weg".)
  EXPECT_EQ(addresses("the bus stops on kuefsteinstrasse 91"), std::vector<std::string>{"kuefsteinstrasse 91"});
  EXPECT_EQ(addresses("wir sind an der kuefsteinstrasse 91"), std::vector<std::string>{"kuefsteinstrasse 91"});
  EXPECT_EQ(addresses("the bus stops on kuefsteinweg 91"), std::vector<std::string>{"kuefsteinweg 91"});
  EXPECT_EQ(addresses("we moved into kuefsteinstrasse 91"), std::vector<std::string>{"kuefsteinstrasse 91"});
  EXPECT_EQ(addresses("we moved into kuefsteinweg 91"), std::vector<std::string>{});
  EXPECT_EQ(addresses("we moved in, kuefsteinweg 91"), std::vector<std::string>{"kuefsteinweg 91"});
  EXPECT_EQ(addresses("we moved into strasse 91"), std::vector<std::string>{});
  EXPECT_EQ(addresses("In Calle Mayor 5486, we met."), std::vector<std::string>{"Calle Mayor 5486"});
  EXPECT_FALSE(found("It is in Cape Verde 12844 today.", "Cape Verde 12844"));
  EXPECT_FALSE(found("Walk along Davis Street 100 feet.", "Davis Street 100"));
  EXPECT_FALSE(found("It was the Champions Park 2012 final.", "Champions Park 2012"));
  EXPECT_FALSE(found("Read it: Psalm Street 23:4 now.", "Psalm Street 23"));
  // Without capitals, a suffix that only streets have, after no unit.
  EXPECT_EQ(addresses("we saw 9084 juniper road then."), std::vector<std::string>{"9084 juniper road"});
  EXPECT_EQ(addresses("see you at 9084 juniper road then."), std::vector<std::string>{"9084 juniper road"});
  EXPECT_EQ(addresses("we saw 1188 old mill ln, then."), std::vector<std::string>{"1188 old mill ln"});
  EXPECT_EQ(addresses("we saw 4400 juniper pkwy then."), std::vector<std::string>{"4400 juniper pkwy"});
  // Other suffixes, street words first and German streets after a word
  // that leads to a place.
  EXPECT_EQ(addresses("see you at 9084 juniper way then."), std::vector<std::string>{"9084 juniper way"});
  EXPECT_EQ(addresses("see you near 3913 rue oberkampf."), std::vector<std::string>{"3913 rue oberkampf"});
  // A Romance street word after the number, anywhere: its particles, then a
  // word or two that end the clause.
  EXPECT_EQ(addresses("now we live in 4 impasse des lilas."), std::vector<std::string>{"4 impasse des lilas"});
  EXPECT_EQ(addresses("now we live in 12 calle gran juniper."), std::vector<std::string>{"12 calle gran juniper"});
  EXPECT_EQ(addresses("see you at 19b juniper way then."), std::vector<std::string>{"19b juniper way"});
  EXPECT_EQ(addresses("address: 3913 calle de oro, sadly."), std::vector<std::string>{"3913 calle de oro"});
  EXPECT_EQ(addresses("see you at 3014 bahnhofstrasse now."), std::vector<std::string>{"3014 bahnhofstrasse"});
  EXPECT_FALSE(found("we saw 9084 juniper way then.", "9084 juniper way"));
  // After "of" or a comma, a resident's street; not a plural of a suffix
  // there, nor "close" before "to" or "by" (the adverb) anywhere.
  EXPECT_EQ(addresses("a tenant of 8 juniper way and a dog."), std::vector<std::string>{"8 juniper way"});
  EXPECT_EQ(addresses("to anna, 3 old mews, leeds"), std::vector<std::string>{"3 old mews"});
  EXPECT_EQ(addresses("a tenant of 8 juniper square and a dog."), std::vector<std::string>{"8 juniper square"});
  EXPECT_FALSE(found("red ones, 4 more juniper squares than blue", "4 more juniper squares"));
  EXPECT_FALSE(found("a farm of 50 acres close to the town", "50 acres close"));
  EXPECT_FALSE(found("see you at 50 juniper close by noon", "50 juniper close"));
  EXPECT_EQ(addresses("see you at 50 juniper close now"), std::vector<std::string>{"50 juniper close"});
  // (But before a unit it is a street: "way apt. 3".)
  EXPECT_EQ(addresses("we saw 9084 juniper way apt. 3 then."), std::vector<std::string>{"9084 juniper way apt. 3"});
  // (And after a comma: "rd, unit 7".)
  EXPECT_EQ(addresses("we saw 9084 juniper road, unit 3. then"), std::vector<std::string>{"9084 juniper road, unit 3"});
  EXPECT_FALSE(found("see you at 9084 juniper way trees.", "9084 juniper way"));
  // (But before its town: "way leeds".)
  EXPECT_EQ(addresses("i live at 9084 juniper way leeds and"), std::vector<std::string>{"9084 juniper way"});
  EXPECT_FALSE(found("built for 2012 olympic park.", "2012 olympic park"));
  EXPECT_EQ(addresses("it is at chestnut boulevard 6499 now."), std::vector<std::string>{"chestnut boulevard 6499"});
  EXPECT_FALSE(found("we drove a 10 mile road today.", "10 mile road"));
  // Nor over a word that stands in no name: a quantity before a verb.
  EXPECT_FALSE(found("it takes him 2 hours to drive there.", "2 hours to drive"));
  EXPECT_FALSE(found("It takes him 2 hours to drive there.", "2 hours to drive"));
  EXPECT_EQ(addresses("we saw 30 points included the drive."), std::vector<std::string>{});
  // In text with capitals, a street in small letters as above.
  EXPECT_EQ(addresses("See you at 9084 juniper road then."), std::vector<std::string>{"9084 juniper road"});
  EXPECT_FALSE(found("the 3 that road was closed.", "3 that road"));
}

// Streets as Europe writes them, whatever the tagger took their words for:
// a street word abbreviated with its stop before the number ("Str.",
// Hungarian "u."), or with a mark before the name (Spanish "C/", Polish
// "ul.", Portuguese "Av."), with a flat's number after a slash; a street
// word in small letters after the name (Hungarian "tér", Norwegian
// "gata"); a Romance street word in small letters after the building's
// number ("3 rue des Lilas"). Not "et al." before a year, nor a Romance
// word that English uses ("5 via PayPal").
TEST(PiiTaggerTest, AStreetWrittenAsEuropeWritesItIsAnAddress) {
  const std::vector<PiiExample> train = people_to_call();
  TaggerOptions o = options(3, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"today", "see", "you", "at", "near", "send", "it", "to", "pay"}},
                  {"street_suffix", {"Street", "Calle"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  auto found = [&](const std::string& text, const std::string& address) {
    const std::vector<std::string> all = addresses(text);
    return std::find(all.begin(), all.end(), address) != all.end();
  };
  EXPECT_EQ(addresses("Send it to Friedrichstr. 43, Berlin."), std::vector<std::string>{"Friedrichstr. 43"});
  EXPECT_EQ(addresses("Send it to Grosse Praesidenten Str. 20, Berlin."),
            std::vector<std::string>{"Grosse Praesidenten Str. 20"});
  EXPECT_EQ(addresses("Send it to Király u. 15, Budapest."), std::vector<std::string>{"Király u. 15"});
  EXPECT_EQ(addresses("Send it to C/ Alcalá 45, Madrid."), std::vector<std::string>{"C/ Alcalá 45"});
  EXPECT_EQ(addresses("Send it to ul. Długa 5/7, Gdańsk."), std::vector<std::string>{"ul. Długa 5/7"});
  EXPECT_EQ(addresses("Send it to Av. Paulista 1578, Brazil."), std::vector<std::string>{"Av. Paulista 1578"});
  EXPECT_EQ(addresses("Send it to Avda. de América 5, Madrid."), std::vector<std::string>{"Avda. de América 5"});
  EXPECT_EQ(addresses("Send it to Erzsébet tér 92, Budapest."), std::vector<std::string>{"Erzsébet tér 92"});
  EXPECT_EQ(addresses("Send it to Vilniaus gatvė 22, Vilnius."), std::vector<std::string>{"Vilniaus gatvė 22"});
  EXPECT_EQ(addresses("Send it to Brīvības iela 55, Rīga."), std::vector<std::string>{"Brīvības iela 55"});
  EXPECT_EQ(addresses("Send it to Dunajska cesta 5, Ljubljana."), std::vector<std::string>{"Dunajska cesta 5"});
  EXPECT_EQ(addresses("Send it to Karl Johans gata 22, Oslo."), std::vector<std::string>{"Karl Johans gata 22"});
  EXPECT_EQ(addresses("Send it to 3 rue des Lilas, Nantes."), std::vector<std::string>{"3 rue des Lilas"});
  EXPECT_EQ(addresses("Send it to 8 boulevard Saint-Michel, Paris."),
            std::vector<std::string>{"8 boulevard Saint-Michel"});
  // Without capitals, a word that ends as streets do after the name's
  // words, a particle among them, a street word in small letters last or a
  // Romance one first.
  EXPECT_EQ(addresses("send it to søndre havnevej 65, aarhus."), std::vector<std::string>{"søndre havnevej 65"});
  EXPECT_EQ(addresses("send it to dirk de derdelaan 149, gent."), std::vector<std::string>{"dirk de derdelaan 149"});
  EXPECT_EQ(addresses("send it to nordahl rolfsens vei 187, oslo."),
            std::vector<std::string>{"nordahl rolfsens vei 187"});
  EXPECT_EQ(addresses("send it to rua augusta 100, lisboa."), std::vector<std::string>{"rua augusta 100"});
  EXPECT_EQ(addresses("send it to via roma 15, milano."), std::vector<std::string>{"via roma 15"});
  EXPECT_EQ(addresses("send it to acme sons, via roma 15, milano."), std::vector<std::string>{"via roma 15"});
  EXPECT_EQ(addresses("send it to friedrichstr. 43, berlin."), std::vector<std::string>{"friedrichstr. 43"});
  EXPECT_FALSE(found("we paid via paypal 20, sadly.", "via paypal 20"));
  EXPECT_FALSE(found("As Jones et al. Nature 2019 showed.", "al. Nature 2019"));
  EXPECT_FALSE(found("Pay 5 via PayPal today.", "5 via PayPal"));
  EXPECT_FALSE(found("Boarding at Delta gate 22 now.", "Delta gate 22"));
}

// An envelope that opens its line below a heading (a line that ends in a
// colon, or a letterhead's company) is one address; below a name and a
// blank line, or at the top, it is read line by line.
TEST(PiiTaggerTest, AnEnvelopeBelowAHeadingIsWrittenWhole) {
  const std::vector<PiiExample> train = addresses_on_their_line();
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"moss", "send", "it", "to", "office"}},
                  {"country", {"turkey"}},
                  {"first_name", kFirst}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Send it to:\n12 Novak Street\n MOSS\n Turkey 05557"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street\n MOSS\n Turkey 05557"}));
  EXPECT_EQ(found("Send it to:\n\n12 Novak Street\n MOSS"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street\n MOSS"}));
  EXPECT_EQ(found("Zephyr Lark\n12 Novak Street\n MOSS"),
            (std::vector<std::string>{"ORGANIZATION:Zephyr Lark", "STREET_ADDRESS:12 Novak Street\n MOSS"}));
  // A name right above, under another line of a letterhead (a company
  // read as a name).
  EXPECT_EQ(found("Send it to.\nWanda Quillborne\n12 Novak Street\n MOSS"),
            (std::vector<std::string>{"PERSON:Wanda Quillborne", "STREET_ADDRESS:12 Novak Street\n MOSS"}));
  // It ends at a line that is no address, a blank line, a line that ends
  // in something else, or a list's next address. (A number alone past its
  // end is no address: ANumberAloneIsAnAddressOnlyAmongAddressWords.)
  EXPECT_EQ(found("Send it to:\n12 Novak Street\n MOSS\n555 office"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street\n MOSS"}));
  EXPECT_EQ(found("Send it to:\n12 Novak Street\n\n 05557"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(found("Send it to:\n12 Novak Street; see\n 5"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  // On its line, pieces at most 24 bytes apart, no end of a sentence.
  EXPECT_EQ(found("Send it to:\n12 Novak Street - - - - - 5"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street - - - - - 5"}));
  EXPECT_EQ(found("Send it to:\n12 Novak Street - - - - - - - - - - - - - 5"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(found("Send it to:\n12 Novak Street. 5"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street"}));
  EXPECT_EQ(found("Send it to:\n12 Novak Street\n14 Novak Street"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "STREET_ADDRESS:14 Novak Street"}));
  // Not below a name and a blank line, at the top, after marks, nor below
  // a line that ends in no colon.
  EXPECT_EQ(found("Send it to.\nWanda Quillborne\n\n12 Novak Street\n MOSS"),
            (std::vector<std::string>{"PERSON:Wanda Quillborne", "STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS"}));
  EXPECT_EQ(found("Wanda Quillborne\n12 Novak Street\n MOSS"),
            (std::vector<std::string>{"PERSON:Wanda Quillborne", "STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS"}));
  EXPECT_EQ(found("12 Novak Street\n MOSS"), (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS"}));
  EXPECT_EQ(found("Send it to:\n> 12 Novak Street\n MOSS"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS"}));
  EXPECT_EQ(found("Send it to.\n12 Novak Street\n MOSS"),
            (std::vector<std::string>{"STREET_ADDRESS:12 Novak Street", "LOCATION:MOSS"}));
}


// An address of one line that opens with the building's number and holds
// the street's number is the building's number and the street (and a
// place after a comma), as the dev labels write them; not when more of the
// address follows on its line, nor a count ("7 and 3").
TEST(PiiTaggerTest, TheBuildingsNumberIsAnAddressOfItsOwn) {
  // Rows that label the whole: the street alone, with its town after a
  // comma (some with a stop after the street's number), or with its town on
  // the line below.
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 450; ++k) {
    std::string street = std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70);
    std::string opening = "We meet at ";
    if (k % 3 == 1) street += (k % 2 == 0 ? "., " : ", ") + kCities[k % kCities.size()];
    if (k % 3 == 2) opening = "Send it to:\n", street += "\n" + kCities[k % kCities.size()];
    PiiExample e;
    e.text = opening + street + (k % 3 == 2 ? "\nThanks." : ".");
    const auto at = static_cast<uint32_t>(opening.size());
    e.spans = {{PiiType::kStreetAddress, at, static_cast<uint32_t>(at + street.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "meet", "at", "and", "apt", "send", "it", "to", "thanks"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31, Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  // The street's number may end with its stop ("útja 3."), not apart.
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31., Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31.", "LOCATION:Graz"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31 ., Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg 31 .", "LOCATION:Graz"}));
  // An address over more than one line stays whole.
  EXPECT_EQ(typed_spans(tagger, "Send it to:\n61 Novakweg 31\nGraz\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg 31\nGraz"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to:\n61 Novakweg 31,\nGraz\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg 31,\nGraz"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg."), (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg"}));
  // The street's number may come first; not twice.
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 31 Novakweg."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:31 Novakweg"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 31 Novakweg, Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:31 Novakweg", "LOCATION:Graz"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 31 Novakweg 7."), (std::vector<std::string>{"STREET_ADDRESS:61 31 Novakweg 7"}));
  // Nor when a number follows the place (a list, another address).
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31, Graz 7."),
            (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg 31, Graz 7"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31 Apt. 5."),
            (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg 31 Apt"}));
  // Nor is a bullet between numbers a street: it makes a product, no
  // address at all (ASumOrAnEquationIsNoAddress).
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 • 31."), (std::vector<std::string>{}));
}

// An envelope the decoder ran over its indented lines, opening its line,
// or over its lines after a name, is read line by line: the street, then
// the lines below (a place here).
TEST(PiiTaggerTest, AnEnvelopeIsReadLineByLine) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    // The building's number, where there is one, is left out of the span.
    const std::string number = k % 2 == 0 ? "" : std::to_string(2 + k % 90) + " ";
    const std::string envelope = kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70) + "\n " + kCities[k % kCities.size()];
    PiiExample e;
    e.text = "Send it to.\n" + number + envelope + "\nThanks.";
    const auto at = static_cast<uint32_t>(12 + number.size());
    e.spans = {{PiiType::kStreetAddress, at, static_cast<uint32_t>(at + envelope.size())}};
    train.push_back(std::move(e));
    // A name, then on its line an envelope not indented (some with a unit
    // and the building's number first), labelled whole.
    PiiExample named;
    const std::string unit = k % 2 == 0 ? "" : "Apt. " + std::to_string(k) + " " + std::to_string(2 + k % 90) + " ";
    const std::string name = kFirst[k % kFirst.size()],
                      lines = unit + kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70) + "\n" + kCities[k % kCities.size()];
    named.text = "Send it to.\n" + name + " " + lines + "\nThanks.";
    const auto street_at = static_cast<uint32_t>(12 + name.size() + 1);
    named.spans = {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())},
                   {PiiType::kStreetAddress, street_at, static_cast<uint32_t>(street_at + lines.size())}};
    train.push_back(std::move(named));
    // An envelope with a unit, and a blank line before its country.
    PiiExample with_unit;
    const std::string whole = kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70) + "\n Apt. " + std::to_string(k) + "\n " +
                              kCities[k % kCities.size()] + "\n\n Turkey " + std::to_string(10000 + k);
    with_unit.text = "Send it to.\n" + whole + "\nThanks.";
    with_unit.spans = {{PiiType::kStreetAddress, 12, static_cast<uint32_t>(12 + whole.size())}};
    train.push_back(std::move(with_unit));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"send", "it", "to", "thanks", "we", "meet", "at", "apt"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  // After a name on its line, indented or not.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda Novakweg 31\nGraz\nThanks."),
            (std::vector<std::string>{"PERSON:Wanda", "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  // A state's code between the place and its postcode is the address's;
  // not a word in small letters or of four letters, nor a code alone, nor
  // one before no postcode.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda Novakweg 31\nGraz ST 8010\nThanks."),
            (std::vector<std::string>{"PERSON:Wanda", "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz", "STREET_ADDRESS:ST",
                                      "STREET_ADDRESS:8010"}));
  for (const std::string place : {"Graz st", "Graz STAT"}) {
    EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda Novakweg 31\n" + place + " 8010\nThanks."),
              (std::vector<std::string>{"PERSON:Wanda", "STREET_ADDRESS:Novakweg 31", "LOCATION:" + place, "STREET_ADDRESS:8010"}));
  }
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda Novakweg 31\nST 8010\nThanks.")[2], "LOCATION:ST");
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda Novakweg 31\nGraz ST\nThanks.")[2], "LOCATION:Graz ST");
  // The lines the decoder ran over stay covered, past a blank line too: a
  // unit, a place, a place and its postcode.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nNovakweg 31\n Apt. 5\n Graz\n\n Turkey 05557\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "STREET_ADDRESS:Apt. 5", "LOCATION:Graz", "LOCATION:Turkey",
                                      "STREET_ADDRESS:05557"}));
  // Not a letter alone.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nNovakweg 31\n Apt. 5\n G\n\n Turkey 05557\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "STREET_ADDRESS:Apt. 5", "LOCATION:Turkey", "STREET_ADDRESS:05557"}));
  // A unit there is an address of its own, as is the building's number.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda Apt. 5 61 Novakweg 31\nGraz\nThanks."),
            (std::vector<std::string>{"PERSON:Wanda", "STREET_ADDRESS:Apt. 5", "STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31",
                                      "LOCATION:Graz"}));
  for (const char* text : {"Send it to.\nNovakweg 31\n Graz\nThanks.", "Send it to.\n> Novakweg 31\n Graz\nThanks."}) {
    EXPECT_EQ(typed_spans(tagger, text), (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"})) << text;
  }
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n61 Novakweg 31\n Graz\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  // After two numbers too (the building's, and one the decoder left out).
  EXPECT_EQ(typed_spans(tagger, "Send it to.\n62 61 Novakweg 31\n Graz\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  // Not lines that are not indented, nor an address after a word on its
  // line.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nNovakweg 31\nGraz\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31\nGraz"}));
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nSend Novakweg 31\n Graz\nThanks."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31\n Graz"}));
}

// After a name on its line, a unit that the structured detectors find
// ("Suite 683") keeps its number when the tagger's address opens at it,
// and the envelope after it is read as after the name alone: the building's
// number, the street, the place below, not joined as in a sentence.
TEST(PiiTaggerTest, AUnitAfterANameKeepsItsNumber) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    // Labelled from the unit's number on (as a decoder may find it).
    const std::string name = kFirst[k % kFirst.size()], unit = "Suite ",
                      address = std::to_string(100 + k) + " " + std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] +
                                "weg " + std::to_string(3 + k % 70) + "\n" + kCities[k % kCities.size()];
    PiiExample e;
    e.text = "Send it to.\n" + name + " " + unit + address + "\nThanks.";
    const auto at = static_cast<uint32_t>(12 + name.size() + 1 + unit.size());
    e.spans = {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())},
               {PiiType::kStreetAddress, at, static_cast<uint32_t>(at + address.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"send", "it", "to", "thanks", "suite"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  const std::string text = "Send it to.\nWanda Suite 683 61 Novakweg 31\nGraz\nThanks.";
  EXPECT_EQ(typed_spans(tagger, text), (std::vector<std::string>{"PERSON:Wanda", "STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31",
                                                                   "LOCATION:Graz"}));
  EXPECT_EQ(scanned_spans(tagger, text), (std::vector<std::string>{"PERSON:Wanda", "STREET_ADDRESS:Suite 683", "STREET_ADDRESS:61",
                                                                     "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  // Not after words that are no unit.
  EXPECT_EQ(typed_spans(tagger, "Send it to.\nWanda sent it 683 61 Novakweg 31\nGraz\nThanks.").back(),
            "STREET_ADDRESS:683 61 Novakweg 31\nGraz");
}

// A tagger that learned streets as "<name>weg <number>" adds the building's
// number before one ("61 Elmweg 31") as an address of its own; not one on
// the line before, nor one a span covers.
TEST(PiiTaggerTest, TheHouseNumberBeforeAnAddressIsAnAddress) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string street = kLast[k % kLast.size()] + "weg " + std::to_string(2 + k % 90);
    PiiExample e;
    e.text = "We meet at " + street + ", " + kCities[k % kCities.size()] + ".";
    e.spans = {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  // (The city after the comma is the address's place: add_address_lines().)
  EXPECT_EQ(typed_spans(tagger, "We meet at Novakweg 31, Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31, Graz."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  EXPECT_EQ(values_of(tagger, "We meet at 61\nNovakweg 31, Graz."), (std::vector<std::string>{"Novakweg 31", "Graz"}));
  // In a sentence, the house number, its street and the line below are one
  // address (AnAddressInASentenceIsWrittenWhole).
  EXPECT_EQ(typed_spans(tagger, "We meet at 61 Novakweg 31\nGraz"),
            (std::vector<std::string>{"STREET_ADDRESS:61 Novakweg 31\nGraz"}));
  std::vector<PiiSpan> spans = {{PiiType::kZipCode, 11, 13}};
  tagger.tag("We meet at 61 Novakweg 31, Graz.", spans);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[1].type, PiiType::kStreetAddress);
}

// Of two numbers before a street that ends in none ("26 14 Novak Road"), the
// nearer is the street's own and the other the building's; a street with
// its own number at the end keeps the nearer one as the building's. A
// street word right before a street is the street's. One number one space
// before a street named by its suffix is the street's (as the dev rows
// label all 101 such: street_by_its_suffix()).
TEST(PiiTaggerTest, TheNearerOfTwoNumbersBeforeAStreetIsItsOwn) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    // Streets, and numbers that are none ("We meet at 3 today").
    const std::string street = k % 2 == 0 ? kLast[k % kLast.size()] + " Road" : kLast[k % kLast.size()] + "weg " + std::to_string(2 + k % 90);
    PiiExample e;
    e.text = "We meet at " + street + " today.";
    e.spans = {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}};
    train.push_back(std::move(e));
    train.push_back({"We meet at " + std::to_string(1 + k % 12) + " today.", {}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"street_suffix", {"Road", "Via"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "We meet at Novak Road today."), std::vector<std::string>{"STREET_ADDRESS:Novak Road"});
  EXPECT_EQ(typed_spans(tagger, "We meet at 14 Novak Road today."),
            std::vector<std::string>{"STREET_ADDRESS:14 Novak Road"});
  EXPECT_EQ(typed_spans(tagger, "We meet at 26 14 Novak Road today."),
            (std::vector<std::string>{"STREET_ADDRESS:26", "STREET_ADDRESS:14 Novak Road"}));
  EXPECT_EQ(typed_spans(tagger, "26 14 Novak Road"), (std::vector<std::string>{"STREET_ADDRESS:26", "STREET_ADDRESS:14 Novak Road"}));
  // Not across a line break; numbers joined by a hyphen are one building's
  // (a range, or a Queens address).
  EXPECT_EQ(typed_spans(tagger, "We meet at 26\n14 Novak Road today."),
            std::vector<std::string>{"STREET_ADDRESS:14 Novak Road"});
  EXPECT_EQ(typed_spans(tagger, "We meet at 26-14 Novak Road today."),
            std::vector<std::string>{"STREET_ADDRESS:26-14 Novak Road"});
  // A street with its own number.
  EXPECT_EQ(typed_spans(tagger, "We meet at 26 14 Novakweg 31 today."),
            (std::vector<std::string>{"STREET_ADDRESS:14", "STREET_ADDRESS:Novakweg 31"}));
  // A street word left out before the street ("via") is the street's, and
  // the number before it the building's; not a word no list knows as one,
  // nor one on the line before or behind a mark.
  EXPECT_EQ(typed_spans(tagger, "We meet at 16 via Novak Road today."),
            (std::vector<std::string>{"STREET_ADDRESS:16", "STREET_ADDRESS:via Novak Road"}));
  for (const char* text : {"We meet at 16 vie Novak Road today.", "We meet at 16 via\nNovak Road today.", "We meet at 16 via-Novak Road today."}) {
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"STREET_ADDRESS:Novak Road"}) << text;
  }
  // Nor one that another address ends with.
  EXPECT_EQ(typed_spans(tagger, "We meet at Novak Road Pavlov Road today."),
            (std::vector<std::string>{"STREET_ADDRESS:Novak Road", "STREET_ADDRESS:Pavlov Road"}));
}

// A number alone that the tagger takes for an address (house numbers are
// labelled apart, as in the dev rows) stays one before the words of a
// street or after another address; before an everyday word or a unit it
// is a quantity, which redaction would take out of a question.
TEST(PiiTaggerTest, ANumberAloneIsAnAddressOnlyAmongAddressWords) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string number = std::to_string(2 + k % 90);
    const std::string street = kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70);
    PiiExample e;
    e.text = "Ship it to " + number + " " + street + " now.";
    const auto at = static_cast<uint32_t>(11 + number.size() + 1);
    e.spans = {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + number.size())},
               {PiiType::kStreetAddress, at, static_cast<uint32_t>(at + street.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"and", "points", "beach", "now", "it", "ship", "to"}},
                  {"street_suffix", {"Road", "Points"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  // Before a street: a word no list knows, or an everyday word before a
  // street suffix.
  EXPECT_EQ(typed_spans(tagger, "Ship it to 61 Novakweg 31 now."),
            (std::vector<std::string>{"STREET_ADDRESS:61", "STREET_ADDRESS:Novakweg 31"}));
  EXPECT_EQ(values_of(tagger, "Ship it to 61 Beach Road now.", PiiType::kStreetAddress),
            std::vector<std::string>{"61 Beach Road"});
  // Before an everyday word, a unit, a letter alone or a mark: a quantity,
  // alone or with that word (plausible(): a street has a name).
  for (const char* text : {"Ship it to 61 and 55 now.", "Ship it to 18 points now.", "Ship it to 500 MHz now.",
                           "Ship it to 110 V now.", "Ship it to 61.", "Ship it to 61 now."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{}) << text;
  }
  // A percentage after an address is no part of it; a count of people is
  // none: a nationality names no street but before a suffix.
  for (const char* text : {"Ship it to Novakweg 31 45% now.", "Ship it to Novakweg 31 45 % now."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{"Novakweg 31"}) << text;
  }
  EXPECT_EQ(values_of(tagger, "Ship it to 61 Americans.", PiiType::kStreetAddress), std::vector<std::string>{});
  EXPECT_EQ(values_of(tagger, "Ship it to 61 Dutch Road now.", PiiType::kStreetAddress),
            std::vector<std::string>{"61 Dutch Road"});
}

// A tagger trained on "Ship it to <address> now." with 300 addresses,
// address_of(k) the k-th, labelled whole, and these word lists.
PiiTagger ship_to_tagger(const std::function<std::string(uint32_t)>& address_of, std::vector<GazetteerList> gazetteers) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string address = address_of(k);
    train.push_back({"Ship it to " + address + " now.",
                     {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + address.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = std::move(gazetteers);
  return PiiTagger::train(train, o);
}

// In text capitalised only where its sentences open, without the first
// person or a name, a street in small letters that the reading in small
// letters finds: one of a compass point's letter and a suffix the lists
// lack ("1450 n lakeshore dr"); a number and one or two words no list
// knows alone in their clause ("moving to 44 wolska."). Not without a word
// that leads to a place, nor before more words. Here a tagger taught such
// streets in small letters.
TEST(PiiTaggerTest, TextCapitalisedOnlyWhereSentencesOpenHasStreetsOfUnlistedWords) {
  const PiiTagger tagger = ship_to_tagger(
      [](uint32_t k) {
        std::string word = kLast[k % kLast.size()];
        word[0] = static_cast<char>(word[0] - 'A' + 'a');
        return std::to_string(2 + k % 90) + (k % 2 == 0 ? " n " + word + " dr" : " " + word);
      },
      {{"common_word", {"ship", "it", "to", "now", "buy", "apples", "today", "apt"}}});
  auto streets = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  ASSERT_EQ(streets("ship it to 1450 n zorvath dr now."), V{"1450 n zorvath dr"});
  ASSERT_EQ(streets("ship it to 44 zorvath, now."), V{"44 zorvath"});
  EXPECT_EQ(streets("Ship it to 1450 n zorvath dr now."), V{"1450 n zorvath dr"});
  EXPECT_EQ(streets("Ship it to 44 zorvath, now."), V{"44 zorvath"});
  EXPECT_EQ(streets("Buy 44 zorvath, now."), V{});
  EXPECT_EQ(streets("Ship it to 44 zorvath apples today."), V{});
}

// A street of the tagger's that ends in a house number, a Romance street
// word and maybe its particles takes the name after them ("9 rue de
// rivoli", "55 calle luna"); not after an English street's suffix ("226
// Thomas Avenue in"). Here a tagger taught streets that end so.
TEST(PiiTaggerTest, AStreetEndingInARomanceStreetWordTakesTheNameAfterIt) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"street_suffix", {"Rue", "Calle", "Via", "Avenue"}},
       {"common_word", {"the", "flat", "at", "is", "free", "in", "june", "she", "lives"}}});
  auto streets = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(streets("The flat at 77 rue des zorvath is free in june."), V{"77 rue des zorvath"});
  EXPECT_EQ(streets("The flat at 55 calle zorvath is free in june."), V{"55 calle zorvath"});
  EXPECT_EQ(streets("The flat at 14 via dei zorvath is free in june."), V{"14 via dei zorvath"});
  EXPECT_EQ(streets("The flat at 21 rue de la zorvath is free in june."), V{"21 rue de la zorvath"});
  EXPECT_EQ(streets("She lives at 226 Zorvath Avenue in june."), V{"226 Zorvath Avenue"});
}

// An address that opens with a number and a unit of measure is a quantity
// ("59 kg (130 lb)"), and so are numbers joined as a list or a sum ("7 ×
// 5"), where the tagger learned addresses of a number, a word and a number.
TEST(PiiTaggerTest, QuantitiesAndListsOfNumbersAreNoAddresses) {
  const PiiTagger tagger = ship_to_tagger(
      [](uint32_t k) {
        return std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70);
      },
      {{"common_word", {"and", "now", "days", "only", "it", "ship", "to"}}});
  ASSERT_EQ(values_of(tagger, "Ship it to 61 Zorvath 31 now.", PiiType::kStreetAddress),
            (std::vector<std::string>{"61", "Zorvath 31"}));
  // (Without the rule: "61 kg Zorvath" an address.)
  EXPECT_EQ(values_of(tagger, "Ship it to 61 kg Zorvath now.", PiiType::kStreetAddress), std::vector<std::string>{});
  EXPECT_EQ(values_of(tagger, "Ship it to 61 Hz Zorvath now.", PiiType::kStreetAddress), std::vector<std::string>{});
  // Degrees are a unit too ("26 °C", "451 °F").
  EXPECT_EQ(values_of(tagger, "Ship it to 61 \xc2\xb0" "C Zorvath now.", PiiType::kStreetAddress),
            std::vector<std::string>{});
  // Nor do numbers joined as a list, a range or a sum ("7 × 5", "between
  // 15 and 30") make one.
  EXPECT_EQ(values_of(tagger, "Ship it to 61 \xc3\x97 55 now.", PiiType::kStreetAddress), std::vector<std::string>{});
  // Nor do numbers between small words, of this script or another ("18
  // red, 18 black"; "6379 и 6380"), but two numbers in a row may open an
  // address.
  for (const char* text : {"Ship it to 18 zorvath, 18 now.", "Ship it to 61 \xd0\xb8 31 now."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{}) << text;
  }
  EXPECT_EQ(values_of(tagger, "Ship it to 61 31 ab now.", PiiType::kStreetAddress),
            (std::vector<std::string>{"61", "31 ab"}));
  // Nor does a year of an era ("1500 C.E.", "600 BCE").
  for (const char* text : {"Ship it to 1500 C.E. now.", "Ship it to 600 BCE now.", "Ship it to 44 B.C. now."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{}) << text;
  }
}

// A number before a word that joins or counts ("8 and", "70 percent")
// opens no address where no street's word follows in it, and a name after
// it is found as the others are; here a tagger that learned addresses of a
// number and words, written in small letters.
TEST(PiiTaggerTest, ANumberThatCountsOpensNoAddress) {
  const PiiTagger tagger = ship_to_tagger(
      [](uint32_t k) {
        static const std::vector<std::string> kWords = {"and", "of", "zorvath", "quill", "brask", "years", "old"};
        return std::to_string(2 + k % 90) + " " + kWords[k % kWords.size()] + " " + kWords[(k / 7) % kWords.size()];
      },
      {{"common_word", {"and", "of", "ship", "it", "to", "now", "years", "old", "hates", "reading", "will", "be"}},
       {"first_name", {"Melanie"}},
       {"street_suffix", {"street"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  ASSERT_EQ(values_of(tagger, "ship it to 12 zorvath quill now.", PiiType::kStreetAddress),
            std::vector<std::string>{"12 zorvath quill"});
  for (const char* text : {"ship it to 8 and hates reading now.", "ship it to 70 percent of it now."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kStreetAddress), std::vector<std::string>{}) << text;
  }
  EXPECT_EQ(values_of(tagger, "ship it to 4 and 5 zorvath street now.", PiiType::kStreetAddress),
            std::vector<std::string>{"4 and 5 zorvath street"});
  EXPECT_EQ(found("ship it to 10 years, melanie will be now."), std::vector<std::string>{"PERSON:melanie"});
}

// A year after a word of time ("In 1909 Frederick Cook claimed") opens no
// address where no street's word follows in it: the words after it, a
// first name first, are the person, other words go; here a tagger that
// learned addresses of such numbers and capitalised words there. A street's
// word keeps the address, and so does a year after another word.
TEST(PiiTaggerTest, AYearAfterAWordOfTimeOpensNoAddress) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string address =
        std::to_string(1900 + k % 120) + " " + kLast[k % kLast.size()] + " " + kLast[(k / 7) % kLast.size()];
    const std::string lead = k % 2 == 0 ? "Ship it in " : "Ship it to ";
    rows.push_back({lead + address + " now.", {{PiiType::kStreetAddress, static_cast<uint32_t>(lead.size()),
                                                static_cast<uint32_t>(lead.size() + address.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"ship", "it", "in", "to", "now"}},
                  {"first_name", {"Melanie"}},
                  {"street_suffix", {"Street"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Ship it to 1987 Zorvath Quill now."), V{"STREET_ADDRESS:1987 Zorvath Quill"});
  EXPECT_EQ(found("Ship it in 1987 Melanie Quill now."), V{"PERSON:Melanie Quill"});
  EXPECT_EQ(found("Ship it in 1987 Zorvath Quill now."), V{});
  EXPECT_EQ(found("Ship it in 1987 Zorvath Street now."), V{"STREET_ADDRESS:1987 Zorvath Street"});
}

// A sum or an equation is no address: no address holds, or stands next
// to, a sign of arithmetic or comparison ("(6 × 5) × 10^2", "m × 4 = 12",
// "16 ≡ 2", "7 • 11 • 13"). A bullet between a street and its town is no
// such sign, nor a sign like a Greek capital in a word ("μελα∆εια").
TEST(PiiTaggerTest, ASumOrAnEquationIsNoAddress) {
  const PiiTagger tagger =
      ship_to_tagger([](uint32_t k) { return kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70); },
                     {{"common_word", {"now", "it", "ship", "to"}}});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  ASSERT_EQ(addresses("Ship it to Zorvath 31 now."), (std::vector<std::string>{"Zorvath 31"}));
  EXPECT_EQ(addresses("Ship it to Zorvath 31 = 12 now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to Zorvath 31^2 now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to Zorvath 31 \xc3\x97 4 now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to 5 \xe2\x88\x92 Zorvath 31 now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to 7 \xe2\x80\xa2 Zorvath 31 now."), (std::vector<std::string>{"Zorvath 31"}));
  EXPECT_EQ(addresses("Ship it to Zorvath 31 \xe2\x80\xa2 7 now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to Zorvath 31 \xe2\x80\xa2 Oslo now."), (std::vector<std::string>{"Zorvath 31"}));
  EXPECT_EQ(addresses("Ship it to Zorva\xe2\x88\x86h 31 now."), (std::vector<std::string>{"Zorva\xe2\x88\x86h 31"}));
}

// Names and a year after "(", a comma or "ca." are a citation, not an
// address ("Esman (1972", "Queen Victoria, 1839"). Here the tagger learned
// streets with their numbers after a comma.
TEST(PiiTaggerTest, NamesAndAYearAreNoAddress) {
  const PiiTagger tagger = ship_to_tagger(
      [](uint32_t k) {
        return kLast[k % kLast.size()] + "weg, " + std::to_string(k % 2 == 0 ? 3 + k % 70 : 1000 + 7 * k);
      },
      {{"common_word", {"now", "it", "ship", "to", "ca"}}});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(addresses("Ship it to Zorvath, 1987 now."), std::vector<std::string>{});
  // Not a house number, nor a number that is no year, nor one after a blank.
  EXPECT_EQ(addresses("Ship it to Zorvath, 12 now."), std::vector<std::string>{"Zorvath, 12"});
  EXPECT_EQ(addresses("Ship it to Zorvath, 3000 now."), std::vector<std::string>{"Zorvath, 3000"});
  EXPECT_EQ(addresses("Ship it to Zorvath 1987 now."), std::vector<std::string>{"Zorvath 1987"});
}

// In text with capitals an address without a number has a capitalised
// street word: "Kant's view", "the JIT approach" are no addresses.
TEST(PiiTaggerTest, AnAddressWithoutANumberHasACapitalisedStreetWord) {
  const PiiTagger tagger =
      ship_to_tagger([](uint32_t k) { return kLast[k % kLast.size()] + (k % 2 == 0 ? " Street" : " View"); },
                     {{"common_word", {"now", "it", "ship", "to"}}, {"street_suffix", {"Street", "View"}}});
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(addresses("Ship it to Zorvath Street now."), std::vector<std::string>{"Zorvath Street"});
  EXPECT_EQ(addresses("Ship it to Zorvath View now."), std::vector<std::string>{"Zorvath View"});
  EXPECT_EQ(addresses("Ship it to Zorvath view now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to Zorvath street now."), std::vector<std::string>{});
  // With a number, or in text without capitals, the street word may be small.
  EXPECT_EQ(addresses("Ship it to 12 Zorvath street now."), std::vector<std::string>{"12 Zorvath street"});
  EXPECT_EQ(addresses("ship it to zorvath street now."), std::vector<std::string>{"zorvath street"});
}

// Words written against code's marks are identifiers ("len(pat)",
// "Car_Run", "ttk.Scrollbar"), and so are words in camel case, not names; a
// name list's word next to "_" stays a name ("wanda_horvath").
TEST(PiiTaggerTest, WordsAgainstCodesMarksAreIdentifiers) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Wanda"}}, {"last_name", {"Horvath"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  ASSERT_EQ(values_of(tagger, "Please call Wanda Horvath tomorrow."), std::vector<std::string>{"Wanda Horvath"});
  for (const char* text : {"Please call Wanda Horvath(tomorrow).", "Please call Wanda Horvath[0] tomorrow.",
                           "Please call Wanda Horvath.run() tomorrow.", "Please call Bruno Novak_Run tomorrow.",
                           "Please call self.Wanda Horvath tomorrow.", "Please call $Wanda Horvath tomorrow.",
                           "Please call x::Wanda Horvath tomorrow.", "Please call x->Wanda Horvath tomorrow."}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{}) << text;
  }
  EXPECT_EQ(values_of(tagger, "Please call Bruno Novak tomorrow."), std::vector<std::string>{"Bruno Novak"});
  EXPECT_EQ(values_of(tagger, "Please call Wanda_Horvath tomorrow."), (std::vector<std::string>{"Wanda", "Horvath"}));
  // So is a word in camel case ("PictureBox"); names join after a short
  // prefix ("McKenzie", "FitzGerald").
  for (const char* text : {"Please call PictureBox tomorrow.", "Please call SimulationTimer tomorrow."}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{}) << text;
  }
  for (const char* name : {"McKenzie", "FitzGerald", "DeShawn"}) {
    EXPECT_EQ(values_of(tagger, std::string("Please call ") + name + " tomorrow."), std::vector<std::string>{name});
  }
  // And the end of a block of Visual Basic.
  ASSERT_EQ(values_of(tagger, "Please call End Ifor tomorrow."), std::vector<std::string>{"End Ifor"});
  for (const char* text : {"Please call End If tomorrow.", "Please call Exit Sub tomorrow."}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{}) << text;
  }
  // A name's words are the tokenizer's: "Zoë" whole, not "Zo".
  TaggerOptions listed = o;
  listed.gazetteers = {{"first_name", {"Zo\xc3\xab"}}, {"last_name", {"Horvath"}}};
  const PiiTagger zoe = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), listed);
  const std::vector<std::string> names = values_of(zoe, "Please call Zo\xc3\xab_Horvath tomorrow.");
  EXPECT_NE(std::find(names.begin(), names.end(), "Zo\xc3\xab"), names.end());
}

// A short word after a number and a unit of measure is the unit's, not a
// name: "120/80 mm Hg".
TEST(PiiTaggerTest, AShortWordAfterANumberAndAUnitIsTheUnits) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  ASSERT_EQ(values_of(tagger, "Please call Hg tomorrow."), std::vector<std::string>{"Hg"});
  EXPECT_EQ(values_of(tagger, "Please call 80 mm Hg tomorrow."), std::vector<std::string>{});
  EXPECT_EQ(values_of(tagger, "Please call 80 mm\nHg tomorrow."), std::vector<std::string>{"Hg"});
}

// An everyday word alone after "the" that a place's name holds is an
// institution ("the Republic"), not a place; a region may be named so
// ("the South").
TEST(PiiTaggerTest, AnEverydayWordAfterTheIsNoPlace) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"common_word", {"republic", "south", "the"}}, {"country", {"Czech Republic", "South Africa"}}};
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < 300; ++k) {
    PiiExample e;
    e.text = "They moved to the " + kCities[k % 8] + " last year.";
    e.spans = {{PiiType::kLocation, 18, static_cast<uint32_t>(18 + kCities[k % 8].size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, o);
  ASSERT_EQ(typed_spans(tagger, "They moved to the Republik last year."),
            std::vector<std::string>{"LOCATION:Republik"});
  EXPECT_EQ(typed_spans(tagger, "They moved to the Republic last year."), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "They moved to the South last year."), std::vector<std::string>{"LOCATION:South"});
}

// A capital before the variables of logic is a predicate ("Px: x is a
// pauper", "Lxy"), not a name; "Izzy" is one. Nor is chat's abbreviation
// ("Pls summarize:", "Thx: for the help").
TEST(PiiTaggerTest, APredicateOfLogicIsNoName) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  auto asked = [&](const std::string& who) { return values_of(tagger, "Ask " + who + " about the trip to Lisbon."); };
  for (const char* word : {"Pv", "Lxw", "Izzy"}) {
    ASSERT_EQ(asked(word), (std::vector<std::string>{word, "Lisbon"}));
  }
  for (const char* word : {"Px", "Lxy", "Mxyz"}) {
    EXPECT_EQ(asked(word), std::vector<std::string>{"Lisbon"}) << word;
  }
  // Nor is chat's abbreviation ("Ask Thx about ..." is no one); "Ty" is a
  // name.
  ASSERT_EQ(asked("Ty"), (std::vector<std::string>{"Ty", "Lisbon"}));
  for (const char* word : {"Thx", "Pls", "Tldr"}) {
    EXPECT_EQ(asked(word), std::vector<std::string>{"Lisbon"}) << word;
  }
}

// A planet alone is no one ("Jupiter"), nor is a month or a weekday that no
// name list knows ("January", not "April").
TEST(PiiTaggerTest, APlanetOrAnUnlistedMonthAloneIsNoOne) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"April"}}};
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < 60; ++k) train.push_back(make(kTemplates[k % kTemplates.size()], "April", kCities[k % 8]));
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto asked = [&](const std::string& who) { return typed_spans(tagger, "Ask " + who + " about the trip to Lisbon."); };
  for (const char* word : {"Jupitar", "Januar", "Thursdey", "April"}) {
    ASSERT_EQ(asked(word), (std::vector<std::string>{std::string("PERSON:") + word, "LOCATION:Lisbon"}));
  }
  for (const char* word : {"Jupiter", "January", "Thursday"}) {
    EXPECT_EQ(asked(word), std::vector<std::string>{"LOCATION:Lisbon"}) << word;
  }
  EXPECT_EQ(asked("Bruno Saturn"), (std::vector<std::string>{"PERSON:Bruno Saturn", "LOCATION:Lisbon"}));
}

// A word no list knows with an ending of the sciences' nouns is no one
// ("Apoptosis", "Constructivism", "Norovirus"); a shorter word, or one a
// name list knows, stays a name.
TEST(PiiTaggerTest, ATermOfASciencesEndingIsNoOne) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"last_name", {"Delation"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto asked = [&](const std::string& who) {
    return values_of(tagger, "Ask " + who + " about the trip to Lisbon.", PiiType::kPerson);
  };
  for (const char* word : {"Apoptosix", "Zorvath", "Ation", "Delation"}) {
    ASSERT_EQ(asked(word), std::vector<std::string>{word});
  }
  for (const char* word : {"Apoptosis", "Constructivism", "Norovirus", "Glycosylation", "Spondylitis"}) {
    EXPECT_EQ(asked(word), std::vector<std::string>{}) << word;
  }
}

// A name that is a month is a date among a date's words: after a word of
// time ("next April"), before a day's number ("April 3"), or next to
// another month in a list ("March, April"); elsewhere it stays a name
// ("Ask April", "Ask Anna and April").
TEST(PiiTaggerTest, ANameThatIsAMonthIsADateAmongADatesWords) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"April", "Anna"}}};
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < 60; ++k) train.push_back(make(kTemplates[k % kTemplates.size()], "April", kCities[k % 8]));
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& who) {
    return values_of(tagger, "Ask " + who + " about the trip to Lisbon.", PiiType::kPerson);
  };
  ASSERT_EQ(names("April"), std::vector<std::string>{"April"});
  ASSERT_EQ(names("Anna and April"), (std::vector<std::string>{"Anna", "April"}));
  for (const char* words : {"next April", "during April", "April 3", "March, April"}) {
    EXPECT_EQ(names(words), std::vector<std::string>{}) << words;
  }
}

// A span that runs over a closing bracket no opening one in it matches
// ("33 PM) Marcus" of "(10:33 PM) Marcus:") is none: the bracket ends a
// clause; one that runs into an opening bracket no closing one in it
// matches ends before it ("Tomas Novak (DOB"). Here the tagger learned
// such spans from rows that label them.
TEST(PiiTaggerTest, ASpanRunsOverNoUnmatchedClosingBracket) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string street = std::to_string(10 + k) + " " + kLast[k % kLast.size()] + ") " + kCities[k % kCities.size()];
    train.push_back({"Ship it to " + street + " now.", {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}}});
    const std::string plain = std::to_string(20 + k) + " " + kLast[(k + 1) % kLast.size()] + " (" + kCities[k % kCities.size()] + ")";
    train.push_back({"Ship it to " + plain + " now.", {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + plain.size())}}});
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  auto addresses = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  EXPECT_EQ(addresses("Ship it to 12 Novak) Lisbon now."), std::vector<std::string>{});
  EXPECT_EQ(addresses("Ship it to 12 Novak (Lisbon) now."), std::vector<std::string>{"12 Novak (Lisbon)"});
  // (Trained on addresses that run into an aside's opening bracket.)
  std::vector<PiiExample> asides;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string street = std::to_string(10 + k) + " " + kLast[k % kLast.size()] + " (" + kCities[k % kCities.size()];
    asides.push_back({"Ship it to " + street + " now.", {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}}});
  }
  const PiiTagger aside_tagger = PiiTagger::train(asides, options(5, 1u << 12, 1));
  EXPECT_EQ(values_of(aside_tagger, "Ship it to 12 Novak (Lisbon now.", PiiType::kStreetAddress),
            std::vector<std::string>{"12 Novak"});
}

// A word that opens its line before a colon and a name ("Attendees: Priya
// Raman"), or that only the everyday lists know ("Note: call Anna"), is a
// label, not a speaker, though the tagger learned speakers there ("Kofi:
// Remember me?").
TEST(PiiTaggerTest, ALabelBeforeAColonIsNoSpeaker) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string& first = kFirst[k % kFirst.size()];
    if (k % 2 == 0) {
      train.push_back({first + ": Remember me?", {{PiiType::kPerson, 0, static_cast<uint32_t>(first.size())}}});
    } else {
      const std::string who = first + " " + kLast[k % kLast.size()];
      train.push_back({"Guests: " + who, {{PiiType::kPerson, 8, static_cast<uint32_t>(8 + who.size())}}});
    }
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"note", "remember", "me", "call"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(names("Zorvath: Remember me?"), V{"Zorvath"});
  EXPECT_EQ(names("Attendees: Anna Novak"), V{"Anna Novak"});
  for (const std::string& v : names("Note: Remember me?")) EXPECT_NE(v, "Note");
}

// A street named by a street word first before its number takes in the
// address the decoder found over its later words and what follows on its
// line ("Roma 12, Milano" of "Via Roma 12, Milano", the street word taken
// for a firm: here from rows that label them so).
TEST(PiiTaggerTest, AStreetWordFirstJoinsTheAddressAfterIt) {
  std::vector<PiiExample> train;
  for (size_t k = 0; k < 200; ++k) {
    const std::string street = kLast[k % kLast.size()] + " " + std::to_string(10 + k) + ", " + kCities[k % kCities.size()];
    train.push_back({"It goes to Via " + street + " now.",
                     {{PiiType::kOrganization, 11, 14}, {PiiType::kStreetAddress, 15, static_cast<uint32_t>(15 + street.size())}}});
  }
  TaggerOptions o = options(3, 1u << 12, 1);
  o.gazetteers = {{"street_suffix", {"Via", "Calle"}}, {"common_word", {"it", "goes", "to", "now", "via"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "It goes to Via Novak 12, Lisbon now."),
            (std::vector<std::string>{"STREET_ADDRESS:Via Novak 12", "LOCATION:Lisbon"}));
  EXPECT_EQ(typed_spans(tagger, "It goes to Calle Novak 12, Lisbon now."),
            (std::vector<std::string>{"STREET_ADDRESS:Calle Novak 12", "LOCATION:Lisbon"}));
}

// A place or an organisation that opens the line after a letter's closing
// ("Best regards,", "Best,", "Love,", "Signed,", "Thank you,") is the
// writer's name, whatever the tagger took it for; not after another line.
TEST(PiiTaggerTest, APlaceAfterALettersClosingIsAName) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string place = kLast[k % kLast.size()] + " " + kCities[k % kCities.size()];
    const std::string head = k % 2 == 0 ? "Best regards,\n" : "We went to\n";
    train.push_back({head + place, {{PiiType::kLocation, static_cast<uint32_t>(head.size()),
                                     static_cast<uint32_t>(head.size() + place.size())}}});
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(tagger, "Best regards,\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "Thanks\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "Best,\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "Love,\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "Signed,\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "Take care,\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "Thank you,\nNovak Lisbon"), std::vector<std::string>{"PERSON:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "We went to\nNovak Lisbon"), std::vector<std::string>{"LOCATION:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "I told you\nNovak Lisbon"), std::vector<std::string>{"LOCATION:Novak Lisbon"});
  EXPECT_EQ(typed_spans(tagger, "We went to the best regards,\nNovak Lisbon"),
            std::vector<std::string>{"LOCATION:Novak Lisbon"});
}

// An address of one word without digits that a city list knows and no
// street or name list does is the place: a tagger that learned streets' names
// before a suffix left out of the label (as the dev rows write "{street}
// St.") takes a town before a small "bridge" for one.
TEST(PiiTaggerTest, AListedTownTakenForAStreetIsAPlace) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string& name = kCities[k % kCities.size()];
    const std::string street = k % 2 == 0 ? name + " Bridge" : name;
    train.push_back({"We crossed " + street + (k % 2 == 0 ? "" : " bridge") + " today.",
                     {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  std::vector<std::string> cities = kCities;
  cities.push_back("Zorvath");
  cities.push_back("Brill");
  o.gazetteers = {{"city", cities}, {"street_name", {"Brill"}}, {"street_suffix", {"Bridge"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  ASSERT_EQ(typed_spans(tagger, "We crossed Zorvath Bridge today."), std::vector<std::string>{"STREET_ADDRESS:Zorvath Bridge"});
  EXPECT_EQ(typed_spans(tagger, "We crossed Zorvath bridge today."), std::vector<std::string>{"LOCATION:Zorvath"});
  const std::vector<std::string> street_word = typed_spans(tagger, "We crossed Brill bridge today.");
  EXPECT_EQ(std::count(street_word.begin(), street_word.end(), "LOCATION:Brill"), 0);
}

// A span that an executive's title and "of" open ("CEO of Zorvath
// Media") is the company after "of", whatever the tagger took it for; not
// a span that another word opens ("Novak of Lisbon").
TEST(PiiTaggerTest, TheCompanyOfAnExecutiveIsTheOrganisation) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 200; ++k) {
    const std::string head = k % 2 == 0 ? kLast[k % kLast.size()] : "CEO";
    const std::string place = head + " of " + kCities[k % kCities.size()];
    train.push_back({"We visited " + place + " today.",
                     {{PiiType::kLocation, 11, static_cast<uint32_t>(11 + place.size())}}});
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(tagger, "We visited CEO of Zorvath Media today."),
            std::vector<std::string>{"ORGANIZATION:Zorvath Media"});
  EXPECT_EQ(typed_spans(tagger, "We visited Novak of Lisbon today."), std::vector<std::string>{"LOCATION:Novak of Lisbon"});
}

// An amendment by its number ("First Amendment") and a world war ("World
// War II") are a law and an event, not a name or an organisation.
TEST(PiiTaggerTest, AnAmendmentOrAWorldWarIsNoOne) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  auto asked = [&](const std::string& who) { return values_of(tagger, "Ask " + who + " about the trip to Lisbon."); };
  ASSERT_EQ(asked("Zorvath Amendment"), (std::vector<std::string>{"Zorvath Amendment", "Lisbon"}));
  ASSERT_EQ(asked("World Zorvath"), (std::vector<std::string>{"World Zorvath", "Lisbon"}));
  for (const char* who : {"First Amendment", "Fourteenth Amendments", "14th Amendment", "World War II", "World War"}) {
    EXPECT_EQ(asked(who), std::vector<std::string>{"Lisbon"}) << who;
  }
}

// A unit of measure alone after a number is the quantity's ("440 Hz"),
// even where the tagger learned places after numbers.
TEST(PiiTaggerTest, AUnitAloneAfterANumberIsTheQuantitys) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < 300; ++k) {
    PiiExample e;
    e.text = "Gate " + std::to_string(1 + k % 90) + " ";
    const auto begin = static_cast<uint32_t>(e.text.size());
    e.text += kCities[k % 8] + " opens.";
    e.spans = {{PiiType::kLocation, begin, static_cast<uint32_t>(begin + kCities[k % 8].size())}};
    train.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  ASSERT_EQ(typed_spans(tagger, "Gate 12 Hk opens."), std::vector<std::string>{"LOCATION:Hk"});
  EXPECT_EQ(typed_spans(tagger, "Gate 12 Hz opens."), std::vector<std::string>{});
  EXPECT_EQ(typed_spans(tagger, "Gate 12\nHz opens."), std::vector<std::string>{"LOCATION:Hz"});
}

// Letters, "-" and digits alone are a model or a version ("SSH-2",
// "SCP-001"), not a name, place or organisation, even where the tagger
// learned places written so.
TEST(PiiTaggerTest, LettersDashDigitsAreAModelNumber) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < 300; ++k) {
    const std::string district = k % 2 == 0 ? std::to_string(1 + k % 9) : "Nord";
    train.push_back(make(kTemplates[k % kTemplates.size()], kFirst[k % 16] + " " + kLast[k % 14],
                         kCities[k % 8] + "-" + district));
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  ASSERT_EQ(typed_spans(tagger, "Ask Wanda Novak about the trip to Graz-Nord."),
            (std::vector<std::string>{"PERSON:Wanda Novak", "LOCATION:Graz-Nord"}));
  for (const char* text : {"Ask Wanda Novak about the trip to Graz-4.", "Ask Wanda Novak about the trip to SSH-2."}) {
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"PERSON:Wanda Novak"}) << text;
  }
}

// A postcode after a place: a ZIP code inside a sentence, a line of an
// address after a place that opens its line (as the dev rows label an
// envelope's "Uganda 48288").
TEST(PiiTaggerTest, APostcodeAfterAPlaceIsAnAddressOfItsOwn) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& city = kCities[k % kCities.size()];
    PiiExample e;
    e.text = "She lives in " + city + " now.";
    e.spans = {{PiiType::kLocation, 13, static_cast<uint32_t>(13 + city.size())}};
    train.push_back(std::move(e));
    train.push_back({"She lives in " + std::to_string(1 + k % 12) + " houses now.", {}});
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 12, 1));
  // Five digits that end the sentence, the clause, the line or the text, or
  // come before a small word that goes on with the sentence.
  for (const char* text : {"She lives in Lisbon 62704.", "She lives in Lisbon 62704, I think.", "She lives in Lisbon 62704\nBye",
                           "She lives in Lisbon 62704", "She lives in Lisbon 62704 in a flat."}) {
    EXPECT_EQ(typed_spans(tagger, text), (std::vector<std::string>{"LOCATION:Lisbon", "ZIP_CODE:62704"})) << text;
  }
  EXPECT_EQ(typed_spans(tagger, "She lives in 4 houses now.\nLisbon 62704"),
            (std::vector<std::string>{"LOCATION:Lisbon", "STREET_ADDRESS:62704"}));
  // Not another length, nor before a word, a number's mark, a second blank
  // or a comma.
  for (const char* text : {"She lives in Lisbon 2024.", "She lives in Lisbon 627041.", "She lives in Lisbon 62704 people.",
                           "She lives in Lisbon 62704.5", "She lives in Lisbon  62704.", "She lives in Lisbon, 62704.",
                           "She lives in Lisbon\n62704.", "She lives in Lisbon 6270A."}) {
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"LOCATION:Lisbon"}) << text;
  }
  // Nor digits a span found before tagging covers.
  const std::string text = "She lives in Lisbon 62704.";
  std::vector<PiiSpan> spans = {{PiiType::kZipCode, 20, 25}};
  tagger.tag(text, spans);
  EXPECT_EQ(spans, (std::vector<PiiSpan>{{PiiType::kZipCode, 20, 25}, {PiiType::kLocation, 13, 19}}));
}

// Where the decoder took a postcode after a place for an address alone, or
// ran the place over it (rows taught it so here; the dev rows teach it on
// envelopes), a place inside a sentence after a preposition still makes the
// postcode a ZIP code.
TEST(PiiTaggerTest, APostcodeTheDecoderTookAfterAPlaceIsAZipCodeInASentence) {
  std::vector<PiiExample> alone, over;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& city = kCities[k % kCities.size()];
    const std::string zip = std::to_string(10000 + 7 * k);
    const auto end = static_cast<uint32_t>(13 + city.size());
    alone.push_back({"She lives in " + city + " " + zip + ".",
                     {{PiiType::kLocation, 13, end}, {PiiType::kStreetAddress, end + 1, end + 6}}});
    over.push_back({"she lives in " + in_small_letters(city) + " " + zip + ".", {{PiiType::kLocation, 13, end + 6}}});
  }
  const PiiTagger alone_tagger = PiiTagger::train(alone, options(5, 1u << 12, 1));
  const PiiTagger over_tagger = PiiTagger::train(over, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(alone_tagger, "She lives in Lisbon 62704."),
            (std::vector<std::string>{"LOCATION:Lisbon", "ZIP_CODE:62704"}));
  EXPECT_EQ(typed_spans(over_tagger, "she lives in lisbon 62704."),
            (std::vector<std::string>{"LOCATION:lisbon", "ZIP_CODE:62704"}));
  // A place that opens its line keeps the postcode as a line of an address.
  EXPECT_EQ(typed_spans(over_tagger, "she lives here.\nlisbon 62704."),
            (std::vector<std::string>{"LOCATION:lisbon", "STREET_ADDRESS:62704"}));
}

// A street and its town after a comma, found as one address, are two
// values ("Novakweg 31, Graz"); a street, its town and its country stay one.
TEST(PiiTaggerTest, AStreetAndItsTownAreTwoValues) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    // Labelled whole, as a decoder may find it.
    const std::string address = kLast[k % kLast.size()] + "weg " + std::to_string(2 + k % 90) + ", " + kCities[k % kCities.size()];
    PiiExample e;
    e.text = "We meet at " + address + " today.";
    e.spans = {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + address.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "meet", "at", "today", "daylight", "the", "park"}}, {"street_suffix", {"Street"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "We meet at Novakweg 31, Graz today."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  EXPECT_EQ(typed_spans(tagger, "we meet at novakweg 31, graz today."),
            (std::vector<std::string>{"STREET_ADDRESS:novakweg 31", "LOCATION:graz"}));
  EXPECT_EQ(typed_spans(tagger, "We meet at Novak Street, Graz today."),
            (std::vector<std::string>{"STREET_ADDRESS:Novak Street", "LOCATION:Graz"}));
  // A house number and then a name is a street too ("19 rue La Boétie").
  EXPECT_EQ(typed_spans(tagger, "We meet at 31 Novak, Graz today."),
            (std::vector<std::string>{"STREET_ADDRESS:31 Novak", "LOCATION:Graz"}));
  // One address: with a country after a second comma, a number in the
  // place, the place on the next line; before the comma no street name, or
  // neither a house number first nor a number or street word at its end;
  // after it a word in small letters,
  // everyday words alone (in small letters too), or more than six
  // words.
  for (const std::string address : {"Novakweg 31, Graz, Austria", "Novakweg 31, Graz 8010", "Novakweg 31,\nGraz", "31 44, Graz",
                                    "Novakweg 31, so", "Novakweg 31, Daylight", "Novakweg 31, Daylight Park",
                                    "Novakweg 31, Sankt Peter Am Hart Bei Graz Nord"}) {
    EXPECT_EQ(typed_spans(tagger, "We meet at " + address + " today."), std::vector<std::string>{"STREET_ADDRESS:" + address});
  }
  // A contraction of "I" is in no value: the address ends before it, and
  // its comma with it.
  EXPECT_EQ(typed_spans(tagger, "We meet at Novakweg 31, I'll today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  EXPECT_EQ(typed_spans(tagger, "We meet at Novakweg 31, Graz I'll today."),
            (std::vector<std::string>{"STREET_ADDRESS:Novakweg 31", "LOCATION:Graz"}));
  EXPECT_EQ(typed_spans(tagger, "we meet at novakweg 31, daylight park today."),
            std::vector<std::string>{"STREET_ADDRESS:novakweg 31, daylight park"});
}

// A name that opens with a title of the name_prefix lists is two names, the
// title and the rest ("Mr." and "Derek Novak"), as the dev labels mostly
// write them.
TEST(PiiTaggerTest, ATitleBeforeANameIsANameOfItsOwn) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    // Labelled whole, as a decoder may find it.
    const std::string name = std::string(k % 2 == 0 ? "Mr. " : "Herr ") + kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()];
    PiiExample e;
    e.text = "Hello, this is " + name + ". Who are you?";
    e.spans = {{PiiType::kPerson, 15, static_cast<uint32_t>(15 + name.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"name_prefix", {"Mr.", "Herr"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "Hello, this is Mr. Wanda Novak. Who are you?"),
            (std::vector<std::string>{"PERSON:Mr.", "PERSON:Wanda Novak"}));
  EXPECT_EQ(typed_spans(tagger, "Hello, this is Herr Wanda Novak. Who are you?"),
            (std::vector<std::string>{"PERSON:Herr", "PERSON:Wanda Novak"}));
  // Not a title no list knows.
  EXPECT_EQ(typed_spans(tagger, "Hello, this is Mrs. Wanda Novak. Who are you?"),
            std::vector<std::string>{"PERSON:Mrs. Wanda Novak"});
}

// A title span of the tagger's that runs past its title ("Mrs Daisy") is
// the title and a name, which a name right after joins ("Mrs Daisy
// Okafor"); here a tagger taught titles over a title and a first name. Only
// the capitalised words after the title are the name.
TEST(PiiTaggerTest, ATitleSpanOverAFirstNameIsATitleAndAName) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string title = std::string("Mrs. ") + kFirst[k % kFirst.size()];
    const std::string last = kLast[k % kLast.size()];
    PiiExample e;
    e.text = "Hello, this is " + title + " " + last + ". Who are you?";
    const auto title_end = static_cast<uint32_t>(15 + title.size());
    e.spans = {{PiiType::kPrefix, 15, title_end},
               {PiiType::kPerson, title_end + 1, static_cast<uint32_t>(title_end + 1 + last.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"name_prefix", {"Mrs."}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  using V = std::vector<std::string>;
  EXPECT_EQ(typed_spans(tagger, "Hello, this is Mrs. Wanda Novak. Who are you?"), (V{"PREFIX:Mrs.", "PERSON:Wanda Novak"}));
  EXPECT_EQ(typed_spans(tagger, "Hello, this is Mrs. Wanda. Who are you?"), (V{"PREFIX:Mrs.", "PERSON:Wanda"}));
}

// No name has a number in it or right after it on its line: a street has,
// its house number.
TEST(PiiTaggerTest, ANameBeforeANumberIsAStreet) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  auto types = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(types("Please call Wanda Horvath tomorrow."), std::vector<std::string>{"PERSON:Wanda Horvath"});
  const std::vector<std::string> street = types("Please call Wanda Horvath 12 tomorrow.");
  ASSERT_FALSE(street.empty());
  EXPECT_EQ(street[0], "STREET_ADDRESS:Wanda Horvath");
  const std::vector<std::string> next_line = types("Please call Wanda Horvath\n12 times.");
  ASSERT_FALSE(next_line.empty());
  EXPECT_EQ(next_line[0], "PERSON:Wanda Horvath");
  // Nor before a count of things: an everyday plural after the number ("It
  // takes John 5 minutes"), which the word lists know.
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"common_word", {"please", "call", "minutes", "last", "night"}}};
  const PiiTagger counting = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto first_of = [&](const std::string& text) {
    const std::vector<std::string> spans = typed_spans(counting, text);
    return spans.empty() ? std::string() : spans[0];
  };
  EXPECT_EQ(first_of("Please call Wanda Horvath 12 minutes later."), "PERSON:Wanda Horvath");
  EXPECT_EQ(first_of("Please call Wanda Horvath 12 last night."), "STREET_ADDRESS:Wanda Horvath");
  EXPECT_EQ(first_of("Please call Wanda Horvath 12 hours later."), "STREET_ADDRESS:Wanda Horvath");
  // Nor when the name is an owner's: the number is what the person owns
  // ("George Orwell's 1984").
  const std::vector<std::string> owner = types("Please call Wanda Horvath's 12 tomorrow.");
  ASSERT_FALSE(owner.empty());
  EXPECT_EQ(owner[0], "PERSON:Wanda Horvath");
  // Nor before a chapter and its verse, or an hour and its minutes.
  for (const char* text : {"Please call Wanda Horvath 12:4 tomorrow.", "Please call Wanda Horvath 5:30 tomorrow."}) {
    const std::vector<std::string> verse = types(text);
    ASSERT_FALSE(verse.empty()) << text;
    EXPECT_EQ(verse[0], "PERSON:Wanda Horvath") << text;
  }
}

// A capital letter that labels an answer choice or is the pronoun I opens
// no span, even for a tagger that learned initials ("W. Horvath").
TEST(PiiTaggerTest, AnswerLettersOpenNoSpan) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < train.size(); k += 2) {
    for (PiiSpan& span : train[k].spans) {
      if (span.type != PiiType::kPerson) continue;
      // "Wanda Horvath" -> "W. Horvath": the first name cut to its initial.
      const size_t space = train[k].text.find(' ', span.begin);
      const auto cut = static_cast<uint32_t>(space - span.begin - 2);
      // (Built anew rather than with replace(), of which g++ 12 warns
      // wrongly of overlapping copies, -Wrestrict.)
      const std::string& text = train[k].text;
      train[k].text = text.substr(0, span.begin + 1) + "." + text.substr(span.begin + 1 + cut);
      for (PiiSpan& other : train[k].spans) {
        if (other.begin > span.begin) other.begin -= cut - 1, other.end -= cut - 1;
      }
      span.end -= cut - 1;
      break;
    }
  }
  const PiiTagger tagger = PiiTagger::train(train, options(5, 1u << 14, 1));
  auto found = [&](const std::string& text) { return values_of(tagger, text); };
  EXPECT_EQ(found("Please call W. Horvath tomorrow."), std::vector<std::string>{"W. Horvath"});
  EXPECT_EQ(found("Who called?\nA. Horvath\nB. Novak"), (std::vector<std::string>{"Horvath", "Novak"}));
  EXPECT_EQ(found("Who called? A) Horvath B) Novak"), (std::vector<std::string>{"Horvath", "Novak"}));
  // A letter alone on its line (a worked example's answer) opens no span,
  // one that would have coloured how the next line's first word is read.
  EXPECT_EQ(found("B\nPlease call Horvath tomorrow."), std::vector<std::string>{"Horvath"});
}

// "He", a surname of the lists ("He Wei"), before a word in small letters
// is the pronoun: it opens no name, even for a tagger whose rows open names
// with surnames.
TEST(PiiTaggerTest, HeBeforeASmallWordIsThePronoun) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string surname = k % 3 == 0 ? "He" : kLast[k % kLast.size()];
    const std::string name = surname + " " + kFirst[k % kFirst.size()];
    PiiExample e;
    e.text = name + " called today.";
    e.spans = {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  std::vector<std::string> surnames(kLast.begin(), kLast.end());
  surnames.push_back("He");
  o.gazetteers = {{"last_name", surnames}, {"common_word", {"he", "called", "today"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "He Wei called today."), std::vector<std::string>{"PERSON:He Wei"});
  EXPECT_EQ(typed_spans(tagger, "He called today."), std::vector<std::string>{});
}

// A word between an article and a work is the work's author: "the Takuda
// novel", "a Kubrick film"; not an everyday word, a place, a language or a
// group's word ("the first film", "the Paris film", "the English novel",
// "the Mexican film"), nor in text without capitals a word that ends as
// adjectives do ("the tibetan book").
TEST(PiiTaggerTest, TheAuthorOfAWorkIsAPerson) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"common_word", {"i", "liked", "the", "a", "novel", "film", "book", "first"}}, {"city", {"Paris"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  EXPECT_EQ(typed_spans(tagger, "I liked the Takuda novel."), std::vector<std::string>{"PERSON:Takuda"});
  EXPECT_EQ(persons("I liked a Zorvath film."), std::vector<std::string>{"Zorvath"});
  EXPECT_EQ(persons("i liked the takuda novel."), std::vector<std::string>{"takuda"});
  for (const char* text : {"I liked the English novel.", "I liked the Mexican film.", "I liked the Paris film.",
                           "I liked the first film.", "i liked the tibetan book.", "I liked the DNA film."}) {
    EXPECT_EQ(persons(text), std::vector<std::string>{}) << text;
  }
}

// The subject of "is a ... film" that opens a sentence, where the work
// ends its noun phrase, is the work's title, not a name ("Zoolander is a
// 2001 American film directed by"); "Anna Novak is a film director" and a
// subject inside a sentence stay names.
TEST(PiiTaggerTest, TheTitleOfAWorkIsNoName) {
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), options(5, 1u << 14, 1));
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(persons("Anna Novak is a film director."), std::vector<std::string>{"Anna Novak"});
  EXPECT_EQ(persons("Anna Novak is a 2001 American action-comedy film directed by Greta Brandt."),
            std::vector<std::string>{"Greta Brandt"});
  EXPECT_EQ(persons("We saw it. Anna Novak was an epic novel."), std::vector<std::string>{});
  EXPECT_EQ(persons("Anna Novak is a film."), std::vector<std::string>{});
  EXPECT_EQ(persons("We know Anna Novak is a film."), std::vector<std::string>{"Anna Novak"});
  // In text without capitals too, where an unknown word that opens a
  // sentence is a name by fallback (unknown_subject()).
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Quentin"}},
                  {"common_word", {"is", "a", "film", "director", "directed", "by", "american"}}};
  const PiiTagger small = PiiTagger::train(rows_in_small_letters(), o);
  ASSERT_EQ(values_of(small, "zorvath is a film director.", PiiType::kPerson), std::vector<std::string>{"zorvath"});
  EXPECT_EQ(values_of(small, "zorvath is a 2001 american film directed by quentin.", PiiType::kPerson),
            std::vector<std::string>{"quentin"});
}

// 300 rows that teach the decoder a name of `names` (in turn) alone after
// "I met ".
std::vector<PiiExample> met_rows(const std::vector<std::string>& names) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string& name = names[k % names.size()];
    train.push_back({"I met " + name + " yesterday.", {{PiiType::kPerson, 6, static_cast<uint32_t>(6 + name.size())}}});
  }
  return train;
}

// In text with capitals, a first name found alone takes the capitalised
// word after it that is no place's, street's, company's or first name's
// word, everyday or not ("I met Grace Hopper"); not one before another
// capitalised word.
TEST(PiiTaggerTest, AFirstNameTakesTheCapitalisedSurnameAfterIt) {
  const std::vector<PiiExample> train = met_rows(kFirst);
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna", "Greta"}}, {"city", {"Paris"}},
                  {"common_word", {"i", "met", "yesterday", "hopper"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  EXPECT_EQ(typed_spans(tagger, "I met Anna Hopper yesterday."), std::vector<std::string>{"PERSON:Anna Hopper"});
  for (const char* text : {"I met Anna Paris yesterday.", "I met Anna Greta yesterday.", "I met Anna Hopper Zbrozek yesterday.",
                           "I met Anna HOPPER yesterday."}) {
    const std::vector<std::string> spans = typed_spans(tagger, text);
    ASSERT_FALSE(spans.empty()) << text;
    EXPECT_EQ(spans[0], "PERSON:Anna") << text;
  }
}

// In text with capitals, a surname that no other list knows, found alone,
// takes the capitalised word of two to four letters after it, as Chinese
// names are written ("I met Wang Lei"); not a title nor a building's unit.
TEST(PiiTaggerTest, AFamilyNameTakesTheGivenNameAfterIt) {
  const std::vector<PiiExample> train = met_rows(kLast);
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", {"Wang", "Miller"}}, {"first_name", {"Anna"}}, {"city", {"Lyon"}},
                  {"common_word", {"i", "met", "yesterday", "lei", "miller"}}, {"name_prefix", {"Mr."}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(names("I met Wang yesterday."), std::vector<std::string>{"Wang"});
  EXPECT_EQ(names("I met Wang Lei yesterday."), std::vector<std::string>{"Wang Lei"});
  EXPECT_EQ(names("I met Wang Lei."), std::vector<std::string>{"Wang Lei"});
  for (const char* text : {"I met Wang Lyon yesterday.", "I met Wang Apt yesterday.", "I met Wang Mr yesterday.",
                           "I met Miller Lei yesterday."}) {
    const std::vector<std::string> found = names(text);
    ASSERT_FALSE(found.empty()) << text;
    EXPECT_EQ(found[0].find(' '), std::string::npos) << text << ": " << found[0];
  }
}

// In text with capitals, a surname found alone takes the capitalised word
// before it that a first-name list knows, whatever else the lists know it
// as ("I met Savannah Miller": a word, a city and a state too); not a
// title, nor a place after "in".
TEST(PiiTaggerTest, ASurnameTakesTheFirstNameBeforeIt) {
  // Rows that teach the decoder a surname alone after "met", and that
  // "Savannah" names no one.
  std::vector<PiiExample> train = met_rows(kLast);
  for (uint32_t k = 0; k < 100; ++k) train.push_back({"I met Savannah yesterday.", {}});
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Savannah", "Anna"}}, {"last_name", {"Miller"}}, {"city", {"Savannah"}},
                  {"common_word", {"i", "met", "yesterday", "savannah", "in", "we", "live"}},
                  {"name_prefix", {"Mr.", "Dr"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(names("I met Miller yesterday."), std::vector<std::string>{"Miller"});
  EXPECT_EQ(names("I met Savannah Miller yesterday."), std::vector<std::string>{"Savannah Miller"});
  EXPECT_EQ(names("We live in Savannah Miller yesterday."), std::vector<std::string>{"Miller"});
}

// After a role or a title of address, the capitalised word before a
// surname found alone is its first name, whatever else the lists know it
// as ("Employee Hyacinth Mbeki"); not a role or an organisation's noun.
TEST(PiiTaggerTest, TheWordBetweenARoleAndASurnameIsItsFirstName) {
  std::vector<PiiExample> train = met_rows(kLast);
  for (uint32_t k = 0; k < 100; ++k) train.push_back({"I met Hyacinth yesterday.", {}});
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", {"Miller"}},
                  {"common_word", {"i", "met", "yesterday", "hyacinth", "patient", "nurse", "services"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(names("I met Miller yesterday."), V{"Miller"});
  ASSERT_EQ(names("I met Hyacinth Miller yesterday."), V{"Miller"});
  EXPECT_EQ(names("I met patient Hyacinth Miller yesterday."), V{"Hyacinth Miller"});
  EXPECT_EQ(names("I met Nurse Hyacinth Miller yesterday."), V{"Hyacinth Miller"});
  EXPECT_EQ(names("I met nurse Services Miller yesterday."), V{"Miller"});
}

// A word no list knows before a full name of two words is its first word
// ("Abdullahi Musa Bello"), but not one that ends as a doer's noun does,
// nor after "in".
TEST(PiiTaggerTest, AnUnlistedWordBeforeAFullNameIsItsFirst) {
  // Rows that teach the decoder full names of two words after "to", and
  // that a word no list knows there names no one.
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string name = kFirst[k % kFirst.size()] + " " + kLast[k % kLast.size()];
    train.push_back({"It belongs to " + name + " now.", {{PiiType::kPerson, 14, static_cast<uint32_t>(14 + name.size())}}});
    static const std::vector<std::string> kUnlisted = {"Zelqar", "Vormund", "Tislak", "Quorbe", "Halvex"};
    if (k % 2 == 0) train.push_back({"It belongs to " + kUnlisted[k % kUnlisted.size()] + " now.", {}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast},
                  {"common_word", {"it", "belongs", "to", "now", "we", "live", "in"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(names("It belongs to Anna Novak now."), std::vector<std::string>{"Anna Novak"});
  ASSERT_EQ(names("It belongs to the Anna Novak now."), std::vector<std::string>{"Anna Novak"});
  EXPECT_EQ(names("It belongs to Abdullahi Anna Novak now."), std::vector<std::string>{"Abdullahi Anna Novak"});
  // So in a long list, where the passes read the spans through a cover of
  // the tokens that each merge keeps.
  std::string list;
  for (int k = 0; k < 40; ++k) list += "It belongs to Abdullahi Anna Novak now.\n";
  EXPECT_EQ(names(list), std::vector<std::string>(40, "Abdullahi Anna Novak"));
  // (Whether the decoder names the word alone or not, the name is not
  // joined to it.)
  for (const char* text : {"It belongs to Cognitivist Anna Novak now.", "We live in Zorbia Anna Novak now."}) {
    const std::vector<std::string> found = names(text);
    ASSERT_FALSE(found.empty()) << text;
    EXPECT_EQ(found.back(), "Anna Novak") << text;
  }
}

// A firm or place followed by its age (", age 34") is a person; a place
// the lists hold whole stays a place.
TEST(PiiTaggerTest, AFirmOrPlaceOfAnAgeIsAPerson) {
  // Rows that teach the decoder firms and places after "for".
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const bool place = k % 2 == 0;
    const std::string value = place ? kCities[k % kCities.size()] : kLast[k % kLast.size()] + " Quill";
    train.push_back({"A row for " + value + " was added.",
                     {{place ? PiiType::kLocation : PiiType::kOrganization, 10, static_cast<uint32_t>(10 + value.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"city", kCities}, {"common_word", {"a", "row", "for", "was", "added", "age", "aged"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  ASSERT_EQ(values_of(tagger, "A row for Novak Quill was added.", PiiType::kOrganization),
            std::vector<std::string>{"Novak Quill"});
  ASSERT_EQ(values_of(tagger, "A row for Porto was added.", PiiType::kLocation), std::vector<std::string>{"Porto"});
  for (const char* text : {"A row for Novak Quill, age 34, was added.", "A row for Novak Quill (aged 34) was added.",
                           "a row for Novak Quill, AGE 34, was added."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kPerson), std::vector<std::string>{"Novak Quill"}) << text;
  }
  EXPECT_EQ(values_of(tagger, "A row for Novak Quill, 34, was added.", PiiType::kPerson), std::vector<std::string>{});
  EXPECT_EQ(values_of(tagger, "A row for Porto (age 8) was added.", PiiType::kLocation), std::vector<std::string>{"Porto"});
}

// A given name written as Korean ones are ("Ji-woo") is a name whole,
// though the decoder stops at the hyphen; a longer word before the hyphen
// keeps what follows it out ("Novak-era").
TEST(PiiTaggerTest, TheSecondSyllableOfAGivenNameIsTheName) {
  // Rows that teach the decoder to stop at a hyphen.
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string name = kLast[k % kLast.size()] + " " + (k % 2 == 0 ? "Ji" : "Seo");
    train.push_back({"I met " + name + "-era people.", {{PiiType::kPerson, 6, static_cast<uint32_t>(6 + name.size())}}});
    const std::string& surname = kLast[(k + 3) % kLast.size()];
    train.push_back({"I met " + surname + "-era people.", {{PiiType::kPerson, 6, static_cast<uint32_t>(6 + surname.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", kLast}, {"common_word", {"i", "met", "era", "people", "woo", "today"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(names("I met Novak Ji-styled people."), std::vector<std::string>{"Novak Ji"});
  EXPECT_EQ(names("I met Novak Ji-woo today."), std::vector<std::string>{"Novak Ji-woo"});
  EXPECT_EQ(names("I met Novak Seo-yeon today."), std::vector<std::string>{"Novak Seo-yeon"});
  EXPECT_EQ(names("I met Novak-era people."), std::vector<std::string>{"Novak"});
  EXPECT_EQ(names("I met Novak Ji-woo-ha today."), std::vector<std::string>{"Novak Ji"});
}

// A name after "near", "toward" or "towards", or a cue of travel ("flying
// to", "stayed in", "the flight from"), that the place lists hold whole is
// a place ("near Paris"); one they do not hold stays a name, and so does a
// listed place after a going that may be to a person ("went to").
TEST(PiiTaggerTest, ANameNearOrTowardAListedPlaceIsThatPlace) {
  // Rows that teach the decoder a person after these words.
  const std::vector<std::string> befores = {"I live near ", "We drove toward ", "We are flying to ", "She stayed in ",
                                            "The flight from ", "We went to "};
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 600; ++k) {
    const std::string name = k % 5 == 0 ? "Paris" : kFirst[k % kFirst.size()];
    const std::string& before = befores[k % befores.size()];
    train.push_back({before + name + ".", {{PiiType::kPerson, static_cast<uint32_t>(before.size()),
                                            static_cast<uint32_t>(before.size() + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Anna", "Paris"}}, {"city", {"Paris"}},
                  {"common_word", {"i", "live", "near", "we", "drove", "toward", "towards", "are", "flying", "to", "she",
                                   "stayed", "in", "the", "flight", "from", "went"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  for (const char* text : {"I live near Paris.", "We drove toward Paris.", "We drove towards Paris.",
                           "We are flying to Paris.", "She stayed in Paris.", "The flight from Paris."}) {
    EXPECT_EQ(typed_spans(tagger, text), std::vector<std::string>{"LOCATION:Paris"}) << text;
  }
  EXPECT_EQ(typed_spans(tagger, "I live near Anna."), std::vector<std::string>{"PERSON:Anna"});
  EXPECT_EQ(typed_spans(tagger, "We are flying to Anna."), std::vector<std::string>{"PERSON:Anna"});
  EXPECT_EQ(typed_spans(tagger, "We went to Paris."), std::vector<std::string>{"PERSON:Paris"});
}

// A place takes the words before it that name the state it is: a compass
// point, or a polity and "of" (maybe "the"), after up to two qualifiers.
TEST(PiiTaggerTest, APlaceTakesTheNameOfItsState) {
  std::vector<PiiExample> train;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string place = kCities[k % kCities.size()];
    PiiExample e;
    e.text = "We moved here from " + place + " last year.";
    e.spans = {{PiiType::kLocation, 19, static_cast<uint32_t>(19 + place.size())}};
    train.push_back(std::move(e));
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "moved", "here", "from", "last", "year", "the", "of", "south", "republic"}},
                  {"city", {"Graz"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto places = [&](const std::string& text) { return values_of(tagger, text, PiiType::kLocation); };
  ASSERT_EQ(places("We moved here from Graz last year."), std::vector<std::string>{"Graz"});
  EXPECT_EQ(places("we moved here from south graz last year."), std::vector<std::string>{"south graz"});
  EXPECT_EQ(places("We moved here from Graz to South Graz last year."), (std::vector<std::string>{"Graz", "South Graz"}));
  EXPECT_EQ(places("We moved here from the Republic of Graz last year."), std::vector<std::string>{"Republic of Graz"});
  EXPECT_EQ(places("We moved here from the Democratic Republic of the Graz last year."),
            std::vector<std::string>{"Democratic Republic of the Graz"});
  // Not a compass point in small letters in text with capitals, nor across a
  // line.
  EXPECT_EQ(places("We moved here from Graz to south Graz last year."), (std::vector<std::string>{"Graz", "Graz"}));
  EXPECT_EQ(places("We moved here from the Republic of\nGraz last year."), std::vector<std::string>{"Graz"});
}

// A name and what a hyphen right after it joins are one name: the name
// after it, a first name no everyday list knows, or a capitalised surname
// of the lists or the census, whatever else they know it as.
TEST(PiiTaggerTest, AHyphenJoinsADoubleName) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Anna", "Greta", "Leigh", "Anal"}},
                  {"last_name", {"Smith"}},
                  {"census_surname", {"Baker"}},
                  {"common_word", {"please", "call", "tomorrow", "anal", "smith", "baker"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  ASSERT_EQ(persons("Please call Anna tomorrow."), std::vector<std::string>{"Anna"});
  EXPECT_EQ(persons("Please call Anna-Greta tomorrow."), std::vector<std::string>{"Anna-Greta"});
  EXPECT_EQ(persons("Please call Anna-leigh tomorrow."), std::vector<std::string>{"Anna-leigh"});
  EXPECT_EQ(persons("Please call Anna-anal tomorrow."), std::vector<std::string>{"Anna"});
  EXPECT_EQ(persons("Please call Anna-Smith tomorrow."), std::vector<std::string>{"Anna-Smith"});
  EXPECT_EQ(persons("Please call Anna-Baker tomorrow."), std::vector<std::string>{"Anna-Baker"});
  EXPECT_EQ(persons("Please call Anna-smith tomorrow."), std::vector<std::string>{"Anna"});
}

// In small letters, after a full name of the tagger's: a last names'
// list's word, whatever else it is ("smit" is an everyday word too), or a
// word of three letters or more that no list knows; not an everyday word
// alone. Here a tagger taught full names in small letters.
TEST(PiiTaggerTest, AHyphenJoinsASurnameToAFullNameInSmallLetters) {
  const PiiTagger tagger = small_letter_names_tagger(
      {"anna quarrow", "lena brask", "kofi velmora", "greta dellack"},
      [](size_t) { return std::pair<std::string, std::string>{"please call ", " tomorrow."}; },
      {{"first_name", {"Anna", "Lena", "Kofi", "Greta"}},
       {"last_name", {"Smit"}},
       {"census_surname", {"Finch"}},
       {"common_word", {"please", "call", "tomorrow", "smit", "based", "finch"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(persons("please call anna dellack tomorrow."), V{"anna dellack"});
  EXPECT_EQ(persons("please call anna dellack-smit tomorrow."), V{"anna dellack-smit"});
  // (A surname of the census too.)
  EXPECT_EQ(persons("please call anna dellack-finch tomorrow."), V{"anna dellack-finch"});
  EXPECT_EQ(persons("please call anna dellack-zorvath tomorrow."), V{"anna dellack-zorvath"});
  EXPECT_EQ(persons("please call anna dellack-based tomorrow."), V{"anna dellack"});
}

// In small letters, after a name of one word that a last names' or the
// census's list knows, such a word ("under the name vasquez-lindgren");
// not after a first name, nor a word no list knows.
TEST(PiiTaggerTest, AHyphenJoinsTwoSurnamesInSmallLetters) {
  // (A tagger that learned only numbers: the name is the cue's, "name is".)
  const PiiTagger tagger = numbers_only_tagger({{"first_name", {"Anna"}},
                                                {"last_name", {"Dellack", "Smit"}},
                                                {"census_surname", {"Berg"}},
                                                {"common_word", {"the", "code", "is", "today", "my", "name", "smit"}}});
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(persons("my name is dellack today."), V{"dellack"});
  EXPECT_EQ(persons("my name is dellack-smit today."), V{"dellack-smit"});
  EXPECT_EQ(persons("my name is dellack-berg today."), V{"dellack-berg"});
  EXPECT_EQ(persons("my name is dellack-zorvath today."), V{"dellack"});
  EXPECT_EQ(persons("my name is anna-smit today."), V{"anna"});
}

// A name, a surname's particles in small letters and the capitalised word
// after them are one name: a name of its own, or a word a name list
// knows or no list knows at all; not an everyday word, nor a word in small
// letters after a capitalised name. In small letters after a name in
// small letters, with Irish particles too ("siobhan ní bhriain").
TEST(PiiTaggerTest, ParticlesJoinASurnameToTheName) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", {"Anna", "Greta"}},
                  {"last_name", {"Yusof"}},
                  {"common_word", {"please", "call", "tomorrow", "facto", "house"}}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto persons = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(persons("Please call Anna tomorrow."), V{"Anna"});
  EXPECT_EQ(persons("Please call Anna bin Yusof tomorrow."), V{"Anna bin Yusof"});
  EXPECT_EQ(persons("Please call Anna binti Zorvath tomorrow."), V{"Anna binti Zorvath"});
  EXPECT_EQ(persons("Please call Anna de la Zorvath tomorrow."), V{"Anna de la Zorvath"});
  EXPECT_EQ(persons("Please call Anna de House tomorrow."), V{"Anna"});
  EXPECT_EQ(persons("Please call Anna de facto tomorrow."), V{"Anna"});
  ASSERT_EQ(persons("please call anna tomorrow."), V{"anna"});
  EXPECT_EQ(persons("please call anna de la zorvath tomorrow."), V{"anna de la zorvath"});
  EXPECT_EQ(persons("please call anna n\u00ed zorvath tomorrow."), V{"anna n\u00ed zorvath"});
  EXPECT_EQ(persons("please call anna de house tomorrow."), V{"anna"});
  EXPECT_EQ(persons("please call anna do the house tomorrow."), V{"anna"});
}

// 200 rows "Please call L-R tomorrow." of the words of `left` and `right`
// in turn, each half labelled with its type.
std::vector<PiiExample> hyphenated_calls(const std::vector<std::string>& left, PiiType left_type,
                                         const std::vector<std::string>& right, PiiType right_type) {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 200; ++k) {
    const std::string& a = left[k % left.size()];
    const std::string& b = right[k % right.size()];
    const auto b_at = static_cast<uint32_t>(12 + a.size() + 1);
    rows.push_back({"Please call " + a + "-" + b + " tomorrow.",
                    {{left_type, 12, static_cast<uint32_t>(12 + a.size())},
                     {right_type, b_at, static_cast<uint32_t>(b_at + b.size())}}});
  }
  return rows;
}

// A place or firm of the tagger's over just a capitalised surname of the
// lists after a name and a hyphen is the name's second part ("Christian
// Bale-Smith" gave the firm "Smith"): here a tagger taught to read the
// word after the hyphen as a firm.
TEST(PiiTaggerTest, AHyphenJoinsAFirmOfASurnameToTheName) {
  const std::vector<PiiExample> rows = hyphenated_calls({"Anna", "Greta", "Maria", "Olga"}, PiiType::kPerson,
                                                        {"Quarrow", "Brask", "Velmora", "Dellack", "Ondine"},
                                                        PiiType::kOrganization);
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", {"Smith"}},
                  {"census_surname", {"Hendricks"}},
                  {"common_word", {"please", "call", "tomorrow", "smith"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Please call Anna-Zorvath tomorrow."), (V{"PERSON:Anna", "ORGANIZATION:Zorvath"}));
  EXPECT_EQ(found("Please call Anna-Smith tomorrow."), V{"PERSON:Anna-Smith"});
  EXPECT_EQ(found("Please call Greta-Hendricks tomorrow."), V{"PERSON:Greta-Hendricks"});
}

// A place or firm of the tagger's over one word, a hyphen and a name of it
// right after are one name ("Cassius Montgomery-Reid" gave the place
// "Montgomery"): here a tagger taught to read the word before the hyphen
// as a firm and the one after as a name.
TEST(PiiTaggerTest, AHyphenJoinsAFirmOfOneWordToTheNameAfterIt) {
  const std::vector<PiiExample> rows = hyphenated_calls({"Quarrow", "Brask", "Velmora", "Dellack", "Ondine"},
                                                        PiiType::kOrganization, {"Anna", "Greta", "Maria", "Olga"},
                                                        PiiType::kPerson);
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"please", "call", "tomorrow"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Please call Quarrow-Anna tomorrow."), V{"PERSON:Quarrow-Anna"});
  EXPECT_EQ(found("Please call Zorvath-Greta tomorrow."), V{"PERSON:Zorvath-Greta"});
}

// Trained on rows that call "Novak Ltd" a person, the tagger still reports
// a name ending in a company suffix as an organisation.
TEST(PiiTaggerTest, ANameEndingInACompanySuffixIsAnOrganisation) {
  std::vector<PiiExample> train = sample(600, 0, 16, 0, 14, 0, 8, 1);
  for (size_t k = 0; k < train.size(); k += 4) {
    for (PiiSpan& span : train[k].spans) {
      if (span.type != PiiType::kPerson) continue;
      train[k].text.insert(span.end, " Ltd");
      const uint32_t shift = 4;
      for (PiiSpan& other : train[k].spans) {
        if (other.begin >= span.end) other.begin += shift, other.end += shift;
      }
      span.end += shift;
      break;
    }
  }
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"company_suffix", {"Ltd", "GmbH"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  std::vector<PiiSpan> found;
  const std::string text = "Please call Wanda Horvath Ltd tomorrow.";
  tagger.tag(text, found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].type, PiiType::kOrganization);
  EXPECT_EQ(text.substr(found[0].begin, found[0].end - found[0].begin), "Wanda Horvath Ltd");
}
// Trained on rows that call "Novak Solutions" a person, the tagger still
// reports a name ending in a noun of companies' names as an organisation.
TEST(PiiTaggerTest, ANameEndingInACompanysNounIsAnOrganisation) {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string name = kLast[k % kLast.size()] + (k % 2 == 0 ? " Solutions" : "");
    rows.push_back({"Please call " + name + " tomorrow.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 12, 1));
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Please call " + kLast[0] + " Solutions tomorrow."),
            std::vector<std::string>{"ORGANIZATION:" + kLast[0] + " Solutions"});
  // Not the noun alone.
  EXPECT_EQ(found("Please call Solutions tomorrow."), std::vector<std::string>{"PERSON:Solutions"});
}

// A tagger of names and organisations that learned them only after "call"
// and "at" in text with capitals, and everyday words it leaves out.
PiiTagger names_and_organisations_tagger() {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string& name = kLast[k % kLast.size()];
    if (k % 2 == 0) {
      rows.push_back({"Please call " + name + " tomorrow.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
    } else {
      rows.push_back({"I work at " + name + " Corp now.", {{PiiType::kOrganization, 10, static_cast<uint32_t>(15 + name.size())}}});
    }
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"apple", "shouted", "is", "the", "brainchild", "we", "saw", "street", "store", "pie",
                                   "met", "at", "today", "oles", "of"}}};
  return PiiTagger::train(rows, o);
}

// In text without capitals, a word no list knows that opens a sentence
// before an everyday word is a name or an organisation, where no span
// covers it: the sentence's subject.
TEST(PiiTaggerTest, AnUnknownWordOpeningALowerCaseSentenceIsANameOrAnOrganisation) {
  const PiiTagger tagger = names_and_organisations_tagger();
  auto found = [&](const std::string& text) { return values_of(tagger, text); };
  auto has = [](const std::vector<std::string>& values, const std::string& v) {
    return std::find(values.begin(), values.end(), v) != values.end();
  };
  EXPECT_TRUE(has(found("zorvak shouted at the brainchild."), "zorvak"));
  EXPECT_TRUE(has(found("we saw them. zorvak is the brainchild."), "zorvak"));
  EXPECT_TRUE(has(found("we saw them. zorvak is the brainchild."), "zorvak"));
  const std::vector<std::string> typed = typed_spans(tagger, "zorvak shouted at the brainchild.");
  ASSERT_FALSE(typed.empty());
  EXPECT_TRUE(typed[0] == "PERSON:zorvak" || typed[0] == "ORGANIZATION:zorvak") << typed[0];
  // Not a word a list knows, one inside a sentence or after an
  // abbreviation, one of two letters, nor one before a word no list knows,
  // a mark or nothing.
  EXPECT_FALSE(has(found("oles shouted at the brainchild."), "oles"));
  EXPECT_FALSE(has(found("we saw zorvak is the brainchild."), "zorvak"));
  EXPECT_FALSE(has(found("we saw st. zorvak street."), "zorvak"));
  EXPECT_FALSE(has(found("zo is the brainchild."), "zo"));
  EXPECT_FALSE(has(found("zorv4k is the brainchild."), "zorv4k"));
  EXPECT_FALSE(has(found("zorvak qwyx the brainchild."), "zorvak"));
  EXPECT_FALSE(has(found("zorvak, the brainchild."), "zorvak"));
  EXPECT_FALSE(has(found("zorvak\nis the brainchild."), "zorvak"));
  EXPECT_FALSE(has(found("zorvak"), "zorvak"));
  // Text with capitals leaves it to the tagger; a span found before stays.
  EXPECT_FALSE(has(found("Zorvak is the brainchild."), "Zorvak"));
  std::vector<PiiSpan> spans = {{PiiType::kDomainName, 0, 6}};
  tagger.tag("zorvak shouted at the brainchild.", spans);
  ASSERT_FALSE(spans.empty());
  EXPECT_EQ(spans[0].type, PiiType::kDomainName);
  EXPECT_TRUE(std::none_of(spans.begin() + 1, spans.end(), [](const PiiSpan& s) { return s.begin < 6; }));
}

// A capitalised everyday word between "the" and an organisation's noun
// ("office", "store", "employees") names an organisation: "The Sap office
// is at", "the Apple store".
TEST(PiiTaggerTest, AnEverydayWordNamingAnOfficeIsAnOrganisation) {
  const PiiTagger tagger = names_and_organisations_tagger();
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("We met at the Apple store today."), std::vector<std::string>{"ORGANIZATION:Apple"});
  EXPECT_EQ(found("The Apple office is at the street."), std::vector<std::string>{"ORGANIZATION:Apple"});
  // Not without "the" or the noun, nor in small letters or a possessive.
  EXPECT_EQ(found("We met at Apple store today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at the Apple pie today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at the apple store today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at the Apple's store today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at the Apple\nstore today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at the  Apple store today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met at the Apple  store today."), std::vector<std::string>{});
  EXPECT_EQ(found("We met the 400 employees today."), std::vector<std::string>{});
}

// An everyday abbreviation in capitals alone ("ASAP", "ATM") is no span,
// where the tagger learned that words in capitals are places.
TEST(PiiTaggerTest, AnEverydayAbbreviationAloneIsNoSpan) {
  std::vector<PiiExample> rows;
  const std::vector<std::string> codes = {"USA", "UAE", "DEU", "FRA", "ITA", "ESP", "PRT", "NLD", "BEL", "AUT"};
  for (size_t k = 0; k < 200; ++k) {
    PiiExample e;
    e.text = "Please ship it to " + codes[k % codes.size()] + " today.";
    e.spans = {{PiiType::kLocation, 18, static_cast<uint32_t>(18 + codes[k % codes.size()].size())}};
    rows.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 12, 1));
  EXPECT_EQ(typed_spans(tagger, "Please ship it to GRC today."), (std::vector<std::string>{"LOCATION:GRC"}));
  EXPECT_EQ(typed_spans(tagger, "Please ship it to ASAP today."), (std::vector<std::string>{}));
  EXPECT_EQ(typed_spans(tagger, "Please ship it to ATM today."), (std::vector<std::string>{}));
}

// A language in use is no one's nationality, name or place ("answer in
// French", "the English translation"), where the tagger learned that a
// capitalised word after "to" is a place.
TEST(PiiTaggerTest, ALanguageInUseIsNoSpan) {
  std::vector<PiiExample> rows;
  const std::vector<std::string> places = {"Oslo", "Lima", "Quito", "Dakar", "Hanoi", "Sofia", "Riga", "Baku"};
  for (size_t k = 0; k < 200; ++k) {
    PiiExample e;
    const std::string& place = places[k % places.size()];
    e.text = k % 2 == 0 ? "We flew to " + place + " today." : "We flew to " + place + ".";
    e.spans = {{PiiType::kLocation, 11, static_cast<uint32_t>(11 + place.size())}};
    rows.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 12, 1));
  ASSERT_EQ(typed_spans(tagger, "We flew to Paris."), (std::vector<std::string>{"LOCATION:Paris"}));
  // Not a language where the clause goes on: a group ("Japanese today").
  EXPECT_EQ(typed_spans(tagger, "We flew to Japanese today."), (std::vector<std::string>{"NRP:Japanese"}));
  EXPECT_EQ(typed_spans(tagger, "We flew to Japanese."), (std::vector<std::string>{}));
  EXPECT_EQ(typed_spans(tagger, "We flew to Japanese and back."), (std::vector<std::string>{}));
  EXPECT_EQ(typed_spans(tagger, "We flew to Japanese\ntoday."), (std::vector<std::string>{}));
  EXPECT_EQ(typed_spans(tagger, "We flew to Japanese words today."), (std::vector<std::string>{}));
}

// A name, a place or an organisation runs into no pronoun, helping verb or
// "this" ("man who", "bauru this morning"), and no value ends with "of",
// "and" or "the" ("St Francis of", "United States and"): the value ends
// before such a word. Here the tagger learned places of two words, so that
// the word after a place continues it.
TEST(PiiTaggerTest, AValueEndsBeforeAWordThatEndsNoName) {
  std::vector<PiiExample> rows;
  const std::vector<std::string> places = {"Oslo Nord",   "Lima Vieja",  "Quito Sur",   "Dakar Plateau", "Hanoi Cau",
                                           "Sofia Iztok", "Riga Centrs", "Baku Sabail", "Bay of Kotor", "Gulf of Riga"};
  for (size_t k = 0; k < 400; ++k) {
    PiiExample e;
    std::string place = places[k % places.size()];
    if (k % 2 == 1) {
      std::transform(place.begin(), place.end(), place.begin(), [](unsigned char c) { return std::tolower(c); });
    }
    e.text = (k % 2 == 0 ? "We flew to " : "we flew to ") + place + " today.";
    e.spans = {{PiiType::kLocation, 11, static_cast<uint32_t>(11 + place.size())}};
    rows.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 12, 1));
  ASSERT_EQ(typed_spans(tagger, "we flew to lima sur today."), (std::vector<std::string>{"LOCATION:lima sur"}));
  EXPECT_EQ(typed_spans(tagger, "we flew to lima who knew."), (std::vector<std::string>{"LOCATION:lima"}));
  EXPECT_EQ(typed_spans(tagger, "we flew to lima this year."), (std::vector<std::string>{"LOCATION:lima"}));
  EXPECT_EQ(typed_spans(tagger, "we flew to lima of course."), (std::vector<std::string>{"LOCATION:lima"}));
  EXPECT_EQ(typed_spans(tagger, "we flew to lima next week."), (std::vector<std::string>{"LOCATION:lima"}));
  EXPECT_EQ(typed_spans(tagger, "we flew to lima before june."), (std::vector<std::string>{"LOCATION:lima"}));
  EXPECT_EQ(typed_spans(tagger, "we flew to lima told us."), (std::vector<std::string>{"LOCATION:lima"}));
  EXPECT_EQ(typed_spans(tagger, "We flew to Lima of course."), (std::vector<std::string>{"LOCATION:Lima"}));
  // Inside a value such a word stays, and a state's abbreviation ends one.
  EXPECT_EQ(typed_spans(tagger, "We flew to Bay of Lima today."), (std::vector<std::string>{"LOCATION:Bay of Lima"}));
  EXPECT_EQ(typed_spans(tagger, "We flew to Salem OR today."), (std::vector<std::string>{"LOCATION:Salem OR"}));
}

// Nor does an address run into such a word or one of time ("9 elm lane
// then", "9 elm lane before noon"), in text without capitals as well: here
// the tagger learned addresses whose last word may be any word.
TEST(PiiTaggerTest, AnAddressEndsBeforeAWordThatStandsInNoName) {
  std::vector<PiiExample> rows;
  const std::vector<std::string> streets = {"elm lane west", "oak road", "birch way north", "pine court",
                                            "ash street east", "cedar row", "maple hill south", "rowan walk"};
  const std::vector<std::string> after = {" today.", ".", " soon.", " at noon."};
  for (size_t k = 0; k < 400; ++k) {
    PiiExample e;
    const std::string street = std::to_string(10 + k % 80) + " " + streets[k % streets.size()];
    e.text = "send it to " + street + after[k / streets.size() % after.size()];
    e.spans = {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}};
    rows.push_back(std::move(e));
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 12, 1));
  ASSERT_EQ(typed_spans(tagger, "send it to 12 elm lane west today."),
            (std::vector<std::string>{"STREET_ADDRESS:12 elm lane west"}));
  for (const char* text :
       {"send it to 12 elm lane then home.", "send it to 12 elm lane before noon.", "send it to 12 elm lane this week."}) {
    EXPECT_EQ(typed_spans(tagger, text), (std::vector<std::string>{"STREET_ADDRESS:12 elm lane"})) << text;
  }
}

// Names after "the" and before an office noun, alone or joined by commas
// and "and", are one organisation: the company's name. Not a place.
TEST(PiiTaggerTest, NamesBeforeAnOfficeAreTheCompany) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  // (What the tagger finds there without the rule.)
  ASSERT_EQ(found("We met Davis, Moreau and Takeda today."),
            (std::vector<std::string>{"PERSON:Davis", "PERSON:Moreau", "PERSON:Takeda"}));
  EXPECT_EQ(found("The Davis, Moreau and Takeda office is in the city."),
            (std::vector<std::string>{"ORGANIZATION:Davis, Moreau and Takeda"}));
  EXPECT_EQ(found("We met at the Moreau store today."), (std::vector<std::string>{"ORGANIZATION:Moreau"}));
  // Not without "the" or the noun, nor a place.
  EXPECT_EQ(found("We met Moreau at the store today."), (std::vector<std::string>{"PERSON:Moreau"}));
  EXPECT_EQ(found("We met the Moreau family today."), (std::vector<std::string>{"PERSON:Moreau"}));
  EXPECT_EQ(found("We met at the Lisbon office today."), (std::vector<std::string>{"LOCATION:Lisbon"}));
  // Many in one text: each is one organisation (the pass copies the spans
  // down once, rather than erasing the joined ones one by one).
  std::string many;
  for (int k = 0; k < 20000; ++k) many += "and at the Davis, Moreau and Takeda office today, ";
  std::vector<PiiSpan> spans;
  tagger.tag(many, spans);
  EXPECT_EQ(spans.size(), 20000u);
  EXPECT_TRUE(std::all_of(spans.begin(), spans.end(), [](const PiiSpan& x) { return x.type == PiiType::kOrganization; }));
}

// Firms named after their partners are one organisation each: three
// surnames joined by ", " and " and " where a firm stands, and two joined by
// a hyphen that stand alone; not people named together, nor an eponym
// before a noun.
TEST(PiiTaggerTest, FirmsNamedAfterPartnersAreOrganisations) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}, {"city", kCities}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  // (What the tagger finds there without the rule.)
  ASSERT_EQ(found("We met Davis, Moreau and Takeda today."),
            (std::vector<std::string>{"PERSON:Davis", "PERSON:Moreau", "PERSON:Takeda"}));
  EXPECT_EQ(found("We met at Davis, Moreau and Takeda today."),
            (std::vector<std::string>{"ORGANIZATION:Davis, Moreau and Takeda"}));
  EXPECT_EQ(found("We worked for Davis, Moreau and Takeda today."),
            (std::vector<std::string>{"ORGANIZATION:Davis, Moreau and Takeda"}));
  EXPECT_EQ(found("Davis, Moreau and Takeda is a firm."), (std::vector<std::string>{"ORGANIZATION:Davis, Moreau and Takeda"}));
  EXPECT_EQ(found("Anna Novak\nDavis, Moreau and Takeda\n"),
            (std::vector<std::string>{"PERSON:Anna Novak", "ORGANIZATION:Davis, Moreau and Takeda"}));
  // Fewer than two listed surnames, or none that is no first name, or a place.
  EXPECT_EQ(found("We met at Davis, Moreau and Zorvath today."),
            (std::vector<std::string>{"PERSON:Davis", "PERSON:Moreau", "PERSON:Zorvath"}));
  EXPECT_EQ(found("We met at Anna, Rosa and Elena today."),
            (std::vector<std::string>{"PERSON:Anna", "PERSON:Rosa", "PERSON:Elena"}));
  EXPECT_EQ(found("We met at Lisbon, Moreau and Takeda today."),
            (std::vector<std::string>{"LOCATION:Lisbon", "PERSON:Moreau", "PERSON:Takeda"}));
  // Two surnames joined by a hyphen, alone.
  EXPECT_EQ(found("We met at Moreau-Takeda in Lisbon."),
            (std::vector<std::string>{"ORGANIZATION:Moreau-Takeda", "LOCATION:Lisbon"}));
  EXPECT_EQ(found("Zorvath-Takeda is a firm."), (std::vector<std::string>{"ORGANIZATION:Zorvath-Takeda"}));
  // Not after a name or before one, nor a first name after the hyphen, an
  // acronym, or an eponym before a noun: what the tagger found stays, its
  // names joined across the hyphen (join_hyphenated_names()).
  EXPECT_EQ(found("We met Anna Moreau-Takeda today."), std::vector<std::string>{"PERSON:Anna Moreau-Takeda"});
  EXPECT_EQ(found("We met Moreau-Takeda Novak today."), std::vector<std::string>{"PERSON:Moreau-Takeda Novak"});
  EXPECT_EQ(found("Moreau-Anna is a firm."), std::vector<std::string>{"PERSON:Anna"});
  EXPECT_EQ(found("We read the MOREAU-TAKEDA text."), std::vector<std::string>{});
  EXPECT_EQ(found("We read the Moreau-Takeda equilibrium."), std::vector<std::string>{"PERSON:Moreau-Takeda"});
  // Nor a term among others (a slash, brackets) or an answer's option.
  auto organisations = [&](const std::string& text) {
    const std::vector<std::string> spans = found(text);
    return std::count_if(spans.begin(), spans.end(), [](const std::string& x) { return x.starts_with("ORGANIZATION:"); });
  };
  ASSERT_EQ(organisations("We met at Moreau-Takeda in Lisbon."), 1);
  EXPECT_EQ(organisations("We met at Moreau-Takeda / Novak-Grant in Lisbon."), 0);
  EXPECT_EQ(organisations("We met at [Moreau-Takeda] in Lisbon."), 0);
  EXPECT_EQ(organisations("Who was it?\nA. Moreau-Takeda\nB. Novak"), 0);
}

// A noun that ends the names of companies and bodies ("Corporation",
// "Solutions", "Agency") makes an organisation of the capitalised words
// before it, found or not, in text with capitals.
TEST(PiiTaggerTest, ANounEndingACompanysNameMakesAnOrganisation) {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string& name = kLast[k % kLast.size()];
    rows.push_back({"Please call " + name + " tomorrow.", {{PiiType::kPerson, 12, static_cast<uint32_t>(12 + name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"when", "the", "state", "farm", "liquid", "publishing", "space", "station", "later",
                                   "became", "in", "we", "met", "people", "today", "please", "call", "tomorrow", "solutions",
                                   "company", "insurance", "robotics", "international", "corporation"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  const std::string& name = kLast[0];
  ASSERT_EQ(found("Please call " + name + " tomorrow."), std::vector<std::string>{"PERSON:" + name});
  // A name the tagger found that ends in the noun, or one right before it.
  EXPECT_EQ(found("Please call " + name + " Solutions tomorrow."), std::vector<std::string>{"ORGANIZATION:" + name + " Solutions"});
  EXPECT_EQ(found("Please call " + name + " Publishing Company tomorrow."),
            std::vector<std::string>{"ORGANIZATION:" + name + " Publishing Company"});
  // (Not a possessive's owner: "Novak's Publishing Company".)
  EXPECT_EQ(found("Please call " + name + "'s Publishing Company tomorrow."),
            (std::vector<std::string>{"PERSON:" + name, "ORGANIZATION:Publishing Company"}));
  // Capitalised words the tagger left out, past an article or an everyday
  // word that opens the sentence.
  EXPECT_EQ(found("It later became Liquid Robotics in 1965."), std::vector<std::string>{"ORGANIZATION:Liquid Robotics"});
  EXPECT_EQ(found("We met the State Farm Insurance people today."),
            std::vector<std::string>{"ORGANIZATION:State Farm Insurance"});
  EXPECT_EQ(found("The State Farm Insurance people met."), std::vector<std::string>{"ORGANIZATION:State Farm Insurance"});
  EXPECT_EQ(found("When Liquid Robotics met."), std::vector<std::string>{"ORGANIZATION:Liquid Robotics"});
  EXPECT_EQ(found("We met the Liquid Media people today."), std::vector<std::string>{"ORGANIZATION:Liquid Media"});
  EXPECT_EQ(found("It later became Liquid Group in 1965."), std::vector<std::string>{"ORGANIZATION:Liquid Group"});
  EXPECT_EQ(found("It later became Liquid Labs in 1965."), std::vector<std::string>{"ORGANIZATION:Liquid Labs"});
  EXPECT_EQ(found("Who? The State Farm Insurance people."), std::vector<std::string>{"ORGANIZATION:State Farm Insurance"});
  EXPECT_EQ(found("Who: The State Farm Insurance people."), std::vector<std::string>{"ORGANIZATION:State Farm Insurance"});
  // Not the noun alone, nor one before more of the name, in small letters,
  // across a line or two blanks, nor after an everyday word alone.
  EXPECT_EQ(found("We met Insurance people today."), std::vector<std::string>{});
  EXPECT_EQ(found("When Corporation X met."), std::vector<std::string>{});
  EXPECT_EQ(found("We met the International Space Station people."), std::vector<std::string>{});
  EXPECT_EQ(found("We met the Liquid International Space people."), std::vector<std::string>{});
  EXPECT_EQ(found("We met the liquid robotics people."), std::vector<std::string>{});
  EXPECT_EQ(found("We met Liquid\nRobotics people."), std::vector<std::string>{});
  EXPECT_EQ(found("We met Liquid  Robotics people."), std::vector<std::string>{});
}

// Two words joined by "and" are two names or two organisations, even from
// a tagger that learned such pairs as one organisation; names when a name
// list knows either word and no company suffix list does. So are two full
// names that open with first names.
TEST(PiiTaggerTest, TwoWordsJoinedByAndAreTwo) {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string pair = kLast[k % kLast.size()] + " and " + kLast[(k + 7) % kLast.size()];
    rows.push_back({"I work at " + pair + " now.", {{PiiType::kOrganization, 10, static_cast<uint32_t>(10 + pair.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"last_name", {"Quill", "Moss"}}, {"company_suffix", {"Moss"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("I work at Zorvak and Brill now."),
            (std::vector<std::string>{"ORGANIZATION:Zorvak", "ORGANIZATION:Brill"}));
  EXPECT_EQ(found("I work at Zorvak and Quill now."), (std::vector<std::string>{"PERSON:Zorvak", "PERSON:Quill"}));
  EXPECT_EQ(found("I work at Quill and Moss now."), (std::vector<std::string>{"ORGANIZATION:Quill", "ORGANIZATION:Moss"}));
  EXPECT_EQ(found("I work at Zorvak  and Brill now."),
            (std::vector<std::string>{"ORGANIZATION:Zorvak", "ORGANIZATION:Brill"}));
  // Not three words, nor two joined by another word.
  EXPECT_EQ(found("I work at Zorvak Brill and Quill now."),
            (std::vector<std::string>{"ORGANIZATION:Zorvak Brill and Quill"}));
  EXPECT_EQ(found("I work at Zorvak and Brill Quill now."),
            (std::vector<std::string>{"ORGANIZATION:Zorvak and Brill Quill"}));
  EXPECT_EQ(found("I work at Zorvak or Brill now."), (std::vector<std::string>{"ORGANIZATION:Zorvak or Brill"}));
  // Two full names, each opening with a first name, are two names.
  TaggerOptions named = o;
  named.gazetteers.push_back({"first_name", {"Anna", "Bruno"}});
  const PiiTagger with_names = PiiTagger::train(rows, named);
  EXPECT_EQ(typed_spans(with_names, "I work at Anna Zorvak and Bruno Brill now."),
            (std::vector<std::string>{"PERSON:Anna Zorvak", "PERSON:Bruno Brill"}));
  EXPECT_EQ(typed_spans(with_names, "I work at Zorvak Brill and Bruno Quill now."),
            (std::vector<std::string>{"ORGANIZATION:Zorvak Brill and Bruno Quill"}));
  // A firm up to its company suffix and a full name: the firm and a name.
  EXPECT_EQ(typed_spans(with_names, "I work at Zorvak Brill Moss and Bruno Quill now."),
            (std::vector<std::string>{"ORGANIZATION:Zorvak Brill Moss", "PERSON:Bruno Quill"}));
}

// An everyday word that opens a sentence or a line before a pronoun is a
// verb or a question word ("Will my account stay active?"), even for a
// tagger that learned names there and a name list that knows the word.
TEST(PiiTaggerTest, AnEverydayWordOpeningASentenceBeforeAPronounIsNoName) {
  std::vector<PiiExample> rows;
  for (size_t k = 0; k < 300; ++k) {
    const std::string& name = kFirst[k % kFirst.size()];
    rows.push_back({name + " my friend is here.", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
    rows.push_back({"Hi, " + name + " my friend is here.", {{PiiType::kPerson, 4, static_cast<uint32_t>(4 + name.size())}}});
    rows.push_back({name + " said hello.", {{PiiType::kPerson, 0, static_cast<uint32_t>(name.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Will", "Zorvak"}},
                  {"common_word", {"will", "my", "friend", "is", "be", "here", "hi", "said", "hello"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Zorvak my friend is here."), std::vector<std::string>{"PERSON:Zorvak"});
  EXPECT_EQ(found("Will my friend be here?"), std::vector<std::string>{});
  EXPECT_EQ(found("Is it? Will my friend be here?"), std::vector<std::string>{});
  EXPECT_EQ(found("Is it\nWill my friend be here?"), std::vector<std::string>{});
  // Nor before "be" or "not", nor after an answer choice's letter.
  EXPECT_EQ(found("Will be here."), std::vector<std::string>{});
  EXPECT_EQ(found("Will not say."), std::vector<std::string>{});
  EXPECT_EQ(found("Is it? B. Will my friend be here?"), std::vector<std::string>{});
  // Not inside a sentence, nor before another word.
  EXPECT_EQ(found("Hi, Will my friend is here."), std::vector<std::string>{"PERSON:Will"});
  EXPECT_EQ(found("Will said hello."), std::vector<std::string>{"PERSON:Will"});
}

// An organisation or a place of two words or more that ends in "Street",
// "Road", "Avenue" or "Boulevard" is an address.
TEST(PiiTaggerTest, AnOrganisationEndingInStreetIsAnAddress) {
  const PiiTagger tagger = names_and_organisations_tagger();
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("I work at Zorvak Corp now."), std::vector<std::string>{"ORGANIZATION:Zorvak Corp"});
  for (const std::string suffix : {"Street", "Road", "Avenue", "Boulevard"}) {
    EXPECT_EQ(found("I work at Zorvak " + suffix + " now."), std::vector<std::string>{"STREET_ADDRESS:Zorvak " + suffix});
  }
  // Not another word.
  EXPECT_EQ(found("I work at Zorvak Drive now."), std::vector<std::string>{"ORGANIZATION:Zorvak Drive"});
}

// A street corner is one address, "the corner of" and all.
TEST(PiiTaggerTest, AStreetCornerIsOneAddress) {
  const std::vector<PiiExample> train = addresses_on_their_line();
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"meet", "me", "at", "the", "corner", "of", "and", "now"}},
                  {"street_suffix", {"Street"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Meet me at the corner of 12 Novak Street and 14 Brandt Street now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of 12 Novak Street and 14 Brandt Street"});
  EXPECT_EQ(found("meet me at the corner of zorvak 85 and novak street now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of zorvak 85 and novak street"});
  // (As far as the tagger's span reaches, suffix or none.)
  EXPECT_EQ(found("Meet me at the corner of 12 Novak Street and 14 Brandt Quill now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of 12 Novak Street and 14 Brandt"});
  EXPECT_EQ(found("Meet Me At The Corner Of Zorvak 85 And Novak Street Now."),
            std::vector<std::string>{"STREET_ADDRESS:The Corner Of Zorvak 85 And Novak Street"});
  EXPECT_EQ(found("meet me at corner of zorvak 85 and novak street now."),
            std::vector<std::string>{"STREET_ADDRESS:corner of zorvak 85 and novak street"});
  // In text with capitals, the first street opens with a capital or a
  // digit.
  EXPECT_EQ(found("Meet me at the corner of Zorvak 85 and Novak Street now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of Zorvak 85 and Novak Street"});
  EXPECT_EQ(found("Meet me at the corner of zorvak 85 and Novak Street now."), std::vector<std::string>{});
  // Not a template's blank, across a line, without a second street, nor
  // with a first street of more than ten tokens.
  EXPECT_EQ(found("Meet me at the corner of {street_name} and {street_name}"), std::vector<std::string>{});
  EXPECT_EQ(found("meet me at the corner of zorvak 85\nand novak street now."), std::vector<std::string>{});
  EXPECT_EQ(found("meet me at the corner of zorvak 85 and me now."), std::vector<std::string>{});
  EXPECT_EQ(found("meet me at the corner of zorvak 85 and me me me me street now."), std::vector<std::string>{});  // suffix past 4
  EXPECT_EQ(found("MEET ME AT THE CORNER OF ZORVAK 85 AND NOVAK STREET NOW."),
            std::vector<std::string>{"STREET_ADDRESS:THE CORNER OF ZORVAK 85 AND NOVAK STREET"});
  EXPECT_EQ(found("meet me at the corner of zorvak 85 a b c d e f g h i and novak street now."),
            std::vector<std::string>{});
  // A span found before tagging leaves it as it is.
  std::vector<PiiSpan> spans = {{PiiType::kPhoneNumber, 25, 34}};
  tagger.tag("Meet me at the corner of 12 Novak Street and 14 Brandt Street now.", spans);
  ASSERT_GE(spans.size(), 2u);
  EXPECT_EQ(spans[0].type, PiiType::kPhoneNumber);
  EXPECT_NE(spans[1].begin, 11u);
}

// A corner of two streets each named before a literal "St." is two
// streets' names, without the "St.".
TEST(PiiTaggerTest, ACornerOfTwoAbbreviatedStreetsIsTheirNames) {
  const std::vector<PiiExample> train = addresses_on_their_line();
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"stop", "at", "the", "corner", "of", "and", "now"}},
                  {"street_suffix", {"Street", "St"}}};
  const PiiTagger tagger = PiiTagger::train(train, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Stop at the corner of Via Zorvak St. and Novak St. now."),
            (std::vector<std::string>{"STREET_ADDRESS:Via Zorvak", "STREET_ADDRESS:Novak"}));
  EXPECT_EQ(found("stop at the corner of via zorvak st. and brandt quill st."),
            (std::vector<std::string>{"STREET_ADDRESS:via zorvak", "STREET_ADDRESS:brandt quill"}));
  // With a house number, or another suffix, the corner is one address.
  EXPECT_EQ(found("Stop at the corner of Zorvak 85 St. and Novak St. now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of Zorvak 85 St. and Novak St"});
  EXPECT_EQ(found("Stop at the corner of Via Zorvak St. and Novak Street now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of Via Zorvak St. and Novak Street"});
  // "St" without its stop is no abbreviation here.
  EXPECT_EQ(found("Stop at the corner of Via Zorvak St and Novak St now."),
            std::vector<std::string>{"STREET_ADDRESS:the corner of Via Zorvak St and Novak St"});
}

// An address that runs over ", and " is two, even from a tagger that
// learned such lists as one address; what follows with no digit, capital
// or non-ASCII letter is the sentence's.
TEST(PiiTaggerTest, AListOfAddressesIsItsAddresses) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string list = std::to_string(2 + k % 90) + " " + kLast[k % kLast.size()] + " Street, and " +
                             std::to_string(3 + k % 70) + " " + kLast[(k + 5) % kLast.size()] + " Street";
    rows.push_back({"Here they are: " + list + ".", {{PiiType::kStreetAddress, 15, static_cast<uint32_t>(15 + list.size())}}});
  }
  const PiiTagger tagger = PiiTagger::train(rows, options(5, 1u << 12, 1));
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("Here they are: 12 Zorvak Street, and 14 Quill Street."),
            (std::vector<std::string>{"STREET_ADDRESS:12 Zorvak Street", "STREET_ADDRESS:14 Quill Street"}));
  EXPECT_EQ(found("Here they are: 12 Zorvak Street, and 14 Quill Street, and 16 Brill Street."),
            (std::vector<std::string>{"STREET_ADDRESS:12 Zorvak Street", "STREET_ADDRESS:14 Quill Street",
                                      "STREET_ADDRESS:16 Brill Street"}));
  EXPECT_EQ(found("Here they are: 12 Zorvak Street, and the street."),
            (std::vector<std::string>{"STREET_ADDRESS:12 Zorvak Street"}));
}

// A word joined by "and" to the address after it is part of it.
TEST(PiiTaggerTest, AWordJoinedToAnAddressIsPartOfIt) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 300; ++k) {
    const std::string street = kLast[k % kLast.size()] + "weg " + std::to_string(3 + k % 70);
    rows.push_back({"We meet at " + street + " today.", {{PiiType::kStreetAddress, 11, static_cast<uint32_t>(11 + street.size())}}});
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"common_word", {"we", "meet", "at", "and", "today"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  EXPECT_EQ(found("We meet at Zorvak and Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Zorvak and Novakweg 31"});
  EXPECT_EQ(found("We meet at Anne-Lise and Novakweg 31 today."),
            std::vector<std::string>{"STREET_ADDRESS:Anne-Lise and Novakweg 31"});
  EXPECT_EQ(found("we meet at zorvak and novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:zorvak and novakweg 31"});
  // Not a word in small letters in text with capitals, a number, a
  // possessive, the end of a longer token run, words apart by more than a
  // space, nor without a digit.
  EXPECT_EQ(found("We meet at zorvak and Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  EXPECT_EQ(found("We meet at 5 and Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  EXPECT_EQ(found("we meet at 5 and novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:novakweg 31"});
  EXPECT_EQ(found("We meet at Zorvak's and Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  EXPECT_EQ(found("We meet at x.Zorvak and Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  EXPECT_EQ(found("We meet at Zorvak  and Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  EXPECT_EQ(found("We meet at Zorvak and  Novakweg 31 today."), std::vector<std::string>{"STREET_ADDRESS:Novakweg 31"});
  const PiiTagger other = names_and_organisations_tagger();
  EXPECT_EQ(typed_spans(other, "I work at Brill and Zorvak Street now."),
            (std::vector<std::string>{"ORGANIZATION:Brill", "STREET_ADDRESS:Zorvak Street"}));
  // With the pieces of the address and the number after it on its line.
  EXPECT_EQ(typed_spans(other, "I work at Brill and Zorvak Street 31 now."),
            std::vector<std::string>{"STREET_ADDRESS:Brill and Zorvak Street 31"});
  EXPECT_EQ(typed_spans(other, "I work at Brill and Zorvak Street Novakweg 31 now."),
            std::vector<std::string>{"STREET_ADDRESS:Brill and Zorvak Street Novakweg 31"});
  // A span found before tagging over the word leaves it as it is.
  std::vector<PiiSpan> spans = {{PiiType::kEmailAddress, 11, 17}};
  tagger.tag("We meet at Zorvak and Novakweg 31 today.", spans);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[1].begin, 22u);
}

// A capitalised adjective or doctrine that the dictionary writes so
// ("Bayesian", "Calvinism"; the proper_adjective list) is no one's name
// alone, unless a name list knows it ("Brian") or a relative comes before
// it ("my son Caspian"); nor is "The" or "If". The
// tagger learns nothing from that list: its weights, and its spans
// elsewhere, are those of a tagger trained without it, and the list
// travels with the saved tagger.
TEST(PiiTaggerTest, ACapitalisedAdjectiveAloneIsNoName) {
  std::vector<std::string> first = kFirst;
  first.insert(first.end(), {"Zorvathian", "If", "The"});
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", first}, {"last_name", kLast}};
  const PiiTagger without = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  o.gazetteers.insert(o.gazetteers.begin(), {"proper_adjective", {"Bayesian", "Calvinism", "Zorvathian"}});
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  ASSERT_EQ(typed_spans(without, "Dear Bayesian, your order shipped."), (std::vector<std::string>{"PERSON:Bayesian"}));
  for (const PiiTagger& t : {tagger, PiiTagger::parse(tagger.serialize(), "t.bin").value()}) {
    EXPECT_EQ(typed_spans(t, "Dear Bayesian, your order shipped."), (std::vector<std::string>{}));
    EXPECT_EQ(typed_spans(t, "Dear Calvinism, your order shipped."), (std::vector<std::string>{}));
    EXPECT_EQ(typed_spans(t, "Dear Zorvathian, your order shipped."), (std::vector<std::string>{"PERSON:Zorvathian"}));
    EXPECT_EQ(typed_spans(t, "Dear Bayesian Novak, your order shipped."),
              (std::vector<std::string>{"PERSON:Bayesian Novak"}));
    // After a relative, whatever else it is.
    EXPECT_EQ(values_of(t, "Dear my son Bayesian, your order shipped.", PiiType::kPerson),
              std::vector<std::string>{"Bayesian"});
    // Nor is a word that stands in no name or ends none, a name list's
    // word or not ("Dear Mark,If you could").
    EXPECT_EQ(typed_spans(t, "Dear If, your order shipped."), (std::vector<std::string>{}));
    EXPECT_EQ(typed_spans(t, "Dear The, your order shipped."), (std::vector<std::string>{}));
    EXPECT_EQ(typed_spans(t, "Dear Anna,If your order shipped."), (std::vector<std::string>{"PERSON:Anna"}));
  }
  // The files agree up to the word lists, past the weights (2^14 slots of
  // 5 tags, O and B-/I- of PERSON and LOCATION, 4 bytes each).
  const std::string bytes = tagger.serialize(), bytes_without = without.serialize();
  const auto differ = std::mismatch(bytes.begin(), bytes.end(), bytes_without.begin(), bytes_without.end());
  EXPECT_GT(static_cast<size_t>(differ.first - bytes.begin()), (size_t{1} << 14) * 5 * sizeof(float));
  expect_same_spans(tagger, without);
}

// A tagger trained on sample() rows (kTemplates' sentences of names and
// places), whose first-name list also holds `extra` and whose everyday
// list holds the words of "Dear <name>, your order shipped.".
PiiTagger sample_tagger_knowing_first_names(std::initializer_list<std::string> extra) {
  std::vector<std::string> first = kFirst;
  first.insert(first.end(), extra);
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", first}, {"last_name", kLast}, {"common_word", {"your", "order", "shipped", "dear"}}};
  return PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
}

// A continent that a name list knows ("Asia", "America") is a place, after
// the words that name a part of it too ("East Asia"), but not inside an
// organisation's name; the genus of a species' Latin name ("Homo
// sapiens", "Myasthenia gravis") names no one.
TEST(PiiTaggerTest, AContinentIsAPlaceAndAGenusNoName) {
  const PiiTagger tagger = sample_tagger_knowing_first_names({"Asia", "America"});
  EXPECT_EQ(typed_spans(tagger, "Dear Asia, your order shipped."), (std::vector<std::string>{"LOCATION:Asia"}));
  EXPECT_EQ(typed_spans(tagger, "Dear America, your order shipped."), (std::vector<std::string>{"LOCATION:America"}));
  EXPECT_EQ(typed_spans(tagger, "Dear East Asia, your order shipped."),
            (std::vector<std::string>{"LOCATION:East Asia"}));
  EXPECT_EQ(typed_spans(tagger, "Dear Anna Asia, your order shipped."),
            (std::vector<std::string>{"PERSON:Anna Asia"}));
  EXPECT_EQ(typed_spans(tagger, "Dear Zorvath, your order shipped."), (std::vector<std::string>{"PERSON:Zorvath"}));
  EXPECT_EQ(typed_spans(tagger, "Dear Zorvath sapiens, your order shipped."), (std::vector<std::string>{}));
  EXPECT_EQ(typed_spans(tagger, "Dear Zorvath gravis, your order shipped."), (std::vector<std::string>{}));
  // Not a name a list knows, nor before a short word, a word a list knows
  // or another ending (this tagger calls the word before a small one a
  // place).
  EXPECT_EQ(typed_spans(tagger, "Dear Anna sapiens, your order shipped."), (std::vector<std::string>{"PERSON:Anna"}));
  for (const char* text : {"Dear Zorvath vous, your order shipped.", "Dear Zorvath shipped, your order shipped.",
                           "Dear Zorvath sapient, your order shipped."}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{"Zorvath"}) << text;
  }
}

// A name that ends in a word naming a state or a ruling house ("Roman
// Empire", "Qing Dynasty") is an organisation, however the name before it
// reads: no person.
TEST(PiiTaggerTest, AStateOrARulingHouseIsNoPerson) {
  const PiiTagger tagger = sample_tagger_knowing_first_names({"Roman", "Qing"});
  ASSERT_EQ(typed_spans(tagger, "Dear Roman Zorvath, your order shipped."),
            (std::vector<std::string>{"PERSON:Roman Zorvath"}));
  for (const char* polity : {"Roman Empire", "Qing Dynasty", "Roman Republic", "Roman Kingdom"}) {
    EXPECT_EQ(typed_spans(tagger, "Dear " + std::string(polity) + ", your order shipped."),
              (std::vector<std::string>{"ORGANIZATION:" + std::string(polity)}))
        << polity;
  }
}

// A word that opens with two capitals and holds a small letter is an
// acronym's plural, a unit or a formula ("DVDs", "MHz", "HCl"), no name.
TEST(PiiTaggerTest, CapitalsThenSmallLettersAreNoName) {
  TaggerOptions o = options(5, 1u << 14, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}};
  const PiiTagger tagger = PiiTagger::train(sample(600, 0, 16, 0, 14, 0, 8, 1), o);
  for (const char* text : {"Dear DVDs, your order shipped.", "Dear MHz, your order shipped.",
                           "Dear HCl, your order shipped.", "Dear KClO4, your order shipped."}) {
    EXPECT_EQ(values_of(tagger, text), std::vector<std::string>{}) << text;
  }
  EXPECT_EQ(values_of(tagger, "Dear McKay, your order shipped."), std::vector<std::string>{"McKay"});
  EXPECT_EQ(values_of(tagger, "Dear JoAnn, your order shipped."), std::vector<std::string>{"JoAnn"});
}

TEST(PiiTaggerTest, TheGazetteerTravelsWithTheSavedTagger) {
  TaggerOptions o = options(3, 1u << 12, 1);
  o.gazetteers = {{"first_name", kFirst}, {"last_name", kLast}};
  const PiiTagger tagger = PiiTagger::train(sample(200, 0, 16, 0, 14, 0, 8, 3), o);
  auto loaded = PiiTagger::parse(tagger.serialize(), "t.bin");
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
  expect_same_spans(tagger, *loaded);
}

// A word that gives a name ("called", "named") after a person noun is a
// cue as "name is" is: a firm of the tagger's after it is the person ("a
// man called Barnaby Quince", where "quince" is an everyday word), and in
// text without capitals so is a word no everyday list knows. Not after
// another noun: "a tool called Zorvath Brask" is a thing's name.
TEST(PiiTaggerTest, ANameGivenToAPersonIsAName) {
  const PiiTagger tagger = firms_tagger({"Write about a man called ", "Write about the tool called "},
                                        {"Zorvath Brask", "Quarrow Dellack", "Velmora Quill"}, " now.",
                                        {{"common_word", {"write", "about", "a", "man", "the", "tool", "called", "now", "quince"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Write about the tool called Barnaby Quince now."), V{"ORGANIZATION:Barnaby Quince"});
  EXPECT_EQ(found("Write about a man called Barnaby Quince now."), V{"PERSON:Barnaby Quince"});
  const PiiTagger small = numbers_only_tagger(
      {{"common_word", {"a", "man", "woman", "function", "called", "named", "was", "here", "back"}}});
  auto names = [&](const std::string& text) { return values_of(small, text, PiiType::kPerson); };
  EXPECT_EQ(names("a man called zorvath was here."), V{"zorvath"});
  EXPECT_EQ(names("a woman named zorvath was here."), V{"zorvath"});
  EXPECT_EQ(names("a function called zorvath was here."), V{});
  EXPECT_EQ(names("a man called back."), V{});
}

// A firm of the tagger's that opens with a verb that addresses someone,
// capitalised where the sentence opens, is the verb and a name: the name
// after it, where its first word is a first name of the lists and no
// word is one the everyday, place or company lists know ("Congratulate
// Priyanka Venkataraman on her promotion"). Here a tagger taught such
// firms.
TEST(PiiTaggerTest, AnAddressingVerbOpeningAFirmIsNoPartOfTheName) {
  const PiiTagger tagger =
      firms_tagger({""}, {"Congratulate Zorvath Brask", "Congratulate Quarrow Dellack", "Congratulate Velmora Quill"},
                   " on the promotion.",
                   {{"first_name", {"Priyanka"}}, {"common_word", {"congratulate", "on", "the", "promotion", "team"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Congratulate Priyanka Venkataraman on the promotion."), V{"PERSON:Priyanka Venkataraman"});
  EXPECT_EQ(found("Congratulate Priyanka on the promotion."), V{"PERSON:Priyanka"});
  // Not a first word no first-name list knows, nor an everyday word.
  EXPECT_EQ(found("Congratulate Zorvath Brask on the promotion."), V{"ORGANIZATION:Congratulate Zorvath Brask"});
  EXPECT_EQ(found("Congratulate Priyanka Team on the promotion."), V{"ORGANIZATION:Congratulate Priyanka Team"});
}

// On a closing's line, after its comma, a firm of two or three capitalised
// words set off by a comma or the line's end is the writer's name: "Signed,
// Cassius Oyelaran, Head of Operations", where the title after it made a
// firm of it. Not a firm with a company's, place's or everyday word, nor one
// after a word that closes nothing. Here a tagger taught such firms.
TEST(PiiTaggerTest, AFirmOnAClosingsLineIsAName) {
  const PiiTagger tagger =
      firms_tagger({"Signed, ", "Regards, ", "Audited by "}, {"Zorvath Brask", "Quarrow Dellack", "Velmora Quill", "Acme Labs"},
                   ", Head of Operations",
                   {{"first_name", {"Priya"}},
                    {"company_suffix", {"Labs"}},
                    {"common_word", {"signed", "regards", "audited", "by", "head", "of", "operations", "support"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Audited by Zorvath Brask, Head of Operations"), V{"ORGANIZATION:Zorvath Brask"});
  EXPECT_EQ(found("Signed, Zorvath Brask, Head of Operations"), V{"PERSON:Zorvath Brask"});
  EXPECT_EQ(found("Regards, Priya Dellack, Head of Operations"), V{"PERSON:Priya Dellack"});
  EXPECT_EQ(found("Thanks.\nRegards, Quarrow Dellack, Head of Operations"), V{"PERSON:Quarrow Dellack"});
  EXPECT_EQ(found("Regards, Acme Labs, Head of Operations"), V{"ORGANIZATION:Acme Labs"});
  EXPECT_EQ(found("We audited by far the best regards, Zorvath Brask, Head of Operations"),
            V{"ORGANIZATION:Zorvath Brask"});
  // In small letters, a listed first name or two words no list knows.
  EXPECT_EQ(found("signed, zorvath brask, head of operations"), V{"PERSON:zorvath brask"});
  EXPECT_EQ(found("regards, priya, head of operations"), V{"PERSON:priya"});
  EXPECT_EQ(values_of(tagger, "regards, zorvath, head of operations", PiiType::kPerson), V{});
  EXPECT_EQ(values_of(tagger, "regards, head of operations", PiiType::kPerson), V{});
}

// After a thing a person sends and "from", a firm or place of two or three
// capitalised words that no company's, place's or everyday list knows is
// the sender's name: "an email from Bartholomew Nkemelu", a place to the
// decoder. Here a tagger taught such firms.
TEST(PiiTaggerTest, AFirmThatSentAnEmailIsAName) {
  const PiiTagger tagger =
      firms_tagger({"Read the email from ", "Read the voicemail from ", "Read the audit of "},
                   {"Zorvath Brask", "Quarrow Dellack", "Velmora Quill", "Acme Labs", "Ondine Quill"}, " about the fees.",
                   {{"city", {"Ondine"}},
                    {"company_suffix", {"Labs"}},
                    {"common_word", {"read", "the", "email", "voicemail", "audit", "of", "from", "about", "fees"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Read the audit of Zorvath Brask about the fees."), V{"ORGANIZATION:Zorvath Brask"});
  EXPECT_EQ(found("Read the email from Zorvath Brask about the fees."), V{"PERSON:Zorvath Brask"});
  EXPECT_EQ(found("Read the voicemail from Quarrow Dellack about the fees."), V{"PERSON:Quarrow Dellack"});
  EXPECT_EQ(found("Read the email from Acme Labs about the fees."), V{"ORGANIZATION:Acme Labs"});
  EXPECT_EQ(values_of(tagger, "Read the email from Ondine Quill about the fees.", PiiType::kPerson), V{});
}

// Two or three capitalised words in a row after a word in small letters,
// that no list knows and no span covers, are a name: the decoder, which
// learned names from listed words, found nothing in "registered to Anatoly
// Kuznetsov". Not one word or four, a listed word, a possessive inside,
// nor at the sentence's start. Here a tagger taught names of listed words,
// and nothing in capitalised words after "registered to".
TEST(PiiTaggerTest, CapitalisedWordsNoListKnowsAreAName) {
  std::vector<PiiExample> rows;
  const std::vector<std::string> unlabelled = {"Brask", "Velmora Dellack", "Quarrow Ondine Tesk", "Ondine", "Tesk Brask"};
  for (uint32_t k = 0; k < 200; ++k) {
    if (k % 2 == 0) {
      rows.push_back({"I met Priya today.", {{PiiType::kPerson, 6, 11}}});
    } else {
      rows.push_back({"It is registered to " + unlabelled[k / 2 % unlabelled.size()] + " today.", {}});
    }
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Priya"}},
                  {"common_word", {"it", "is", "registered", "to", "the", "acme", "today", "met"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("It is registered to Zorvath Quillon."), V{"PERSON:Zorvath Quillon"});
  EXPECT_EQ(found("It is registered to Zorvath Quillon Brask today."), V{"PERSON:Zorvath Quillon Brask"});
  for (const char* text : {"It is registered to Zorvath.", "It is registered to Zorvath Quillon Brask Velmora.",
                           "It is registered to Acme Quillon.", "It is registered to the Zorvath's Quillon.",
                           "Zorvath Quillon is registered.", "It is registered to ZORVATH QUILLON."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kPerson), V{}) << text;
  }
}

// One capitalised word no list knows before "and his" or "and her" is a
// person ("a limerick about Barnabas and his goat"), where the decoder
// found nothing; not before "and its", nor opening the text.
TEST(PiiTaggerTest, AWordNoListKnowsBeforeAndHisIsAName) {
  std::vector<PiiExample> rows;
  for (uint32_t k = 0; k < 200; ++k) {
    if (k % 2 == 0) {
      rows.push_back({"I met Priya today.", {{PiiType::kPerson, 6, 11}}});
    } else {
      rows.push_back({"It is registered to Brask and the bank today.", {}});
    }
  }
  TaggerOptions o = options(5, 1u << 12, 1);
  o.gazetteers = {{"first_name", {"Priya"}},
                  {"common_word", {"it", "is", "registered", "to", "the", "bank", "today", "met", "and", "his", "her",
                                   "its", "goat", "partners", "about", "write", "a", "poem"}}};
  const PiiTagger tagger = PiiTagger::train(rows, o);
  using V = std::vector<std::string>;
  EXPECT_EQ(values_of(tagger, "Write a poem about Zorvath and his goat.", PiiType::kPerson), V{"Zorvath"});
  EXPECT_EQ(values_of(tagger, "It is registered to Zorvath and her partners.", PiiType::kPerson), V{"Zorvath"});
  for (const char* text : {"It is registered to Zorvath and its partners.", "Zorvath and his goat met today.",
                           "It is registered to Zorvath and the bank.", "It is registered to Bank and his goat."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kPerson), V{}) << text;
  }
}

// A firm of a first name, an Irish particle written as a word and a
// capitalised word is the person ("Siobhan Ní Bhriain"); here a tagger
// taught firms there. Not with another word between, nor after a word an
// everyday list knows.
TEST(PiiTaggerTest, AFirmWithAnIrishParticleIsAName) {
  const PiiTagger tagger =
      firms_tagger({"The parcel for "},
                   {"Zorvath N\u00ed Brask", "Quarrow Nic Dellack", "Velmora \u00d3 Quill", "Tesk Nuu Ondine", "Brask Bank Velmora"},
                   " was left.",
                   {{"first_name", {"Siobhan"}}, {"common_word", {"the", "parcel", "for", "was", "left", "bank"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("The parcel for Siobhan Nuu Bhriain was left."), V{"ORGANIZATION:Siobhan Nuu Bhriain"});
  EXPECT_EQ(found("The parcel for Siobhan N\u00ed Bhriain was left."), V{"PERSON:Siobhan N\u00ed Bhriain"});
  EXPECT_EQ(found("The parcel for Cormac \u00d3 S\u00failleabh\u00e1in was left."),
            V{"PERSON:Cormac \u00d3 S\u00failleabh\u00e1in"});
  EXPECT_EQ(found("The parcel for Bank Nic Bhriain was left."), V{"ORGANIZATION:Bank Nic Bhriain"});
}

// A feast's name, alone or with the words of its day or what it holds,
// names no one ("What should I get Anna for Christmas?", the decoder's
// name after "for"); nor does "Valentine" before "'s Day". Here a tagger
// taught names after "for". Not "Valentine" elsewhere, a first name, nor
// a place named after a feast ("Christmas Island").
TEST(PiiTaggerTest, AFeastNamesNoOne) {
  const PiiTagger tagger =
      values_tagger(PiiType::kPerson, {"A gift for ", "Cards for "}, {"Zorvath", "Brask", "Velmora", "Quarrow Dellack"}, ".",
                    {{"common_word", {"a", "gift", "for", "cards", "day", "egg", "hunt", "island", "merry"}}});
  using V = std::vector<std::string>;
  ASSERT_EQ(values_of(tagger, "A gift for Tesk.", PiiType::kPerson), V{"Tesk"});
  for (const char* text : {"A gift for Christmas.", "Cards for Diwali.", "Cards for Easter Egg Hunt.",
                           "A gift for Christmas Day.", "Cards for Merry Christmas.", "A gift for Valentine's Day."}) {
    EXPECT_EQ(values_of(tagger, text, PiiType::kPerson), V{}) << text;
  }
  EXPECT_EQ(values_of(tagger, "A gift for Valentine.", PiiType::kPerson), V{"Valentine"});
  EXPECT_EQ(values_of(tagger, "A gift for Christmas Brask.", PiiType::kPerson), V{"Christmas Brask"});
  EXPECT_EQ(values_of(tagger, "A gift for Christmas Island.", PiiType::kPerson), V{"Christmas Island"});
}

// A name of the tagger's that runs through a date found before it ("Easter
// Sunday Cindy") parts in two around the date; resolving the overlaps kept
// the words before the date alone. Not words after it in small letters
// (here a tagger taught names in small letters).
TEST(PiiTaggerTest, ANameRunningThroughADateFoundBeforePartsAroundIt) {
  const PiiTagger tagger = values_tagger(PiiType::kPerson, {"On ", "Then "}, {"Zorvath Brask Velmora", "Quarrow Tesk Dellack"},
                                         " went out.", {{"common_word", {"on", "then", "went", "out"}}});
  using V = std::vector<std::string>;
  ASSERT_EQ(scanned_spans(tagger, "On Quill Ondine Brask went out."), V{"PERSON:Quill Ondine Brask"});
  EXPECT_EQ(scanned_spans(tagger, "On Quill Sunday Brask went out."),
            (V{"PERSON:Quill", "DATE_TIME:Sunday", "PERSON:Brask"}));
  const PiiTagger small_tagger =
      values_tagger(PiiType::kPerson, {"on ", "then "}, {"zorvath brask velmora", "quarrow tesk dellack"}, " went out.",
                    {{"common_word", {"on", "then", "went", "out"}}});
  ASSERT_EQ(scanned_spans(small_tagger, "on quill ondine brask went out."), V{"PERSON:quill ondine brask"});
  EXPECT_EQ(scanned_spans(small_tagger, "on quill sunday brask went out."), (V{"PERSON:quill", "DATE_TIME:sunday"}));
}

// A firm of the tagger's that opens with a house number and a street word
// the Romance languages write before the name is the street ("at 3
// Chemin du Lac,", a firm to the decoder after a name). Here a tagger
// taught such firms.
TEST(PiiTaggerTest, AFirmOfAHouseNumberAndARomanceStreetWordIsAStreet) {
  const PiiTagger tagger = firms_tagger({"Send it to Zorvath at "}, {"3 Zorvath Brask", "12 Quarrow Dellack", "7 Velmora Quill"},
                                        ", Quill.", {{"common_word", {"send", "it", "to", "at"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Send it to Zorvath at 5 Quarrow du Lac, Quill."), V{"ORGANIZATION:5 Quarrow du Lac"});
  EXPECT_EQ(found("Send it to Zorvath at 5 Chemin du Lac, Quill."), (V{"STREET_ADDRESS:5 Chemin du Lac", "LOCATION:Quill"}));
  EXPECT_EQ(found("Send it to Zorvath at 5 Rua das Flores, Quill."), (V{"STREET_ADDRESS:5 Rua das Flores", "LOCATION:Quill"}));
}

// A series of full names: beside a name of the tagger's of two words that
// opens with a first name and is an item whole, an item of two words is a
// name too where a name of the tagger's covers one word and no span the
// other ("ottoline marsh, desmond achebe": "marsh" is an everyday word), or
// where a firm of the tagger's covers it whole ("Wren Halloway"). Not an
// item no span covers, nor a firm whose last word is an everyday word.
// (The first word of the one a name covers is a first name of the lists.)
TEST(PiiTaggerTest, AnItemOfASeriesOfFullNamesIsAName) {
  const PiiTagger small = numbers_only_tagger(
      {{"first_name", {"Ottoline", "Desmond"}},
       {"last_name", {"Achebe"}},
       {"common_word", {"guest", "list", "marsh", "product", "manager", "wren", "and"}}});
  auto names = [&](const std::string& text) { return values_of(small, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  ASSERT_EQ(names("guest list: desmond achebe"), V{"desmond achebe"});
  EXPECT_EQ(names("guest list: ottoline marsh, desmond achebe"), (V{"ottoline marsh", "desmond achebe"}));
  EXPECT_EQ(names("guest list: desmond achebe and ottoline marsh"), (V{"desmond achebe", "ottoline marsh"}));
  EXPECT_EQ(names("guest list: desmond achebe, product manager"), V{"desmond achebe"});
  // (In text capitalised only where its sentences open, read again in
  // small letters, where a name of two words beside a kept one of two is
  // kept: here "desmond achebe", of the lists.)
  EXPECT_EQ(names("Guest list: ottoline marsh, desmond achebe"), (V{"ottoline marsh", "desmond achebe"}));
  const PiiTagger tagger = firms_tagger({"Guest list: Desmond Achebe, "}, {"Zorvath Brask", "Quarrow Dellack", "Velmora Quill"},
                                        "\nThanks.",
                                        {{"first_name", {"Desmond"}},
                                         {"last_name", {"Achebe"}},
                                         {"common_word", {"guest", "list", "thanks", "wren", "leader"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  // (The tagger reads the item after the name as a firm; a span over the
  // name too, which it read in training, where it is no series' item.)
  ASSERT_EQ(found("Guest list: Desmond Achebe; Wren Halloway\nThanks."),
            (V{"PERSON:Desmond Achebe", "ORGANIZATION:Wren Halloway"}));
  EXPECT_EQ(found("Guest list: Desmond Achebe, Wren Halloway\nThanks."),
            (V{"PERSON:Desmond Achebe", "PERSON:Wren Halloway"}));
  EXPECT_EQ(found("Guest list: Desmond Achebe, Ghanian Leader\nThanks."),
            (V{"PERSON:Desmond Achebe", "ORGANIZATION:Ghanian Leader"}));
}

// A place of the tagger's that runs on over "for" and a first name of the
// lists is the place and a name ("Bologna for Chiara Rinaldi"); here a
// tagger taught such places. Not before a word no first-name list knows.
TEST(PiiTaggerTest, APlaceRunningOnOverForAndAFirstNameIsAPlaceAndAName) {
  const PiiTagger tagger =
      values_tagger(PiiType::kLocation, {"Send it to "},
                    {"Zorvath for Quill Brask", "Velmora for Dellack Quarrow", "Brask for Ondine Zorvath"}, " today.",
                    {{"first_name", {"Chiara"}}, {"common_word", {"send", "it", "to", "for", "today"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("Send it to Velmora for Quill Brask today."), V{"LOCATION:Velmora for Quill Brask"});
  EXPECT_EQ(found("Send it to Velmora for Chiara Brask today."), (V{"LOCATION:Velmora", "PERSON:Chiara Brask"}));
}

// In text without capitals, a place or firm of the tagger's over a title
// ("mrs.") and the name after it is the person, without the title ("the
// complaint from mrs. adaeze nwosu"); here a tagger taught places there.
TEST(PiiTaggerTest, APlaceOverATitleAndANameInSmallLettersIsTheName) {
  const PiiTagger tagger = values_tagger(PiiType::kLocation, {"the complaint from "},
                                         {"mrs. zorvath brask", "mrs. velmora quill", "mr. tesk ondine"},
                                         " about the bill.",
                                         {{"first_name", {"Anna"}},
                                          {"common_word", {"the", "complaint", "from", "about", "bill"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("the complaint from mrs. quarrow finch about the bill."), V{"PERSON:quarrow finch"});
}

// A place or firm of the tagger's that is the whole line after a person's
// label ending its line is the person ("ship to:\nfarrukh tashkentov\n77
// willowbrook crescent"); not one with a company's word, nor after another
// label. Here a tagger taught places there.
TEST(PiiTaggerTest, APlaceOnTheLineAfterAPersonsLabelIsTheName) {
  const PiiTagger tagger =
      values_tagger(PiiType::kLocation, {"ship to:\n", "sent to:\n"}, {"zorvath quill", "brask ondine", "tesk dellack"},
                    "\nthe parcel.", {{"first_name", {"Anna"}},
                                       {"company_suffix", {"Corp"}},
                                       {"common_word", {"ship", "to", "sent", "the", "parcel"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("sent to:\nvelmora quarrow\nthe parcel."), V{"LOCATION:velmora quarrow"});
  EXPECT_EQ(found("ship to:\nvelmora quarrow\nthe parcel."), V{"PERSON:velmora quarrow"});
  EXPECT_EQ(found("ship to:\nvelmora corp\nthe parcel."), V{"ORGANIZATION:velmora corp"});
}

// A role set off by commas before two words of a name whose first a name's
// list knows (a surname of the census: "fergus"), not a first names' list;
// and, after any cue, a second word that only a given name's list knows
// where the clause ends ("obi"): here in text capitalised only where its
// sentences open, as a phone types it.
TEST(PiiTaggerTest, ANameSetOffAfterARoleTakesWordsTheNameListsKnowOtherwise) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Chukwudi", "Maria"}},
       {"last_name", {"Mcallister"}},
       {"census_surname", {"Fergus"}},
       {"given_name", {"Obi"}},
       {"city", {"Paris"}},
       {"common_word", {"the", "our", "new", "landlord", "intern", "signed", "starts", "today", "and", "however",
                        "said", "tenant", "is", "here", "my", "friend"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("The landlord, fergus mcallister, signed today."), V{"PERSON:fergus mcallister"});
  EXPECT_EQ(found("Our new intern, chukwudi obi, starts today."), V{"PERSON:chukwudi obi"});
  // Not one word alone of such a list, nor an everyday word, nor a place's
  // word; nor a given name that no clause's end follows.
  expect_no_names(tagger, {"The landlord, fergus, signed today.", "The landlord, however, said today.",
                           "The landlord, paris mcallister, signed today."});
  EXPECT_EQ(found("Our new intern chukwudi obi starts today."), V{"PERSON:chukwudi"});
}

// After relatives named together, the last name of a series after "and"
// may be an everyday word ("marigold"), where its clause ends.
TEST(PiiTaggerTest, TheLastNameInASeriesAfterRelativesMayBeAnEverydayWord) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Elowen"}},
       {"common_word", {"tell", "me", "a", "story", "about", "my", "daughters", "daughter", "and", "marigold", "cake",
                        "i", "sons"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Tell me a story about my daughters elowen and marigold."),
            (V{"PERSON:elowen", "PERSON:marigold"}));
  EXPECT_EQ(found("tell me a story about my daughters elowen and marigold."),
            (V{"PERSON:elowen", "PERSON:marigold"}));
  // Not after one relative, nor a function word, nor where the clause goes
  // on.
  EXPECT_EQ(found("Tell me a story about my daughter elowen and marigold."), V{"PERSON:elowen"});
  EXPECT_EQ(found("Tell me about my sons elowen and i."), V{"PERSON:elowen"});
  EXPECT_EQ(found("Tell me about my daughters elowen and marigold cake."), V{"PERSON:elowen"});
}

// A mailbox's display name in small letters in text with capitals: the
// first name before the surname that the local part holds after the first
// name's initial ("o" + "ferraro").
TEST(PiiTaggerTest, AMailboxsFirstNameInSmallLettersBeforeItsSpelledSurnameIsTheName) {
  const PiiTagger tagger = numbers_only_tagger({{"common_word", {"from", "to", "the", "support", "team"}}});
  auto people = [&](const std::string& text) { return scanned_names(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(people("From: ottavia ferraro <o.ferraro@example.it>"), V{"ottavia ferraro"});
  EXPECT_EQ(people("From: ottavia ferraro <oferraro@example.it>"), V{"ottavia ferraro"});
  // Not a word whose initial the local part does not open with, nor an
  // everyday word.
  EXPECT_EQ(people("From: ottavia ferraro <x.ferraro@example.it>"), V{"ferraro"});
  EXPECT_EQ(people("From: the support team <s.team@example.com>"), V{});
}

// A name in small letters before a relative in brackets, maybe after a
// possessive determiner: "ravindra pillai (husband)".
TEST(PiiTaggerTest, ANameBeforeARelativeInBracketsIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Perpetua"}},
       {"last_name", {"Pillai"}},
       {"city", {"Paris"}},
       {"common_word", {"update", "the", "contact", "to", "emergency", "my", "printer", "see", "for", "details", "main",
                        "function", "returns", "husband", "mother", "called", "i"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Update the emergency contact to ravindra pillai (husband)."), V{"PERSON:ravindra pillai"});
  EXPECT_EQ(found("emergency contact: perpetua okoro (my mother)"), V{"PERSON:perpetua okoro"});
  // Not an everyday word, a place or code's words, nor without a relative
  // closed in its bracket.
  expect_no_names(tagger, {"I called the printer (mother) today.", "See utils.py (mother) for details.",
                           "The main function (husband) returns.", "Update the contact to paris (husband).",
                           "Update the contact to ravindra okoro (husband today)."});
}

// An address in text without capitals that holds "at" or "to" before its
// house number, after a function word in it, opens at the number: here a
// tagger taught such addresses whole, as the dev data's tagger read "hi,
// i'm wenonah and i live at 19 cedar ridge road".
TEST(PiiTaggerTest, AnAddressOpensAtItsNumberAfterTheWritersClause) {
  const PiiTagger tagger = values_tagger(
      PiiType::kStreetAddress, {"note: "},
      {"zorvath and i live at 12 quill road", "brask and we moved to 40 ondine lane", "tesk dellack 9 velm road"},
      " now.", {{"common_word", {"note", "and", "i", "we", "live", "moved", "at", "to", "now"}}});
  auto streets = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(streets("note: velmora and i live at 31 brask road now."), V{"31 brask road"});
  EXPECT_EQ(streets("NOTE: VELMORA AND I LIVE AT 31 BRASK ROAD NOW."), V{"31 BRASK ROAD"});
  // Not without a function word before it.
  EXPECT_EQ(streets("note: tesk dellack 31 brask road now."), V{"tesk dellack 31 brask road"});
}

// "The Honourable" is a title after its article, as "Inspector" is not.
TEST(PiiTaggerTest, ANameAfterTheHonourableIsAName) {
  const PiiTagger tagger = firms_tagger(
      {"We met the ", "They saw the "}, {"Honourable Zorvath Quill", "Honourable Brask Ondine"}, " today.",
      {{"first_name", {"Cordelia"}},
       {"last_name", {"Ashworth"}},
       {"common_word", {"we", "met", "they", "saw", "the", "today", "judge", "dismissed", "case", "inspector"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  ASSERT_EQ(found("The judge, the Inspector Cordelia Ashworth, dismissed the case."),
            V{"ORGANIZATION:Inspector Cordelia Ashworth"});
  const std::vector<std::string> spans = found("The judge, the Honourable Cordelia Ashworth, dismissed the case.");
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_TRUE(spans[0].starts_with("PERSON:") && spans[0].ends_with("Cordelia Ashworth")) << spans[0];
}

// A unit's word before a flat's number and a slash opens the address
// ("Unit 4/22 Wattle Street"); a unit's word and its letter or number after
// a street and a comma end it ("71 Hawthorne Crescent, Unit B").
TEST(PiiTaggerTest, AUnitBeforeAFlatsNumberOrAfterTheStreetIsTheAddresses) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"street_suffix", {"Street", "Crescent"}},
       {"common_word", {"please", "deliver", "to", "write", "a", "lease", "for", "the", "property", "at", "of", "plan",
                        "unit", "street", "crescent"}}});
  auto streets = [&](const std::string& text) { return values_of(tagger, text, PiiType::kStreetAddress); };
  using V = std::vector<std::string>;
  EXPECT_EQ(streets("Please deliver to Unit 4/22 Zorvath Street today."), V{"Unit 4/22 Zorvath Street"});
  EXPECT_EQ(streets("Write a lease for the property at 71 Zorvath Crescent, Unit B."),
            V{"71 Zorvath Crescent, Unit B"});
  EXPECT_EQ(streets("write a lease for the property at 71 zorvath crescent, unit b."),
            V{"71 zorvath crescent, unit b"});
  // Not where the clause goes on after the unit's letter.
  EXPECT_EQ(streets("Write a lease for the property at 71 Zorvath Crescent, Unit B of the plan."),
            V{"71 Zorvath Crescent"});
}

// In text capitalised only where its sentences open, without the first
// person, a name of two words after an article whose first is a first name
// no everyday list knows: "Have you been to a david lange concert?".
TEST(PiiTaggerTest, AFullNameInSmallLettersAfterAnArticleIsANameInPhoneTypedText) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"David", "Grace", "El"}},
       {"last_name", {"Lange", "Kelly", "Nino"}},
       {"common_word", {"have", "you", "been", "to", "a", "an", "the", "concert", "before", "version", "is", "good",
                        "grace", "period", "event"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Have you been to a david lange concert before?"), V{"PERSON:david lange"});
  EXPECT_EQ(found("The david lange version is good."), V{"PERSON:david lange"});
  // Not one word, nor a first word an everyday list knows or of two
  // letters (the surname alone is another rule's name there).
  expect_no_names(tagger, {"Have you been to a david concert before?"});
  EXPECT_EQ(found("The grace kelly version is good."), V{"PERSON:kelly"});
  EXPECT_EQ(found("Have you been to an el nino event before?"), V{"PERSON:nino"});
}

// In text capitalised only where its sentences open, without the first
// person, a word no list knows before a possessive's 's and a thing of its
// owner's is a name: "As promised, here's zorvath's address".
TEST(PiiTaggerTest, AnOwnersNameInSmallLettersBeforeAPersonalThingIsANameInPhoneTypedText) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"common_word", {"as", "promised", "here's", "address", "phone", "number", "the", "company", "company's",
                        "is", "on", "file", "user", "user's", "email", "wrong"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("As promised, here's zorvath's address."), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Here's zorvath\u2019s phone number."), V{"PERSON:zorvath"});
  // Not an everyday word's possessive.
  expect_no_names(tagger, {"The company's address is on file.", "The user's email is wrong."});
}

// A form's field in small letters holds its name after blanks that align
// it ("Name:    zorvath brask"), as after one.
TEST(PiiTaggerTest, AFormsNameInSmallLettersMayBeAlignedByBlanks) {
  const PiiTagger tagger =
      numbers_only_tagger({{"first_name", {"Anna"}}, {"common_word", {"name", "phone", "notes", "the"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Name:    zorvath brask\nPhone: none"), V{"PERSON:zorvath brask"});
  EXPECT_EQ(found("Name:\tzorvath brask\nPhone: none"), V{"PERSON:zorvath brask"});
  // Not on the next line.
  expect_no_names(tagger, {"Name:\n\nzorvath brask the notes"});
}

// A naming word and "him" or "her" give the name after them: "She named
// him bartholomew".
TEST(PiiTaggerTest, ANameGivenToHimOrHerIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Mark"}},
       {"common_word", {"she", "they", "named", "called", "him", "her", "it", "mark", "yesterday", "a", "liar",
                        "stupid", "back", "i"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("She named him mark"), V{"PERSON:mark"});
  EXPECT_EQ(found("They called her zorvath."), V{"PERSON:zorvath"});
  // Not an everyday word, nor a thing named.
  expect_no_names(tagger, {"I called her yesterday.", "She called him a liar.", "They called her stupid.",
                           "They named it zorvath."});
}

// A work's maker after "directed by", "written by" and the like, and the
// cast after "starring", in small letters: a first name that is an
// everyday word too, or a word no everyday list knows.
TEST(PiiTaggerTest, AWorksMakerOrCastInSmallLettersIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Mark"}},
       {"common_word", {"a", "film", "directed", "by", "and", "starring", "mark", "it", "was", "written", "hand",
                        "the", "rock", "her", "role", "great", "sent", "post"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("A film directed by mark zorvath and starring brask."), (V{"PERSON:mark zorvath", "PERSON:brask"}));
  // Not an everyday word, nor after another verb.
  expect_no_names(tagger, {"It was written by hand.", "A film starring the rock.", "Her starring role was great.",
                           "It was sent by post."});
}

// The person wished well, in small letters: "happy birthday zorvath!",
// "congratulations to zorvath brask on", "tell zorvath happy birthday"; a
// word no list knows, or a name's word of the lists that no everyday list
// knows.
TEST(PiiTaggerTest, APersonWishedWellInSmallLettersIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Anna"}},
       {"census_surname", {"Bartholomew"}},
       {"common_word", {"happy", "birthday", "to", "you", "mom", "congratulations", "the", "team", "on", "promotion",
                        "tell", "everyone", "hi", "thanks", "for", "ride"}}});
  auto found = [&](const std::string& text) { return typed_spans(tagger, text); };
  using V = std::vector<std::string>;
  EXPECT_EQ(found("Happy birthday zorvath!"), V{"PERSON:zorvath"});
  EXPECT_EQ(found("Congratulations to zorvath brask on the promotion."), V{"PERSON:zorvath brask"});
  EXPECT_EQ(found("Tell zorvath happy birthday."), V{"PERSON:zorvath"});
  // (A surname of the census too: "bartholomew".)
  EXPECT_EQ(found("Tell bartholomew thanks for the ride."), V{"PERSON:bartholomew"});
  // Not an everyday word or a function word.
  expect_no_names(tagger, {"Happy birthday mom!", "Happy birthday to you", "Congratulations to the team.",
                           "Tell everyone hi."});
}

// A name and an Arabic surname's article glued by a hyphen to the surname
// after it are one name: "my boss, khalid al-mutairi, said".
TEST(PiiTaggerTest, ANameTakesAnArabicSurnameAfterItsArticle) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Khalid"}}, {"common_word", {"my", "boss", "said", "no", "the", "mosque", "is", "old"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("My boss, khalid al-mutairi, said no."), V{"khalid al-mutairi"});
  EXPECT_EQ(names("My boss, khalid el-sayed, said no."), V{"khalid el-sayed"});
  // Not without a name before it.
  expect_no_names(tagger, {"The al-zorvath mosque is old."});
}

// After a role without its colon, two words whose first no list knows
// before a verb of speech: "customer oyelaran adebayo says".
TEST(PiiTaggerTest, ARolesNameOfUnknownWordsBeforeAVerbOfSpeechIsAName) {
  const PiiTagger tagger = numbers_only_tagger(
      {{"first_name", {"Anna"}},
       {"common_word", {"summarize", "this", "ticket", "customer", "says", "the", "router", "drops", "wifi", "service",
                        "hi"}}});
  auto names = [&](const std::string& text) { return values_of(tagger, text, PiiType::kPerson); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("Summarize this ticket: customer zorvath brask says the router drops wifi."), V{"zorvath brask"});
  // Not an everyday word.
  expect_no_names(tagger, {"Summarize this ticket: customer service says hi."});
}

}  // namespace
}  // namespace tiergate
