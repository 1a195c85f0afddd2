#include "scheduler/capacity/preemption/fifo_selector.h"

#include <algorithm>

#include "scheduler/capacity/preemption/ideal_assignment.h"

namespace spindle::preemption {

void FifoSelector::select(RoundState& st, std::vector<ContainerId>& reservationsToKill) const {
  const PreemptionSettings& s = st.settings();
  CalculatorMode mode{.considerReservedInPending = s.additionalResBalanceBasedOnReservedContainers,
                      .applyNaturalTermination = true,
                      .balanceAfterSatisfied = balance_};
  IdealAssignmentCalculator(st, mode).compute();
  deductSelected(st);
  for (QueueId leaf : st.leaves()) {
    if (st.queue(leaf, "").preemptionDisabled) continue;
    selectFromLeaf(st, leaf, reservationsToKill);
  }
}

void FifoSelector::selectFromLeaf(RoundState& st, QueueId leaf,
                                  std::vector<ContainerId>& reservationsToKill) const {
  const PreemptionSettings& s = st.settings();
  const bool conservative = s.crossQueueConservativeDrf;
  const QueueSnapshot& qs = st.snapshot().queue(leaf);
  ToObtain obtain = resToObtainForLeaf(st, leaf);
  if (obtain.empty()) return;

  // 1. Ignore-exclusivity containers, newest (largest container id) first, per partition.
  std::vector<std::pair<const AppSnapshot*, const ContainerSnapshot*>> borrowed;
  for (const AttemptId& a : qs.appsInPreemptionOrder) {
    const AppSnapshot* app = st.app(a);
    for (const ContainerSnapshot& c : app->containers) {
      if (c.ignoresExclusivity && !c.isReservation) borrowed.emplace_back(app, &c);
    }
  }
  std::sort(borrowed.begin(), borrowed.end(),
            [](const auto& x, const auto& y) { return x.second->id > y.second->id; });
  std::vector<std::string> targetPartitions;
  for (const auto& [p, r] : obtain) targetPartitions.push_back(p);
  for (const std::string& p : targetPartitions) {
    for (const auto& [app, c] : borrowed) {
      if (st.nodePartition(c->node) != p || st.isSelected(c->id)) continue;
      tryPreemptContainer(st, obtain, *app, *c, index_, conservative);
    }
  }

  // 2. Apps in preemption order.
  std::vector<std::pair<const AppSnapshot*, const ContainerSnapshot*>> skippedAms;
  Resource skippedAmSize;
  for (const AttemptId& a : qs.appsInPreemptionOrder) {
    if (obtain.empty()) break;
    const AppSnapshot* app = st.app(a);
    bool done = false;
    for (const ContainerSnapshot& c : app->containers) {
      if (!c.isReservation || st.isSelected(c.id)) continue;
      if (obtain.empty()) {
        done = true;
        break;
      }
      tryPreemptContainer(st, obtain, *app, c, index_, conservative);
      if (!s.observeOnly) reservationsToKill.push_back(c.id);
    }
    if (done) break;
    for (const ContainerSnapshot* c : liveContainersInPreemptionOrder(*app)) {
      if (obtain.empty()) break;
      if (st.isSelected(c->id) || c->killable) continue;
      if (c->isAm) {
        skippedAms.emplace_back(app, c);
        skippedAmSize += c->size;
        continue;
      }
      tryPreemptContainer(st, obtain, *app, *c, index_, conservative);
    }
  }

  // 3. AMs, keeping at least the queue's AM allowance.
  if (!s.amPreemptionEnabled) return;
  const ResourceCalculator& rc = st.rc();
  for (const auto& [app, c] : skippedAms) {
    if (obtain.empty()) break;
    if (rc.lessThanOrEqual(st.snapshot().clusterTotal, skippedAmSize, qs.amPreemptionAllowance)) {
      break;
    }
    if (tryPreemptContainer(st, obtain, *app, *c, index_, conservative)) skippedAmSize -= c->size;
  }
}

}  // namespace spindle::preemption
