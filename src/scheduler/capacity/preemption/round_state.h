// The mutable working copy of one preemption round (YARN's CapacitySchedulerPreemptionContext
// plus its TempQueuePerPartition objects). Built from a PreemptionSnapshot; the calculators and
// selectors of the round write into it; the snapshot itself is never modified.
//
//   SPINDLE_ASSIGN_OR_RETURN(RoundState st, RoundState::build(snapshot, rc, settings));
//   IdealAssignmentCalculator(st, CalculatorMode::fifo()).compute();
//   const TempQueue& a = st.queue(aId, "");   // a.idealAssigned, a.actuallyToBePreempted ...
//
// Invariants: queuesByPartition[p][q] exists for every partition p of the snapshot and every
// queue q (missing snapshot entries are zeros); a parent's pending is the sum of its children;
// totalPreemptionAllowed only shrinks, by the size of every selected container.
// The snapshot, the calculator and the settings are borrowed: they must outlive the state.
// Not thread-safe; one round runs on one thread.
#pragma once

#include <array>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "resource/resource_calculator.h"
#include "scheduler/capacity/preemption/preemption_settings.h"
#include "scheduler/capacity/preemption/preemption_snapshot.h"

namespace spindle::preemption {

// A per-type multiplier (normalizedGuarantee in YARN, a float[] there).
using TypeWeights = std::array<double, kMaxResourceTypes>;

// YARN's TempQueuePerPartition.
struct TempQueue {
  QueueId id;
  std::string partition;
  bool leaf = true;
  bool preemptionDisabled = false;  // inherited disable_preemption
  bool intraQueueDisabled = false;  // inherited intra-queue disable_preemption
  int relativePriority = 0;
  double absoluteCapacity = 0;  // for YARN-11073 normalisation of tiny queues
  Resource partitionTotal;
  Resource guaranteed, max, used, pending, pendingDeductReserved, reserved, killable;
  // Computed by the calculator.
  Resource idealAssigned, toBePreempted, actuallyToBePreempted;
  Resource untouchableExtra, preemptableExtra;
  TypeWeights normalizedGuarantee{};
};

// Which selector's variant of PreemptableResourceCalculator runs.
struct CalculatorMode {
  bool considerReservedInPending = false;  // P* = pending instead of pendingDeductReserved
  bool applyNaturalTermination = true;     // the reserved selector does not
  bool balanceAfterSatisfied = false;      // lift the leaf cap max(U, G) (YARN-8379)
};

// Where a container was picked: the selected map of YARN plus the reason figures.
struct Selection {
  ContainerId container;
  QueueId queue;
  std::string partition;
  Resource size;
  bool isReservation = false;
  bool isAm = false;
  int selectorIndex = 0;
  // Reason figures of the victim (queue, partition) when it was picked, as computed by the
  // selector's own calculator.
  Resource victimGuaranteed, victimUsed, victimIdeal, victimToBePreempted;
  // The queue this pick is for, when the selector knows it (reserved / queue-priority).
  QueueId servedQueue;
};

class RoundState {
 public:
  static Result<RoundState> build(const PreemptionSnapshot& snapshot, const ResourceCalculator& rc,
                                  const PreemptionSettings& settings);

  const PreemptionSnapshot& snapshot() const { return *snapshot_; }
  const PreemptionSettings& settings() const { return *settings_; }
  // The scheduler's calculator: every comparison, min / max, ratio and scaled share of the round.
  const ResourceCalculator& rc() const { return *rc_; }
  // The registry's resource types, counted or not (the snapshot's resourceTypeCount).
  int typeCount() const { return snapshot_->resourceTypeCount; }

  TempQueue& queue(QueueId q, const std::string& partition) {
    return byPartition_.at(partition)[q.value()];
  }
  const TempQueue& queue(QueueId q, const std::string& partition) const {
    return byPartition_.at(partition)[q.value()];
  }
  std::vector<TempQueue>& partitionQueues(const std::string& p) { return byPartition_.at(p); }
  std::vector<std::string> partitionNames() const;
  // Leaves in pre-order (from the default-partition tree).
  const std::vector<QueueId>& leaves() const { return leaves_; }

  Resource& totalPreemptionAllowed() { return totalPreemptionAllowed_; }

  // Under-served queues per partition, in the order the fixpoint found them (for intra-queue).
  void addUnderServed(const std::string& partition, QueueId q);
  const std::vector<QueueId>& underServed(const std::string& partition) const;
  void clearUnderServed() {
    underServed_.clear();
    underServedMember_.clear();
  }

  // The selected map (container -> selection), in selection order.
  bool isSelected(const ContainerId& c) const { return selectedIndex_.contains(c); }
  void select(Selection s);
  const std::vector<Selection>& selections() const { return selections_; }

  // A selector found work on a queues-only snapshot (PreemptionSnapshot::queuesOnly).
  void requestDetail() { needsDetail_ = true; }
  bool needsDetail() const { return needsDetail_; }

  const AppSnapshot* app(const AttemptId& a) const;
  std::string nodePartition(NodeId n) const;

 private:
  RoundState(const PreemptionSnapshot& s, const ResourceCalculator& rc,
             const PreemptionSettings& st);

  const PreemptionSnapshot* snapshot_;
  const PreemptionSettings* settings_;
  const ResourceCalculator* rc_;
  std::map<std::string, std::vector<TempQueue>> byPartition_;
  std::vector<QueueId> leaves_;
  Resource totalPreemptionAllowed_;
  bool needsDetail_ = false;
  std::map<std::string, std::vector<QueueId>> underServed_;
  // Membership of underServed_ per partition, by queue index (addUnderServed is called for
  // every queue the fixpoint visits; a linear search made it quadratic in the leaves).
  std::map<std::string, std::vector<bool>> underServedMember_;
  std::vector<Selection> selections_;
  std::unordered_map<ContainerId, size_t> selectedIndex_;
  struct AttemptHash {
    size_t operator()(const AttemptId& a) const noexcept {
      return std::hash<uint64_t>()((uint64_t{a.app.value()} << 32) | a.attempt);
    }
  };
  std::unordered_map<AttemptId, size_t, AttemptHash> appIndex_;
};

}  // namespace spindle::preemption
