#include "tiergate/core/file_output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tiergate {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FileOutputTest, ReplacesTheFileWholeAndLeavesNoTemporary) {
  const std::string dir = ::testing::TempDir() + "tiergate-file-output";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/out.json";
  ASSERT_TRUE(write_file_atomically(path, "first").is_ok());
  ASSERT_TRUE(write_file_atomically(path, std::string("second\0bytes", 12)).is_ok());
  EXPECT_EQ(read(path), std::string("second\0bytes", 12));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove_all(dir);
}

TEST(FileOutputTest, AMissingDirectoryIsAnErrorNamingThePath) {
  Status s = write_file_atomically("/nonexistent-dir/out.json", "x");
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("/nonexistent-dir/out.json: cannot write"), std::string::npos);
}

}  // namespace
}  // namespace tiergate
