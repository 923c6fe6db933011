// SIZE arguments (--memory-budget 2G) and printed sizes.
#include "tiergate/fleet/byte_size.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

TEST(ByteSizeTest, ParsesUnitsAndFractions) {
  struct Case {
    const char* text;
    uint64_t bytes;
  };
  for (const Case& c : std::vector<Case>{{"0", 0},
                                         {"1000000", 1000000},
                                         {"512B", 512},
                                         {"512M", 512ull << 20},
                                         {"512m", 512ull << 20},
                                         {"2G", 2ull << 30},
                                         {"2 GiB", 2ull << 30},
                                         {"1.5GiB", 3ull << 29},
                                         {"1.5G", 3ull << 29},
                                         {"4K", 4096},
                                         {"1T", 1ull << 40},
                                         {"2GB", 2000000000},
                                         {"1.5MB", 1500000},
                                         {"0.5", 0}}) {
    StatusOr<uint64_t> bytes = parse_byte_size(c.text);
    ASSERT_TRUE(bytes.is_ok()) << c.text << ": " << bytes.status().message();
    EXPECT_EQ(*bytes, c.bytes) << c.text;
  }
}

TEST(ByteSizeTest, RejectsWhatIsNotASize) {
  for (const char* text : {"", "G", "-1G", "1.G", ".5G", "2X", "2 G B", "1e3", "1.2.3M", "99999999999T", "2G "}) {
    StatusOr<uint64_t> bytes = parse_byte_size(text);
    ASSERT_FALSE(bytes.is_ok()) << text;
    EXPECT_EQ(bytes.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(bytes.status().message().find(std::string("\"") + text + "\" is not a size"), std::string::npos)
        << bytes.status().message();
  }
}

TEST(ByteSizeTest, FormatsWithBinaryUnits) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1024), "1 KiB");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(3ull << 29), "1.5 GiB");
  EXPECT_EQ(format_bytes(8ull << 30), "8 GiB");
  EXPECT_EQ(format_bytes(5ull << 40), "5 TiB");
}

}  // namespace
}  // namespace tiergate
