#include "tiergate/engines/cloud/openai_wire.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

using nlohmann::json;

TEST(OpenAiWireTest, BodyCarriesModelMessagesAndStreaming) {
  ChatRequest request;
  request.messages = {{Role::kSystem, "be brief"}, {Role::kUser, "hi"}};
  request.stream = false;  // the upstream is streamed anyway
  auto body = build_chat_body(request, "gpt-test");
  ASSERT_TRUE(body.is_ok());
  json j = json::parse(*body);
  EXPECT_EQ(j["model"], "gpt-test");
  EXPECT_EQ(j["stream"], true);
  EXPECT_EQ(j["stream_options"]["include_usage"], true);
  ASSERT_EQ(j["messages"].size(), 2u);
  EXPECT_EQ(j["messages"][0]["role"], "system");
  EXPECT_EQ(j["messages"][1]["content"], "hi");
  for (const char* key : {"temperature", "top_p", "top_k", "min_p", "seed", "max_tokens", "stop",
                          "logprobs", "top_logprobs", "user"}) {
    EXPECT_FALSE(j.contains(key)) << key;
  }
}

TEST(OpenAiWireTest, BodyCarriesSamplingWhenSet) {
  ChatRequest request;
  request.messages = {{Role::kUser, "hi"}};
  request.sampling.temperature = 0.5;
  request.sampling.top_p = 0.9;
  request.sampling.top_k = 40;
  request.sampling.min_p = 0.05;
  request.sampling.seed = 42;
  request.sampling.max_tokens = 16;
  request.sampling.stop = {"\n\n", "END"};
  request.sampling.logprobs = true;
  request.sampling.top_logprobs = 3;
  auto body = build_chat_body(request, "m");
  ASSERT_TRUE(body.is_ok());
  json j = json::parse(*body);
  EXPECT_DOUBLE_EQ(j["temperature"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["top_p"].get<double>(), 0.9);
  EXPECT_EQ(j["top_k"], 40);
  EXPECT_DOUBLE_EQ(j["min_p"].get<double>(), 0.05);
  EXPECT_EQ(j["seed"], 42);
  EXPECT_EQ(j["max_tokens"], 16);
  EXPECT_EQ(j["stop"], json::array({"\n\n", "END"}));
  EXPECT_EQ(j["logprobs"], true);
  EXPECT_EQ(j["top_logprobs"], 3);
}

TEST(OpenAiWireTest, InvalidUtf8IsInvalidArgumentWithoutPromptText) {
  ChatRequest request;
  request.messages = {{Role::kUser, "secret \xFF prompt"}};
  auto body = build_chat_body(request, "m");
  ASSERT_FALSE(body.is_ok());
  EXPECT_EQ(body.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(body.status().message().find("secret"), std::string::npos);
}

TEST(OpenAiWireTest, ParsesChunkWithLogprobsAndFinish) {
  auto chunk = parse_stream_chunk(R"({"model":"m1","choices":[{"index":0,
      "delta":{"content":"Hi"},"finish_reason":"length",
      "logprobs":{"content":[{"token":"Hi","logprob":-0.25,"bytes":[72,105],
        "top_logprobs":[{"token":"Hi","logprob":-0.25},{"token":"Hello","logprob":-1.5}]}]}}]})");
  ASSERT_TRUE(chunk.is_ok());
  EXPECT_EQ(chunk->model, "m1");
  EXPECT_EQ(chunk->text, "Hi");
  EXPECT_EQ(chunk->finish, FinishReason::kLength);
  ASSERT_EQ(chunk->logprobs.size(), 1u);
  EXPECT_EQ(chunk->logprobs[0].token, "Hi");
  EXPECT_DOUBLE_EQ(chunk->logprobs[0].logprob, -0.25);
  ASSERT_EQ(chunk->logprobs[0].top.size(), 2u);
  EXPECT_EQ(chunk->logprobs[0].top[1].token, "Hello");
  EXPECT_DOUBLE_EQ(chunk->logprobs[0].top[1].logprob, -1.5);
}

TEST(OpenAiWireTest, ParsesUsageChunkAndStopReasons) {
  auto usage = parse_stream_chunk(
      R"({"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":5,"total_tokens":16}})");
  ASSERT_TRUE(usage.is_ok());
  ASSERT_TRUE(usage->usage.has_value());
  EXPECT_EQ(usage->usage->prompt_tokens, 11);
  EXPECT_EQ(usage->usage->completion_tokens, 5);
  auto stop = parse_stream_chunk(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null})");
  ASSERT_TRUE(stop.is_ok());
  EXPECT_EQ(stop->finish, FinishReason::kStop);
  EXPECT_FALSE(stop->usage.has_value());
  auto tool = parse_stream_chunk(R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})");
  ASSERT_TRUE(tool.is_ok());
  EXPECT_EQ(tool->finish, FinishReason::kStop);
}

TEST(OpenAiWireTest, MalformedChunksAreStatusesNotExceptions) {
  for (const char* bad : {"not json", "[1,2]", "{\"choices\":", "\"str\"", ""}) {
    auto chunk = parse_stream_chunk(bad);
    EXPECT_FALSE(chunk.is_ok()) << bad;
    EXPECT_EQ(chunk.status().code(), StatusCode::kUnavailable);
  }
  // Wrong types inside an object are ignored, not thrown.
  auto odd = parse_stream_chunk(R"({"model":5,"choices":[{"delta":{"content":7},"logprobs":{"content":[1]}}],"usage":"x"})");
  ASSERT_TRUE(odd.is_ok());
  EXPECT_EQ(odd->text, "");
  EXPECT_TRUE(odd->logprobs.empty());
}

TEST(OpenAiWireTest, ErrorInStreamIsReported) {
  auto chunk = parse_stream_chunk(R"({"error":{"message":"overloaded","type":"server_error"}})");
  ASSERT_TRUE(chunk.is_ok());
  EXPECT_EQ(chunk->error, std::optional<std::string>("overloaded"));
}

TEST(OpenAiWireTest, ParsesNonStreamingCompletion) {
  auto body = parse_completion_body(R"({"model":"m2","choices":[{"index":0,
      "message":{"role":"assistant","content":"whole answer"},"finish_reason":"stop"}],
      "usage":{"prompt_tokens":3,"completion_tokens":2}})");
  ASSERT_TRUE(body.is_ok());
  EXPECT_EQ(body->model, "m2");
  EXPECT_EQ(body->text, "whole answer");
  EXPECT_EQ(body->usage->total(), 5);
  EXPECT_FALSE(parse_completion_body(R"({"object":"list"})").is_ok());
}

TEST(OpenAiWireTest, ExtractsErrorMessages) {
  EXPECT_EQ(extract_error_message(R"({"error":{"message":"bad temperature"}})"), "bad temperature");
  EXPECT_EQ(extract_error_message(R"({"error":"plain"})"), "plain");
  EXPECT_EQ(extract_error_message(R"({"object":"error","message":"vllm says no"})"), "vllm says no");
  EXPECT_EQ(extract_error_message(R"({"detail":"not found"})"), "not found");
  EXPECT_EQ(extract_error_message("<html>"), "");
  std::string long_message(1000, 'x');
  EXPECT_LE(extract_error_message(R"({"error":{"message":")" + long_message + "\"}}", 50).size(), 53u);
}

TEST(OpenAiWireTest, ParsesModelList) {
  auto ids = parse_model_list(R"({"object":"list","data":[{"id":"a"},{"id":"b"},{"x":1}]})");
  ASSERT_TRUE(ids.is_ok());
  EXPECT_EQ(*ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(parse_model_list("{}").is_ok());
}

}  // namespace
}  // namespace tiergate
