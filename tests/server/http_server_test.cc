#include "tiergate/server/http_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tiergate {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

// Answers "ok"; /hold waits until release() before answering, so that a test
// can keep many connections busy at once.
class HeldServer {
 public:
  HeldServer()
      : server_(HttpServerOptions{"127.0.0.1", 0, 1 << 16}, [this](HttpExchange& ex) { handle(ex); }) {
    EXPECT_TRUE(server_.listen().is_ok());
    server_.start();
  }
  uint16_t port() const { return server_.port(); }
  void wait_until_held(int n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return held_ >= n; });
  }
  void release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  void stop() { server_.stop(); }

 private:
  void handle(HttpExchange& ex) {
    if (ex.path() == "/hold") {
      std::unique_lock lock(mu_);
      ++held_;
      cv_.notify_all();
      cv_.wait(lock, [&] { return released_; });
    }
    ex.respond(200, {{"Content-Type", "text/plain"}}, "ok");
  }

  std::mutex mu_;
  std::condition_variable cv_;
  int held_ = 0;
  bool released_ = false;
  HttpServer server_;
};

std::string request(const std::string& path, bool keep_alive) {
  return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + (keep_alive ? "" : "Connection: close\r\n") + "\r\n";
}

// Sends one request on the socket and reads its whole response.
std::string exchange(tcp::socket& socket, const std::string& path, bool keep_alive) {
  net::write(socket, net::buffer(request(path, keep_alive)));
  std::string response;
  char buf[512];
  boost::system::error_code ec;
  while (response.find("\r\n\r\nok") == std::string::npos) {
    size_t n = socket.read_some(net::buffer(buf), ec);
    if (ec) break;
    response.append(buf, n);
  }
  return response;
}

tcp::socket connect(net::io_context& io, uint16_t port) {
  tcp::socket socket(io);
  socket.connect({net::ip::make_address("127.0.0.1"), port});
  return socket;
}

TEST(HttpServerTest, ServesManySequentialConnections) {
  HeldServer server;
  net::io_context io;
  for (int i = 0; i < 50; ++i) {
    tcp::socket socket = connect(io, server.port());
    EXPECT_NE(exchange(socket, "/", false).find("200 OK"), std::string::npos) << "connection " << i;
  }
}

TEST(HttpServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  HeldServer server;
  net::io_context io;
  tcp::socket socket = connect(io, server.port());
  for (int i = 0; i < 5; ++i) EXPECT_NE(exchange(socket, "/", true).find("200 OK"), std::string::npos);
}

// More connections at once than threads are kept idle: each still gets a
// thread of its own, none waits for another to finish.
TEST(HttpServerTest, ConcurrentConnectionsBeyondTheIdlePoolAreAllServed) {
  HeldServer server;
  // Warm the pool first, so that some connections reuse threads.
  {
    net::io_context io;
    for (int i = 0; i < 3; ++i) {
      tcp::socket socket = connect(io, server.port());
      exchange(socket, "/", false);
    }
  }
  constexpr int kConnections = 24;
  std::atomic<int> answered{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < kConnections; ++i) {
    clients.emplace_back([&] {
      net::io_context io;
      tcp::socket socket = connect(io, server.port());
      if (exchange(socket, "/hold", false).find("200 OK") != std::string::npos) ++answered;
    });
  }
  server.wait_until_held(kConnections);  // all of them in the handler at once
  server.release();
  for (auto& c : clients) c.join();
  EXPECT_EQ(answered.load(), kConnections);
}

TEST(HttpServerTest, StopReturnsWithIdleThreadsAndAnOpenKeepAliveConnection) {
  HeldServer server;
  net::io_context io;
  tcp::socket idle_client = connect(io, server.port());
  EXPECT_NE(exchange(idle_client, "/", true).find("200 OK"), std::string::npos);
  for (int i = 0; i < 3; ++i) {
    tcp::socket socket = connect(io, server.port());
    exchange(socket, "/", false);
  }
  server.stop();  // must not wait for the client to close its connection
  char c;
  boost::system::error_code ec;
  idle_client.read_some(net::buffer(&c, 1), ec);
  EXPECT_TRUE(ec) << "the server closed the kept-alive connection";
}

}  // namespace
}  // namespace tiergate
