// YARN's FifoCandidatesSelector (also in preempt-to-balance mode, YARN-8379): the classic
// inter-queue selector. Recomputes the ideal assignment, deducts earlier selectors' picks, then
// frees each over-served leaf's target newest-first.
//
//   FifoSelector fifo(/*balanceMode=*/false, /*selectorIndex=*/2);
//   std::vector<ContainerId> droppedReservations;
//   fifo.select(state, droppedReservations);
//
// Per leaf whose default-partition entry may be preempted:
//  1. ignore-exclusivity containers of every partition in the target, newest first;
//  2. apps in the leaf's preemption order; per app its reservations (each also reported in
//     `reservationsToKill`, YARN's KILL_RESERVED_CONTAINER), then live containers lowest
//     request priority first, newest first; AM containers are set aside;
//  3. the set-aside AMs, in collection order, while the AM total exceeds the leaf's
//     amPreemptionAllowance (never, when AM preemption is switched off).
#pragma once

#include <vector>

#include "scheduler/capacity/preemption/round_state.h"
#include "scheduler/capacity/preemption/selection_util.h"

namespace spindle::preemption {

class FifoSelector {
 public:
  FifoSelector(bool balanceMode, int selectorIndex)
      : balance_(balanceMode), index_(selectorIndex) {}

  void select(RoundState& st, std::vector<ContainerId>& reservationsToKill) const;

 private:
  void selectFromLeaf(RoundState& st, QueueId leaf,
                      std::vector<ContainerId>& reservationsToKill) const;

  bool balance_;
  int index_;
};

}  // namespace spindle::preemption
