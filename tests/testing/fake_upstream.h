// A programmable fake OpenAI-compatible upstream for tests: a synchronous
// HTTP/1.1 server on 127.0.0.1 (any free port) that hands each request to a
// handler which writes whatever it likes, byte by byte if it wants, closing
// the connection when it returns. One request per connection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace tiergate::testing {

struct FakeRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;

  // The header's value, "" when absent; name is matched case-insensitively.
  std::string header(std::string_view name) const;
  bool has_header(std::string_view name) const;
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// The connection of one request, for the handler. Writes return false once
// the peer is gone.
class FakeExchange {
 public:
  virtual ~FakeExchange() = default;
  // A whole response with Content-Length.
  virtual bool respond(int status, std::string_view body,
                       std::string_view content_type = "application/json",
                       const HeaderList& headers = {}) = 0;
  // Response headers without Content-Length; the body ends when the handler
  // returns and the connection closes.
  virtual bool start_stream(int status = 200, const HeaderList& headers = {},
                            std::string_view content_type = "text/event-stream") = 0;
  virtual bool send(std::string_view bytes) = 0;
  // Sends "data: <data>\n\n".
  virtual bool send_event(std::string_view data) = 0;
  // Waits until the peer closes the connection; false after max, or when the
  // server is stopping and the socket, looked at once more, is still open.
  virtual bool wait_closed(std::chrono::milliseconds max) = 0;
  // Sleeps, returning early when the server is stopping.
  virtual void pause(std::chrono::milliseconds duration) = 0;
  // When the handler returns, the connection is aborted with a TCP RST
  // (SO_LINGER 0) instead of an orderly close: a connection reset.
  virtual void reset() = 0;
};

// Called on a connection thread of its own; may run concurrently.
using FakeHandler = std::function<void(const FakeRequest&, FakeExchange&)>;

class FakeUpstream {
 public:
  explicit FakeUpstream(FakeHandler handler);
  ~FakeUpstream();
  FakeUpstream(const FakeUpstream&) = delete;
  FakeUpstream& operator=(const FakeUpstream&) = delete;

  uint16_t port() const { return port_; }
  // http://127.0.0.1:<port>/v1
  std::string base_url() const;
  int request_count() const { return request_count_.load(); }
  std::vector<FakeRequest> requests() const;
  // Stops accepting and joins every connection thread (handlers must end).
  void stop();

 private:
  struct Impl;
  void accept_loop();

  FakeHandler handler_;
  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> request_count_{0};
  mutable std::mutex mutex_;
  std::vector<FakeRequest> requests_;
  std::vector<std::thread> connections_;
  std::thread acceptor_thread_;
};

// A loopback port where connections are refused: bound (port 0) but never
// listening, and held while the object lives so that no other test or
// process can take it meanwhile.
class RefusingPort {
 public:
  RefusingPort();
  ~RefusingPort();
  RefusingPort(const RefusingPort&) = delete;
  RefusingPort& operator=(const RefusingPort&) = delete;
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
};

// One streamed chat.completion.chunk carrying text.
std::string content_chunk(std::string_view text, std::string_view model = "fake-model");
// The closing chunk with finish_reason.
std::string finish_chunk(std::string_view reason = "stop", std::string_view model = "fake-model");
// The usage chunk (empty choices) sent with stream_options.include_usage.
std::string usage_chunk(int64_t prompt_tokens, int64_t completion_tokens);
// Streams pieces as deltas, a finish chunk, optionally usage, then [DONE].
bool stream_answer(FakeExchange& exchange, const std::vector<std::string>& pieces,
                   bool with_usage = true, const HeaderList& headers = {});

}  // namespace tiergate::testing
