// IntraQueueCandidatesSelector with the FIFO intra-queue plugin (FifoIntraQueuePreemptionPlugin):
// inside one leaf, frees resources from lower-priority apps (priority_first) or from users above
// their user limit (userlimit_first) for the starved apps of the same queue.
//
//   IntraQueueSelector(/*selectorIndex=*/3).select(state);
//
// Runs after the inter-queue selectors and reuses their calculator's figures (the under-served
// lists and the leaves' inter-queue actuallyToBePreempted). Per partition, per under-served leaf:
//  1. skip parents, queues with intra-queue (or all) preemption disabled, queues whose
//     used / guaranteed is below minimum-threshold, and queues with fewer than two apps;
//  2. reassignable = U - inter-queue actuallyToBePreempted - AM usage;
//  3. per app from the highest priority (FIFO within a priority): ideal = min(used - AM +
//     pending - selected, user limit - AM of the user - user's ideal so far, reassignable);
//     an app whose ideal exceeds its usage needs the difference from others;
//  4. limit = min(max-allowable-limit x G - inter-queue actuallyToBePreempted, budget); per app
//     from the lowest priority: toBePreempted = min(used - ideal - selected - AM [- minimum
//     allocation under userlimit_first], what is left of the limit);
//  5. demand is matched against lower apps' toBePreempted, never between apps of the same user
//     whose priority is not lower; the matched total is the queue's target;
//  6. selection walks apps lowest priority (then newest) first, containers as FIFO does, never
//     AMs, skipping killable and selected ones, and (userlimit_first) any container that would
//     push a user over its limit below it; conservative DRF by default.
#pragma once

#include "scheduler/capacity/preemption/round_state.h"

namespace spindle::preemption {

class IntraQueueSelector {
 public:
  explicit IntraQueueSelector(int selectorIndex) : index_(selectorIndex) {}
  void select(RoundState& st) const;

 private:
  int index_;
};

}  // namespace spindle::preemption
