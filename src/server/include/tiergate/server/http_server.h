// A small HTTP/1.1 server on Boost.Beast: one thread per connection with
// blocking I/O, keep-alive, request bodies bounded by max_body_bytes, chunked
// streaming responses, and a way to ask whether the client is still there.
// Thread-per-connection keeps streaming simple: a handler writes as the model
// generates, and a slow client slows only its own thread. Threads outlive their
// connection and serve the next one (a few are kept idle).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tiergate/core/status.h"

namespace tiergate {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// One request and the means to answer it. Used only on its connection's thread.
class HttpExchange {
 public:
  virtual ~HttpExchange() = default;
  virtual const std::string& method() const = 0;
  virtual const std::string& path() const = 0;  // target without the query string
  virtual const std::string& query() const = 0;  // after the '?', "" without one
  virtual const std::string& body() const = 0;
  virtual std::string header(std::string_view name) const = 0;  // "" when absent
  // True when the body exceeded max_body_bytes (body() is then empty); the
  // handler should answer 413, after which the connection is closed.
  virtual bool body_too_large() const = 0;

  // A complete response. Returns false when the client is gone.
  virtual bool respond(int status, const HttpHeaders& headers, std::string_view body) = 0;

  // A streamed response: headers now (chunked transfer encoding), then any
  // number of chunks, then end, which sends its last data (if any) and the
  // terminating chunk in one write. Each returns false once the client is gone.
  virtual bool begin_stream(int status, const HttpHeaders& headers) = 0;
  virtual bool write_chunk(std::string_view data) = 0;
  virtual bool end_stream(std::string_view last_data) = 0;

  // True when the client closed its side of the connection; does not block.
  virtual bool client_gone() = 0;
};

using HttpHandler = std::function<void(HttpExchange&)>;

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: any free port; port() tells which
  int64_t max_body_bytes = 1 << 20;
};

// Every connection thread carries this name; at most kMaxIdleConnectionThreads
// of them wait idle for a next connection, the others end with theirs.
inline constexpr char kConnectionThreadName[] = "tg-http";
inline constexpr int kMaxIdleConnectionThreads = 16;

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpHandler handler);
  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens. kInvalidArgument for a bad host; kUnavailable when the
  // address is in use.
  Status listen();
  uint16_t port() const;
  // Accepts and serves connections on background threads until stop().
  void start();
  // Stops accepting, closes open connections and waits for their threads.
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace tiergate
