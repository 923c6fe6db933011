#include "tiergate/engines/cloud/cloud_engine.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <thread>
#include <utility>

#include "http_transfer.h"
#include "tiergate/engines/cloud/openai_wire.h"
#include "tiergate/engines/cloud/sse_parser.h"

namespace tiergate {
namespace {

using cloud_detail::BodyConsumer;
using cloud_detail::ResponseInfo;
using cloud_detail::TransferError;
using cloud_detail::TransferRequest;
using cloud_detail::TransferResult;
using std::chrono::milliseconds;

constexpr milliseconds kWaitSlice{20};
constexpr milliseconds kMaxBackoff{30000};

std::string without_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

const Clock& default_clock() {
  static const SystemClock clock;
  return clock;
}

std::string lower_ascii(std::string_view s) {
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return lower;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Sleeps for duration in slices, polling sink.cancelled(); false when cancelled.
bool wait_unless_cancelled(milliseconds duration, TokenSink& sink) {
  while (duration > milliseconds::zero()) {
    if (sink.cancelled()) return false;
    milliseconds slice = std::min(duration, kWaitSlice);
    std::this_thread::sleep_for(slice);
    duration -= slice;
  }
  return !sink.cancelled();
}

Status with_suffix(const Status& status, const std::string& suffix) {
  return Status(status.code(), status.message() + suffix);
}

}  // namespace

struct CloudEngine::AttemptOutcome {
  StatusOr<Completion> result = internal_error("no attempt was made");
  bool retryable = false;  // the failure is transient (connection, 5xx, 429)
  bool forwarded = false;  // a delta reached the sink
  std::optional<int64_t> retry_after_s;
};

// Turns the body of a 2xx response (SSE or a plain JSON completion) into
// deltas for the sink and the pieces of the Completion. Used on the thread
// that called generate().
class CloudEngine::StreamConsumer final : public BodyConsumer {
 public:
  explicit StreamConsumer(TokenSink& sink) : sink_(sink) {}

  void on_headers(const ResponseInfo& info) override {
    const std::string content_type = lower_ascii(info.content_type);
    if (content_type.find("application/json") != std::string::npos) {
      mode_ = BodyMode::kJson;
    } else if (content_type.find("text/event-stream") != std::string::npos) {
      mode_ = BodyMode::kSse;
    }
  }

  bool on_body(std::string_view bytes) override {
    if (mode_ == BodyMode::kUndecided) {
      // No usable Content-Type: a body that starts with '{' is a plain JSON completion.
      size_t first = bytes.find_first_not_of(" \t\r\n");
      if (first == std::string_view::npos) {
        body_.append(bytes);
        return true;
      }
      mode_ = bytes[first] == '{' ? BodyMode::kJson : BodyMode::kSse;
      if (mode_ == BodyMode::kSse && !body_.empty()) {
        std::string held = std::move(body_);
        body_.clear();
        if (!on_body(held)) return false;
      }
    }
    if (mode_ == BodyMode::kJson) {
      body_.append(bytes);
      return true;
    }
    for (const std::string& payload : parser_.feed(bytes)) {
      if (!handle_payload(payload)) return false;
    }
    return true;
  }

  bool cancelled() override { return sink_.cancelled(); }

  // Completes a response that arrived whole; the Completion or why not.
  StatusOr<Completion> finish(const ChatRequest& request, const std::string& model) {
    if (mode_ == BodyMode::kJson) {
      StatusOr<WireChunk> chunk = parse_completion_body(body_);
      if (!chunk.is_ok()) return chunk.status();
      if (!apply(*chunk)) return failure();
    } else {
      if (std::optional<std::string> last = parser_.finish()) {
        if (!handle_payload(*last)) return failure();
      }
      if (!done_ && !finish_reason_) return unavailable("the stream ended before [DONE]");
    }
    Completion completion;
    completion.model = model_.empty() ? model : model_;
    completion.text = std::move(text_);
    completion.logprobs = std::move(logprobs_);
    completion.finish = finish_reason_.value_or(FinishReason::kStop);
    if (usage_) {
      completion.usage = *usage_;
    } else {
      completion.usage.prompt_tokens = estimate_prompt_tokens(request.messages);
      completion.usage.completion_tokens = estimate_tokens(completion.text);
      completion.usage_counted = true;
    }
    return completion;
  }

  // Why on_body() or finish() stopped: kCancelled when the sink refused a
  // delta, else the stream's error.
  Status failure() const {
    if (sink_rejected_) return tiergate::cancelled("the client went away");
    return stream_error_;
  }

  bool forwarded() const { return forwarded_; }

 private:
  bool handle_payload(std::string_view payload) {
    payload = trim_spaces(payload);
    if (done_ || payload.empty()) return true;
    if (payload == "[DONE]") {
      done_ = true;
      return true;
    }
    StatusOr<WireChunk> chunk = parse_stream_chunk(payload);
    if (!chunk.is_ok()) {
      stream_error_ = chunk.status();
      return false;
    }
    return apply(*chunk);
  }

  bool apply(WireChunk& chunk) {
    if (chunk.error) {
      stream_error_ = unavailable("the upstream reported an error: " + *chunk.error);
      return false;
    }
    if (model_.empty()) model_ = std::move(chunk.model);
    if (chunk.usage) usage_ = chunk.usage;
    if (chunk.finish) finish_reason_ = chunk.finish;
    if (chunk.text.empty() && chunk.logprobs.empty()) return true;
    Delta delta{std::move(chunk.text), std::move(chunk.logprobs)};
    text_ += delta.text;
    logprobs_.insert(logprobs_.end(), delta.logprobs.begin(), delta.logprobs.end());
    forwarded_ = true;
    if (!sink_.on_delta(delta)) {
      sink_rejected_ = true;
      return false;
    }
    return true;
  }

  TokenSink& sink_;
  enum class BodyMode { kUndecided, kSse, kJson };
  BodyMode mode_ = BodyMode::kUndecided;
  std::string body_;  // the whole body in JSON mode (leading whitespace while undecided)
  SseParser parser_;
  bool done_ = false;  // [DONE] seen
  bool forwarded_ = false;
  bool sink_rejected_ = false;
  Status stream_error_ = unavailable("the stream was interrupted");
  std::string model_;
  std::string text_;
  std::vector<TokenLogprob> logprobs_;
  std::optional<FinishReason> finish_reason_;
  std::optional<Usage> usage_;
};

namespace {

// A Status for a transfer that did not complete (error != kNone).
Status transfer_failure(const TransferResult& result, const UpstreamConfig& config,
                        const std::string& prefix) {
  switch (result.error) {
    case TransferError::kNone:
      return internal_error(prefix + ": transfer_failure called for a complete transfer");
    case TransferError::kConnect:
      return unavailable(prefix + ": cannot connect: " + result.detail);
    case TransferError::kConnectTimeout:
      return unavailable(prefix + ": no connection within " +
                         std::to_string(config.connect_timeout_ms) + " ms");
    case TransferError::kFirstByteTimeout:
      return deadline_exceeded(prefix + ": no response within " +
                               std::to_string(config.first_byte_timeout_ms) +
                               " ms (first_byte_timeout_ms)");
    case TransferError::kTotalTimeout:
      return deadline_exceeded(prefix + ": the request took longer than " +
                               std::to_string(config.request_timeout_ms) +
                               " ms (request_timeout_ms)");
    case TransferError::kCancelled:
      return cancelled("the client went away");
    case TransferError::kConsumerAbort:
      return internal_error(prefix + ": the response was abandoned");
    case TransferError::kTooLarge:
      return unavailable(prefix + ": the response is too large");
    case TransferError::kTransport:
      return unavailable(prefix + ": connection failed: " + result.detail);
    case TransferError::kBadUrl:
      return failed_precondition(prefix + ": base_url cannot be used: " + result.detail);
    case TransferError::kInternal:
      return internal_error(prefix + ": " + result.detail);
  }
  return internal_error(prefix + ": unknown transfer error");
}

bool is_retryable(TransferError error) {
  switch (error) {
    case TransferError::kConnect:
    case TransferError::kConnectTimeout:
    case TransferError::kTransport:
      return true;
    case TransferError::kNone:
    case TransferError::kFirstByteTimeout:
    case TransferError::kTotalTimeout:
    case TransferError::kCancelled:
    case TransferError::kConsumerAbort:
    case TransferError::kTooLarge:
    case TransferError::kBadUrl:
    case TransferError::kInternal:
      return false;
  }
  return false;
}

// A Status for a complete non-2xx response.
Status http_failure(const TransferResult& result, const UpstreamConfig& config,
                    const std::string& prefix, const std::string& model) {
  const long code = result.info.status;
  const std::string upstream_message = extract_error_message(result.error_body);
  const std::string http = " (HTTP " + std::to_string(code) + ")";
  const std::string detail = upstream_message.empty() ? "" : ": " + upstream_message;
  if (code == 429) {
    std::string message = prefix + ": rate limited" + http;
    if (result.info.retry_after_s) {
      message += ", retry after " + std::to_string(*result.info.retry_after_s) + " s";
    }
    return resource_exhausted(message + detail);
  }
  if (code >= 500 || code == 408) return unavailable(prefix + ": server error" + http + detail);
  if (code == 400 || code == 422 || code == 413) {
    return invalid_argument(prefix + ": the request was rejected" + http + detail);
  }
  if (code == 401 || code == 403) {
    std::string hint = config.api_key_env.empty()
                           ? "no API key is configured (api_key_env is empty)"
                           : "check the API key in $" + config.api_key_env;
    return failed_precondition(prefix + ": access denied" + http + ": " + hint);
  }
  if (code == 404) {
    return not_found(prefix + ": not found" + http + " for model '" + model + "'" + detail);
  }
  return unavailable(prefix + ": unexpected HTTP status " + std::to_string(code) + detail);
}

bool is_retryable_http(long code) { return code == 429 || code == 408 || code >= 500; }

// Collects a whole 2xx body (GET /models).
class BodyCollector final : public BodyConsumer {
 public:
  void on_headers(const ResponseInfo&) override {}
  bool on_body(std::string_view bytes) override {
    body.append(bytes);
    return true;
  }
  bool cancelled() override { return false; }
  std::string body;
};

}  // namespace

CloudEngine::CloudEngine(const UpstreamConfig& config, std::string api_key,
                         CloudEngineOptions options)
    : config_(config),
      api_key_(std::move(api_key)),
      options_(options),
      base_url_(without_trailing_slashes(config.base_url)),
      chat_url_(base_url_ + "/chat/completions"),
      pool_(std::make_unique<cloud_detail::CurlHandlePool>()),
      breaker_(circuit_breaker_options(config.breaker)),
      jitter_(options.jitter_seed != 0 ? options.jitter_seed : std::random_device{}()) {
  cloud_detail::ensure_curl_initialized();
}

CloudEngine::~CloudEngine() = default;

SteadyTime CloudEngine::now() const {
  return (options_.clock != nullptr ? *options_.clock : default_clock()).now();
}

std::string CloudEngine::prefix() const {
  return "upstream '" + config_.name + "' (" + base_url_ + ")";
}

std::vector<std::string> CloudEngine::request_headers(bool streaming) const {
  std::vector<std::string> headers;
  if (streaming) {
    headers.emplace_back("Content-Type: application/json");
    headers.emplace_back("Accept: text/event-stream");
  } else {
    headers.emplace_back("Accept: application/json");
  }
  headers.emplace_back("Expect:");  // no 100-continue round trip for large prompts
  if (!api_key_.empty()) headers.push_back("Authorization: Bearer " + api_key_);
  return headers;
}

StatusOr<Completion> CloudEngine::generate(const ChatRequest& request, const std::string& model,
                                           TokenSink& sink) {
  const std::string upstream_model =
      model.empty() && !config_.models.empty() ? config_.models.front() : model;
  StatusOr<std::string> body = build_chat_body(request, upstream_model);
  if (!body.is_ok()) return body.status();

  CircuitBreaker::Admission admission;
  {
    std::lock_guard lock(mutex_);
    const SteadyTime t = now();
    admission = breaker_.admit(t);
    if (admission == CircuitBreaker::Admission::kRejected) {
      const double wait_s = std::max(0.0, seconds_between(t, breaker_.retry_at().value_or(t)));
      return unavailable(prefix() + ": circuit open after " + std::to_string(breaker_.consecutive_failures()) +
                         " consecutive failures (last: " + breaker_.last_error() + "); tried again in " +
                         std::to_string(static_cast<int64_t>(std::ceil(wait_s))) + " s");
    }
  }
  const int max_retries = std::max(0, config_.max_retries);
  for (int retry = 0;; ++retry) {
    sink.on_request_sent(*body);
    AttemptOutcome outcome = attempt(*body, request, upstream_model, sink);
    if (outcome.result.is_ok()) {
      record_result(Status::ok(), admission);
      return std::move(outcome.result);
    }
    Status status = outcome.result.status();
    if (status.code() == StatusCode::kCancelled) {
      record_result(status, admission);
      return status;
    }
    if (outcome.forwarded) {
      // The client has seen part of an answer: it cannot be retried nor
      // replaced by another tier's.
      status = unavailable(status.message() + " (after part of the answer was sent)");
      record_result(status, admission);
      return status;
    }
    bool again = outcome.retryable && retry < max_retries;
    milliseconds wait{0};
    if (again && outcome.retry_after_s) {
      if (*outcome.retry_after_s > options_.max_retry_after_s) {
        again = false;
      } else {
        wait = std::chrono::seconds(*outcome.retry_after_s);
      }
    } else if (again) {
      wait = backoff(retry);
    }
    if (!again) {
      if (retry > 0) status = with_suffix(status, " (after " + std::to_string(retry + 1) + " attempts)");
      record_result(status, admission);
      return status;
    }
    if (!wait_unless_cancelled(wait, sink)) {
      status = cancelled("the client went away");
      record_result(status, admission);
      return status;
    }
  }
}

CloudEngine::AttemptOutcome CloudEngine::attempt(const std::string& body,
                                                 const ChatRequest& request,
                                                 const std::string& model, TokenSink& sink) {
  TransferRequest transfer;
  transfer.url = chat_url_;
  transfer.post_body = &body;
  transfer.headers = request_headers(/*streaming=*/true);
  transfer.connect_timeout_ms = config_.connect_timeout_ms;
  transfer.first_byte_timeout_ms = config_.first_byte_timeout_ms;
  transfer.request_timeout_ms = config_.request_timeout_ms;
  transfer.max_body_bytes = options_.max_response_bytes;

  StreamConsumer consumer(sink);
  TransferResult result = cloud_detail::perform_transfer(*pool_, transfer, consumer);
  if (result.headers_complete) {
    record_rate_limits(result.info.remaining_requests, result.info.remaining_tokens);
  }

  AttemptOutcome outcome;
  outcome.forwarded = consumer.forwarded();
  outcome.retry_after_s = result.info.retry_after_s;
  if (result.error == TransferError::kConsumerAbort) {
    Status failure = consumer.failure();
    outcome.retryable = failure.code() == StatusCode::kUnavailable;
    if (failure.code() != StatusCode::kCancelled) {
      failure = Status(failure.code(), prefix() + ": " + failure.message());
    }
    outcome.result = failure;
    return outcome;
  }
  if (result.error != TransferError::kNone) {
    outcome.result = transfer_failure(result, config_, prefix());
    outcome.retryable = is_retryable(result.error);
    return outcome;
  }
  const long code = result.info.status;
  if (code == 429 && result.info.retry_after_s) record_retry_after(*result.info.retry_after_s);
  if (code < 200 || code >= 300) {
    outcome.result = http_failure(result, config_, prefix(), model);
    outcome.retryable = is_retryable_http(code);
    return outcome;
  }
  StatusOr<Completion> completion = consumer.finish(request, model);
  outcome.forwarded = consumer.forwarded();
  if (!completion.is_ok() && completion.status().code() != StatusCode::kCancelled) {
    outcome.retryable = completion.status().code() == StatusCode::kUnavailable;
    completion = Status(completion.status().code(), prefix() + ": " + completion.status().message());
  }
  outcome.result = std::move(completion);
  return outcome;
}

StatusOr<std::vector<std::string>> CloudEngine::list_models() {
  TransferRequest transfer;
  transfer.url = base_url_ + "/models";
  transfer.headers = request_headers(/*streaming=*/false);
  transfer.connect_timeout_ms = config_.connect_timeout_ms;
  transfer.first_byte_timeout_ms = config_.first_byte_timeout_ms;
  transfer.request_timeout_ms = config_.request_timeout_ms;
  transfer.max_body_bytes = options_.max_response_bytes;
  BodyCollector collector;
  TransferResult result = cloud_detail::perform_transfer(*pool_, transfer, collector);
  if (result.headers_complete) {
    record_rate_limits(result.info.remaining_requests, result.info.remaining_tokens);
  }
  if (result.error != TransferError::kNone) return transfer_failure(result, config_, prefix());
  if (result.info.status < 200 || result.info.status >= 300) {
    return http_failure(result, config_, prefix(), "");
  }
  StatusOr<std::vector<std::string>> ids = parse_model_list(collector.body);
  if (!ids.is_ok()) return Status(ids.status().code(), prefix() + ": " + ids.status().message());
  return ids;
}

TierHealth CloudEngine::health() const {
  std::lock_guard lock(mutex_);
  const SteadyTime t = now();
  if (breaker_.would_admit(t)) return {TierState::kReady, "", std::nullopt};
  const bool probing = breaker_.state(t) == CircuitState::kHalfOpen;
  return {TierState::kUnavailable,
          std::string(probing ? "circuit half-open, a probe request is out" : "circuit open") + " after " +
              std::to_string(breaker_.consecutive_failures()) + " consecutive failures; last: " + breaker_.last_error(),
          probing ? t : breaker_.retry_at()};
}

CircuitState CloudEngine::circuit_state() const {
  std::lock_guard lock(mutex_);
  return breaker_.state(now());
}

RateLimitSnapshot CloudEngine::last_rate_limits() const {
  std::lock_guard lock(mutex_);
  return rate_limits_;
}

TierLoad CloudEngine::load() const {
  std::lock_guard lock(mutex_);
  TierLoad load;
  load.remaining_requests = rate_limits_.remaining_requests;
  load.remaining_tokens = rate_limits_.remaining_tokens;
  load.rate_limited_until = rate_limited_until_;
  return load;
}

void CloudEngine::record_retry_after(int64_t seconds) {
  const Clock& clock = options_.clock != nullptr ? *options_.clock : default_clock();
  SteadyTime until = clock.now() + std::chrono::seconds(std::max<int64_t>(0, seconds));
  std::lock_guard lock(mutex_);
  if (!rate_limited_until_ || until > *rate_limited_until_) rate_limited_until_ = until;
}

void CloudEngine::record_rate_limits(const std::optional<int64_t>& requests,
                                     const std::optional<int64_t>& tokens) {
  if (!requests && !tokens) return;
  const Clock& clock = options_.clock != nullptr ? *options_.clock : default_clock();
  SteadyTime now = clock.now();
  std::lock_guard lock(mutex_);
  rate_limits_ = RateLimitSnapshot{requests, tokens, now};
}

void CloudEngine::record_result(const Status& status, CircuitBreaker::Admission admission) {
  std::lock_guard lock(mutex_);
  switch (status.code()) {
    case StatusCode::kUnavailable:
    case StatusCode::kDeadlineExceeded:
      breaker_.record_failure(now(), status.message(), admission);
      return;
    case StatusCode::kCancelled:
      breaker_.record_neither(admission);
      return;
    case StatusCode::kOk:
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kResourceExhausted:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kPermissionDenied:
    case StatusCode::kInternal:
      // The upstream answered (an error of the request or of the account
      // is no sign that it is down).
      breaker_.record_success(admission);
      return;
  }
}

milliseconds CloudEngine::backoff(int retry) {
  const double base = static_cast<double>(std::max(0, config_.backoff_ms)) *
                      static_cast<double>(int64_t{1} << std::min(retry, 20));
  double factor = 1.0;
  {
    std::lock_guard lock(mutex_);
    factor = std::uniform_real_distribution<double>(0.5, 1.5)(jitter_);
  }
  const double ms = std::min(base * factor, static_cast<double>(kMaxBackoff.count()));
  return milliseconds(static_cast<int64_t>(ms));
}

}  // namespace tiergate
