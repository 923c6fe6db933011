#include "tiergate/server/openai_response.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

using json = nlohmann::json;

TEST(OpenAiResponseTest, CompletionShape) {
  Completion c;
  c.model = "m";
  c.text = "hi";
  c.usage = {3, 1};
  c.logprobs.push_back({"hi", -0.5, {{"hi", -0.5}, {"yo", -1.5}}});
  AnswerInfo info{"edge", "auto:short_prompt", "m", 0.001, 12.5, 1, false};
  json j = json::parse(completion_json({"chatcmpl-1", 100}, c, info, true));
  EXPECT_EQ(j["object"], "chat.completion");
  EXPECT_EQ(j["choices"][0]["message"]["content"], "hi");
  EXPECT_EQ(j["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(j["usage"]["total_tokens"], 4);
  EXPECT_EQ(j["choices"][0]["logprobs"]["content"][0]["top_logprobs"].size(), 2u);
  EXPECT_EQ(j["choices"][0]["logprobs"]["content"][0]["bytes"], json::array({104, 105}));
  EXPECT_EQ(j["tiergate"]["tier"], "edge");
  EXPECT_EQ(j["tiergate"]["route"], "auto:short_prompt");
  EXPECT_DOUBLE_EQ(j["tiergate"]["cost_usd"].get<double>(), 0.001);
}

TEST(OpenAiResponseTest, InvalidUtf8InTokensIsReplacedNotThrown) {
  Delta d{"ok", {{"\xE2\x82", -0.1, {}}}};
  std::string s = chunk_delta_json({"id", 1}, "m", d, true);
  json parsed;
  EXPECT_NO_THROW(parsed = json::parse(s));
  EXPECT_EQ(parsed["choices"][0]["delta"]["content"], "ok");
}

TEST(OpenAiResponseTest, ErrorShapeAndStatus) {
  json j = json::parse(error_json(not_found("The model 'x' does not exist")));
  EXPECT_EQ(j["error"]["type"], "invalid_request_error");
  EXPECT_EQ(j["error"]["code"], "model_not_found");
  EXPECT_TRUE(j["error"]["param"].is_null());
  EXPECT_EQ(http_status_for(unavailable("x")), 503);
  EXPECT_EQ(http_status_for(deadline_exceeded("x")), 504);
  EXPECT_EQ(http_status_for(resource_exhausted("x")), 429);
  EXPECT_EQ(http_status_for(invalid_argument("x")), 400);
  json ctx = json::parse(error_json(invalid_argument("context_length_exceeded: too long")));
  EXPECT_EQ(ctx["error"]["code"], "context_length_exceeded");
}

TEST(OpenAiResponseTest, StreamChunks) {
  json role = json::parse(chunk_role_json({"id", 1}, "m"));
  EXPECT_EQ(role["object"], "chat.completion.chunk");
  EXPECT_EQ(role["choices"][0]["delta"]["role"], "assistant");
  json fin = json::parse(chunk_finish_json({"id", 1}, "m", FinishReason::kLength, AnswerInfo{"edge", "r", "m"}));
  EXPECT_EQ(fin["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(fin["tiergate"]["tier"], "edge");
  json usage = json::parse(chunk_usage_json({"id", 1}, "m", Usage{5, 7}));
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["total_tokens"], 12);
}

// The delta chunk is written by hand for speed; it must be the very text the
// JSON library gives for the same object, escapes and replaced bytes included.
TEST(OpenAiResponseTest, DeltaChunkMatchesTheJsonTreeRendering) {
  const std::vector<std::string> texts = {"", " the", "quote \" back\\slash", "tab\tnew\nline\x01",
                                          "caf\xC3\xA9 \xE2\x82", "\xFF alone", "</script>"};
  const CompletionIds ids{"chatcmpl-\"odd\"", 1795963309};
  for (const std::string& text : texts) {
    json expected = {{"id", ids.id},
                     {"object", "chat.completion.chunk"},
                     {"created", ids.created},
                     {"model", "m\xC3"},
                     {"system_fingerprint", nullptr},
                     {"choices", json::array({{{"index", 0},
                                               {"delta", {{"content", text}}},
                                               {"logprobs", nullptr},
                                               {"finish_reason", nullptr}}})}};
    EXPECT_EQ(chunk_delta_json(ids, "m\xC3", Delta{text, {}}, false),
              expected.dump(-1, ' ', false, json::error_handler_t::replace))
        << "text: " << text;
  }
}

TEST(OpenAiResponseTest, TraceIsSplicedIntoTheTiergateObject) {
  AnswerInfo info{"edge", "r", "m"};
  info.trace_json = R"({"stages":{"intent":"chat"},"decided_by":"rule"})";
  Completion c;
  c.text = "hi";
  json body = json::parse(completion_json({"id", 1}, c, info, false));
  EXPECT_EQ(body["tiergate"]["trace"]["stages"]["intent"], "chat");
  EXPECT_EQ(body["tiergate"]["trace"]["decided_by"], "rule");
  EXPECT_EQ(body["tiergate"]["tier"], "edge");
  EXPECT_EQ(body["choices"][0]["message"]["content"], "hi");
  json fin = json::parse(chunk_finish_json({"id", 1}, "m", FinishReason::kStop, info));
  EXPECT_EQ(fin["tiergate"]["trace"]["decided_by"], "rule");
  EXPECT_EQ(fin["choices"][0]["finish_reason"], "stop");
  info.trace_json.clear();
  EXPECT_FALSE(json::parse(completion_json({"id", 1}, c, info, false))["tiergate"].contains("trace"));
}

}  // namespace
}  // namespace tiergate
