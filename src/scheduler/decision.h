// Decision records: every allocation, reservation, skip, release, preemption and app or node
// change the core makes, with its reason. The decision log, the "why is my app pending" view,
// the simulator report and the tests all read these records.
//
//   DecisionLog log;
//   scheduler.setDecisionSink(&log);
//   ... run ...
//   for (const Decision& d : log.decisions()) if (d.kind == DecisionKind::kAllocate) ...
//
// Records hold ids, not names; decision_json.h renders them with names resolved.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/asks.h"
#include "base/clock.h"
#include "base/ids.h"
#include "resource/resource.h"

namespace spindle {

enum class DecisionKind {
  kAllocate,     // a container was allocated
  kReserve,      // a node was reserved for an ask that did not fit
  kUnreserve,    // a reservation was cancelled or turned into an allocation
  kSkip,         // an app was passed over on a node, with SkipReason
  kRelease,      // the app released a container
  kComplete,     // a container finished on its node (exit status)
  kKill,         // the scheduler killed a container (node lost, app finished, preemption)
  kPreemptMark,  // a container was marked for preemption (AM told)
  kAppAccepted,
  kAppRejected,
  kAppFinished,
  kNodeAdded,
  kNodeRemoved,
  kNodeUpdated,  // node capacity changed
};
const char* toString(DecisionKind k);  // "allocate", "reserve", ...

enum class SkipReason {
  kNone,
  kAmLimit,           // queue or user AM resource limit reached
  kUserLimit,         // user over its limit in the queue
  kQueueMaxCapacity,  // queue (or a parent) would exceed maximum-capacity
  kLocalityDelay,     // waiting for a better locality (missed opportunities vs threshold)
  kRelaxLocality,     // the ask forbids the only locality this node offers
  kPartition,         // the node's partition is not accessible to the ask
  kNoNodeFits,        // the ask does not fit in this node's unallocated resource
  kBlacklisted,       // the app blacklisted this node or its rack
  kPriorityOrder,     // a higher-priority key got nothing, lower keys are not tried
  kConstraint,        // a placement constraint is not satisfied on this node
  kQueueStopped,
  kMaxParallelApps,  // not runnable yet: a queue's or the user's max-parallel-apps is reached
};
const char* toString(SkipReason r);  // "AM_LIMIT", "USER_LIMIT", ...

struct Decision {
  DecisionKind kind = DecisionKind::kAllocate;
  TimeMs time = 0;
  AppId app;
  ContainerId container;
  NodeId node;
  std::string queue;
  SchedulerKey key;
  Locality locality = Locality::kOffSwitch;
  Resource resource;
  bool am = false;
  SkipReason skip = SkipReason::kNone;
  int32_t exitStatus = 0;
  std::string reason;  // human-readable why
  // Named numbers behind the reason, e.g. {"missedOpportunities", 2}, {"threshold", 3}.
  std::vector<std::pair<std::string, double>> numbers;
};

class DecisionSink {
 public:
  virtual ~DecisionSink() = default;
  virtual void record(const Decision& d) = 0;
  // False when the sink reads no text: the core then leaves `queue` and `reason` empty in the
  // per-container records (allocate, complete, release, kill) instead of copying them, and
  // schedulers may skip formatting those reasons (Scheduler::decisionTextWanted()).
  virtual bool wantsText() const { return true; }
};

// Keeps every decision in memory, in order.
class DecisionLog final : public DecisionSink {
 public:
  void record(const Decision& d) override { decisions_.push_back(d); }
  const std::vector<Decision>& decisions() const { return decisions_; }
  void clear() { decisions_.clear(); }

 private:
  std::vector<Decision> decisions_;
};

}  // namespace spindle
