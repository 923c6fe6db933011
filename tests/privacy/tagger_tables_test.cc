#include "tagger_tables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tagger_tokens.h"
#include "tiergate/privacy/pii_dataset.h"

namespace tiergate::tagger_tables {
namespace {

// type_table_cells() over `text`, after the spans found before tagging
// (`before`) and the tagger's (`tagged`): "TYPE:value" per span of `out`,
// the spans found before included where `all`, else from the tagger's on.
std::vector<std::string> typed_spans(const std::string& text, std::vector<PiiSpan> before, const std::vector<PiiSpan>& tagged,
                                     bool all) {
  pii_tokens::TokenList tokens;
  pii_tokens::IndexList marked, line_starts;
  pii_tokens::tokenize(text, tokens, marked, line_starts);
  const size_t first = before.size();
  std::vector<PiiSpan> out = std::move(before);
  out.insert(out.end(), tagged.begin(), tagged.end());
  type_table_cells(text, tokens, line_starts, text != small_letters(text), out, first);
  std::vector<std::string> values;
  for (size_t s = all ? 0 : first; s < out.size(); ++s) {
    values.push_back(std::string(pii_type_name(out[s].type)) + ":" + text.substr(out[s].begin, out[s].end - out[s].begin));
  }
  return values;
}

std::vector<std::string> typed(const std::string& text, std::vector<PiiSpan> before = {},
                               const std::vector<PiiSpan>& tagged = {}) {
  return typed_spans(text, std::move(before), tagged, false);
}

// A span over the first occurrence of `value` in `text`.
PiiSpan over(const std::string& text, const std::string& value, PiiType type) {
  const auto at = static_cast<uint32_t>(text.find(value));
  return {type, at, static_cast<uint32_t>(at + value.size())};
}

using V = std::vector<std::string>;

// A column headed as dates of birth ("dob", "Date of Birth") turns the
// structured detectors' dates in it into DATE_OF_BIRTH; it adds no cell of
// its own, and other dates stay.
TEST(TaggerTablesTest, ADateOfBirthColumnMakesItsDatesBirthDates) {
  const std::string csv = "name,dob,joined\nJohn Smith,03/14/1985,2020-01-02\nAnna Lee,n/a,2021-03-04\n";
  const std::vector<PiiSpan> dates = {over(csv, "03/14/1985", PiiType::kDateTime),
                                      over(csv, "2020-01-02", PiiType::kDateTime),
                                      over(csv, "2021-03-04", PiiType::kDateTime)};
  EXPECT_EQ(typed_spans(csv, dates, {}, true),
            (V{"DATE_OF_BIRTH:03/14/1985", "DATE_TIME:2020-01-02", "DATE_TIME:2021-03-04", "PERSON:John Smith",
               "PERSON:Anna Lee"}));
  const std::string markdown = "| Name | Date of Birth |\n|---|---|\n| John Smith | 1990-05-12 |\n";
  EXPECT_EQ(typed_spans(markdown, {over(markdown, "1990-05-12", PiiType::kDateTime)}, {}, true),
            (V{"DATE_OF_BIRTH:1990-05-12", "PERSON:John Smith"}));
}

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
  EXPECT_EQ(column_type("Assigned to"), PiiType::kPerson);
  EXPECT_EQ(column_type("Approved by"), PiiType::kPerson);
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

// A record of labelled values ("Name: ...", a JSON object on one line, a
// YAML item, a query string) types each value by its label, as a table's
// header types its column: a weak label's value only beside another typed
// or a personal label, in text with capitals only a value of capitalised
// words, an address only one with a number.
TEST(TaggerTablesTest, LabelledValuesAreSpansOfTheirLabelsType) {
  EXPECT_EQ(typed("Name: Siobhan Gallagher\nCity: Cork\nEmployer: Brightwave Analytics\nAge: 41"),
            (V{"PERSON:Siobhan Gallagher", "LOCATION:Cork", "ORGANIZATION:Brightwave Analytics", "AGE:41"}));
  EXPECT_EQ(typed("{\"name\": \"Bartholomew Quill\", \"address\": {\"city\": \"Zoetermeer\"}, \"age\": 34}"),
            (V{"PERSON:Bartholomew Quill", "LOCATION:Zoetermeer", "AGE:34"}));
  EXPECT_EQ(typed("customer_name: fenella okafor\naddress: 14 harbour view, galway"),
            (V{"PERSON:fenella okafor", "STREET_ADDRESS:14 harbour view, galway"}));
  EXPECT_EQ(typed("- name: Anna Berg\n  email: anna@example.com"), V{"PERSON:Anna Berg"});
  // Who a ticket is for or by, alone: the label is enough.
  const std::string ticket = "Assigned to: Sunil Rao\nStatus: open";
  EXPECT_EQ(typed(ticket, {}, {over(ticket, "Sunil Rao", PiiType::kLocation)}), V{"PERSON:Sunil Rao"});
  EXPECT_EQ(typed("Reviewed by: Hana Kobayashi"), V{"PERSON:Hana Kobayashi"});
  // A line that is a query string, pair by pair.
  EXPECT_EQ(typed("first_name=Chidi&last_name=Anagonye&city=Lagos"),
            (V{"PERSON:Chidi", "PERSON:Anagonye", "LOCATION:Lagos"}));
  EXPECT_EQ(typed("q=pizza&page=2"), V{});
  // Not a weak label alone, once or again; not descriptions, types, names
  // of software in text with capitals; not a blank line apart.
  EXPECT_EQ(typed("metadata:\n  name: nginx\n  - name: web\n    image: nginx:1.14.2"), V{});
  EXPECT_EQ(typed("Args:\n    name: The user's name.\n    city: Where they live."), V{});
  EXPECT_EQ(typed("class User:\n    name: str\n    city: str"), V{});
  EXPECT_EQ(typed("name: Anna Berg\n\nemail: anna@example.com"), V{});
  EXPECT_EQ(typed("{\"name\": \"my-package\", \"version\": \"1.0.0\"}"), V{});
  // An address's label before a name; an address the tagger found running
  // on over the lines after its label's stays the tagger's.
  EXPECT_EQ(typed("Name: Tracy Sukhorukova\nBilling address: Tracy Sukhorukova"), V{"PERSON:Tracy Sukhorukova"});
  const std::string letter = "Name: Diana Fuchs\nAddress: 71 Schaarsteinweg 58\nEbermannsdorf";
  EXPECT_EQ(typed(letter, {}, {over(letter, "71 Schaarsteinweg 58\nEbermannsdorf", PiiType::kStreetAddress)}),
            (V{"PERSON:Diana Fuchs", "STREET_ADDRESS:71 Schaarsteinweg 58\nEbermannsdorf"}));
}

// A JSON object or a Python dict that opens inside a line, after prose or
// a label ("Fix this JSON: {...}", "user = {...}"), is a record as one that
// opens its line; not an object whose keys name no one's data, nor braces
// of code.
TEST(TaggerTablesTest, AnObjectInsideALineIsARecord) {
  EXPECT_EQ(typed("fix this json: {\"name\": \"oluwaseun adeyemi\", \"address\": \"4127 kelly stravenue, tulsa\"}"),
            (V{"PERSON:oluwaseun adeyemi", "STREET_ADDRESS:4127 kelly stravenue, tulsa"}));
  EXPECT_EQ(typed("Convert to CSV: [{\"customer\": \"Declan Whitfield\", \"street\": \"88 Harbor View\"}]"),
            (V{"PERSON:Declan Whitfield", "STREET_ADDRESS:88 Harbor View"}));
  EXPECT_EQ(typed("user = {'name': 'siobhan harlow', 'street': '61489 mendez ridge'}"),
            (V{"PERSON:siobhan harlow", "STREET_ADDRESS:61489 mendez ridge"}));
  EXPECT_EQ(typed("Parse this: {\"first_name\": \"Marisol\", \"last_name\": \"Quintero\"}\nThanks!"),
            (V{"PERSON:Marisol", "PERSON:Quintero"}));
  // A name's parts under short keys, weak ones: beside a personal key,
  // not alone, nor dates under them.
  EXPECT_EQ(typed("{\"patient\": {\"first\": \"Evander\", \"last\": \"Mwangi\", \"dob\": \"1988-02-11\"}}"),
            (V{"PERSON:Evander", "PERSON:Mwangi"}));
  EXPECT_EQ(typed("Sort it: {\"first\": \"Gold\", \"count\": 3}"), V{});
  EXPECT_EQ(typed("{\"first\": \"2024-01-01\", \"last\": \"2024-02-01\", \"email\": \"a@b.co\"}"), V{});
  EXPECT_EQ(typed("Install it: {\"name\": \"my-package\", \"version\": \"1.0.0\"}"), V{});
  EXPECT_EQ(typed("int main() { return 0; }\nif (x) {\"a\", \"b\"}"), V{});
}

// The elements of XML with a text of their own are labelled values, their
// tags the labels, on one line or on the lines of one record; their text
// whole, where the tagger stopped short inside it. Not an element that
// holds others, nor tags that name no one's data (HTML's).
TEST(TaggerTablesTest, XmlElementsAreLabelledValues) {
  EXPECT_EQ(typed("<customer><name>Henrik Aaltonen</name><street>Mannerheimintie 22</street></customer>"),
            (V{"PERSON:Henrik Aaltonen", "STREET_ADDRESS:Mannerheimintie 22"}));
  EXPECT_EQ(typed("<customer>\n  <name>Henrik Aaltonen</name>\n  <city>Espoo</city>\n</customer>"),
            (V{"PERSON:Henrik Aaltonen", "LOCATION:Espoo"}));
  EXPECT_EQ(typed("<user id=\"7\"><first_name>Ana</first_name> <last_name>Ruiz</last_name></user>"),
            (V{"PERSON:Ana", "PERSON:Ruiz"}));
  const std::string address = "<address>12 Nevsky Prospekt</address>";
  EXPECT_EQ(typed(address, {}, {over(address, "12", PiiType::kStreetAddress)}), V{"STREET_ADDRESS:12 Nevsky Prospekt"});
  EXPECT_EQ(typed("<p>Hello</p><title>Home</title>"), V{});
  EXPECT_EQ(typed("<package><name>my-package</name><version>1.0.0</version></package>"), V{});
  EXPECT_EQ(typed("<name>Anna Berg</name>\n\n<email>anna@example.com</email>"), V{});
}

// A URL's or a path's query types its values by their keys, in any case,
// whatever the tagger made of them; a URL's span found before tagging gives
// way to them and stays over the rest of the query, in pieces. A query
// whose keys name no one's data stays the URL's whole.
TEST(TaggerTablesTest, QueriesOfUrlsTypeTheirValues) {
  const std::string url = "Open https://crm.example.com/c?first_name=chidi&last_name=Anagonye&city=Lagos&page=2 now";
  const std::string whole = "https://crm.example.com/c?first_name=chidi&last_name=Anagonye&city=Lagos&page=2";
  EXPECT_EQ(typed_spans(url, {over(url, whole, PiiType::kDomainName)}, {over(url, "Lagos&page", PiiType::kLocation)}, true),
            (V{"DOMAIN_NAME:https://crm.example.com/c?first_name=", "PERSON:chidi", "DOMAIN_NAME:&last_name=",
               "PERSON:Anagonye", "DOMAIN_NAME:&city=", "LOCATION:Lagos", "DOMAIN_NAME:&page=2"}));
  // A path's, with a value in code (%20) and a sentence's marks after it;
  // a value a span found before covers (an e-mail address) stays as it is.
  const std::string path = "GET /users?name=Maria%20Gonzalez&email=maria@example.org).";
  EXPECT_EQ(typed(path, {over(path, "maria@example.org", PiiType::kEmailAddress)}), V{"PERSON:Maria%20Gonzalez"});
  // Keys that name no one's data; a weak key alone; no key after "?".
  const std::string search = "https://www.google.com/search?q=hotels+in+paris&hl=en";
  EXPECT_EQ(typed(search, {over(search, search, PiiType::kDomainName)}), V{});
  EXPECT_EQ(typed("see /files?name=report.pdf"), V{});
  EXPECT_EQ(typed("Is it? =5"), V{});
}

// An SQL insert that opens a line types its values by their columns, as a
// table's header does, in any case; not where no column names one's data,
// nor a value a span found before covers.
TEST(TaggerTablesTest, SqlInsertsTypeTheirValuesByTheirColumns) {
  const std::string insert = "INSERT INTO users (name, email, city) VALUES ('John Smith', 'john@example.com', 'Boston');";
  EXPECT_EQ(typed(insert, {over(insert, "john@example.com", PiiType::kEmailAddress)}),
            (V{"PERSON:John Smith", "LOCATION:Boston"}));
  EXPECT_EQ(typed("insert into customers (`first_name`, `last_name`, age) values\n  ('anna', 'O''Brien', 34),\n  ('li', 'wei', 29);"),
            (V{"PERSON:anna", "PERSON:O''Brien", "AGE:34", "PERSON:li", "PERSON:wei", "AGE:29"}));
  EXPECT_EQ(typed("INSERT INTO products (name, price) VALUES ('Widget', 9);"), V{});
  EXPECT_EQ(typed("-- INSERT INTO users (first_name, city) VALUES ('Anna', 'Oslo');"), V{});
  EXPECT_EQ(typed("INSERT INTO users (first_name, city) VALUES ('Anna"), V{});
}

}  // namespace
}  // namespace tiergate::tagger_tables
