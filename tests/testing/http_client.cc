#include "http_client.h"

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <sstream>

namespace tiergate::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

HttpResult http_call(uint16_t port, const std::string& method, const std::string& target, const std::string& body,
                     const std::map<std::string, std::string>& headers) {
  HttpResult out;
  net::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code ec;
  stream.expires_after(std::chrono::seconds(120));  // a hang fails the test instead of blocking ctest
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) {
    out.error = ec.message();
    return out;
  }
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!body.empty()) req.set(http::field::content_type, "application/json");
  for (const auto& [k, v] : headers) req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req, ec);
  if (ec) {
    out.error = ec.message();
    return out;
  }
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(1ull << 30);
  http::read(stream, buffer, parser, ec);
  if (ec) {
    out.error = ec.message();
    return out;
  }
  auto res = parser.release();
  out.status = res.result_int();
  for (const auto& f : res) {
    std::string name(f.name_string());
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    out.headers[name] = std::string(f.value());
  }
  out.body = res.body();
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
  return out;
}

std::vector<std::string> sse_payloads(const std::string& body) {
  std::vector<std::string> out;
  std::istringstream in(body);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("data: ", 0) == 0) out.push_back(line.substr(6));
  }
  return out;
}

}  // namespace tiergate::testing
