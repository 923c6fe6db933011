// One HTTP exchange with libcurl, driven on the calling thread with a short
// poll interval so that cancellation and the first-byte deadline are noticed
// within ~20 ms. Private to engines/cloud.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tiergate::cloud_detail {

// Calls curl_global_init once per process (std::call_once); false when it failed.
bool ensure_curl_initialized();

// What the response headers said. Header names are matched case-insensitively.
struct ResponseInfo {
  long status = 0;
  std::string content_type;
  std::optional<int64_t> retry_after_s;  // Retry-After in seconds (the HTTP-date form is ignored)
  std::optional<int64_t> remaining_requests;  // x-ratelimit-remaining-requests
  std::optional<int64_t> remaining_tokens;    // x-ratelimit-remaining-tokens
};

struct TransferRequest {
  std::string url;
  const std::string* post_body = nullptr;  // nullptr = GET; must outlive the transfer
  std::vector<std::string> headers;      // "Name: value"
  long connect_timeout_ms = 5000;
  long first_byte_timeout_ms = 60000;    // until the response headers are complete
  long request_timeout_ms = 600000;      // the whole exchange
  int64_t max_body_bytes = int64_t{64} << 20;
};

// Receives the body of a 2xx response as it arrives; called on the thread
// that called perform_transfer.
class BodyConsumer {
 public:
  virtual ~BodyConsumer() = default;
  // Called once the headers of a 2xx response are complete, before its body.
  virtual void on_headers(const ResponseInfo& info) = 0;
  // Returns false to abort the transfer (TransferError::kConsumerAbort).
  virtual bool on_body(std::string_view bytes) = 0;
  // Polled while the transfer runs; true aborts it (TransferError::kCancelled).
  virtual bool cancelled() = 0;
};

enum class TransferError {
  kNone,              // a whole response was received (any HTTP status)
  kConnect,           // DNS, TCP connect or TLS handshake failed
  kConnectTimeout,    // the connection was not established within connect_timeout_ms
  kFirstByteTimeout,  // no complete response headers within first_byte_timeout_ms
  kTotalTimeout,      // the exchange took longer than request_timeout_ms
  kCancelled,         // BodyConsumer::cancelled() returned true
  kConsumerAbort,     // BodyConsumer::on_body() returned false
  kTooLarge,          // the body exceeded max_body_bytes
  kTransport,         // the connection failed after the request was sent
  kBadUrl,            // the URL cannot be used (malformed, unsupported scheme)
  kInternal,          // libcurl could not be set up
};

struct TransferResult {
  TransferError error = TransferError::kNone;
  std::string detail;      // libcurl's message for transport errors (no request data)
  bool headers_complete = false;
  ResponseInfo info;
  std::string error_body;  // body of a non-2xx response, at most 64 KiB
};

// Pool of idle libcurl handles so that connections (and TLS sessions) are
// reused between calls. Thread-safe. Each transfer owns its handles alone.
class CurlHandlePool {
 public:
  explicit CurlHandlePool(size_t max_idle = 16) : max_idle_(max_idle) {}
  ~CurlHandlePool();
  CurlHandlePool(const CurlHandlePool&) = delete;
  CurlHandlePool& operator=(const CurlHandlePool&) = delete;

  struct Handles {
    CURLM* multi = nullptr;
    CURL* easy = nullptr;
  };
  // Null members when libcurl cannot allocate.
  Handles acquire();
  // Returns handles; reusable=false closes their connections.
  void release(Handles handles, bool reusable);

 private:
  static void destroy(Handles handles);

  size_t max_idle_;
  std::mutex mutex_;
  std::vector<Handles> idle_;
};

// Runs one exchange. Blocks until it completes, fails, times out or is
// aborted by consumer.
TransferResult perform_transfer(CurlHandlePool& pool, const TransferRequest& request,
                                BodyConsumer& consumer);

}  // namespace tiergate::cloud_detail
