#include "scheduler/capacity/preemption/ideal_assignment.h"

#include <algorithm>
#include <limits>

namespace spindle::preemption {
namespace {

Resource componentwiseMin(const Resource& a, const Resource& b) {
  return Resource::componentwiseMin(a, b);
}

Resource atLeastZero(const Resource& r) { return Resource::componentwiseMax(r, Resource()); }

// PriorityUtilizationQueueOrderingPolicy.compare (as computeFixpointAllocation orders queues).
int compareUtilization(double r1, double r2, int p1, int p2) {
  auto cmp = [](double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); };
  if (p1 == p2) return cmp(r1, r2);
  if ((r1 < 1.0 && r2 < 1.0) || (r1 >= 1.0 && r2 >= 1.0)) return p2 < p1 ? -1 : 1;
  return cmp(r1, r2);
}

}  // namespace

void IdealAssignmentCalculator::compute() {
  for (const std::string& partition : st_.partitionNames()) {
    std::vector<TempQueue>& tqs = st_.partitionQueues(partition);
    for (TempQueue& t : tqs) {
      t.idealAssigned = Resource();
      t.toBePreempted = Resource();
      t.actuallyToBePreempted = Resource();
    }
    updatePreemptableExtras(tqs, QueueId(0));
    tqs[0].idealAssigned = tqs[0].guaranteed;
    recurse(tqs, QueueId(0));
  }
  calculateResToObtain();
}

void IdealAssignmentCalculator::updatePreemptableExtras(std::vector<TempQueue>& tqs, QueueId q) {
  TempQueue& cur = tqs[q.value()];
  const QueueSnapshot& qs = st_.snapshot().queue(q);
  const ResourceCalculator& rc = st_.rc();
  cur.untouchableExtra = Resource();
  cur.preemptableExtra = Resource();
  Resource extra = cur.used - cur.guaranteed;
  if (rc.lessThan(cur.partitionTotal, extra, Resource())) extra = Resource();
  if (qs.isLeaf()) {
    (cur.preemptionDisabled ? cur.untouchableExtra : cur.preemptableExtra) = extra;
    return;
  }
  Resource childrenPreemptable;
  for (QueueId c : qs.children) {
    updatePreemptableExtras(tqs, c);
    childrenPreemptable += tqs[c.value()].preemptableExtra;
  }
  cur.untouchableExtra = rc.greaterThanOrEqual(cur.partitionTotal, childrenPreemptable, extra)
                             ? Resource()
                             : extra - childrenPreemptable;
  cur.preemptableExtra = rc.min(cur.partitionTotal, extra, childrenPreemptable);
}

void IdealAssignmentCalculator::recurse(std::vector<TempQueue>& tqs, QueueId q) {
  const QueueSnapshot& qs = st_.snapshot().queue(q);
  if (qs.isLeaf()) return;
  std::vector<TempQueue*> children;
  for (QueueId c : qs.children) children.push_back(&tqs[c.value()]);
  computeIdealResourceDistribution(children, tqs[q.value()].idealAssigned);
  for (QueueId c : qs.children) recurse(tqs, c);
}

void IdealAssignmentCalculator::computeIdealResourceDistribution(std::vector<TempQueue*>& children,
                                                                 const Resource& parentIdeal) {
  const ResourceCalculator& rc = st_.rc();
  const Resource& tot = parentIdeal;
  std::vector<TempQueue*> nonZero, zero;
  for (TempQueue* q : children) {
    (rc.greaterThan(tot, q->guaranteed, Resource()) ? nonZero : zero).push_back(q);
  }
  Resource unassigned = computeFixpointAllocation(tot, nonZero, parentIdeal, false);
  if (!zero.empty() && rc.greaterThan(tot, unassigned, Resource())) {
    computeFixpointAllocation(tot, zero, unassigned, true);
  }
  Resource needed;
  for (TempQueue* q : children) {
    if (rc.greaterThan(tot, q->used, q->idealAssigned)) needed += q->used - q->idealAssigned;
  }
  // Compared with the whole round budget, not what is left of it (YARN's
  // PreemptableResourceCalculator scales against totalPreemptionAllowed).
  double scalingFactor = 1.0;
  const Resource& allowed = st_.totalPreemptionAllowed();
  if (rc.greaterThan(tot, needed, allowed)) {
    // Resources.divide: a float in YARN, and the calculator returns that float.
    scalingFactor = rc.divide(tot, allowed, needed);
  }
  for (TempQueue* q : children) assignPreemption(*q, scalingFactor, tot);
}

Resource IdealAssignmentCalculator::computeFixpointAllocation(const Resource& totGuarant,
                                                              std::vector<TempQueue*> queues,
                                                              Resource unassigned,
                                                              bool ignoreGuarantee) {
  const ResourceCalculator& rc = st_.rc();
  std::vector<TempQueue*> ordered;  // the priority queue; kept unsorted, min taken on demand
  for (TempQueue* q : queues) {
    if (rc.greaterThan(totGuarant, q->used, q->guaranteed)) {
      q->idealAssigned = componentwiseMin(q->guaranteed, q->used) + q->untouchableExtra;
    } else {
      q->idealAssigned = q->used;
    }
    unassigned -= q->idealAssigned;
    if (rc.lessThan(totGuarant, q->idealAssigned, q->used + q->pending)) ordered.push_back(q);
  }
  // Pops the most under-served queue; ties go to the earlier queue in configuration order.
  auto popHead = [&]() {
    auto best = ordered.begin();
    for (auto it = ordered.begin(); it != ordered.end(); ++it) {
      int c = compareNeed(totGuarant, **it, **best);
      if (c < 0 || (c == 0 && (*it)->id < (*best)->id)) best = it;
    }
    TempQueue* q = *best;
    ordered.erase(best);
    return q;
  };
  auto peekHead = [&]() -> TempQueue* {
    if (ordered.empty()) return nullptr;
    TempQueue* best = ordered.front();
    for (TempQueue* q : ordered) {
      int c = compareNeed(totGuarant, *q, *best);
      if (c < 0 || (c == 0 && q->id < best->id)) best = q;
    }
    return best;
  };
  while (!ordered.empty() && rc.greaterThan(totGuarant, unassigned, Resource())) {
    resetCapacity(ordered, ignoreGuarantee);
    // getMostUnderservedQueues: the head and every queue comparing equal to it.
    std::vector<TempQueue*> underserved;
    while (!ordered.empty()) {
      TempQueue* q1 = popHead();
      underserved.push_back(q1);
      st_.addUnderServed(q1->partition, q1->id);
      TempQueue* q2 = peekHead();
      if (q2 == nullptr || compareNeed(totGuarant, *q1, *q2) < 0) {
        if (q2 != nullptr) st_.addUnderServed(q2->partition, q2->id);
        break;
      }
    }
    const Resource dup = unassigned;  // frozen for this pass
    for (TempQueue* sub : underserved) {
      if (!rc.isAnyMajorResourceAboveZero(unassigned)) break;
      // Resources.multiplyAndNormalizeUp(rc, dup, normalizedGuarantee, <1, 1>): Default rounds
      // half-up, Dominant (long) ceil(v * w) in double. Every type is scaled so that a
      // Default-calculator plan still reports sensible vcores.
      Resource avail = rc.multiplyAndNormalizeUpEveryType(dup, sub->normalizedGuarantee);
      avail = componentwiseMin(avail, unassigned);
      Resource idle = offer(*sub, avail, totGuarant);
      Resource done = avail - idle;
      if (rc.greaterThan(totGuarant, done, Resource())) ordered.push_back(sub);
      unassigned = atLeastZero(unassigned - done);
    }
  }
  for (TempQueue* q : ordered) st_.addUnderServed(q->partition, q->id);
  return unassigned;
}

void IdealAssignmentCalculator::resetCapacity(const std::vector<TempQueue*>& active,
                                              bool ignoreGuarantee) {
  const int n = static_cast<int>(active.size());
  const int types = st_.typeCount();
  // normalizedGuarantee is a float[] in YARN; every weight goes through float.
  for (int i = 0; i < types; ++i) {
    if (ignoreGuarantee) {
      for (TempQueue* q : active) q->normalizedGuarantee[i] = asYarnFloat(1.0 / n);
      continue;
    }
    int64_t sum = 0;
    double absSum = 0;
    bool tinyQueue = false;  // YARN-11073: G_i truncated to 0 but absolute capacity > 0
    for (TempQueue* q : active) {
      sum += q->guaranteed.get(i);
      absSum += asYarnFloat(q->absoluteCapacity);
      if (q->guaranteed.get(i) == 0 && q->absoluteCapacity > 0) tinyQueue = true;
    }
    for (TempQueue* q : active) {
      double w;
      if (sum == 0 || (tinyQueue && absSum == 0)) {
        w = 1.0 / n;
      } else if (tinyQueue) {
        w = asYarnFloat(q->absoluteCapacity) / absSum;
      } else {
        w = static_cast<double>(q->guaranteed.get(i)) / static_cast<double>(sum);
      }
      q->normalizedGuarantee[i] = asYarnFloat(w);
    }
  }
}

Resource IdealAssignmentCalculator::offer(TempQueue& q, const Resource& avail,
                                          const Resource& totGuarant) {
  const ResourceCalculator& rc = st_.rc();
  Resource maxDelta = atLeastZero(q.max - q.idealAssigned);
  const Resource& pend = mode_.considerReservedInPending ? q.pending : q.pendingDeductReserved;
  Resource accepted =
      componentwiseMin(maxDelta, rc.min(totGuarant, avail, q.used + pend - q.idealAssigned));
  // YARN-5864: a leaf is never offered more than max(used, guaranteed), so satisfied queues
  // do not take from each other -- unless preempt-to-balance (YARN-8379) is running.
  if (!mode_.balanceAfterSatisfied && q.leaf) {
    Resource cap = rc.max(totGuarant, q.used, q.guaranteed) - q.idealAssigned;
    cap = rc.max(totGuarant, cap, Resource());
    accepted = rc.min(totGuarant, accepted, cap);
  }
  accepted = componentwiseMin(atLeastZero(accepted), avail);
  q.idealAssigned += accepted;
  return avail - accepted;
}

int IdealAssignmentCalculator::compareNeed(const Resource& totGuarant, const TempQueue& a,
                                           const TempQueue& b) const {
  const ResourceCalculator& rc = st_.rc();
  auto pct = [&](const TempQueue& q) {
    if (!rc.greaterThan(totGuarant, q.guaranteed, Resource())) {
      return static_cast<double>(std::numeric_limits<int32_t>::max());
    }
    return rc.divide(totGuarant, q.idealAssigned, q.guaranteed);  // YARN's float
  };
  return compareUtilization(pct(a), pct(b), a.relativePriority, b.relativePriority);
}

void IdealAssignmentCalculator::assignPreemption(TempQueue& q, double scalingFactor,
                                                 const Resource& tot) {
  const ResourceCalculator& rc = st_.rc();
  Resource usedDeductKillable = q.used - q.killable;
  Resource keep = rc.max(tot, rc.min(tot, q.used + q.pending, q.guaranteed), q.idealAssigned);
  if (rc.greaterThan(tot, usedDeductKillable, keep)) {
    // Resources.multiply(toBePreempted, scalingFactor): every type truncated.
    q.toBePreempted = multiplyAndRoundDown(usedDeductKillable - keep, scalingFactor);
  } else {
    q.toBePreempted = Resource();
  }
}

void IdealAssignmentCalculator::calculateResToObtain() {
  const ResourceCalculator& rc = st_.rc();
  const Resource& cluster = st_.snapshot().clusterTotal;
  const PreemptionSettings& s = st_.settings();
  for (QueueId leaf : st_.leaves()) {
    if (st_.queue(leaf, "").preemptionDisabled) continue;
    for (const std::string& p : st_.partitionNames()) {
      TempQueue& q = st_.queue(leaf, p);
      Resource threshold = multiplyAndRoundDown(q.guaranteed, 1.0 + s.maxIgnoredOverCapacity);
      if (!rc.greaterThan(cluster, q.used, threshold)) continue;  // dead zone
      Resource obtain = q.toBePreempted;
      if (mode_.applyNaturalTermination) {
        // Resources.multiplyAndNormalizeUp(rc, toBePreempted, natural_termination_factor,
        // <1, 1>): Default rounds half-up, Dominant (long) ceil((float) (v * factor)).
        obtain = rc.multiplyAndNormalizeUpEveryType(q.toBePreempted, s.naturalTerminationFactor);
      }
      if (rc.greaterThan(cluster, obtain, Resource())) q.actuallyToBePreempted = obtain;
    }
  }
}

}  // namespace spindle::preemption
