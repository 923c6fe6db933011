#include "tiergate/privacy/gazetteer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace tiergate {
namespace {

// `g` as a tagger file holds it, read back; nothing where it fails.
std::optional<Gazetteer> saved_and_read(const Gazetteer& g) {
  std::string bytes;
  g.serialize(bytes);
  size_t at = 0;
  StatusOr<Gazetteer> parsed = Gazetteer::parse(bytes, at, "t.bin");
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  if (!parsed.is_ok()) return std::nullopt;
  return std::move(parsed).value();
}

TEST(GazetteerTest, KeepsFullAndPartMatchesPerCategory) {
  Gazetteer g({"first_name", "city"});
  g.add(11, 0, true);
  g.add(11, 1, false);
  g.add(0, 1, true);  // a hash of 0 is a valid key too
  EXPECT_EQ(g.lookup(11).full, 0b01);
  EXPECT_EQ(g.lookup(11).part, 0b10);
  EXPECT_EQ(g.lookup(0).full, 0b10);
  EXPECT_EQ(g.lookup(12).full | g.lookup(12).part, 0);
  EXPECT_EQ(Gazetteer().lookup(11).full, 0);
}

TEST(GazetteerTest, GrowsAndRoundTrips) {
  Gazetteer g({"a", "b", "c"});
  for (uint64_t k = 1; k <= 5000; ++k) g.add(k * 0x9e3779b97f4a7c15ull, k % 3, k % 2 == 0);
  std::string bytes = "prefix";
  g.serialize(bytes);
  size_t at = 6;
  auto parsed = Gazetteer::parse(bytes, at, "t.bin");
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  EXPECT_EQ(at, bytes.size());
  EXPECT_EQ(parsed->categories(), g.categories());
  for (uint64_t k = 1; k <= 5000; ++k) {
    const uint64_t key = k * 0x9e3779b97f4a7c15ull;
    ASSERT_EQ(parsed->lookup(key).full, g.lookup(key).full);
    ASSERT_EQ(parsed->lookup(key).part, g.lookup(key).part);
    ASSERT_NE(g.lookup(key).full | g.lookup(key).part, 0);
  }
}

// A hidden category is left out of lookup() but not of lookup_all(), and
// is saved with the rest: hiding is the reader's choice, not the file's.
TEST(GazetteerTest, HiddenCategoriesAreLeftOutOfLookupOnly) {
  Gazetteer g({"common_word", "proper_adjective"});
  g.add(11, 0, true);
  g.add(11, 1, true);
  g.add(12, 1, true);
  g.hide(0b10);
  EXPECT_EQ(g.lookup(11).full, 0b01);
  EXPECT_EQ(g.lookup(12).full, 0);
  EXPECT_EQ(g.lookup_all(11).full, 0b11);
  EXPECT_EQ(g.lookup_all(12).full, 0b10);
  EXPECT_EQ(g.lookup_hidden(11).full, 0b10);
  EXPECT_EQ(g.lookup_hidden(13).full | g.lookup_hidden(13).part, 0);
  const std::optional<Gazetteer> parsed = saved_and_read(g);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->lookup(11).full, 0b11);
  EXPECT_EQ(parsed->lookup(12).full, 0b10);
}

// A hidden category set apart is left out of lookup_all() too, which the
// rules ask whether any list knows a word; lookup_hidden() and the file
// keep it.
TEST(GazetteerTest, ACategorySetApartIsReadOnlyAsHidden) {
  Gazetteer g({"common_word", "world_city", "census_surname"});
  g.add(11, 0, true);
  g.add(11, 2, true);
  g.add(12, 2, true);
  g.add(13, 1, true);
  g.hide(0b110);
  g.set_apart(0b100);
  EXPECT_EQ(g.lookup(11).full, 0b001);
  EXPECT_EQ(g.lookup_all(11).full, 0b001);
  EXPECT_EQ(g.lookup_all(12).full, 0);
  EXPECT_EQ(g.lookup_all(13).full, 0b010);
  EXPECT_EQ(g.lookup_hidden(11).full, 0b100);
  EXPECT_EQ(g.lookup_hidden(12).full, 0b100);
  // knows(): any list, those set apart too.
  EXPECT_TRUE(g.knows(12));
  EXPECT_TRUE(g.knows(13));
  EXPECT_FALSE(g.knows(14));
  const std::optional<Gazetteer> parsed = saved_and_read(g);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->lookup(11).full, 0b101);
  EXPECT_EQ(parsed->lookup(12).full, 0b100);
}

// Hidden matches have a table of their own: each of many is found, and a
// later hide() keeps what an earlier one hid.
TEST(GazetteerTest, ManyHiddenWordsAndTwoHidesAreFound) {
  Gazetteer g({"common_word", "proper_adjective", "world_city"});
  for (uint64_t h = 1000; h < 1500; ++h) g.add(h * 0x9e3779b97f4a7c15ULL, h % 2 == 0 ? 1 : 2, true);
  g.add(7, 0, true);
  g.add(7, 2, false);
  g.hide(0b010);
  g.hide(0b100);
  for (uint64_t h = 1000; h < 1500; ++h) {
    const uint64_t hash = h * 0x9e3779b97f4a7c15ULL;
    EXPECT_EQ(g.lookup(hash).full, 0) << h;
    EXPECT_EQ(g.lookup_hidden(hash).full, h % 2 == 0 ? 0b010 : 0b100) << h;
  }
  EXPECT_EQ(g.lookup(7).full, 0b001);
  EXPECT_EQ(g.lookup(7).part, 0);
  EXPECT_EQ(g.lookup_hidden(7).part, 0b100);
  EXPECT_EQ(g.lookup_all(7).full, 0b001);
}

// hide() packs the table lookup() reads: every entry's matches as before,
// nothing for hashes no entry has, and an add() after it is read too.
TEST(GazetteerTest, PackedLookupsAnswerAsTheTable) {
  Gazetteer g({"a", "b", "c", "d"});
  for (uint64_t k = 1; k <= 20000; ++k) {
    const uint64_t key = k * 0x9e3779b97f4a7c15ull;
    g.add(key, k % 4, true);
    if (k % 3 == 0) g.add(key, (k / 3) % 4, false);
  }
  const Gazetteer unpacked = g;
  g.hide(0);
  ASSERT_TRUE(g.packed());
  ASSERT_FALSE(unpacked.packed());
  for (uint64_t k = 1; k <= 20000; ++k) {
    const uint64_t key = k * 0x9e3779b97f4a7c15ull;
    ASSERT_EQ(g.lookup(key).full, unpacked.lookup(key).full) << k;
    ASSERT_EQ(g.lookup(key).part, unpacked.lookup(key).part) << k;
    ASSERT_NE(g.lookup(key).full, 0) << k;
  }
  size_t false_matches = 0;
  for (uint64_t k = 20001; k <= 220000; ++k) {
    const Gazetteer::Match m = g.lookup(k * 0x9e3779b97f4a7c15ull);
    false_matches += (m.full | m.part) != 0 ? 1 : 0;
  }
  EXPECT_LE(false_matches, 2u);  // odds of one in 10^7 a lookup: 20 combinations, 27 bits of fingerprint
  g.add(7, 3, true);
  EXPECT_FALSE(g.packed());
  EXPECT_EQ(g.lookup(7).full, 0b1000);
  EXPECT_EQ(g.lookup(3 * 0x9e3779b97f4a7c15ull).full, unpacked.lookup(3 * 0x9e3779b97f4a7c15ull).full);
}

// Lists whose categories combine in more ways than a packed slot can index
// stay unpacked, and lookup() still answers.
TEST(GazetteerTest, TooManyCombinationsToPackStayUnpacked) {
  std::vector<std::string> categories;
  for (char c = 0; c < 16; ++c) categories.emplace_back(1, static_cast<char>('a' + c));
  Gazetteer g(categories);
  constexpr uint64_t kEntries = (uint64_t{1} << 16) + 2;
  for (uint64_t k = 1; k <= kEntries; ++k) {
    for (size_t c = 0; c < 16; ++c) {
      if (k & (uint64_t{1} << c)) g.add(k * 0x9e3779b97f4a7c15ull, c, true);
      if (k & (uint64_t{1} << (c + 16))) g.add(k * 0x9e3779b97f4a7c15ull, c, false);
    }
  }
  g.hide(0);
  EXPECT_FALSE(g.packed());
  for (uint64_t k = 1; k <= kEntries; ++k) {
    ASSERT_EQ(g.lookup(k * 0x9e3779b97f4a7c15ull).full, k & 0xffff) << k;
    ASSERT_EQ(g.lookup(k * 0x9e3779b97f4a7c15ull).part, (k >> 16) & 0xffff) << k;
  }
}

TEST(GazetteerTest, DamagedBytesAreRefused) {
  Gazetteer g({"a"});
  g.add(7, 0, true);
  std::string bytes;
  g.serialize(bytes);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    size_t at = 0;
    EXPECT_FALSE(Gazetteer::parse(bytes.substr(0, cut), at, "t.bin").is_ok()) << cut;
  }
  std::string foreign_bit = bytes;
  foreign_bit[foreign_bit.size() - 4] = 0x02;  // category 1 of a one-category gazetteer
  size_t at = 0;
  EXPECT_FALSE(Gazetteer::parse(foreign_bit, at, "t.bin").is_ok());
}

TEST(GazetteerTest, ReadsADirectoryOfLists) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tg_gazetteer_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  EXPECT_EQ(load_gazetteer_dir(dir.string()).status().code(), StatusCode::kNotFound);
  fs::create_directories(dir);
  EXPECT_EQ(load_gazetteer_dir(dir.string()).status().code(), StatusCode::kInvalidArgument);
  std::ofstream(dir / "last_name.txt") << "Novak\r\n\n  Okafor \n";
  std::ofstream(dir / "city.txt") << "New York\n";
  std::ofstream(dir / "README") << "not a list\n";
  auto lists = load_gazetteer_dir(dir.string());
  ASSERT_TRUE(lists.is_ok()) << lists.status().to_string();
  ASSERT_EQ(lists->size(), 2u);
  EXPECT_EQ((*lists)[0].category, "city");
  EXPECT_EQ((*lists)[1].entries, (std::vector<std::string>{"Novak", "Okafor"}));
  for (int k = 0; k < 16; ++k) std::ofstream(dir / ("extra" + std::to_string(k) + ".txt")) << "x\n";
  EXPECT_EQ(load_gazetteer_dir(dir.string()).status().code(), StatusCode::kInvalidArgument);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tiergate
