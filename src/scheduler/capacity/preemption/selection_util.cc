#include "scheduler/capacity/preemption/selection_util.h"

#include <algorithm>

namespace spindle::preemption {

ToObtain resToObtainForLeaf(const RoundState& st, QueueId leaf) {
  ToObtain out;
  for (const std::string& p : st.partitionNames()) {
    const TempQueue& q = st.queue(leaf, p);
    if (q.preemptionDisabled) continue;
    if (st.rc().greaterThan(st.snapshot().clusterTotal, q.actuallyToBePreempted, Resource())) {
      out[p] = q.actuallyToBePreempted;
    }
  }
  return out;
}

void deductSelected(RoundState& st) {
  const ResourceCalculator& rc = st.rc();
  for (const Selection& s : st.selections()) {
    TempQueue& q = st.queue(s.queue, s.partition);
    if (rc.greaterThan(q.partitionTotal, q.actuallyToBePreempted, s.size)) {
      q.actuallyToBePreempted -= s.size;
    }
    q.actuallyToBePreempted = rc.max(q.partitionTotal, q.actuallyToBePreempted, Resource());
  }
}

bool tryPreemptContainer(RoundState& st, ToObtain& obtain, const AppSnapshot& app,
                         const ContainerSnapshot& c, int selectorIndex, bool conservativeDrf,
                         QueueId servedQueue) {
  if (st.isSelected(c.id)) return false;
  const std::string partition = st.nodePartition(c.node);
  auto it = obtain.find(partition);
  if (it == obtain.end()) return false;
  const ResourceCalculator& rc = st.rc();
  const Resource& cluster = st.snapshot().clusterTotal;
  Resource& toObtain = it->second;
  // A zero type becomes -1 so that it cannot block the DRF checks below.
  for (int i = 0; i < st.typeCount(); ++i) {
    if (toObtain.get(i) == 0) toObtain.set(i, -1);
  }
  Resource& budget = st.totalPreemptionAllowed();
  if (!rc.isAnyMajorResourceAboveZero(toObtain) || !rc.fitsIn(c.size, budget)) return false;
  bool doPreempt;
  if (conservativeDrf) {
    doPreempt = !rc.isAnyMajorResourceZeroOrNegative(toObtain);
  } else {
    // Aggressive: the container must reduce at least one positive component.
    Resource after = Resource::componentwiseMax(toObtain - c.size, Resource());
    doPreempt = rc.lessThan(cluster, after, Resource::componentwiseMax(toObtain, Resource()));
  }
  if (!doPreempt) return false;
  toObtain -= c.size;
  budget -= c.size;
  if (rc.lessThanOrEqual(cluster, toObtain, Resource())) obtain.erase(it);
  selectVictim(st, app, c, partition, selectorIndex, servedQueue);
  return true;
}

void selectVictim(RoundState& st, const AppSnapshot& app, const ContainerSnapshot& c,
                  const std::string& partition, int selectorIndex, QueueId servedQueue) {
  const TempQueue& victim = st.queue(app.queue, partition);
  st.select(Selection{.container = c.id,
                      .queue = app.queue,
                      .partition = partition,
                      .size = c.size,
                      .isReservation = c.isReservation,
                      .isAm = c.isAm,
                      .selectorIndex = selectorIndex,
                      .victimGuaranteed = victim.guaranteed,
                      .victimUsed = victim.used,
                      .victimIdeal = victim.idealAssigned,
                      .victimToBePreempted = victim.toBePreempted,
                      .servedQueue = servedQueue});
}

std::vector<const ContainerSnapshot*> liveContainersInPreemptionOrder(const AppSnapshot& app) {
  std::vector<const ContainerSnapshot*> out;
  for (const ContainerSnapshot& c : app.containers) {
    if (!c.isReservation) out.push_back(&c);
  }
  std::sort(out.begin(), out.end(), [](const ContainerSnapshot* a, const ContainerSnapshot* b) {
    if (a->requestPriority != b->requestPriority) return a->requestPriority > b->requestPriority;
    return a->id > b->id;
  });
  return out;
}

}  // namespace spindle::preemption
