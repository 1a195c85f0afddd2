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
  if (st.snapshot().queuesOnly) {
    // Only whether any leaf has something to obtain: then the containers are needed.
    for (QueueId leaf : st.leaves()) {
      if (st.queue(leaf, "").preemptionDisabled) continue;
      if (!resToObtainForLeaf(st, leaf).empty()) {
        st.requestDetail();
        return;
      }
    }
    return;
  }
  for (QueueId leaf : st.leaves()) {
    if (st.queue(leaf, "").preemptionDisabled) continue;
    selectFromLeaf(st, leaf, reservationsToKill);
  }
}

namespace {

using Pick = std::pair<const AppSnapshot*, const ContainerSnapshot*>;

// Step 1: containers borrowed on non-exclusive labelled nodes, newest container id first,
// partition by partition of the target.
void takeIgnoreExclusivity(RoundState& st, const QueueSnapshot& qs, ToObtain& obtain, int index,
                           bool conservative) {
  std::vector<Pick> borrowed;
  for (const AttemptId& a : qs.appsInPreemptionOrder) {
    const AppSnapshot* app = st.app(a);
    for (const ContainerSnapshot& c : app->containers) {
      if (c.ignoresExclusivity && !c.isReservation) borrowed.emplace_back(app, &c);
    }
  }
  std::sort(borrowed.begin(), borrowed.end(),
            [](const Pick& x, const Pick& y) { return x.second->id > y.second->id; });
  std::vector<std::string> targetPartitions;
  for (const auto& [p, r] : obtain) targetPartitions.push_back(p);
  for (const std::string& p : targetPartitions) {
    for (const auto& [app, c] : borrowed) {
      if (st.nodePartition(c->node) != p || st.isSelected(c->id)) continue;
      tryPreemptContainer(st, obtain, *app, *c, index, conservative);
    }
  }
}

// Step 2 for one app (preemptFrom): reservations, then live containers; AMs set aside.
// Returns false when the target ran out while visiting reservations.
bool takeFromApp(RoundState& st, const AppSnapshot& app, ToObtain& obtain, int index,
                 bool conservative, std::vector<ContainerId>& reservationsToKill,
                 std::vector<Pick>& skippedAms, Resource& skippedAmSize) {
  for (const ContainerSnapshot& c : app.containers) {
    if (!c.isReservation || st.isSelected(c.id)) continue;
    if (obtain.empty()) return false;
    tryPreemptContainer(st, obtain, app, c, index, conservative);
    if (!st.settings().observeOnly) reservationsToKill.push_back(c.id);
  }
  for (const ContainerSnapshot* c : liveContainersInPreemptionOrder(app)) {
    if (obtain.empty()) break;
    if (st.isSelected(c->id) || c->killable) continue;
    if (c->isAm) {
      skippedAms.emplace_back(&app, c);
      skippedAmSize += c->size;
      continue;
    }
    tryPreemptContainer(st, obtain, app, *c, index, conservative);
  }
  return true;
}

}  // namespace

void FifoSelector::selectFromLeaf(RoundState& st, QueueId leaf,
                                  std::vector<ContainerId>& reservationsToKill) const {
  const PreemptionSettings& s = st.settings();
  const bool conservative = s.crossQueueConservativeDrf;
  const QueueSnapshot& qs = st.snapshot().queue(leaf);
  ToObtain obtain = resToObtainForLeaf(st, leaf);
  if (obtain.empty()) return;

  takeIgnoreExclusivity(st, qs, obtain, index_, conservative);

  std::vector<Pick> skippedAms;
  Resource skippedAmSize;
  for (const AttemptId& a : qs.appsInPreemptionOrder) {
    if (obtain.empty()) break;
    if (!takeFromApp(st, *st.app(a), obtain, index_, conservative, reservationsToKill, skippedAms,
                     skippedAmSize)) {
      break;
    }
  }

  // Step 3: AMs, keeping at least the queue's AM allowance.
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
