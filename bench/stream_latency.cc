// stream_latency: sends the same streamed chat completion to two
// OpenAI-compatible URLs (A and B) and reports end-to-end latency per path:
// from connect() to the last byte of the chunked SSE response.
//
// It is a deliberately thin client (blocking POSIX sockets, no TLS, no JSON
// library, one fresh connection per request, no garbage collector) so that on
// a small machine the client's own CPU time and pauses do not swamp the
// sub-millisecond differences it exists to measure. Loopback and plain HTTP
// only: it is a benchmark tool, not a general client.
//
// Output: one JSON object on stdout (see print_report).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Target {
  std::string url;  // as given, for messages
  sockaddr_in address{};
  std::string host_header;
  std::string path;  // e.g. /v1/chat/completions
};

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "stream_latency: %s\n", message.c_str());
  std::exit(1);
}

// Accepts http://IPV4:PORT[/prefix]; the chat path is appended to the prefix.
Target parse_target(const std::string& url) {
  constexpr std::string_view kScheme = "http://";
  if (url.rfind(kScheme, 0) != 0) fail("only http:// URLs are supported: " + url);
  std::string rest = url.substr(kScheme.size());
  size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  std::string prefix = slash == std::string::npos ? "" : rest.substr(slash);
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  size_t colon = authority.rfind(':');
  if (colon == std::string::npos) fail("the URL needs an explicit port: " + url);
  Target target;
  target.url = url;
  target.address.sin_family = AF_INET;
  int port = 0;
  std::string_view port_text = std::string_view(authority).substr(colon + 1);
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port <= 0 || port > 65535) {
    fail("bad port in " + url);
  }
  target.address.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, authority.substr(0, colon).c_str(), &target.address.sin_addr) != 1) {
    fail("the host must be an IPv4 address (loopback): " + url);
  }
  target.host_header = authority;
  target.path = prefix + "/chat/completions";
  return target;
}

std::string build_request(const Target& target, const std::string& model, int max_tokens) {
  const std::string body = R"({"model":")" + model +
                           R"(","messages":[{"role":"user","content":"Hello there"}],"max_tokens":)" +
                           std::to_string(max_tokens) +
                           R"(,"temperature":0,"stream":true,"stream_options":{"include_usage":true}})";
  return "POST " + target.path + " HTTP/1.1\r\nHost: " + target.host_header +
         "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nConnection: close\r\n"
         "Content-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Incremental reader of one HTTP/1.1 response with a chunked body; done()
// once the terminating zero-length chunk has arrived.
class ChunkedResponse {
 public:
  // Consumes bytes; false (with error()) when the response is not usable.
  bool feed(std::string_view bytes) {
    buffer_.append(bytes);
    if (!headers_done_) {
      size_t end = buffer_.find("\r\n\r\n");
      if (end == std::string::npos) return true;
      std::string_view head(buffer_.data(), end);
      if (head.rfind("HTTP/1.1 200", 0) != 0 && head.rfind("HTTP/1.0 200", 0) != 0) {
        error_ = "status line: " + std::string(head.substr(0, head.find("\r\n")));
        return false;
      }
      std::string lower(head);
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (lower.find("transfer-encoding: chunked") == std::string::npos) {
        error_ = "the response is not chunked";
        return false;
      }
      headers_done_ = true;
      buffer_.erase(0, end + 4);
    }
    for (;;) {
      size_t line_end = buffer_.find("\r\n", cursor_);
      if (line_end == std::string::npos) return true;
      size_t size = 0;
      const char* first = buffer_.data() + cursor_;
      auto [ptr, ec] = std::from_chars(first, buffer_.data() + line_end, size, 16);
      if (ec != std::errc() || ptr == first) {
        error_ = "bad chunk size line";
        return false;
      }
      if (size == 0) {
        done_ = true;
        return true;
      }
      if (buffer_.size() < line_end + 2 + size + 2) return true;
      body_.append(buffer_, line_end + 2, size);
      cursor_ = line_end + 2 + size + 2;
    }
  }
  bool done() const { return done_; }
  const std::string& error() const { return error_; }
  const std::string& body() const { return body_; }

 private:
  std::string buffer_;
  size_t cursor_ = 0;
  bool headers_done_ = false;
  bool done_ = false;
  std::string body_;
  std::string error_;
};

// One request on a fresh connection; its latency in ms. Exits on any error:
// a benchmark over failed requests would report nonsense.
double request_once(const Target& target, const std::string& request) {
  const Clock::time_point start = Clock::now();
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) fail("socket: " + std::string(std::strerror(errno)));
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&target.address), sizeof target.address) != 0) {
    fail(target.url + ": connect: " + std::strerror(errno));
  }
  for (size_t sent = 0; sent < request.size();) {
    ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) fail(target.url + ": send: " + std::strerror(errno));
    sent += static_cast<size_t>(n);
  }
  ChunkedResponse response;
  char buffer[16384];
  while (!response.done()) {
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0) fail(target.url + ": recv: " + std::strerror(errno));
    if (n == 0) fail(target.url + ": the server closed the connection before the response ended");
    if (!response.feed(std::string_view(buffer, static_cast<size_t>(n)))) {
      fail(target.url + ": " + response.error());
    }
  }
  const Clock::time_point end = Clock::now();
  ::close(fd);
  if (response.body().find("data: [DONE]") == std::string::npos) {
    fail(target.url + ": the stream did not end with data: [DONE]");
  }
  return std::chrono::duration<double, std::milli>(end - start).count();
}

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  size_t index = std::min(values.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(values.size())));
  return values[index];
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

// A 95% interval for p99(b) - p99(a) by resampling the pairs (bootstrap, a
// fixed seed so that a run's report can be reproduced from its samples). The
// tail of a latency distribution moves from sample to sample; the interval says
// how far, so that a difference of p99s is not read more precisely than it is.
std::pair<double, double> added_p99_interval(const std::vector<double>& a, const std::vector<double>& b) {
  constexpr int kResamples = 1000;
  std::mt19937_64 rng(20261129);
  std::uniform_int_distribution<size_t> pick(0, a.size() - 1);
  std::vector<double> added, ra(a.size()), rb(b.size());
  added.reserve(kResamples);
  for (int r = 0; r < kResamples; ++r) {
    for (size_t i = 0; i < a.size(); ++i) {
      const size_t j = pick(rng);
      ra[i] = a[j];
      rb[i] = b[j];
    }
    added.push_back(percentile(rb, 99) - percentile(ra, 99));
  }
  return {percentile(added, 2.5), percentile(added, 97.5)};
}

// Requests per second with `concurrency` clients sharing `count` requests.
double requests_per_second(const Target& target, const std::string& request, int count, int concurrency) {
  std::atomic<int> next{0};
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> clients;
  for (int c = 0; c < concurrency; ++c) {
    clients.emplace_back([&] {
      while (next.fetch_add(1) < count) request_once(target, request);
    });
  }
  for (std::thread& t : clients) t.join();
  return count / std::chrono::duration<double>(Clock::now() - start).count();
}

struct Options {
  std::string url_a, url_b, model;
  int requests = 1000, concurrency = 4, max_tokens = 16, warmup = 10;
};

void print_usage(FILE* out) {
  std::fprintf(out,
               "usage: stream_latency --a URL --b URL --model NAME [--requests N] [--concurrency C]\n"
               "                      [--max-tokens T] [--warmup W]\n"
               "Sends the same streamed chat completion to URL_A and URL_B (http://IPV4:PORT/v1),\n"
               "alternating one by one (order flipped every pair), then measures requests/s with C\n"
               "concurrent clients. Prints one JSON object.\n");
}

int parse_int(const std::string& flag, const char* value) {
  int parsed = 0;
  std::string_view text(value);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (ec != std::errc() || end != text.data() + text.size() || parsed < 0) {
    fail(flag + " needs a non-negative integer, got '" + std::string(text) + "'");
  }
  return parsed;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      print_usage(stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) fail(flag + " needs a value (see --help)");
    const char* value = argv[++i];
    if (flag == "--a") options.url_a = value;
    else if (flag == "--b") options.url_b = value;
    else if (flag == "--model") options.model = value;
    else if (flag == "--requests") options.requests = parse_int(flag, value);
    else if (flag == "--concurrency") options.concurrency = std::max(1, parse_int(flag, value));
    else if (flag == "--max-tokens") options.max_tokens = std::max(1, parse_int(flag, value));
    else if (flag == "--warmup") options.warmup = parse_int(flag, value);
    else fail("unknown option " + flag + " (see --help)");
  }
  if (options.url_a.empty() || options.url_b.empty() || options.model.empty()) {
    print_usage(stderr);
    fail("--a, --b and --model are required");
  }
  if (options.requests < 1) fail("--requests must be at least 1");
  return options;
}

std::string summary_json(const std::vector<double>& latencies, double rps) {
  char text[256];
  std::snprintf(text, sizeof text, R"({"p50_ms":%.4f,"p90_ms":%.4f,"p99_ms":%.4f,"mean_ms":%.4f,"n":%zu,"rps":%.3f})",
                percentile(latencies, 50), percentile(latencies, 90), percentile(latencies, 99),
                mean(latencies), latencies.size(), rps);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  const Target a = parse_target(options.url_a);
  const Target b = parse_target(options.url_b);
  const std::string request_a = build_request(a, options.model, options.max_tokens);
  const std::string request_b = build_request(b, options.model, options.max_tokens);

  for (int i = 0; i < options.warmup; ++i) {
    request_once(a, request_a);
    request_once(b, request_b);
  }
  std::vector<double> latency_a, latency_b, diffs;
  for (int i = 0; i < options.requests; ++i) {
    double la = 0, lb = 0;
    if (i % 2 == 0) {
      la = request_once(a, request_a);
      lb = request_once(b, request_b);
    } else {
      lb = request_once(b, request_b);
      la = request_once(a, request_a);
    }
    latency_a.push_back(la);
    latency_b.push_back(lb);
    diffs.push_back(lb - la);
    if ((i + 1) % 100 == 0) std::fprintf(stderr, "[stream_latency] %d/%d pairs\n", i + 1, options.requests);
  }
  // Throughput: alternating rounds, so drift hits both paths alike.
  const int per_round = std::max(1, options.requests / 16);
  std::vector<double> rps_a, rps_b;
  for (int round = 0; round < 4; ++round) {
    rps_a.push_back(requests_per_second(a, request_a, per_round, options.concurrency));
    rps_b.push_back(requests_per_second(b, request_b, per_round, options.concurrency));
  }
  const auto [p99_low, p99_high] = added_p99_interval(latency_a, latency_b);
  std::printf(R"({"a":%s,"b":%s,"paired_diff_ms":{"p50":%.4f,"mean":%.4f},"added_p99_interval_ms":[%.4f,%.4f],)"
              R"("requests_through_b":%d})"
              "\n",
              summary_json(latency_a, mean(rps_a)).c_str(), summary_json(latency_b, mean(rps_b)).c_str(),
              percentile(diffs, 50), mean(diffs), p99_low, p99_high, options.warmup + options.requests + 4 * per_round);
  return 0;
}
