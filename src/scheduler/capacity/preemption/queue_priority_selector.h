// YARN's QueuePriorityContainerCandidateSelector (YARN-5864): with priority-utilization parents
// and differing queue priorities, a reservation of a higher-priority queue that is still under
// its guarantee may free its node by preempting containers of lower-priority queues -- even
// queues that are themselves under their guarantee ("underutilized preemption").
//
//   QueuePrioritySelector(/*selectorIndex=*/0).select(state);
//
// 1. Priority graph over leaves: for each pair, the two ancestors right below their lowest
//    common ancestor decide; higher relativePriority -> may preempt the lower one.
// 2. Reservations of queues with outgoing edges, by creation time (oldest first), once older
//    than reserved-container-delay-ms (snapshot.nowMs - creationTimeMs).
// 3. Skip if the demanding queue is satisfied on the node's partition:
//    U - R + already marked for it >= G.
// 4. On the node: lacking = reserved size - unallocated, minus containers already selected
//    there. Walk running containers (a container of a queue that may preempt the other's sorts
//    first, else oldest first), take non-AM containers of queues the demander may preempt,
//    within the round budget, until lacking <= 0. Only a node that can be freed is used.
// Deliberate choices: preemption-disabled queues are never victims here either (YARN's code
// does not check the flag in this selector); allow-move-reservation is parsed but moving a
// reservation is not planned (YARN marks it "TODO: do more tests").
#pragma once

#include "scheduler/capacity/preemption/round_state.h"

namespace spindle::preemption {

class QueuePrioritySelector {
 public:
  explicit QueuePrioritySelector(int selectorIndex) : index_(selectorIndex) {}
  void select(RoundState& st) const;

 private:
  int index_;
};

}  // namespace spindle::preemption
