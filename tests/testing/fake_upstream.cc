#include "fake_upstream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <cerrno>
#include <nlohmann/json.hpp>

namespace tiergate::testing {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string reason_phrase(int status) {
  std::string_view reason = http::obsolete_reason(static_cast<http::status>(status));
  return reason.empty() ? "Status" : std::string(reason);
}

class SocketExchange final : public FakeExchange {
 public:
  SocketExchange(tcp::socket& socket, const std::atomic<bool>& stopping)
      : socket_(socket), stopping_(stopping) {}

  void reset() override { reset_ = true; }
  bool reset_requested() const { return reset_; }

  bool respond(int status, std::string_view body, std::string_view content_type,
               const HeaderList& headers) override {
    std::string head = status_line(status, content_type, headers);
    head += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    return send(head) && send(body);
  }

  bool start_stream(int status, const HeaderList& headers, std::string_view content_type) override {
    std::string head = status_line(status, content_type, headers);
    head += "Cache-Control: no-cache\r\n\r\n";
    return send(head);
  }

  bool send(std::string_view bytes) override {
    boost::system::error_code ec;
    asio::write(socket_, asio::buffer(bytes.data(), bytes.size()), ec);
    return !ec;
  }

  bool send_event(std::string_view data) override {
    return send("data: " + std::string(data) + "\n\n");
  }

  bool wait_closed(std::chrono::milliseconds max) override {
    const auto deadline = std::chrono::steady_clock::now() + max;
    const int fd = socket_.native_handle();
    // The socket is looked at at least once, even when the server is stopping.
    do {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 20) > 0) {
        char buffer[4096];
        ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n == 0) return true;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return true;
      }
    } while (!stopping_.load() && std::chrono::steady_clock::now() < deadline);
    return false;
  }

  void pause(std::chrono::milliseconds duration) override {
    const auto deadline = std::chrono::steady_clock::now() + duration;
    while (!stopping_.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
          std::chrono::milliseconds(5), deadline - std::chrono::steady_clock::now()));
    }
  }

 private:
  static std::string status_line(int status, std::string_view content_type,
                                 const HeaderList& headers) {
    std::string head = "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
    head += "Content-Type: " + std::string(content_type) + "\r\n";
    head += "Connection: close\r\n";
    for (const auto& [name, value] : headers) head += name + ": " + value + "\r\n";
    return head;
  }

  bool reset_ = false;
  tcp::socket& socket_;
  const std::atomic<bool>& stopping_;
};

}  // namespace

struct FakeUpstream::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};

  static void serve(FakeUpstream& self, tcp::socket socket) {
    beast::flat_buffer buffer;
    http::request<http::string_body> request;
    boost::system::error_code ec;
    http::read(socket, buffer, request, ec);
    if (!ec) {
      FakeRequest fake;
      fake.method = std::string(request.method_string());
      fake.target = std::string(request.target());
      for (const auto& field : request) {
        fake.headers[lower(field.name_string())] = std::string(field.value());
      }
      fake.body = request.body();
      {
        std::lock_guard lock(self.mutex_);
        self.requests_.push_back(fake);
      }
      self.request_count_.fetch_add(1);
      SocketExchange exchange(socket, self.stopping_);
      self.handler_(fake, exchange);
      if (exchange.reset_requested()) {
        socket.set_option(asio::socket_base::linger(true, 0), ec);
        socket.close(ec);  // with linger 0: RST, not FIN
        return;
      }
    }
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
  }
};

std::string FakeRequest::header(std::string_view name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? "" : it->second;
}

bool FakeRequest::has_header(std::string_view name) const {
  return headers.count(lower(name)) != 0;
}

FakeUpstream::FakeUpstream(FakeHandler handler)
    : handler_(std::move(handler)), impl_(std::make_unique<Impl>()) {
  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  acceptor_thread_ = std::thread([this] { accept_loop(); });
}

FakeUpstream::~FakeUpstream() { stop(); }

std::string FakeUpstream::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

std::vector<FakeRequest> FakeUpstream::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FakeUpstream::accept_loop() {
  for (;;) {
    tcp::socket socket(impl_->io);
    boost::system::error_code ec;
    impl_->acceptor.accept(socket, ec);
    if (stopping_.load()) return;
    if (ec) continue;
    std::lock_guard lock(mutex_);
    connections_.emplace_back(
        [this, s = std::move(socket)]() mutable { Impl::serve(*this, std::move(s)); });
  }
}

void FakeUpstream::stop() {
  if (stopping_.exchange(true)) return;
  {
    // Wake the blocking accept() with a connection of our own.
    boost::system::error_code ec;
    tcp::socket waker(impl_->io);
    waker.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
    if (acceptor_thread_.joinable()) acceptor_thread_.join();
  }
  boost::system::error_code ec;
  impl_->acceptor.close(ec);
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    threads.swap(connections_);
  }
  for (std::thread& t : threads) t.join();
}

RefusingPort::RefusingPort() {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0) return;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port_ = ntohs(address.sin_port);
  }
}

RefusingPort::~RefusingPort() {
  if (fd_ >= 0) ::close(fd_);
}

std::string content_chunk(std::string_view text, std::string_view model) {
  nlohmann::json chunk = {
      {"id", "chatcmpl-fake"},
      {"object", "chat.completion.chunk"},
      {"model", model},
      {"choices", {{{"index", 0}, {"delta", {{"content", text}}}, {"finish_reason", nullptr}}}}};
  return chunk.dump();
}

std::string finish_chunk(std::string_view reason, std::string_view model) {
  nlohmann::json chunk = {
      {"id", "chatcmpl-fake"},
      {"object", "chat.completion.chunk"},
      {"model", model},
      {"choices", {{{"index", 0}, {"delta", nlohmann::json::object()}, {"finish_reason", reason}}}}};
  return chunk.dump();
}

std::string usage_chunk(int64_t prompt_tokens, int64_t completion_tokens) {
  nlohmann::json chunk = {{"id", "chatcmpl-fake"},
                          {"object", "chat.completion.chunk"},
                          {"model", "fake-model"},
                          {"choices", nlohmann::json::array()},
                          {"usage",
                           {{"prompt_tokens", prompt_tokens},
                            {"completion_tokens", completion_tokens},
                            {"total_tokens", prompt_tokens + completion_tokens}}}};
  return chunk.dump();
}

bool stream_answer(FakeExchange& exchange, const std::vector<std::string>& pieces, bool with_usage,
                   const HeaderList& headers) {
  if (!exchange.start_stream(200, headers)) return false;
  for (const std::string& piece : pieces) {
    if (!exchange.send_event(content_chunk(piece))) return false;
  }
  if (!exchange.send_event(finish_chunk())) return false;
  if (with_usage && !exchange.send_event(usage_chunk(7, static_cast<int64_t>(pieces.size())))) {
    return false;
  }
  return exchange.send_event("[DONE]");
}

}  // namespace tiergate::testing
