// One round of the capacity preemption policy (YARN's ProportionalCapacityPreemptionPolicy
// containerBasedPreemptOrKill): a pure function from a snapshot and the knobs to the containers to
// preempt, with reasons. Marking, waiting and killing belong to a separate executor (STYLE rule 6);
// this file never sends anything.
//
//   SPINDLE_ASSIGN_OR_RETURN(PreemptionPlan plan,
//                            planPreemptionRound(snapshot, scheduler.calculator(), settings));
//   for (const PreemptionCandidate& c : plan.candidates) executor.mark(c.container, c.killWaitMs);
//   for (const ContainerId& r : plan.reservationsToKill) scheduler.unreserve(r);
//
// Steps:
//  1. Build the round state (one TempQueue per queue and partition); the budget is
//     whole cluster x total_preemption_per_round, shared by all partitions and selectors.
//  2. Run the enabled selectors in YARN's order: queue-priority
//     (QueuePriorityContainerCandidateSelector), reserved-container
//     (ReservedContainerCandidatesSelector), FIFO (FifoCandidatesSelector), FIFO in balance mode
//     (YARN-8379), intra-queue (IntraQueueCandidatesSelector). Each calculator recomputes the ideal
//     assignment on the shared state (intra-queue reuses the last one, queue-priority needs none)
//     and first deducts what earlier selectors took.
//  3. observe_only: the candidates are still computed and returned (so they can be logged), but
//     `plan.observeOnly` tells the executor to act on none of them, and no reservation kills
//     are produced (YARN skips those sends too).
// Output order is deterministic: selection order (selector, leaf pre-order, app preemption
// order, container order).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "resource/resource_calculator.h"
#include "scheduler/capacity/preemption/preemption_settings.h"
#include "scheduler/capacity/preemption/preemption_snapshot.h"

namespace spindle::preemption {

enum class SelectorKind { kQueuePriority, kReservedContainer, kFifo, kFifoBalance, kIntraQueue };

std::string_view selectorName(SelectorKind k);

// An immutable list of queue paths shared by the candidates it describes: in a large round every
// FIFO candidate of a partition has the same beneficiaries (all under-served leaves), so the
// list is built once and referenced, not copied per candidate. Reads as a
// const std::vector<std::string> (implicit conversion, iteration, == with a vector).
class QueuePathList {
 public:
  using const_iterator = std::vector<std::string>::const_iterator;
  using iterator = const_iterator;
  using value_type = std::string;
  QueuePathList() = default;
  explicit QueuePathList(std::vector<std::string> paths)
      : paths_(std::make_shared<const std::vector<std::string>>(std::move(paths))) {}
  const std::vector<std::string>& get() const { return paths_ ? *paths_ : none(); }
  operator const std::vector<std::string>&() const { return get(); }  // NOLINT: reads as one
  const_iterator begin() const { return get().begin(); }
  const_iterator end() const { return get().end(); }
  size_t size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  const std::string& operator[](size_t i) const { return get()[i]; }
  friend bool operator==(const QueuePathList& a, const QueuePathList& b) {
    return a.get() == b.get();
  }
  friend bool operator==(const QueuePathList& a, const std::vector<std::string>& b) {
    return a.get() == b;
  }

 private:
  static const std::vector<std::string>& none() {
    static const std::vector<std::string> kEmpty;
    return kEmpty;
  }
  std::shared_ptr<const std::vector<std::string>> paths_;
};

struct PreemptionCandidate {
  ContainerId container;
  QueueId queue;
  std::string queuePath;
  std::string partition;  // of the node the container runs on
  Resource size;
  bool isAm = false;
  bool isReservation = false;
  SelectorKind selector = SelectorKind::kFifo;
  int64_t killWaitMs = 0;  // the selector's max wait before kill
  // Reason figures of the victim (queue, partition), from the selector's calculator.
  Resource guaranteed, used, ideal, toBePreempted;
  // The queues this preemption serves: in the container's partition, those whose ideal
  // exceeds their usage (for the reserved selector, the queue of the reservation).
  QueuePathList beneficiaries;
};

// The per-(queue, partition) figures of the round, for reports and tests: the FIFO calculator's,
// or with preemption-to-balance the balance calculator's (it recomputes the shared state last).
struct QueueFigures {
  QueueId queue;
  std::string path;
  std::string partition;
  Resource guaranteed, max, used, pending, ideal, toBePreempted, actuallyToBePreempted;
  Resource preemptableExtra, untouchableExtra;
};

struct PreemptionPlan {
  bool observeOnly = false;
  std::vector<PreemptionCandidate> candidates;
  std::vector<ContainerId> reservationsToKill;  // KILL_RESERVED_CONTAINER, sent at once
  std::vector<QueueFigures> figures;
  Resource budgetLeft;
  // Planned on a queues-only snapshot and a selector needs containers: nothing else in this
  // plan is meaningful; plan again on a full snapshot.
  bool needsDetail = false;
};

// `rc` is the scheduler's own resource calculator (Default or Dominant), the one its allocation
// uses (YARN's policy takes it from the scheduler: CapacitySchedulerPreemptionContext
// .getResourceCalculator()).
Result<PreemptionPlan> planPreemptionRound(const PreemptionSnapshot& snapshot,
                                           const ResourceCalculator& rc,
                                           const PreemptionSettings& settings);

}  // namespace spindle::preemption
