// The validity checks behind the card and IBAN detectors.
#include "tiergate/privacy/checksums.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

TEST(ChecksumsTest, Luhn) {
  for (const char* valid : {"4111111111111111", "5555555555554444", "378282246310005", "79927398713", "0"}) {
    EXPECT_TRUE(luhn_valid(valid)) << valid;
  }
  for (const char* invalid : {"4111111111111112", "79927398710", "", "4111 1111 1111 1111", "41111111111111a1"}) {
    EXPECT_FALSE(luhn_valid(invalid)) << invalid;
  }
}

TEST(ChecksumsTest, CardIssuerRangesAndLengths) {
  struct Case {
    const char* digits;
    bool known;
  };
  const Case cases[] = {
      {"4111111111111111", true},      // Visa 16
      {"4222222222222", true},         // Visa 13
      {"411111111111111", false},      // Visa never issues 15
      {"5555555555554444", true},      // Mastercard 51-55
      {"2223003122003222", true},      // Mastercard 2221-2720
      {"2721003122003222", false},     // just past the 2-series
      {"378282246310005", true},       // Amex 15
      {"3782822463100050", false},     // Amex is never 16
      {"6011111111111117", true},      // Discover
      {"6445644564456445", true},      // Discover 644-649
      {"30569309025904", true},        // Diners 14
      {"3530111333300000", true},      // JCB
      {"3515000000000002", true},      // JCB's 35 below 3528, as generators issue
      {"3088000000000009", true},      // JCB, an older range
      {"180000000000002", true},       // JCB 15
      {"1800000000000002", false},     // JCB's 1800 is 15 digits only
      {"6200000000000005", true},      // UnionPay
      {"6759649826438453", true},      // Maestro
      {"675900000018", true},          // Maestro 12
      {"501234567896", false},         // 12 digits outside Maestro
      {"2200000000000004", true},      // Mir
      {"9111111111111110", false},     // no scheme
      {"1234567812345670", false},
      {"", false},
  };
  for (const Case& c : cases) EXPECT_EQ(card_issuer_known(c.digits), c.known) << c.digits;
}

TEST(ChecksumsTest, IbanLengthsAndMod97) {
  EXPECT_EQ(iban_length('G', 'B'), 22);
  EXPECT_EQ(iban_length('d', 'e'), 22);
  EXPECT_EQ(iban_length('N', 'O'), 15);
  EXPECT_EQ(iban_length('R', 'U'), 33);
  EXPECT_EQ(iban_length('U', 'S'), 0);  // no IBANs
  EXPECT_EQ(iban_length('Q', 'Q'), 0);
  for (const char* valid : {"GB82WEST12345698765432", "gb82west12345698765432", "DE89370400440532013000",
                            "FR1420041010050500013M02606", "NL91ABNA0417164300", "CH9300762011623852957",
                            "NO9386011117947"}) {
    EXPECT_TRUE(iban_valid(valid)) << valid;
  }
  for (const char* invalid : {"GB82WEST12345698765433",      // check digits
                              "GB82WEST1234569876543",       // length
                              "GB82 WEST 1234 5698 7654 32",  // spaces: callers strip them
                              "XX82WEST12345698765432",      // country
                              "GBA2WEST12345698765432",      // check digits must be digits
                              "GB82WEST1234569876543!", ""}) {
    EXPECT_FALSE(iban_valid(invalid)) << invalid;
  }
}

}  // namespace
}  // namespace tiergate
