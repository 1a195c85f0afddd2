// YARN's ReservedContainerCandidatesSelector (YARN-4390): frees whole nodes for big reserved
// containers instead of killing small containers all over the cluster.
//
//   ReservedSelector(/*selectorIndex=*/1).select(state);
//
// 1. Recompute the ideal assignment with pending including reservations and without the
//    natural termination factor; per leaf and partition the quota is actuallyToBePreempted.
// 2. Trial (read-only) on every node holding a reservation: if unallocated + killable already
//    fits the reservation, skip it; else walk its running containers newest first, skipping
//    killable and AM containers, taking those whose queue quota and the round budget cover
//    them, until the reservation fits. Nodes where it never fits are dropped.
// 3. Sort the remaining nodes by cost = newly selected / reserved size (ascending; ties by
//    node order) and repeat the walk for real, consuming quotas and budget; a node that no
//    longer fits gets its quotas (not the budget, as in YARN) back.
#pragma once

#include "scheduler/capacity/preemption/round_state.h"

namespace spindle::preemption {

class ReservedSelector {
 public:
  explicit ReservedSelector(int selectorIndex) : index_(selectorIndex) {}
  void select(RoundState& st) const;

 private:
  int index_;
};

}  // namespace spindle::preemption
