// Runs the validation table in request_cases.json, plus byte-level cases.
#include "tiergate/server/openai_request.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "case_table.h"

namespace tiergate {
namespace {

using json = nlohmann::json;

TEST(OpenAiRequestTest, ValidationTable) {
  json doc = testing::load_case_table("tests/server/request_cases.json");
  ASSERT_FALSE(doc.at("cases").empty());
  for (const auto& c : doc.at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    std::string body = c.contains("body_raw") ? c.at("body_raw").get<std::string>() : c.at("body").dump();
    ChatRequest req;
    RequestError err;
    bool ok = parse_chat_request(body, req, err);
    ASSERT_EQ(ok, c.at("ok").get<bool>()) << err.message;
    if (ok) {
      if (c.contains("model")) {
        EXPECT_EQ(req.model, c.at("model").get<std::string>());
      }
      EXPECT_FALSE(req.messages.empty());
    } else {
      EXPECT_FALSE(err.message.empty());
      if (c.contains("error_param")) {
        EXPECT_EQ(err.param, c.at("error_param").get<std::string>()) << err.message;
      }
      if (c.contains("error_contains")) {
        EXPECT_NE(err.message.find(c.at("error_contains").get<std::string>()), std::string::npos) << err.message;
      }
    }
  }
}

TEST(OpenAiRequestTest, FullRequestFields) {
  ChatRequest req;
  RequestError err;
  ASSERT_TRUE(parse_chat_request(R"({"model":"edge","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}],
      "temperature":0.5,"top_p":0.9,"top_k":40,"min_p":0.05,"seed":7,"max_tokens":16,"stop":"END",
      "logprobs":true,"top_logprobs":3,"stream":true,"stream_options":{"include_usage":true}})", req, err))
      << err.message;
  EXPECT_EQ(req.messages[0].content, "ab");
  EXPECT_DOUBLE_EQ(*req.sampling.temperature, 0.5);
  EXPECT_DOUBLE_EQ(*req.sampling.top_p, 0.9);
  EXPECT_EQ(*req.sampling.top_k, 40);
  EXPECT_DOUBLE_EQ(*req.sampling.min_p, 0.05);
  EXPECT_EQ(*req.sampling.seed, 7u);
  EXPECT_EQ(*req.sampling.max_tokens, 16);
  EXPECT_EQ(req.sampling.stop, std::vector<std::string>{"END"});
  EXPECT_TRUE(req.sampling.logprobs);
  EXPECT_EQ(req.sampling.top_logprobs, 3);
  EXPECT_TRUE(req.stream);
  EXPECT_TRUE(req.include_usage);
}

TEST(OpenAiRequestTest, InvalidUtf8IsRejected) {
  ChatRequest req;
  RequestError err;
  std::string body = "{\"messages\":[{\"role\":\"user\",\"content\":\"caf\xC3\"}]}";
  EXPECT_FALSE(parse_chat_request(body, req, err));
  EXPECT_NE(err.message.find("UTF-8"), std::string::npos);
}

}  // namespace
}  // namespace tiergate
