#include "tagger_tables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tagger_tokens.h"

namespace tiergate::tagger_tables {
namespace {

// type_table_cells() over `text`, after the spans found before tagging
// (`before`) and the tagger's (`tagged`): "TYPE:value" per span from the
// tagger's on.
std::vector<std::string> typed(const std::string& text, std::vector<PiiSpan> before = {},
                               const std::vector<PiiSpan>& tagged = {}) {
  pii_tokens::TokenList tokens;
  pii_tokens::IndexList marked, line_starts;
  pii_tokens::tokenize(text, tokens, marked, line_starts);
  const size_t first = before.size();
  std::vector<PiiSpan> out = std::move(before);
  out.insert(out.end(), tagged.begin(), tagged.end());
  type_table_cells(text, tokens, line_starts, out, first);
  std::vector<std::string> values;
  for (size_t s = first; s < out.size(); ++s) {
    values.push_back(std::string(pii_type_name(out[s].type)) + ":" + text.substr(out[s].begin, out[s].end - out[s].begin));
  }
  return values;
}

// A span over the first occurrence of `value` in `text`.
PiiSpan over(const std::string& text, const std::string& value, PiiType type) {
  const auto at = static_cast<uint32_t>(text.find(value));
  return {type, at, static_cast<uint32_t>(at + value.size())};
}

using V = std::vector<std::string>;

TEST(TaggerTablesTest, AHeaderCellNamesItsColumnsType) {
  EXPECT_EQ(column_type("Name"), PiiType::kPerson);
  EXPECT_EQ(column_type("first_name"), PiiType::kPerson);
  EXPECT_EQ(column_type("Last-Name"), PiiType::kPerson);
  EXPECT_EQ(column_type("Customer  name"), PiiType::kPerson);
  EXPECT_EQ(column_type("CITY"), PiiType::kLocation);
  EXPECT_EQ(column_type("Street address"), PiiType::kStreetAddress);
  EXPECT_EQ(column_type("ZIP code"), PiiType::kZipCode);
  EXPECT_EQ(column_type("age"), PiiType::kAge);
  EXPECT_EQ(column_type("Company"), PiiType::kOrganization);
  EXPECT_EQ(column_type("id"), std::nullopt);
  EXPECT_EQ(column_type("email"), std::nullopt);  // the structured detectors' by its shape
  EXPECT_EQ(column_type(""), std::nullopt);
  EXPECT_EQ(column_type("name of the person who signed the form"), std::nullopt);
}

// Each non-empty cell of a typed column of a CSV, TSV or Markdown table is
// a span of its type, whatever the tagger made of the row; a cell that a
// span found before tagging overlaps stays as it was.
TEST(TaggerTablesTest, CellsOfTypedColumnsAreSpansOfTheirType) {
  const std::string csv = "name,email,city\nAmara Okonkwo,amara@example.com,Chicago\nLiam Byrne,liam@example.com,Cork\n";
  EXPECT_EQ(typed(csv, {over(csv, "amara@example.com", PiiType::kEmailAddress),
                        over(csv, "liam@example.com", PiiType::kEmailAddress)}),
            (V{"PERSON:Amara Okonkwo", "LOCATION:Chicago", "PERSON:Liam Byrne", "LOCATION:Cork"}));
  const std::string tsv = "first_name\tlast_name\tcity\nAmara\tOkonkwo\tChicago\nLiam\tByrne\tCork";
  // (A span of the tagger across cells goes: cells end every value.)
  EXPECT_EQ(typed(tsv, {}, {over(tsv, "Amara\tOkonkwo\tChicago", PiiType::kLocation)}),
            (V{"PERSON:Amara", "PERSON:Okonkwo", "LOCATION:Chicago", "PERSON:Liam", "PERSON:Byrne", "LOCATION:Cork"}));
  const std::string markdown = "| Customer | City | Notes |\n|---|---|---|\n| Sofia Marchetti | Milan | paid |\n";
  EXPECT_EQ(typed(markdown, {}, {over(markdown, "Customer", PiiType::kPerson), over(markdown, "Milan", PiiType::kPerson)}),
            (V{"PERSON:Sofia Marchetti", "LOCATION:Milan"}));
  // A quoted value with the delimiter in it; a semicolon-separated table.
  EXPECT_EQ(typed("id,full name\n7,\"Byrne, Liam\"\n"), V{"PERSON:Byrne, Liam"});
  EXPECT_EQ(typed("Nachname;Stadt\nBecker;Berlin\n"), (V{"PERSON:Becker", "LOCATION:Berlin"}));
  // Postcodes and ages by their shape.
  EXPECT_EQ(typed("name,age,zip\nAnna,34,02139\nBob,unknown,n/a\n"),
            (V{"PERSON:Anna", "AGE:34", "ZIP_CODE:02139", "PERSON:Bob"}));
}

// Not a table: a header without rows of as many cells, a sentence with
// commas, code; nor a column headed by a weak word alone ("name" of
// products, "state" of tickets), which needs another typed or personal
// column beside it.
TEST(TaggerTablesTest, OnlyTablesAboutPeopleAreTyped) {
  EXPECT_EQ(typed("name,email,city\nThat was the header."), V{});
  EXPECT_EQ(typed("Name, address and phone number are required.\nPlease fill them in, then send it."), V{});
  EXPECT_EQ(typed("f(name, city)\ng(Anna, Oslo)"), V{});
  EXPECT_EQ(typed("name,price\nWidget,9.99\nGadget,19.99\n"), V{});
  EXPECT_EQ(typed("state,count\nopen,5\nclosed,3\n"), V{});
  EXPECT_EQ(typed("name,email\nAnna Berg,anna@example.com\n"), V{"PERSON:Anna Berg"});
  EXPECT_EQ(typed("name,country\nAnna Berg,Norway\n"), (V{"PERSON:Anna Berg", "LOCATION:Norway"}));
  // A table ends at the first line that is no row of it.
  EXPECT_EQ(typed("name,city\nAnna Berg,Oslo\n\nThe end, Bob said."), (V{"PERSON:Anna Berg", "LOCATION:Oslo"}));
}

}  // namespace
}  // namespace tiergate::tagger_tables
