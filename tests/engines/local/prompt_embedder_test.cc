// The edge model's embedding of a request (router embedding part) on real
// GGUF files: a synthetic model, and stories260K when ../shared has it.
#include "tiergate/engines/local/prompt_embedder.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_models.h"

namespace tiergate {
namespace {

double norm(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += double{x} * x;
  return std::sqrt(s);
}

void expect_unit_and_deterministic(const std::string& path) {
  auto embedder = PromptEmbedder::open(path, PromptEmbedderParams{});
  ASSERT_TRUE(embedder.is_ok()) << embedder.status().message();
  PromptEmbedder& e = **embedder;
  EXPECT_GT(e.dimension(), 0);
  EXPECT_NE(e.fingerprint().find("n_embd " + std::to_string(e.dimension())), std::string::npos) << e.fingerprint();

  std::vector<float> a, again, b;
  ASSERT_TRUE(e.embed("Once upon a time there was a little girl.", a).is_ok());
  ASSERT_TRUE(e.embed("Once upon a time there was a little girl.", again).is_ok());
  ASSERT_TRUE(e.embed("The dog ran to the big red ball in the park.", b).is_ok());
  ASSERT_EQ(a.size(), static_cast<size_t>(e.dimension()));
  EXPECT_NEAR(norm(a), 1.0, 1e-4);
  EXPECT_NEAR(norm(b), 1.0, 1e-4);
  EXPECT_EQ(a, again);  // a fresh sequence each time: nothing carries over
  EXPECT_NE(a, b);

  // A text longer than max_tokens reads its opening only.
  std::string long_text;
  for (int i = 0; i < 400; ++i) long_text += "the cat sat on the mat. ";
  std::vector<float> long_embedding;
  ASSERT_TRUE(e.embed(long_text, long_embedding).is_ok());
  EXPECT_NEAR(norm(long_embedding), 1.0, 1e-4);

  std::vector<float> empty;
  ASSERT_TRUE(e.embed("", empty).is_ok());
  EXPECT_EQ(empty, std::vector<float>(static_cast<size_t>(e.dimension()), 0.0f));
}

TEST(PromptEmbedderTest, SyntheticModelGivesUnitDeterministicEmbeddings) {
  expect_unit_and_deterministic(testing::synthetic_model());
}

TEST(PromptEmbedderTest, StoriesModelGivesUnitDeterministicEmbeddings) {
  const std::string path = testing::stories_model();
  if (path.empty()) GTEST_SKIP() << "../shared/models/stories260K.gguf is absent (the shared models live beside the repository)";
  expect_unit_and_deterministic(path);
}

TEST(PromptEmbedderTest, BadFilesAreClearErrors) {
  auto missing = PromptEmbedder::open("/nonexistent/edge.gguf", PromptEmbedderParams{});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/edge.gguf"), std::string::npos);
  PromptEmbedderParams none;
  none.max_tokens = 0;
  EXPECT_EQ(PromptEmbedder::open(testing::synthetic_model(), none).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tiergate
