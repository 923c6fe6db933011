#include "tiergate/server/http_server.h"

#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

namespace tiergate {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

class BeastExchange final : public HttpExchange {
 public:
  BeastExchange(tcp::socket& socket, http::request<http::string_body>& req, bool too_large)
      : socket_(socket), req_(req), too_large_(too_large) {
    method_ = std::string(req_.method_string());
    std::string_view target = req_.target();
    const size_t question = target.find('?');
    path_ = std::string(target.substr(0, question));
    if (question != std::string_view::npos) query_ = std::string(target.substr(question + 1));
  }

  const std::string& method() const override { return method_; }
  const std::string& path() const override { return path_; }
  const std::string& query() const override { return query_; }
  const std::string& body() const override { return req_.body(); }
  std::string header(std::string_view name) const override {
    auto it = req_.find(name);
    return it == req_.end() ? std::string() : std::string(it->value());
  }
  bool body_too_large() const override { return too_large_; }

  bool respond(int status, const HttpHeaders& headers, std::string_view body) override {
    http::response<http::string_body> res{static_cast<http::status>(status), req_.version()};
    for (const auto& [k, v] : headers) res.set(k, v);
    res.keep_alive(req_.keep_alive() && !too_large_);
    res.body() = std::string(body);
    res.prepare_payload();
    beast::error_code ec;
    http::write(socket_, res, ec);
    responded_ = true;
    keep_alive_ = res.keep_alive() && !ec;
    return !ec;
  }

  bool begin_stream(int status, const HttpHeaders& headers) override {
    http::response<http::empty_body> res{static_cast<http::status>(status), req_.version()};
    for (const auto& [k, v] : headers) res.set(k, v);
    res.chunked(true);
    res.keep_alive(req_.keep_alive());
    http::response_serializer<http::empty_body> sr{res};
    beast::error_code ec;
    http::write_header(socket_, sr, ec);
    responded_ = true;
    streaming_ = true;
    keep_alive_ = res.keep_alive() && !ec;
    return !ec;
  }

  bool write_chunk(std::string_view data) override {
    if (data.empty()) return true;
    beast::error_code ec;
    net::write(socket_, http::make_chunk(net::const_buffer(data.data(), data.size())), ec);
    if (ec) keep_alive_ = false;
    return !ec;
  }

  bool end_stream(std::string_view last_data) override {
    beast::error_code ec;
    if (last_data.empty()) {
      net::write(socket_, http::make_chunk_last(), ec);
    } else {
      net::write(socket_,
                 beast::buffers_cat(http::make_chunk(net::const_buffer(last_data.data(), last_data.size())),
                                    http::make_chunk_last()),
                 ec);
    }
    if (ec) keep_alive_ = false;
    return !ec;
  }

  // Polls the socket at most every kGoneCheckInterval: engines ask often (per
  // token, per transfer step), which would be a syscall each; noticing a
  // departure a few milliseconds later is harmless.
  bool client_gone() override {
    if (gone_) return true;
    auto now = std::chrono::steady_clock::now();
    if (now - last_gone_check_ < kGoneCheckInterval) return false;
    last_gone_check_ = now;
    gone_ = poll_gone();
    return gone_;
  }

  bool responded() const { return responded_; }
  bool keep_alive() const { return keep_alive_; }

 private:
  bool poll_gone() {
    pollfd p{};
    p.fd = socket_.native_handle();
    p.events = POLLIN | POLLRDHUP;
    if (::poll(&p, 1, 0) <= 0) return false;
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) return true;
    if (p.revents & POLLIN) {
      char c;
      ssize_t n = ::recv(p.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
      return n == 0;  // orderly shutdown; n > 0 is a pipelined request
    }
    return false;
  }

  tcp::socket& socket_;
  http::request<http::string_body>& req_;
  bool too_large_;
  std::string method_;
  std::string path_;
  std::string query_;
  bool responded_ = false;
  bool streaming_ = false;
  bool keep_alive_ = false;
  bool gone_ = false;
  std::chrono::steady_clock::time_point last_gone_check_{};
  static constexpr std::chrono::milliseconds kGoneCheckInterval{5};
};

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  HttpHandler handler;
  net::io_context io;
  tcp::acceptor acceptor{io};
  tcp protocol = tcp::v4();  // of the listening address, set by listen()
  std::atomic<bool> stopping{false};

  // Connection threads take turns at the listening socket: the idle ones wait
  // in accept(), and the one that gets a connection serves it itself, so that
  // a new connection waits neither for a thread to start nor for a hand-over.
  // The thread that takes the last waiting place starts another; when a
  // connection ends and kMaxIdleThreads already wait, its thread ends.
  static constexpr int kMaxIdleThreads = kMaxIdleConnectionThreads;
  std::mutex mu;
  std::condition_variable idle_cv;  // a thread ended
  std::set<tcp::socket*> open;      // guarded by mu
  int active = 0;                   // connection threads alive, guarded by mu
  int accepting = 0;                // of which waiting in accept(), guarded by mu

  void start_thread();  // with mu held
  void connection_thread();
  void serve(tcp::socket socket);
};

void HttpServer::Impl::start_thread() {
  ++active;
  ++accepting;
  std::thread([this] { connection_thread(); }).detach();
}

void HttpServer::Impl::connection_thread() {
  // Named for operators (top -H, /proc/<pid>/task/*/comm) and for tests that
  // tell the server's pooled connection threads from any other.
  pthread_setname_np(pthread_self(), kConnectionThreadName);
  std::unique_lock lock(mu);
  while (true) {
    // This thread is counted in `accepting` from here until accept() returns.
    lock.unlock();
    // The OS hands each connection to one of the threads waiting here; asio's
    // acceptor is not meant for concurrent use, its descriptor is.
    int fd = ::accept4(acceptor.native_handle(), nullptr, nullptr, SOCK_CLOEXEC);
    const int accept_errno = errno;
    lock.lock();
    if (fd < 0) {
      if (stopping) break;
      if (accept_errno == EINTR || accept_errno == ECONNABORTED) continue;
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // e.g. EMFILE: back off
      lock.lock();
      continue;
    }
    --accepting;
    if (accepting == 0 && !stopping) start_thread();
    lock.unlock();
    beast::error_code ec;
    tcp::socket socket{io};
    socket.assign(protocol, fd, ec);
    if (ec) {
      ::close(fd);
    } else {
      socket.set_option(tcp::no_delay(true), ec);
      serve(std::move(socket));
    }
    lock.lock();
    if (stopping || accepting >= kMaxIdleThreads) {
      --active;
      idle_cv.notify_all();
      return;
    }
    ++accepting;
  }
  --accepting;
  --active;
  idle_cv.notify_all();
}

void HttpServer::Impl::serve(tcp::socket socket) {
  {
    std::lock_guard lock(mu);
    open.insert(&socket);
  }
  beast::flat_buffer buffer;
  while (!stopping) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(static_cast<uint64_t>(options.max_body_bytes));
    parser.header_limit(64 * 1024);
    beast::error_code ec;
    http::read_header(socket, buffer, parser, ec);
    if (!ec && !parser.is_done()) {
      // Clients such as curl send "Expect: 100-continue" before a large body
      // and wait (curl: one second) for this interim answer.
      auto expect = parser.get().find(http::field::expect);
      if (expect != parser.get().end() && beast::iequals(expect->value(), "100-continue")) {
        http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
        http::write(socket, go_on, ec);
      }
      if (!ec) http::read(socket, buffer, parser, ec);
    }
    bool too_large = ec == http::error::body_limit;
    if (ec && !too_large) break;  // closed, reset, malformed: nothing to answer
    auto req = parser.release();
    if (too_large) req.body().clear();
    BeastExchange exchange(socket, req, too_large);
    handler(exchange);
    if (!exchange.responded()) {
      exchange.respond(500, {{"Content-Type", "text/plain"}}, "handler wrote no response");
    }
    if (!exchange.keep_alive() || too_large) break;
  }
  beast::error_code ec;
  socket.shutdown(tcp::socket::shutdown_send, ec);
  {
    std::lock_guard lock(mu);
    open.erase(&socket);
  }
  socket.close(ec);
}

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->handler = std::move(handler);
}

HttpServer::~HttpServer() { stop(); }

Status HttpServer::listen() {
  beast::error_code ec;
  auto address = net::ip::make_address(impl_->options.host, ec);
  if (ec) return invalid_argument("listen address '" + impl_->options.host + "' is not an IP address");
  tcp::endpoint endpoint{address, impl_->options.port};
  impl_->protocol = endpoint.protocol();
  impl_->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(endpoint, ec);
  if (!ec) impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return unavailable("cannot listen on " + impl_->options.host + ":" + std::to_string(impl_->options.port) + ": " +
                       ec.message());
  }
  return Status::ok();
}

uint16_t HttpServer::port() const {
  beast::error_code ec;
  auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

void HttpServer::start() {
  std::lock_guard lock(impl_->mu);
  impl_->start_thread();
}

void HttpServer::stop() {
  if (impl_->stopping.exchange(true)) return;
  beast::error_code ec;
  // shutdown() wakes the threads blocked in accept(); the descriptor is closed
  // only once none can use it any more.
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  std::unique_lock lock(impl_->mu);
  for (tcp::socket* s : impl_->open) s->shutdown(tcp::socket::shutdown_both, ec);
  impl_->idle_cv.wait(lock, [&] { return impl_->active == 0; });
  impl_->acceptor.close(ec);
}

}  // namespace tiergate
