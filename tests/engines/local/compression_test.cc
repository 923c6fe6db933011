// The compression pipeline's building blocks on a real (synthetic) GGUF
// checkpoint: recipes, importance matrices, quantization, fidelity, speed and
// the mixed-precision budget search.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_models.h"
#include "tiergate/engines/local/fidelity.h"
#include "tiergate/engines/local/importance.h"
#include "tiergate/engines/local/mixed_precision.h"
#include "tiergate/engines/local/quantization.h"
#include "tiergate/engines/local/speed_probe.h"

namespace tiergate {
namespace {

namespace fs = std::filesystem;

// A small query log in the shape the commands read: everyday requests.
std::vector<std::vector<ChatMessage>> query_log() {
  const std::vector<std::string> prompts = {
      "Summarize the attached meeting notes in three bullet points for the sales team.",
      "What is the capital of Australia, and why is it not Sydney?",
      "Write a short, polite email asking my landlord to repair the heating before Friday.",
      "Explain the difference between a list and a tuple in Python with an example.",
      "Translate 'where is the train station' into French and German.",
      "A train leaves at 9:40 and arrives at 13:05. How long is the journey?",
      "Give me a recipe for a vegetarian lasagne that serves four people.",
      "Classify this review as positive or negative: the battery died after two days.",
      "Rewrite this sentence to sound more formal: we gotta ship this by Monday.",
      "List five questions to ask in a job interview for a data analyst position.",
      "Why does the sky look blue during the day and red at sunset?",
      "Draft a tweet announcing our new open-source library for parsing dates.",
  };
  std::vector<std::vector<ChatMessage>> log;
  for (int round = 0; round < 4; ++round) {
    for (const auto& p : prompts) log.push_back({ChatMessage{Role::kUser, p}});
  }
  return log;
}

std::string temp_dir() { return testing::make_temp_dir("tiergate-compression-"); }

FidelityParams small_fidelity() {
  FidelityParams p;
  p.context = 128;
  p.max_tokens = 512;
  return p;
}

// --- recipes -----------------------------------------------------------------

TEST(RecipeTest, ParsesBaseTypesGroupsAndNamedRecipes) {
  auto plain = parse_recipe("Q4_K_M");
  ASSERT_TRUE(plain.is_ok()) << plain.status().message();
  EXPECT_EQ(plain->name, "q4_k_m");
  EXPECT_EQ(plain->ftype, "q4_k_m");
  EXPECT_TRUE(plain->tensor_types.empty());

  auto mixed = parse_recipe("q3_k_m+attn=q8_0+output=q6_k");
  ASSERT_TRUE(mixed.is_ok()) << mixed.status().message();
  EXPECT_EQ(mixed->ftype, "q3_k_m");
  EXPECT_EQ(mixed->tensor_types.at("attn"), "q8_0");
  EXPECT_EQ(mixed->tensor_types.at("output"), "q6_k");

  auto named = parse_recipe("mix_q4_attn_q8");
  ASSERT_TRUE(named.is_ok()) << named.status().message();
  EXPECT_EQ(named->name, "mix_q4_attn_q8");
  EXPECT_EQ(named->ftype, "q4_k_m");
  EXPECT_EQ(named->tensor_types.at("attn"), "q8_0");
}

TEST(RecipeTest, BadTiersAreRefusedWithWhatIsKnown) {
  struct Case {
    const char* tier;
    const char* message_part;
  };
  for (const Case& c : {Case{"q9_k", "q4_k_m"}, Case{"", "is not one of"}, Case{"q4_k_m+attn", "GROUP=TYPE"},
                        Case{"q4_k_m+mlp=q8_0", "unknown tensor group 'mlp'"},
                        Case{"q4_k_m+attn=q9", "unknown tensor type 'q9'"}}) {
    auto r = parse_recipe(c.tier);
    ASSERT_FALSE(r.is_ok()) << c.tier;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << c.tier;
    EXPECT_NE(r.status().message().find(c.message_part), std::string::npos) << c.tier << ": " << r.status().message();
  }
}

TEST(RecipeTest, BitsPerWeightOfKnownTypes) {
  EXPECT_DOUBLE_EQ(type_bits_per_weight("q8_0"), 8.5);
  EXPECT_DOUBLE_EQ(type_bits_per_weight("q4_k"), 4.5);
  EXPECT_DOUBLE_EQ(type_bits_per_weight("f16"), 16);
  EXPECT_EQ(type_bits_per_weight("nonsense"), 0);
}

// --- budget search (pure) ----------------------------------------------------

CheckpointCosts two_tensor_costs() {
  CheckpointCosts c;
  c.fixed_bytes = 100;
  // "a" gains a lot per byte from its first upgrade; "b" little.
  c.tensors.push_back({"a", 10, 10, {{"q2_k", 100, 0.50}, {"q4_k", 200, 0.10}, {"q8_0", 400, 0.01}}});
  c.tensors.push_back({"b", 10, 10, {{"q2_k", 100, 0.20}, {"q4_k", 200, 0.15}, {"q8_0", 400, 0.14}}});
  return c;
}

TEST(BudgetSearchTest, SpendsBytesWhereTheyRemoveMostError) {
  const CheckpointCosts costs = two_tensor_costs();
  EXPECT_EQ(minimum_bytes(costs), 300);

  auto at_min = allocate_budget(costs, 300);
  ASSERT_TRUE(at_min.is_ok());
  EXPECT_EQ(at_min->recipe.tensor_types.at("a"), "q2_k");
  EXPECT_TRUE(at_min->path.empty());
  EXPECT_DOUBLE_EQ(at_min->error, 0.70);

  auto some = allocate_budget(costs, 420);
  ASSERT_TRUE(some.is_ok());
  EXPECT_EQ(some->recipe.tensor_types.at("a"), "q4_k");  // 0.4 error per 100 bytes beats everything else
  EXPECT_EQ(some->recipe.tensor_types.at("b"), "q2_k");
  EXPECT_EQ(some->bytes, 400);
  ASSERT_EQ(some->path.size(), 1u);
  EXPECT_EQ(some->path[0].tensor, "a");
  EXPECT_EQ(some->path[0].from, "q2_k");
  EXPECT_EQ(some->path[0].to, "q4_k");

  auto all = allocate_budget(costs, 10000);
  ASSERT_TRUE(all.is_ok());
  EXPECT_EQ(all->recipe.tensor_types.at("a"), "q8_0");
  EXPECT_EQ(all->recipe.tensor_types.at("b"), "q8_0");
  EXPECT_EQ(all->bytes, 900);
  for (size_t i = 1; i < all->path.size(); ++i) {
    EXPECT_GT(all->path[i].bytes, all->path[i - 1].bytes);
    EXPECT_LT(all->path[i].error, all->path[i - 1].error);
  }
}

TEST(BudgetSearchTest, ABudgetBelowTheSmallestMixtureIsRefusedWithThatSize) {
  auto r = allocate_budget(two_tensor_costs(), 299);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("(300 bytes)"), std::string::npos) << r.status().message();
}

// --- on a real checkpoint --------------------------------------------------------

TEST(CompressionTest, CheckpointInfoReadsTheHeader) {
  auto info = read_checkpoint_info(testing::synthetic_checkpoint());
  ASSERT_TRUE(info.is_ok()) << info.status().message();
  EXPECT_EQ(info->architecture, "llama");
  EXPECT_EQ(info->name, "tiergate-synthetic-L2-E256");
  EXPECT_EQ(info->layers, 2);
  EXPECT_EQ(info->embd, 256);
  EXPECT_EQ(info->weight_type, "f16");
  EXPECT_GT(info->parameters, 256 * 32000);
  EXPECT_EQ(info->kv_cache_bytes(100), 2 * 2 * 256 * 100 * 2);
}

TEST(CompressionTest, ImportanceMatrixCoversEveryMatrixAndRoundTrips) {
  ImportanceParams p;
  p.context = 128;
  p.max_tokens = 512;
  auto m = compute_importance(testing::synthetic_checkpoint(), query_log(), p);
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_GT(m->tokens, 100);
  for (const char* name : {"blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight",
                           "blk.0.attn_output.weight", "blk.1.ffn_gate.weight", "blk.1.ffn_up.weight",
                           "blk.1.ffn_down.weight", "output.weight"}) {
    ASSERT_TRUE(m->columns.contains(name)) << name;
  }
  EXPECT_EQ(m->columns.at("blk.0.attn_q.weight").size(), 256u);
  EXPECT_EQ(m->columns.at("blk.1.ffn_down.weight").size(), 768u);  // ff of embd 256
  // Outlier channels: the norm weights spread the activations, so the matrix
  // is far from flat (the largest column well above the mean).
  const auto& q = m->columns.at("blk.0.attn_q.weight");
  double sum = 0, max = 0;
  for (float v : q) {
    ASSERT_TRUE(std::isfinite(v) && v >= 0);
    sum += v;
    max = std::max(max, double(v));
  }
  EXPECT_GT(max, 5 * sum / double(q.size()));

  const std::string path = temp_dir() + "/importance.json";
  ASSERT_TRUE(save_importance(path, *m).is_ok());
  auto loaded = load_importance(path);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  EXPECT_EQ(loaded->columns, m->columns);
  EXPECT_EQ(loaded->tokens, m->tokens);

  std::ofstream(path) << "{\"format\": \"something-else\"}";
  EXPECT_EQ(load_importance(path).status().code(), StatusCode::kInvalidArgument);
}

TEST(CompressionTest, MoreBitsFollowTheReferenceMoreClosely) {
  const std::string dir = temp_dir();
  auto reference = measure_reference(testing::synthetic_checkpoint(), query_log(), small_fidelity());
  ASSERT_TRUE(reference.is_ok()) << reference.status().message();
  EXPECT_GT((*reference)->positions(), 100);

  std::vector<FidelityReport> reports;
  std::vector<uintmax_t> sizes;
  for (const char* tier : {"q8_0", "q4_k_m", "q2_k"}) {
    const std::string out = dir + "/" + tier + ".gguf";
    int progress_calls = 0;
    QuantizeParams qp;
    qp.on_progress = [&](const QuantizeProgress& p) {
      ++progress_calls;
      EXPECT_LE(p.tensors_done, p.tensors_total);
    };
    Status s = quantize_checkpoint(testing::synthetic_checkpoint(), out, *parse_recipe(tier), qp);
    ASSERT_TRUE(s.is_ok()) << tier << ": " << s.message();
    EXPECT_GT(progress_calls, 10) << tier;
    EXPECT_FALSE(fs::exists(out + ".tmp"));
    sizes.push_back(fs::file_size(out));
    auto f = measure_fidelity(out, **reference, small_fidelity());
    ASSERT_TRUE(f.is_ok()) << f.status().message();
    EXPECT_EQ(f->tokens, (*reference)->positions());
    EXPECT_GT(f->kl_mean, 0);
    EXPECT_GE(f->kl_p99, f->kl_mean);
    EXPECT_GT(f->top1_agreement, 0);
    EXPECT_LE(f->top1_agreement, 1);
    EXPECT_DOUBLE_EQ(f->reference_perplexity, (*reference)->perplexity());
    reports.push_back(*f);
  }
  EXPECT_GT(sizes[0], sizes[1]);
  EXPECT_GT(sizes[1], sizes[2]);
  EXPECT_LT(reports[0].kl_mean, reports[1].kl_mean);
  EXPECT_LT(reports[1].kl_mean, reports[2].kl_mean);
  EXPECT_GT(reports[0].top1_agreement, reports[2].top1_agreement);

  // The reference against itself: no divergence at all.
  auto self = measure_fidelity(testing::synthetic_checkpoint(), **reference, small_fidelity());
  ASSERT_TRUE(self.is_ok());
  EXPECT_NEAR(self->kl_mean, 0, 1e-6);
  EXPECT_DOUBLE_EQ(self->top1_agreement, 1);
}

TEST(CompressionTest, TheBudgetSearchMeetsItsBudget) {
  ImportanceParams ip;
  ip.context = 128;
  ip.max_tokens = 512;
  auto importance = compute_importance(testing::synthetic_checkpoint(), query_log(), ip);
  ASSERT_TRUE(importance.is_ok());
  auto costs = measure_tensor_costs(testing::synthetic_checkpoint(), &*importance, CostParams{});
  ASSERT_TRUE(costs.is_ok()) << costs.status().message();
  ASSERT_EQ(costs->tensors.size(), 2u + 2u * 7u);  // token_embd, output, 7 matrices per layer
  for (const TensorCost& t : costs->tensors) {
    ASSERT_EQ(t.options.size(), 6u) << t.name;
    EXPECT_GT(t.options.front().error, t.options.back().error) << t.name;  // q2_k loses more than q8_0
  }
  const std::string dir = temp_dir();
  const std::string q3 = dir + "/q3.gguf";
  const std::string q5 = dir + "/q5.gguf";
  ASSERT_TRUE(quantize_checkpoint(testing::synthetic_checkpoint(), q3, *parse_recipe("q3_k_m"), {}).is_ok());
  ASSERT_TRUE(quantize_checkpoint(testing::synthetic_checkpoint(), q5, *parse_recipe("q5_k_m"), {}).is_ok());
  const auto budget = static_cast<int64_t>((fs::file_size(q3) + fs::file_size(q5)) / 2);
  auto allocation = allocate_budget(*costs, budget);
  ASSERT_TRUE(allocation.is_ok()) << allocation.status().message();
  EXPECT_LE(allocation->bytes, budget);
  EXPECT_FALSE(allocation->path.empty());

  const std::string mixed = dir + "/mixed.gguf";
  QuantizeParams qp;
  qp.importance = &*importance;
  Status s = quantize_checkpoint(testing::synthetic_checkpoint(), mixed, allocation->recipe, qp);
  ASSERT_TRUE(s.is_ok()) << s.message();
  // The estimate is the file's size but for metadata llama.cpp adds (under 64 KiB).
  const auto actual = static_cast<int64_t>(fs::file_size(mixed));
  EXPECT_LE(std::abs(actual - allocation->bytes), 64 * 1024) << actual << " vs " << allocation->bytes;

  auto too_small = allocate_budget(*costs, minimum_bytes(*costs) - 1);
  EXPECT_EQ(too_small.status().code(), StatusCode::kInvalidArgument);
}

TEST(CompressionTest, SpeedProbeMeasuresBothPhases) {
  SpeedParams p;
  p.prompt_tokens = 32;
  p.decode_tokens = 8;
  auto r = measure_speed(testing::synthetic_checkpoint(), p);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_GT(r->prefill_tps, 0);
  EXPECT_GT(r->decode_tps, 0);
  EXPECT_EQ(r->prompt_tokens, 32);
  EXPECT_EQ(r->decode_tokens, 8);
  p.decode_tokens = 0;
  EXPECT_EQ(measure_speed(testing::synthetic_checkpoint(), p).status().code(), StatusCode::kInvalidArgument);
}

// --- bad input ------------------------------------------------------------------

TEST(CompressionTest, AMissingOrBrokenCheckpointLeavesNoOutput) {
  const std::string dir = temp_dir();
  const std::string out = dir + "/out.gguf";
  const QuantizationRecipe recipe = *parse_recipe("q4_k_m");

  Status missing = quantize_checkpoint(dir + "/nope.gguf", out, recipe, {});
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);

  const std::string not_gguf = dir + "/text.gguf";
  std::ofstream(not_gguf) << "this is not a model";
  EXPECT_EQ(quantize_checkpoint(not_gguf, out, recipe, {}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(read_checkpoint_info(not_gguf).status().code(), StatusCode::kInvalidArgument);

  // The first 200 KB of a real checkpoint: a valid header, data cut short.
  const std::string truncated = dir + "/truncated.gguf";
  fs::copy_file(testing::synthetic_checkpoint(), truncated);
  fs::resize_file(truncated, 200 * 1024);
  Status cut = quantize_checkpoint(truncated, out, recipe, {});
  EXPECT_FALSE(cut.is_ok());
  EXPECT_NE(cut.message().find("truncated.gguf"), std::string::npos) << cut.message();
  EXPECT_FALSE(measure_tensor_costs(truncated, nullptr, CostParams{}).is_ok());

  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".tmp"));
}

TEST(CompressionTest, ATypeThatNeedsAnImportanceMatrixIsRefusedWithoutOne) {
  const std::string out = temp_dir() + "/out.gguf";
  auto recipe = parse_recipe("q4_k_m+ffn=iq2_xxs");
  ASSERT_TRUE(recipe.is_ok()) << recipe.status().message();
  EXPECT_TRUE(recipe_requires_importance(*recipe));
  Status s = quantize_checkpoint(testing::synthetic_checkpoint(), out, *recipe, {});
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_FALSE(fs::exists(out));
}

// A real trained model (stories260K, embedding size 64: too narrow for the
// k-quants, so q8_0) on a query log built from the shared prompts.
TEST(CompressionTest, ARealModelQuantizedOnRealPromptsStaysClose) {
  const std::string stories = testing::stories_model();
  const std::string prompts = std::string(TIERGATE_SOURCE_DIR) + "/../shared/data/prompts/prompt_categories_dev.jsonl";
  if (stories.empty() || !fs::exists(prompts)) {
    GTEST_SKIP() << "../shared/models/stories260K.gguf or ../shared/data/prompts is absent";
  }
  std::vector<std::vector<ChatMessage>> log;
  std::ifstream in(prompts);
  for (std::string line; std::getline(in, line) && log.size() < 200;) {
    log.push_back({ChatMessage{Role::kUser, nlohmann::json::parse(line).value("prompt", "")}});
  }
  ASSERT_GT(log.size(), 100u);
  ImportanceParams ip;
  ip.context = 128;
  ip.max_tokens = 2048;
  auto importance = compute_importance(stories, log, ip);
  ASSERT_TRUE(importance.is_ok()) << importance.status().message();
  const std::string out = temp_dir() + "/stories-q8_0.gguf";
  QuantizeParams qp;
  qp.importance = &*importance;
  ASSERT_TRUE(quantize_checkpoint(stories, out, *parse_recipe("q8_0"), qp).is_ok());
  EXPECT_LT(fs::file_size(out), fs::file_size(stories));
  auto reference = measure_reference(stories, log, small_fidelity());
  ASSERT_TRUE(reference.is_ok()) << reference.status().message();
  auto f = measure_fidelity(out, **reference, small_fidelity());
  ASSERT_TRUE(f.is_ok()) << f.status().message();
  // A trained model's 8-bit variant barely moves its predictions.
  EXPECT_LT(f->kl_mean, 0.01);
  EXPECT_GT(f->top1_agreement, 0.9);
  EXPECT_LT(f->perplexity, 1.05 * f->reference_perplexity);
}

TEST(CompressionTest, AVariantOfAnotherVocabularyIsNotCompared) {
  const std::string stories = testing::stories_model();
  if (stories.empty()) GTEST_SKIP() << "../shared/models/stories260K.gguf is absent";
  auto reference = measure_reference(testing::synthetic_checkpoint(), query_log(), small_fidelity());
  ASSERT_TRUE(reference.is_ok());
  auto f = measure_fidelity(stories, **reference, small_fidelity());
  EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tiergate
