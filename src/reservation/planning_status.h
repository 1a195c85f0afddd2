// Errors of the reservation system, named after the Java exceptions YARN throws, so that a test,
// a REST response or a scenario log can say "PlanningQuotaException: ..." exactly as YARN does.
//
//   PlanStatus s = plan.addReservation(alloc);
//   if (!s) {
//     if (s.kind() == PlanErrorKind::kPlanningQuota) ...;   // the sharing policy refused it
//     return s.toStatus();                                   // "PlanningQuotaException: ..."
//   }
//   PlanResult<RleSparseResourceAllocation> r = RleSparseResourceAllocation::merge(...);
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions
// (PlanningException and its subclasses ContractValidationException, PlanningQuotaException,
// ResourceOverCommitException, MismatchedUserException) plus the IllegalArgumentException the
// plan throws for duplicate or unknown ids and the YarnException of ReservationInputValidator.
// Errors are values (STYLE: no exceptions across module boundaries).
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "base/status.h"

namespace spindle::reservation {

enum class PlanErrorKind {
  kNone,
  kIllegalArgument,     // IllegalArgumentException: duplicate / unknown reservation id
  kPlanning,            // PlanningException: no allocation found, merge would be negative
  kContractValidation,  // ContractValidationException: a stage the planner cannot take
  kResourceOverCommit,  // ResourceOverCommitException: NoOverCommitPolicy refused
  kPlanningQuota,       // PlanningQuotaException: CapacityOverTimePolicy refused
  kMismatchedUser,      // MismatchedUserException: an update changing the user
  kYarn,                // YarnException: ReservationInputValidator refused the request
};

// The Java class name, e.g. "PlanningQuotaException".
const char* planErrorKindName(PlanErrorKind kind);

class [[nodiscard]] PlanStatus {
 public:
  PlanStatus() = default;
  PlanStatus(PlanErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  static PlanStatus ok() { return {}; }

  bool isOk() const { return kind_ == PlanErrorKind::kNone; }
  explicit operator bool() const { return isOk(); }
  PlanErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // True for PlanningException and its subclasses (what YARN's agents catch).
  bool isPlanningException() const;
  // "PlanningQuotaException: <message>".
  std::string toString() const;
  // InvalidArgument (HTTP 400, as RMWebServices maps every YarnException) carrying toString().
  Status toStatus() const;

 private:
  PlanErrorKind kind_ = PlanErrorKind::kNone;
  std::string message_;
};

template <typename... Args>
PlanStatus planError(PlanErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  return PlanStatus(kind, fmt::format(f, std::forward<Args>(args)...));
}

// A value or a failed PlanStatus.
template <typename T>
class [[nodiscard]] PlanResult {
 public:
  PlanResult(T value) : v_(std::move(value)) {}             // NOLINT: implicit by design
  PlanResult(PlanStatus status) : v_(std::move(status)) {}  // NOLINT

  bool isOk() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return isOk(); }
  const PlanStatus& status() const {
    static const PlanStatus kOk;
    return isOk() ? kOk : std::get<PlanStatus>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, PlanStatus> v_;
};

}  // namespace spindle::reservation

#define SPINDLE_PLAN_RETURN_IF_ERROR(expr)                \
  do {                                                    \
    ::spindle::reservation::PlanStatus plan_st_ = (expr); \
    if (!plan_st_.isOk()) return plan_st_;                \
  } while (0)

#define SPINDLE_PLAN_ASSIGN_OR_RETURN(lhs, expr) \
  SPINDLE_PLAN_ASSIGN_OR_RETURN_IMPL(SPINDLE_CONCAT(plan_result_, __LINE__), lhs, expr)
#define SPINDLE_PLAN_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                       \
  if (!tmp.isOk()) return tmp.status();                    \
  lhs = std::move(tmp).value()
