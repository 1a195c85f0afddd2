#include "reservation/planning_status.h"

namespace spindle::reservation {

const char* planErrorKindName(PlanErrorKind kind) {
  switch (kind) {
    case PlanErrorKind::kNone: return "OK";
    case PlanErrorKind::kIllegalArgument: return "IllegalArgumentException";
    case PlanErrorKind::kPlanning: return "PlanningException";
    case PlanErrorKind::kContractValidation: return "ContractValidationException";
    case PlanErrorKind::kResourceOverCommit: return "ResourceOverCommitException";
    case PlanErrorKind::kPlanningQuota: return "PlanningQuotaException";
    case PlanErrorKind::kMismatchedUser: return "MismatchedUserException";
    case PlanErrorKind::kYarn: return "YarnException";
  }
  return "?";
}

bool PlanStatus::isPlanningException() const {
  switch (kind_) {
    case PlanErrorKind::kPlanning:
    case PlanErrorKind::kContractValidation:
    case PlanErrorKind::kResourceOverCommit:
    case PlanErrorKind::kPlanningQuota:
    case PlanErrorKind::kMismatchedUser: return true;
    default: return false;
  }
}

std::string PlanStatus::toString() const {
  if (isOk()) return "OK";
  return fmt::format("{}: {}", planErrorKindName(kind_), message_);
}

Status PlanStatus::toStatus() const {
  if (isOk()) return Status::ok();
  return Status(StatusCode::kInvalidArgument, toString());
}

}  // namespace spindle::reservation
