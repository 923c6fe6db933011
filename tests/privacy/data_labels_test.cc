// A word that labels a field of personal data, right before the value a
// structured detector found, is no name, place or address.
#include "data_labels.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace tiergate::pii_scan {
namespace {

PiiSpan span_of(std::string_view text, PiiType type, std::string_view value) {
  const size_t at = text.find(value);
  EXPECT_NE(at, std::string_view::npos) << value;
  return {type, static_cast<uint32_t>(at), static_cast<uint32_t>(at + value.size())};
}

// The spans left of [label, value] after drop_data_labels().
std::vector<PiiSpan> after_drop(std::string_view text, PiiType label_type, std::string_view label, PiiType value_type,
                                std::string_view value) {
  std::vector<PiiSpan> out{span_of(text, label_type, label), span_of(text, value_type, value)};
  drop_data_labels(text, out, 0);
  return out;
}

TEST(DataLabelsTest, KnowsLabelsInSeveralLanguages) {
  for (std::string_view word : {"telefon", "téléphone", "teléfono", "iban", "mac", "e-mail", "mastercard", "ssn"}) {
    EXPECT_TRUE(data_label(word)) << word;
  }
  for (std::string_view word : {"anna", "paris", "street", "Telefon"}) EXPECT_FALSE(data_label(word)) << word;
}

TEST(DataLabelsTest, ALabelBeforeItsValueIsDropped) {
  struct Case {
    std::string_view text, label, value;
    PiiType label_type, value_type;
  };
  const Case cases[] = {
      {"Telefon: +49 30 1234567", "Telefon", "+49 30 1234567", PiiType::kPerson, PiiType::kPhoneNumber},
      {"Téléphone : +33 1 23 45 67 89", "Téléphone", "+33 1 23 45 67 89", PiiType::kPerson, PiiType::kPhoneNumber},
      {"Please wire to IBAN DE89370400440532013000 today.", "IBAN", "DE89370400440532013000",
       PiiType::kStreetAddress, PiiType::kIbanCode},
      {"Please use MAC 00:1A:2B:3C:4D:5E for this.", "MAC", "00:1A:2B:3C:4D:5E", PiiType::kStreetAddress,
       PiiType::kMacAddress},
      {"Mac address 00:1A:2B:3C:4D:5E", "Mac", "00:1A:2B:3C:4D:5E", PiiType::kPerson, PiiType::kMacAddress},
      {"Tel. 555-0134", "Tel.", "555-0134", PiiType::kLocation, PiiType::kPhoneNumber},
      {"Phone No. (415) 555-2671", "Phone", "(415) 555-2671", PiiType::kOrganization, PiiType::kPhoneNumber},
  };
  for (const Case& c : cases) {
    const std::vector<PiiSpan> out = after_drop(c.text, c.label_type, c.label, c.value_type, c.value);
    ASSERT_EQ(out.size(), 1u) << c.text;
    EXPECT_EQ(out[0].type, c.value_type) << c.text;
  }
}

TEST(DataLabelsTest, NamesAndLabelsElsewhereStay) {
  // A name before a value, a label word before other words, a label away
  // from the value, a label before a value of its own kind (two names).
  EXPECT_EQ(after_drop("Anna: +49 30 1234567", PiiType::kPerson, "Anna", PiiType::kPhoneNumber, "+49 30 1234567").size(),
            2u);
  EXPECT_EQ(after_drop("Visa announced it on 2024-05-01", PiiType::kOrganization, "Visa", PiiType::kDateTime,
                       "2024-05-01")
                .size(),
            2u);
  EXPECT_EQ(after_drop("Mac called me at 555-0134", PiiType::kPerson, "Mac", PiiType::kPhoneNumber, "555-0134").size(),
            2u);
  EXPECT_EQ(after_drop("Mac Anna", PiiType::kPerson, "Mac", PiiType::kPerson, "Anna").size(), 2u);
}

TEST(DataLabelsTest, SpansBeforeFirstAreLeftAlone) {
  const std::string_view text = "IBAN DE89370400440532013000";
  std::vector<PiiSpan> out{span_of(text, PiiType::kPerson, "IBAN"), span_of(text, PiiType::kIbanCode, "DE89370400440532013000")};
  drop_data_labels(text, out, 1);
  EXPECT_EQ(out.size(), 2u);
}

}  // namespace
}  // namespace tiergate::pii_scan
