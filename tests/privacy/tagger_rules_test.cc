// The decoder's limits on how far a span runs (src/privacy/tagger_rules.h):
// may_continue(), span_may_grow() and list_number(), on tokens of text of
// our own.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tagger_rules.h"

namespace tiergate::tagger_rules {
namespace {

struct Tokenized {
  std::string text;
  TokenList tokens;
  IndexList marked;
};

Tokenized tokenized(std::string text) {
  Tokenized t{std::move(text), {}, {}};
  pii_tokens::tokenize(t.text, t.tokens, t.marked);
  return t;
}

// The index of the first token written `word`.
size_t token_of(const Tokenized& t, std::string_view word) {
  for (size_t k = 0; k < t.tokens.size(); ++k) {
    if (std::string_view(t.text).substr(t.tokens[k].begin, t.tokens[k].end - t.tokens[k].begin) == word) return k;
  }
  ADD_FAILURE() << "no token " << word << " in " << t.text;
  return 0;
}

// may_continue() of a span of `type` at token `word`, in text with capitals.
bool continues(const Tokenized& t, std::string_view word, PiiType type) {
  return may_continue(t.text, t.tokens, token_of(t, word), type, true, [] { return false; });
}

// The value `span` of `text` keeps, as find_pii() cuts it at its end.
std::string_view without_a_sentence_stop(std::string_view text, std::string_view span) {
  const auto begin = static_cast<uint32_t>(text.find(span));
  const PiiSpan s{PiiType::kStreetAddress, begin, begin + static_cast<uint32_t>(span.size())};
  return text.substr(s.begin, end_before_a_sentence_stop(text, s) - s.begin);
}

TEST(TaggerRulesTest, ASentencesStopAfterAWholeWordIsNoPartOfASpan) {
  EXPECT_EQ(without_a_sentence_stop("we live at 14 harbour view terrace.", "14 harbour view terrace."),
            "14 harbour view terrace");
  EXPECT_EQ(without_a_sentence_stop("West of the Mississippi River.", "Mississippi River."), "Mississippi River");
  // An abbreviation keeps its stop: of three letters or fewer, a street's
  // ("Friedrichstr."), or one of four letters of the short list.
  EXPECT_EQ(without_a_sentence_stop("It is at 5 Main St.", "5 Main St."), "5 Main St.");
  EXPECT_EQ(without_a_sentence_stop("Write to Acme Corp.", "Acme Corp."), "Acme Corp.");
  EXPECT_EQ(without_a_sentence_stop("Friedrichstr. 43", "Friedrichstr."), "Friedrichstr.");
  EXPECT_EQ(without_a_sentence_stop("She met Mr. Young", "Mr."), "Mr.");
  EXPECT_EQ(without_a_sentence_stop("Sie wohnt in der Hauptstraße.", "Hauptstraße."), "Hauptstraße");
}

// The endings of a street's one word, in German, Dutch, Nordic and Finnish
// towns, in any case; not the English words that end in "gade".
TEST(TaggerRulesTest, AStreetOfOneWordEndsAsStreetsDo) {
  for (const char* word : {"Bahnhofstrasse", "lindenstraße", "Corellistraat", "drottninggatan", "havnevej", "Nørregade",
                           "VESTERGADE", "Koskikatu"}) {
    EXPECT_TRUE(ends_as_a_street(word)) << word;
  }
  for (const char* word : {"Brigade", "renegade", "RENEGADE", "Catalyst", "katana"}) {
    EXPECT_FALSE(ends_as_a_street(word)) << word;
  }
  // (With a shortest ending of five bytes, not "weg" nor "gade".)
  EXPECT_TRUE(ends_as_a_street("hauptstraße", 5));
  EXPECT_FALSE(ends_as_a_street("feldweg", 5));
  EXPECT_FALSE(ends_as_a_street("nørregade", 5));
}

TEST(TaggerRulesTest, NoSpanRunsAcrossATab) {
  const Tokenized table = tokenized("Anna Berg\t34\nMark Olsen\t51");
  EXPECT_FALSE(continues(table, "34", PiiType::kPerson));
  EXPECT_FALSE(continues(table, "34", PiiType::kStreetAddress));
  // A line break, blanks around it too, an address runs across.
  const Tokenized indented = tokenized("69 Roheline 43\n Apt. 305\n  \tLepassaare");
  EXPECT_TRUE(continues(indented, "Apt", PiiType::kStreetAddress));
  EXPECT_FALSE(continues(indented, "Lepassaare", PiiType::kStreetAddress));
}

TEST(TaggerRulesTest, AnAddressRunsPastABlankLineOnlyOntoALineWithADigit) {
  const Tokenized letters = tokenized("12 Oak Street\nSpringfield, IL 62704\n\nMark Olsen\n45 Elm Street");
  EXPECT_TRUE(continues(letters, "Mark", PiiType::kStreetAddress));
  EXPECT_TRUE(span_may_grow(letters.text, letters.tokens, 0, token_of(letters, "Springfield"), PiiType::kStreetAddress));
  EXPECT_FALSE(span_may_grow(letters.text, letters.tokens, 0, token_of(letters, "Mark"), PiiType::kStreetAddress));
  const Tokenized envelope = tokenized("98 P.O. Box 101\n Suite 242\n Qeqertarsuaq\n\n Greece 79976");
  EXPECT_TRUE(span_may_grow(envelope.text, envelope.tokens, 0, token_of(envelope, "Greece"), PiiType::kStreetAddress));
}

TEST(TaggerRulesTest, AnAddressRunsOntoANewLineOnlyNearADigit) {
  // A list of names one per line: no digit in the span, on its next line
  // or the one after.
  const Tokenized names = tokenized("Anna Berg\nMark Olsen\nSara Lind\nJohn Kask");
  EXPECT_FALSE(span_may_grow(names.text, names.tokens, 0, token_of(names, "Mark"), PiiType::kStreetAddress));
  // An envelope's name and company lines come before the street's number.
  const Tokenized envelope = tokenized("Ms. Alicia Laaksonen\nThink Computer Corp\nLargo Prazeres 26\nPicoto");
  EXPECT_TRUE(span_may_grow(envelope.text, envelope.tokens, 0, token_of(envelope, "Think"), PiiType::kStreetAddress));
  EXPECT_TRUE(span_may_grow(envelope.text, envelope.tokens, 0, token_of(envelope, "Largo"), PiiType::kStreetAddress));
  EXPECT_TRUE(span_may_grow(envelope.text, envelope.tokens, 0, token_of(envelope, "Picoto"), PiiType::kStreetAddress));
  // Within a line the lines do not count.
  EXPECT_TRUE(span_may_grow(names.text, names.tokens, 0, 1, PiiType::kStreetAddress));
}

TEST(TaggerRulesTest, AnAddressRunsOverTwelveLinesAtMost) {
  std::string text;
  for (int line = 1; line <= 14; ++line) text += std::to_string(line) + " Oak Street\n";
  const Tokenized lines = tokenized(text);
  size_t at = 0;  // the first token of line 12, then of line 13
  for (size_t k = 0, seen = 0; k < lines.tokens.size(); ++k) {
    if (k > 0 && lines.tokens[k].newline_before && ++seen == 11) at = k;
  }
  ASSERT_EQ(lines.text.substr(lines.tokens[at].begin, 2), "12");
  EXPECT_TRUE(span_may_grow(lines.text, lines.tokens, 0, at, PiiType::kStreetAddress));
  EXPECT_FALSE(span_may_grow(lines.text, lines.tokens, 0, at + 3, PiiType::kStreetAddress));
}

TEST(TaggerRulesTest, ANameRunsOverTwentyFourTokensAtMost) {
  std::string text;
  for (int k = 0; k < 20; ++k) text += "Anna Smith ";
  const Tokenized names = tokenized(text);
  EXPECT_TRUE(span_may_grow(names.text, names.tokens, 0, kMaxNameTokens - 1, PiiType::kPerson));
  EXPECT_FALSE(span_may_grow(names.text, names.tokens, 0, kMaxNameTokens, PiiType::kPerson));
  EXPECT_FALSE(span_may_grow(names.text, names.tokens, 0, kMaxNameTokens, PiiType::kOrganization));
  // A double name's hyphens are tokens of their own.
  const Tokenized double_name = tokenized("Marie-Claire de la Fontaine-Dubois");
  EXPECT_EQ(double_name.tokens.size(), 8u);
  EXPECT_TRUE(span_may_grow(double_name.text, double_name.tokens, 0, 7, PiiType::kPerson));
}

TEST(TaggerRulesTest, AListsNumberOpensItsLine) {
  const Tokenized list = tokenized("1. Anna Berg\n2. Mark Olsen\n12) Sara Lind\n4.5 kg\n7.Kask\nin 3. Lind");
  EXPECT_TRUE(list_number(list.text, list.tokens, 0));
  EXPECT_TRUE(list_number(list.text, list.tokens, token_of(list, "2")));
  EXPECT_TRUE(list_number(list.text, list.tokens, token_of(list, "12")));
  EXPECT_FALSE(list_number(list.text, list.tokens, token_of(list, "4")));  // a decimal
  EXPECT_FALSE(list_number(list.text, list.tokens, token_of(list, "7")));  // no blank after the stop
  EXPECT_FALSE(list_number(list.text, list.tokens, token_of(list, "3")));  // inside its line
  EXPECT_FALSE(list_number(list.text, list.tokens, token_of(list, "Anna")));
}

TEST(TaggerRulesTest, AContractionOfIEndsAName) {
  const Tokenized t = tokenized("Tell Rebecca I'll be late, I\xe2\x80\x99m sure. Isn't it? Iris O'Neill I");
  EXPECT_TRUE(never_in_a_name(t.text, t.tokens[token_of(t, "I'll")]));
  EXPECT_TRUE(never_in_a_name(t.text, t.tokens[token_of(t, "I\xe2\x80\x99m")]));
  EXPECT_TRUE(never_in_a_name(t.text, t.tokens[token_of(t, "Isn't")]));
  EXPECT_FALSE(never_in_a_name(t.text, t.tokens[token_of(t, "Iris")]));
  EXPECT_FALSE(never_in_a_name(t.text, t.tokens[token_of(t, "O'Neill")]));
  EXPECT_FALSE(never_in_a_name(t.text, t.tokens[t.tokens.size() - 1]));  // "I" alone
  // A name the decoder ran on into the contraction ends before it.
  PiiSpan name{PiiType::kPerson, t.tokens[1].begin, t.tokens[2].end};
  size_t from = 1, to = 3;
  ASSERT_TRUE(trim_function_words(t.text, t.tokens, name, from, to));
  EXPECT_EQ(t.text.substr(name.begin, name.end - name.begin), "Rebecca");
}

// "And" as German, Dutch and the Nordic languages write it ends no name: a
// name the decoder ran on into it ends before it; French "et" stays ("et
// al" would open at "al").
// A pronoun's or question word's "'s" is a contraction ("it's", "what’s"),
// a name's possessive none ("john's").
TEST(TaggerRulesTest, APronounsApostropheSIsAContraction) {
  EXPECT_TRUE(contraction("it's", Token{0, 4, false, false}));
  EXPECT_TRUE(contraction("that's", Token{0, 6, false, false}));
  EXPECT_TRUE(contraction("what\xe2\x80\x99s", Token{0, 8, false, false}));
  EXPECT_FALSE(contraction("john's", Token{0, 6, false, false}));
  EXPECT_FALSE(contraction("its", Token{0, 3, false, false}));
}

// The speaker as a subject ("I", "I'll", "we’re"), not another word of
// the letters ("it'll", "wee", "I'mm"); an ordinal in digits ("30th", "1ST"),
// not a number or a word.
TEST(TaggerRulesTest, TheSpeakerAsASubjectAndAnOrdinal) {
  auto word = [](std::string_view w) { return Token{0, static_cast<uint32_t>(w.size()), false, false}; };
  for (const std::string_view w : {"I", "i", "I'll", "i'm", "I\u2019d", "we", "We're", "we\u2019ve"}) {
    EXPECT_TRUE(speaker_as_subject(w, word(w))) << w;
  }
  for (const std::string_view w : {"it'll", "wee", "I'mm", "in", "I'", "we's1"}) EXPECT_FALSE(speaker_as_subject(w, word(w))) << w;
  for (const std::string_view w : {"30th", "1st", "22ND", "3rd"}) EXPECT_TRUE(ordinal_in_digits(w, word(w))) << w;
  for (const std::string_view w : {"30", "th", "3x4th", "12ab", "first"}) EXPECT_FALSE(ordinal_in_digits(w, word(w))) << w;
}

// Text read as written in small letters: capitalised words that only open
// its sentences or lines, and a word of the first person.
TEST(TaggerRulesTest, TextCapitalisedOnlyWhereSentencesOpenIsCasual) {
  // `test` (casual_case() or sentence_case_only()) of the text's tokens.
  auto of_tokens = [](auto test) {
    return [test](std::string text) {
      const Tokenized t = tokenized(std::move(text));
      return test(t.text, t.tokens, t.marked);
    };
  };
  const auto casual = of_tokens([](auto&&... a) { return casual_case(a...); });
  EXPECT_TRUE(casual("Can you help my friend tamsin? She is sad."));
  EXPECT_TRUE(casual("I need to call dr okafor.\n\"Hi it's me\""));
  EXPECT_TRUE(casual("Help me write to leo"));
  EXPECT_FALSE(casual("Can you help my friend Tamsin? She is sad."));
  EXPECT_FALSE(casual("Which of the following is true? A tree grows."));
  EXPECT_FALSE(casual("Which is true?\nI. A tree grows.\nII. It does not."));
  EXPECT_FALSE(casual("help my friend tamsin"));  // no capitalised word: mixed_case() reads it
  EXPECT_FALSE(casual("Can you help him? His friend tamsin is sad."));  // no first person
  EXPECT_FALSE(casual("My friend Łukasz is sad."));
  // "I" as the pronoun, before a word; not a variable's.
  EXPECT_TRUE(casual("Can I help tamsin? She is sad."));
  EXPECT_TRUE(casual("Help tamsin. I\\'m sad."));  // an escaped apostrophe
  EXPECT_FALSE(casual("A sphere (I = 0.06) spins. How fast is it?"));
  // A pronoun's contraction, its apostrophe straight or curly.
  EXPECT_TRUE(casual("We're moving to 9 cedar court."));
  EXPECT_TRUE(casual("Tell tamsin we’ve left."));
  EXPECT_TRUE(casual("Ask tamsin. I'll wait."));
  EXPECT_FALSE(casual("Were they moving to 9 cedar court?"));
  // Without the first person, text in sentence case alone.
  const auto sentence_case = of_tokens([](auto&&... a) { return sentence_case_only(a...); });
  EXPECT_TRUE(sentence_case("Can you help him? His friend tamsin is sad."));
  EXPECT_FALSE(sentence_case("Can you help him? His friend Tamsin is sad."));
  EXPECT_FALSE(sentence_case("help him"));
}

TEST(TaggerRulesTest, AnAndOfAnotherLanguageEndsAName) {
  const Tokenized t = tokenized("Ich heiße Jürgen Weiß und wohne hier, Lars och Eva, Anna en Piet, et al");
  for (const std::string_view word : {"und", "och", "en"}) {
    EXPECT_TRUE(never_last_in_a_name(t.text, t.tokens, token_of(t, word), true)) << word;
  }
  EXPECT_FALSE(never_last_in_a_name(t.text, t.tokens, token_of(t, "et"), true));
  PiiSpan name{PiiType::kPerson, t.tokens[2].begin, t.tokens[4].end};
  size_t from = 2, to = 5;
  ASSERT_TRUE(trim_function_words(t.text, t.tokens, name, from, to));
  EXPECT_EQ(t.text.substr(name.begin, name.end - name.begin), "Jürgen Weiß");
}

// set_span() that gives up tokens keeps the cover where the span alone
// covered them (what a fresh build gives), so that shortening many spans
// does not rebuild the cover for each; where another span shares a token
// given up, the cover is rebuilt when next asked.
TEST(TaggerRulesTest, AShortenedSpanKeepsTheCover) {
  std::string text;
  for (int line = 0; line < 40; ++line) text += "ich hei jurgen weiss\n";
  IndexList marked;
  pii_tokens::tokenize(text, tagger_tokens(), marked);
  auto line_of = [](size_t k) { return static_cast<uint32_t>(21 * k); };  // "ich hei jurgen weiss\n"
  std::vector<PiiSpan> out;
  for (size_t line = 0; line < 40; ++line) out.push_back({PiiType::kOrganization, line_of(line) + 4, line_of(line) + 20});
  // Line 9's "hei" is another span's too.
  out.push_back({PiiType::kLocation, line_of(9) + 4, line_of(9) + 7});
  reset_cover();
  ASSERT_EQ(span_over(out, 1), 0u);  // builds the cover
  for (size_t line = 0; line < 40; ++line) {
    set_span(out, line, {PiiType::kPerson, line_of(line) + 8, line_of(line) + 20});  // without "hei"
    EXPECT_EQ(tagger_cover().built, line != 9) << "line " << line;
    const std::vector<uint32_t> kept = built_cover(out).first_span;
    reset_cover();
    EXPECT_EQ(kept, built_cover(out).first_span) << "line " << line;
  }
  tagger_tokens().clear();
  reset_cover();
}

// replace_with_an_address() over a list of many streets, where it reads the
// spans from the cover and keeps it: the same answers as reading every
// span, and a cover that equals one built afresh.
TEST(TaggerRulesTest, AddressesReplaceSpansInALongListAsInAShortOne) {
  std::string text;
  for (int line = 0; line < 40; ++line) text += "Via Roma 12\n";
  IndexList marked;
  pii_tokens::tokenize(text, tagger_tokens(), marked);
  const Tokens tokens = tagger_tokens();
  auto line_of = [](size_t k) { return static_cast<uint32_t>(12 * k); };  // "Via Roma 12\n"
  // Found before tagging: a phone number's digits on line 3 (another type:
  // the address may not take them); addresses "Roma 12" on line 5 and "Via
  // Roma" on line 20 (inside the line's: they stay, and the new address
  // lies over them too).
  std::vector<PiiSpan> out = {{PiiType::kPhoneNumber, line_of(3) + 9, line_of(3) + 11},
                              {PiiType::kStreetAddress, line_of(5) + 4, line_of(5) + 11},
                              {PiiType::kStreetAddress, line_of(20), line_of(20) + 8}};
  const size_t first = out.size();
  // The tagger's: "Roma" a place on each line but line 5's and line 7's,
  // where a person runs on to line 8's "Via" (reaching outside both lines'
  // addresses). On line 20 the place and the address found before share
  // "Roma": the cover cannot tell them apart, every span is read there.
  for (size_t line = 0; line < 40; ++line) {
    if (line == 7) {
      out.push_back({PiiType::kPerson, line_of(7) + 4, line_of(8) + 3});
    } else if (line != 5 && line != 8) {
      out.push_back({PiiType::kLocation, line_of(line) + 4, line_of(line) + 8});
    }
  }
  reset_cover();
  ASSERT_EQ(span_over(out, 1), first);  // builds the cover: more spans than are read through
  for (size_t line = 0; line < 40; ++line) {
    const bool replaced = replace_with_an_address(out, first, line_of(line), line_of(line) + 11);
    EXPECT_EQ(replaced, line != 3 && line != 7 && line != 8) << "line " << line;
    // The cover kept is the one built afresh (line 20's is built afresh).
    EXPECT_EQ(tagger_cover().built, line != 20) << "line " << line;
    const std::vector<uint32_t> kept = built_cover(out).first_span;
    reset_cover();
    EXPECT_EQ(kept, built_cover(out).first_span) << "line " << line;
  }
  // Line 5's "Roma": the address found before first, the new one too.
  EXPECT_EQ(tagger_cover().first_span[first_token_from(tokens, line_of(5) + 4)], 2 | SpanCover::kShared);
  drop_marked_spans(out);
  size_t addresses = 0, places = 0;
  for (const PiiSpan& span : out) {
    if (span.type == PiiType::kStreetAddress && span.end - span.begin == 11) ++addresses;
    if (span.type == PiiType::kLocation) ++places;
  }
  EXPECT_EQ(addresses, 37u);
  EXPECT_EQ(places, 1u);  // line 3's: its address was refused
  EXPECT_EQ(out.size(), first + 37 + 1 + 1);  // and line 7's person
  tagger_tokens().clear();
  reset_cover();
}

}  // namespace
}  // namespace tiergate::tagger_rules
