// The ideal assignment and per-leaf preemption targets (YARN's PreemptableResourceCalculator
// and AbstractPreemptableResourceCalculator, over TempQueuePerPartition).
//
//   IdealAssignmentCalculator calc(state, CalculatorMode{});
//   calc.compute();   // fills idealAssigned, toBePreempted, actuallyToBePreempted
//
// Algorithm, for every partition:
//  1. Preemptable / untouchable extras bottom-up (updatePreemptableExtras).
//  2. root.ideal = root.guaranteed; each parent divides its own ideal among its children with
//     computeIdealResourceDistribution: a fixpoint weighted by guarantee over the
//     children with a guarantee, then an equal-weight fixpoint over zero-guarantee children;
//     then toBePreempted = (U - killable - max(min(U+P, G), I)) x scalingFactor.
//  3. For every leaf whose preemption is enabled: if U > G x (1 + max_ignored_over_capacity)
//     (the dead zone) then actuallyToBePreempted = toBePreempted x
//     natural_termination_factor (normalised up), else 0.
// Deliberate choice (YARN's computeFixpointAllocation rebinds `unassigned`): the caller's
// `unassigned` keeps tracking every offer, so the zero-guarantee pass sees what is really left;
// YARN's rebinding makes it see more. The recorded expectations do not depend on it.
// Ties in the fixpoint's priority queue are broken by queue order (YARN: HashSet order).
#pragma once

#include <vector>

#include "scheduler/capacity/preemption/round_state.h"

namespace spindle::preemption {

class IdealAssignmentCalculator {
 public:
  IdealAssignmentCalculator(RoundState& state, CalculatorMode mode) : st_(state), mode_(mode) {}

  void compute();

  // One level (exposed for tests): divides `parentIdeal` among `children` of one partition.
  void computeIdealResourceDistribution(std::vector<TempQueue*>& children,
                                        const Resource& parentIdeal);

 private:
  void updatePreemptableExtras(std::vector<TempQueue>& tqs, QueueId q);
  void recurse(std::vector<TempQueue>& tqs, QueueId q);
  // Returns what remains unassigned.
  Resource computeFixpointAllocation(const Resource& totGuarant, std::vector<TempQueue*> queues,
                                     Resource unassigned, bool ignoreGuarantee);
  void resetCapacity(const std::vector<TempQueue*>& active, bool ignoreGuarantee);
  // TempQueuePerPartition.offer; returns the part of avail not accepted.
  Resource offer(TempQueue& q, const Resource& avail, const Resource& totGuarant);
  // TQComparator: <0 when a is more under-served than b.
  int compareNeed(const Resource& totGuarant, const TempQueue& a, const TempQueue& b) const;
  void assignPreemption(TempQueue& q, double scalingFactor, const Resource& totGuarant);
  void calculateResToObtain();

  RoundState& st_;
  CalculatorMode mode_;
};

}  // namespace spindle::preemption
