// The mark -> wait -> kill bookkeeping of capacity preemption (YARN's
// ProportionalCapacityPreemptionPolicy.preemptOrkillSelectedContainerAfterWait and its
// preemptionCandidates map). Pure state: it decides, the Capacity Scheduler acts.
//
//   PreemptionExecutor ex;
//   PreemptionExecutor::Step step = ex.advance(plan.candidates, clock.nowMs(), maxWaitBeforeKill);
//   for (size_t i : step.marked) tellTheAm(plan.candidates[i]);     //
//   MARK_CONTAINER_FOR_PREEMPTION for (size_t i : step.due) killOrMakeKillable(plan.candidates[i]);
//   // MARK_CONTAINER_FOR_KILLABLE ex.forget(container); // it ended on its own
//
// Algorithm of advance(), per round (YARN 3.x):
//  1. For each candidate in plan order (reservations are skipped: YARN's mark of a reserved
//     container is a no-op in the scheduler, it was unreserved at once):
//     a. first seen: mark it, firstMarked = now;
//     b. seen before and firstMarked + the candidate's killWaitMs <= now: due (kill), and the
//        mark is dropped;
//     c. seen before, still waiting: nothing (3.x does not repeat the mark).
//  2. Drop every mark with firstMarked + 2 x maxWaitBeforeKill < now (stale: not re-selected in
//     time; if selected again later it starts a new wait). YARN uses the global wait here even for
//     the balance selector's longer wait (possibly a YARN bug), and so does this class.
// Invariants: a container is either marked, killable (lazy preemption) or neither; a container
// listed twice in one round is handled once. Deterministic: containers are kept in id order.
// Not thread-safe; owned by the Capacity Scheduler.
#pragma once

#include <map>
#include <set>
#include <vector>

#include "base/clock.h"
#include "base/ids.h"
#include "scheduler/capacity/preemption/preemption_policy.h"

namespace spindle {

class PreemptionExecutor {
 public:
  struct Step {
    std::vector<size_t> marked;      // candidate indexes marked for the first time this round
    std::vector<size_t> due;         // candidate indexes whose wait is over
    std::vector<ContainerId> stale;  // marks dropped because they were not re-selected in time
  };

  Step advance(const std::vector<preemption::PreemptionCandidate>& candidates, TimeMs now,
               int64_t maxWaitBeforeKillMs);

  // Lazy preemption: the container's wait is over and it waits, killable, for the allocator.
  void makeKillable(ContainerId c);
  // The container ended (completed, released, killed): forget its mark or killable flag.
  void forget(ContainerId c);
  // The policy was switched off: pending marks are dropped (killable containers stay killable).
  void clearMarks() { firstMarked_.clear(); }

  const std::map<ContainerId, TimeMs>& marks() const { return firstMarked_; }
  const std::set<ContainerId>& killable() const { return killable_; }
  bool isKillable(ContainerId c) const { return killable_.contains(c); }
  // Marked or killable containers of one app, in id order.
  std::vector<ContainerId> containersOf(AppId app) const;

 private:
  std::map<ContainerId, TimeMs> firstMarked_;
  std::set<ContainerId> killable_;
};

}  // namespace spindle
