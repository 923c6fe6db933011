#include "http_transfer.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <chrono>
#include <utility>

namespace tiergate::cloud_detail {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int kPollMs = 20;
constexpr size_t kMaxErrorBody = 64 * 1024;

struct TransferState {
  BodyConsumer* consumer = nullptr;
  SteadyClock::time_point first_byte_deadline;
  int64_t max_body_bytes = 0;
  ResponseInfo info;
  bool headers_complete = false;
  int64_t body_bytes = 0;
  std::string error_body;
  TransferError abort = TransferError::kNone;
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

std::optional<int64_t> parse_integer(std::string_view s) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  return value;
}

bool is_2xx(long status) { return status >= 200 && status < 300; }

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& state = *static_cast<TransferState*>(user);
  const size_t total = size * count;
  std::string_view line = trim(std::string_view(data, total));
  if (line.substr(0, 5) == "HTTP/") {
    // A new status line (after 1xx): forget what the previous block said.
    state.info = ResponseInfo{};
    size_t space = line.find(' ');
    if (space != std::string_view::npos) {
      state.info.status = static_cast<long>(parse_integer(line.substr(space + 1)).value_or(0));
    }
    return total;
  }
  if (line.empty()) {
    if (state.info.status >= 200) {
      state.headers_complete = true;
      if (is_2xx(state.info.status)) state.consumer->on_headers(state.info);
    }
    return total;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return total;
  std::string_view name = trim(line.substr(0, colon));
  std::string_view value = trim(line.substr(colon + 1));
  if (iequals(name, "content-type")) {
    state.info.content_type = std::string(value);
  } else if (iequals(name, "retry-after")) {
    auto seconds = parse_integer(value);
    if (seconds && *seconds >= 0 && value.find_first_not_of("0123456789") == std::string_view::npos) {
      state.info.retry_after_s = seconds;
    }
  } else if (iequals(name, "x-ratelimit-remaining-requests")) {
    state.info.remaining_requests = parse_integer(value);
  } else if (iequals(name, "x-ratelimit-remaining-tokens")) {
    state.info.remaining_tokens = parse_integer(value);
  }
  return total;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& state = *static_cast<TransferState*>(user);
  const size_t total = size * count;
  state.body_bytes += static_cast<int64_t>(total);
  if (state.body_bytes > state.max_body_bytes) {
    state.abort = TransferError::kTooLarge;
    return 0;
  }
  if (!is_2xx(state.info.status)) {
    size_t room = kMaxErrorBody - std::min(kMaxErrorBody, state.error_body.size());
    state.error_body.append(data, std::min(room, total));
    return total;
  }
  if (!state.consumer->on_body(std::string_view(data, total))) {
    state.abort = TransferError::kConsumerAbort;
    return 0;
  }
  return total;
}

// True when the transfer must stop now; records why in state.abort.
bool should_abort(TransferState& state) {
  if (state.abort != TransferError::kNone) return true;
  if (state.consumer->cancelled()) {
    state.abort = TransferError::kCancelled;
    return true;
  }
  if (!state.headers_complete && SteadyClock::now() >= state.first_byte_deadline) {
    state.abort = TransferError::kFirstByteTimeout;
    return true;
  }
  return false;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return should_abort(*static_cast<TransferState*>(user)) ? 1 : 0;
}

bool is_connect_error(CURLcode code) {
  constexpr CURLcode kConnectErrors[] = {
      CURLE_COULDNT_RESOLVE_PROXY,    CURLE_COULDNT_RESOLVE_HOST,    CURLE_COULDNT_CONNECT,
      CURLE_SSL_CONNECT_ERROR,        CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER,               CURLE_SSL_CACERT_BADFILE,      CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,   CURLE_SSL_CRL_BADFILE,
      CURLE_SSL_ENGINE_NOTFOUND,      CURLE_SSL_ENGINE_SETFAILED,    CURLE_SSL_ENGINE_INITFAILED,
      CURLE_USE_SSL_FAILED,           CURLE_PROXY,
  };
  return std::find(std::begin(kConnectErrors), std::end(kConnectErrors), code) !=
         std::end(kConnectErrors);
}

// True once the request went out on an established connection.
bool request_was_sent(CURL* easy) {
  long request_size = 0;
  curl_off_t pretransfer_us = 0;
  curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &request_size);
  curl_easy_getinfo(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer_us);
  return request_size > 0 || pretransfer_us > 0;
}

TransferError classify(CURLcode code, bool sent) {
  if (code == CURLE_OK) return TransferError::kNone;
  if (code == CURLE_OPERATION_TIMEDOUT) {
    return sent ? TransferError::kTotalTimeout : TransferError::kConnectTimeout;
  }
  if (code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL) return TransferError::kBadUrl;
  if (is_connect_error(code) || !sent) return TransferError::kConnect;
  return TransferError::kTransport;
}

// Runs the multi loop until the transfer ends or should_abort(); returns the
// transfer's CURLcode, or nullopt when it was aborted here or the loop failed.
std::optional<CURLcode> drive(CURLM* multi, CURL* easy, TransferState& state) {
  for (;;) {
    int running = 0;
    if (curl_multi_perform(multi, &running) != CURLM_OK) return std::nullopt;
    int queued = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &queued)) {
      if (msg->msg == CURLMSG_DONE && msg->easy_handle == easy) return msg->data.result;
    }
    if (running == 0) return std::nullopt;
    if (should_abort(state)) return std::nullopt;
    if (curl_multi_poll(multi, nullptr, 0, kPollMs, nullptr) != CURLM_OK) return std::nullopt;
  }
}

}  // namespace

bool ensure_curl_initialized() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] { ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; });
  return ok;
}

CurlHandlePool::~CurlHandlePool() {
  for (Handles h : idle_) destroy(h);
}

CurlHandlePool::Handles CurlHandlePool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      Handles h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  Handles h{curl_multi_init(), curl_easy_init()};
  if (h.multi == nullptr || h.easy == nullptr) {
    destroy(h);
    return {};
  }
  return h;
}

void CurlHandlePool::release(Handles handles, bool reusable) {
  if (reusable) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < max_idle_) {
      idle_.push_back(handles);
      return;
    }
  }
  destroy(handles);
}

void CurlHandlePool::destroy(Handles handles) {
  if (handles.easy != nullptr) curl_easy_cleanup(handles.easy);
  if (handles.multi != nullptr) curl_multi_cleanup(handles.multi);
}

TransferResult perform_transfer(CurlHandlePool& pool, const TransferRequest& request,
                                BodyConsumer& consumer) {
  TransferResult result;
  if (!ensure_curl_initialized()) {
    result.error = TransferError::kInternal;
    result.detail = "curl_global_init failed";
    return result;
  }
  CurlHandlePool::Handles handles = pool.acquire();
  if (handles.easy == nullptr) {
    result.error = TransferError::kInternal;
    result.detail = "cannot create a libcurl handle";
    return result;
  }
  CURL* easy = handles.easy;
  curl_easy_reset(easy);

  TransferState state;
  state.consumer = &consumer;
  state.first_byte_deadline =
      SteadyClock::now() + std::chrono::milliseconds(std::max<long>(1, request.first_byte_timeout_ms));
  state.max_body_bytes = request.max_body_bytes;

  curl_slist* header_list = nullptr;
  for (const std::string& h : request.headers) {
    curl_slist* next = curl_slist_append(header_list, h.c_str());
    if (next != nullptr) header_list = next;
  }
  char error_buffer[CURL_ERROR_SIZE] = {};

  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, header_list);
  if (request.post_body != nullptr) {
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.post_body->size()));
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.post_body->data());
  } else {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  }
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, std::max<long>(1, request.connect_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, std::max<long>(1, request.request_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &state);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &state);
  curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &state);
  curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);

  std::optional<CURLcode> code;
  if (curl_multi_add_handle(handles.multi, easy) == CURLM_OK) {
    code = drive(handles.multi, easy, state);
    curl_multi_remove_handle(handles.multi, easy);
  }
  const bool sent = request_was_sent(easy);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, nullptr);
  curl_slist_free_all(header_list);

  if (state.abort == TransferError::kFirstByteTimeout && !sent) {
    result.error = TransferError::kConnectTimeout;
  } else if (state.abort != TransferError::kNone) {
    result.error = state.abort;
  } else if (!code) {
    result.error = TransferError::kTransport;
    result.detail = "the transfer stopped unexpectedly";
  } else {
    result.error = classify(*code, sent);
    if (*code != CURLE_OK) result.detail = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(*code);
  }
  result.headers_complete = state.headers_complete;
  result.info = std::move(state.info);
  result.error_body = std::move(state.error_body);
  pool.release(handles, result.error == TransferError::kNone);
  return result;
}

}  // namespace tiergate::cloud_detail
