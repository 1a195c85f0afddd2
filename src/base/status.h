// Status and Result<T>: error values that carry a code and a message naming what and where.
//
//   Result<int> parsePort(std::string_view s);
//   auto r = parsePort("80x");
//   if (!r) return r.status();          // propagate
//   int port = *r;
//
// Errors are values, not exceptions, across module boundaries. Code maps to exit codes and HTTP
// statuses at the front ends (InvalidArgument -> exit 2 / HTTP 400, NotFound -> 404, ...).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>

namespace spindle {

enum class StatusCode {
  kOk,
  kInvalidArgument,     // bad input: file, trace, request, argument
  kNotFound,            // unknown queue, node, app, container
  kFailedPrecondition,  // valid request the current state refuses (invalid transition, ...)
  kAlreadyExists,
  kResourceExhausted,
  kInternal,  // a broken invariant: a bug, never user error
};

const char* statusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }

  bool isOk() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "InvalidArgument: message", or "OK".
  std::string toString() const;

  // Prefixes the message with context, e.g. "step 3: " + "unknown node n9".
  Status withContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename... Args>
Status invalidArgument(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kInvalidArgument, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status notFound(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kNotFound, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status failedPrecondition(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kFailedPrecondition, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status internalError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kInternal, fmt::format(f, std::forward<Args>(args)...));
}

// A value or an error Status (never an OK status).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).isOk());
  }

  bool isOk() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return isOk(); }
  const Status& status() const {
    static const Status kOk;
    return isOk() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

// A reference or an error: Result<const Outcome&> hands out an object its maker keeps (and
// reuses), without a copy.
template <typename T>
class [[nodiscard]] Result<T&> {
 public:
  Result(T& value) : value_(&value) {}                  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.isOk());
  }

  bool isOk() const { return value_ != nullptr; }
  explicit operator bool() const { return isOk(); }
  const Status& status() const { return status_; }
  T& value() const {
    assert(value_ != nullptr);
    return *value_;
  }
  T& operator*() const { return value(); }
  T* operator->() const { return &value(); }

 private:
  T* value_ = nullptr;
  Status status_;
};

}  // namespace spindle

// Propagates a non-OK Status from an expression returning Status.
#define SPINDLE_RETURN_IF_ERROR(expr)                    \
  do {                                                   \
    ::spindle::Status spindle_status_ = (expr);          \
    if (!spindle_status_.isOk()) return spindle_status_; \
  } while (0)

#define SPINDLE_CONCAT_INNER(a, b) a##b
#define SPINDLE_CONCAT(a, b) SPINDLE_CONCAT_INNER(a, b)
// Declares `lhs` from a Result expression, or returns its error.
#define SPINDLE_ASSIGN_OR_RETURN(lhs, expr) \
  SPINDLE_ASSIGN_OR_RETURN_IMPL(SPINDLE_CONCAT(spindle_result_, __LINE__), lhs, expr)
#define SPINDLE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.isOk()) return tmp.status();               \
  lhs = std::move(tmp).value()
