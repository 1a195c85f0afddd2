#include "scheduler/capacity/preemption/round_state.h"

#include <algorithm>

namespace spindle::preemption {

RoundState::RoundState(const PreemptionSnapshot& s, const ResourceCalculator& rc,
                       const PreemptionSettings& st)
    : snapshot_(&s), settings_(&st), rc_(&rc) {}

Result<RoundState> RoundState::build(const PreemptionSnapshot& s, const ResourceCalculator& rc,
                                     const PreemptionSettings& settings) {
  SPINDLE_RETURN_IF_ERROR(validateSnapshot(s));
  RoundState st(s, rc, settings);
  // Inherited flags: a queue without its own value takes its parent's (queues are pre-order).
  std::vector<bool> disabled(s.queues.size()), intraDisabled(s.queues.size());
  for (size_t i = 0; i < s.queues.size(); ++i) {
    const QueueSnapshot& q = s.queues[i];
    bool parentDisabled = q.parent.valid() ? disabled[q.parent.value()] : false;
    bool parentIntra = q.parent.valid() ? intraDisabled[q.parent.value()] : false;
    disabled[i] = q.disablePreemption.value_or(parentDisabled);
    intraDisabled[i] = q.disableIntraQueuePreemption.value_or(parentIntra);
    if (q.isLeaf()) st.leaves_.push_back(QueueId(static_cast<uint32_t>(i)));
  }
  for (const PartitionInfo& p : s.partitions) {
    std::vector<TempQueue>& tqs = st.byPartition_[p.name];
    tqs.resize(s.queues.size());
    for (size_t i = 0; i < s.queues.size(); ++i) {
      const QueueSnapshot& q = s.queues[i];
      TempQueue& t = tqs[i];
      t.id = QueueId(static_cast<uint32_t>(i));
      t.partition = p.name;
      t.leaf = q.isLeaf();
      t.preemptionDisabled = disabled[i];
      t.intraQueueDisabled = intraDisabled[i];
      t.relativePriority = q.relativePriority;
      t.partitionTotal = p.total;
      auto it = q.partitions.find(p.name);
      if (it != q.partitions.end()) {
        const QueuePartitionAmounts& a = it->second;
        t.guaranteed = a.guaranteed;
        t.max = a.max;
        t.used = a.used;
        t.reserved = a.reserved;
        t.killable = settings.lazyPreemptionEnabled ? a.killable : Resource();
        if (t.leaf) {
          t.pending = a.pending;
          t.pendingDeductReserved = a.pendingDeductReserved;
        }
        t.absoluteCapacity =
            a.absoluteCapacity >= 0
                ? a.absoluteCapacity
                : (p.total.memoryMb() > 0 ? static_cast<double>(a.guaranteed.memoryMb()) /
                                                static_cast<double>(p.total.memoryMb())
                                          : 0.0);
      }
    }
    // Parents' pending = sum of children (children follow parents, so walk backwards).
    for (size_t i = s.queues.size(); i-- > 1;) {
      TempQueue& parent = tqs[s.queues[i].parent.value()];
      parent.pending += tqs[i].pending;
      parent.pendingDeductReserved += tqs[i].pendingDeductReserved;
    }
  }
  st.appIndex_.reserve(s.apps.size());
  for (size_t i = 0; i < s.apps.size(); ++i) st.appIndex_[s.apps[i].attempt] = i;
  // totalPreemptionAllowed = Resources.multiply(whole cluster, total_preemption_per_round): every
  // type truncated; the fraction is a float in YARN.
  st.totalPreemptionAllowed_ =
      multiplyAndRoundDown(s.clusterTotal, asYarnFloat(settings.totalPreemptionPerRound));
  // Room for the selections a round can make: at most the budget in minimum-allocation
  // containers, and never more than there are containers (saves regrowing a large vector).
  const int64_t minMemory = s.minimumAllocation.memoryMb();
  if (minMemory > 0) {
    size_t containers = 0;
    for (const AppSnapshot& app : s.apps) containers += app.containers.size();
    const int64_t budget = st.totalPreemptionAllowed_.memoryMb() / minMemory;
    const auto byBudget = static_cast<size_t>(std::max<int64_t>(0, budget));
    const size_t estimate = std::min(containers, byBudget);
    st.selections_.reserve(estimate);
    st.selectedIndex_.reserve(estimate);
  }
  return st;
}

std::vector<std::string> RoundState::partitionNames() const {
  std::vector<std::string> names;
  for (const auto& [name, q] : byPartition_) names.push_back(name);
  return names;
}

void RoundState::addUnderServed(const std::string& partition, QueueId q) {
  std::vector<bool>& member = underServedMember_[partition];
  if (member.size() <= q.value()) {
    member.resize(std::max<size_t>(snapshot_->queues.size(), q.value() + 1), false);
  }
  if (member[q.value()]) return;
  member[q.value()] = true;
  underServed_[partition].push_back(q);
}

const std::vector<QueueId>& RoundState::underServed(const std::string& partition) const {
  static const std::vector<QueueId> kEmpty;
  auto it = underServed_.find(partition);
  return it == underServed_.end() ? kEmpty : it->second;
}

void RoundState::select(Selection s) {
  selectedIndex_[s.container] = selections_.size();
  selections_.push_back(std::move(s));
}

const AppSnapshot* RoundState::app(const AttemptId& a) const {
  auto it = appIndex_.find(a);
  return it == appIndex_.end() ? nullptr : &snapshot_->apps[it->second];
}

std::string RoundState::nodePartition(NodeId n) const {
  const NodeSnapshot* node = snapshot_->node(n);
  return node == nullptr ? std::string() : node->partition;
}

}  // namespace spindle::preemption
