// A blocking HTTP/1.1 client for tests (Boost.Beast), loopback only.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tiergate::testing {

struct HttpResult {
  int status = 0;  // 0 when the connection failed
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
  std::string error;  // connection error, if any
};

HttpResult http_call(uint16_t port, const std::string& method, const std::string& target,
                     const std::string& body = "", const std::map<std::string, std::string>& headers = {});

// The `data:` payloads of an SSE body, in order (including "[DONE]").
std::vector<std::string> sse_payloads(const std::string& body);

}  // namespace tiergate::testing
