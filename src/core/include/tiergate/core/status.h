// Errors as values. The code tells the caller what to do next:
//   kInvalidArgument    the request is wrong; answer 400, never fall back.
//   kNotFound           the named thing (model, route) does not exist; 404.
//   kUnavailable        the tier cannot serve now; the caller may retry or move
//                       to the next tier.
//   kDeadlineExceeded   a timeout; like kUnavailable for fallback.
//   kResourceExhausted  a queue or budget is full; retry later (429/503).
//   kFailedPrecondition the state must be fixed first (e.g. model not loaded).
//   kPermissionDenied   a policy forbids it (e.g. personal data the privacy
//                       policy keeps on the device); 403, never moves to the
//                       cloud.
//   kCancelled          the client went away; nothing more is sent.
//   kInternal           a bug or an unexpected failure.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tiergate {

enum class StatusCode {
  kOk,
  kInvalidArgument,
  kNotFound,
  kUnavailable,
  kDeadlineExceeded,
  kResourceExhausted,
  kFailedPrecondition,
  kPermissionDenied,
  kCancelled,
  kInternal,
};

std::string_view status_code_name(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }
  bool is_ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string to_string() const;

  // True when the next tier may be tried (the tier failed, not the request).
  bool allows_fallback() const {
    return code_ == StatusCode::kUnavailable || code_ == StatusCode::kDeadlineExceeded ||
           code_ == StatusCode::kResourceExhausted || code_ == StatusCode::kFailedPrecondition;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalid_argument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status not_found(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
inline Status deadline_exceeded(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }
inline Status resource_exhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
inline Status failed_precondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
inline Status permission_denied(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
inline Status cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
inline Status internal_error(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

// A value or the Status that explains its absence. Constructing from an OK
// Status is a bug (asserted).
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.is_ok()); }  // NOLINT

  bool is_ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { assert(value_); return *value_; }
  const T& value() const& { assert(value_); return *value_; }
  T&& value() && { assert(value_); return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace tiergate
