// The Capacity Scheduler's per-application state (the parts of FiCaSchedulerApp and
// AppSchedulingInfo the base Application does not hold): phase in the leaf (non-runnable, pending
// for the AM limit, active), effective priority, pending resource per partition, reservations per
// scheduler key, and the missed non-partitioned opportunities (AppSchedulingInfo's
// missedNonPartitionedRequestSchedulingOpportunity).
//
//   CsApp& s = apps_.at(id);
//   if (s.phase == CsAppPhase::kActive) ... s.reservedOn(node) ...
//
// Invariants (CapacityScheduler::checkSchedulerInvariants): reservations.size() equals the sum
// of reservedCount; every reservation is the node's reservation in the cluster; `pending`
// equals the app's asks summed per partition.
#pragma once

#include <map>
#include <string>

#include "app/application.h"
#include "base/hot_path.h"
#include "scheduler/capacity/cs_queue.h"

namespace spindle {

enum class CsAppPhase { kNonRunnable, kPending, kActive };
const char* toString(CsAppPhase p);

struct CsReservation {
  SchedulerKey key;
  Resource resource;
  std::string partition;
  ContainerId id;        // from the app's container sequence, as YARN's reserved RMContainer
  TimeMs createdAt = 0;  // when the node was first reserved (re-reservations keep it)
};

struct CsApp {
  Application* app = nullptr;  // owned by the Scheduler base; stable while the app lives
  CsQueue* leaf = nullptr;
  CsUser* user = nullptr;  // in leaf->users (std::map nodes are stable)
  int32_t priority = 0;    // effective (default-application-priority, capped)
  CsAppPhase phase = CsAppPhase::kPending;
  std::string amPartition;
  Resource amResource;             // normalised AM resource (zero for an unmanaged AM)
  AppOrderKey orderKey;            // position in the leaf's ordering policy (when schedulable)
  bool schedulable = false;        // in leaf->schedulable
  bool hasPendingAsks = false;     // counted in the user's appsWithPending
  PartitionMap<Resource> pending;  // by partition
  PartitionMap<Resource> used;     // by node partition, with reservations
  std::map<NodeId, CsReservation> reservations;  // nodes this app has reserved
  std::map<SchedulerKey, int> reservedCount;
  std::map<SchedulerKey, int64_t> reReservations;
  std::map<SchedulerKey, int64_t> missedNonPartitioned;
  // The AM-limit skip activateApplications last recorded for this app and the figures its text
  // was built from (CapacityScheduler::amLimitSkipText): the same figures again repeat that
  // record (Scheduler::repeatSkip) instead of formatting it anew for every pending app on
  // every activation. Checked by the invariant checker against the record.
  struct AmLimitSkip {
    uint64_t serial = 0;  // the Scheduler's skip record; 0: none
    bool userLevel = false;
    std::string leafPath;  // a path, not a pointer: a refresh rebuilds the queue objects
    Resource limit, used, am;
    bool operator==(const AmLimitSkip&) const = default;
  };
  AmLimitSkip amLimitSkip;

  // Starts loading this record, its user and its leaf's hot group (base/hot_path.h).
  void prefetch() const {
    prefetchRange(this, sizeof(CsApp));
    prefetchRange(user, sizeof(CsUser));
    leaf->prefetchHot();
  }
  int reserved(const SchedulerKey& k) const {
    auto it = reservedCount.find(k);
    return it == reservedCount.end() ? 0 : it->second;
  }
  Resource totalReserved() const {
    Resource r;
    for (const auto& [n, res] : reservations) r += res.resource;
    return r;
  }
  bool pendingIn(const std::string& partition) const {
    auto it = pending.find(partition);
    return it != pending.end() && !it->second.isZero();
  }
};

}  // namespace spindle
