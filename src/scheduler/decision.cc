#include "scheduler/decision.h"

namespace spindle {

const char* toString(DecisionKind k) {
  switch (k) {
    case DecisionKind::kAllocate: return "allocate";
    case DecisionKind::kReserve: return "reserve";
    case DecisionKind::kUnreserve: return "unreserve";
    case DecisionKind::kSkip: return "skip";
    case DecisionKind::kRelease: return "release";
    case DecisionKind::kComplete: return "complete";
    case DecisionKind::kKill: return "kill";
    case DecisionKind::kPreemptMark: return "preempt-mark";
    case DecisionKind::kAppAccepted: return "app-accepted";
    case DecisionKind::kAppRejected: return "app-rejected";
    case DecisionKind::kAppFinished: return "app-finished";
    case DecisionKind::kNodeAdded: return "node-added";
    case DecisionKind::kNodeRemoved: return "node-removed";
    case DecisionKind::kNodeUpdated: return "node-updated";
  }
  return "?";
}

const char* toString(SkipReason r) {
  switch (r) {
    case SkipReason::kNone: return "NONE";
    case SkipReason::kAmLimit: return "AM_LIMIT";
    case SkipReason::kUserLimit: return "USER_LIMIT";
    case SkipReason::kQueueMaxCapacity: return "QUEUE_MAX_CAPACITY";
    case SkipReason::kLocalityDelay: return "LOCALITY_DELAY";
    case SkipReason::kRelaxLocality: return "RELAX_LOCALITY";
    case SkipReason::kPartition: return "PARTITION";
    case SkipReason::kNoNodeFits: return "NO_NODE_FITS";
    case SkipReason::kBlacklisted: return "BLACKLISTED";
    case SkipReason::kPriorityOrder: return "PRIORITY_ORDER";
    case SkipReason::kConstraint: return "CONSTRAINT";
    case SkipReason::kQueueStopped: return "QUEUE_STOPPED";
    case SkipReason::kMaxParallelApps: return "MAX_PARALLEL_APPS";
  }
  return "?";
}

}  // namespace spindle
