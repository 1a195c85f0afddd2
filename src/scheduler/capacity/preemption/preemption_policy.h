// One round of the capacity preemption policy (YARN's ProportionalCapacityPreemptionPolicy
// containerBasedPreemptOrKill, reference §2): a pure function from a snapshot and the knobs to
// the containers to preempt, with reasons. Marking, waiting and killing belong to a separate
// executor (STYLE rule 6); this file never sends anything.
//
//   SPINDLE_ASSIGN_OR_RETURN(PreemptionPlan plan, planPreemptionRound(snapshot, settings));
//   for (const PreemptionCandidate& c : plan.candidates) executor.mark(c.container, c.killWaitMs);
//   for (const ContainerId& r : plan.reservationsToKill) scheduler.unreserve(r);
//
// Steps:
//  1. Build the round state (one TempQueue per queue and partition); the budget is
//     whole cluster x total_preemption_per_round, shared by all partitions and selectors.
//  2. Run the enabled selectors in YARN's order: queue-priority (§7.5), reserved-container
//     (§7.2), FIFO (§7.1), FIFO in balance mode (§7.3), intra-queue (§7.4). Each calculator
//     recomputes the ideal assignment on the shared state (intra-queue reuses the last one,
//     queue-priority needs none) and first deducts what earlier selectors took.
//  3. observe_only: the candidates are still computed and returned (so they can be logged), but
//     `plan.observeOnly` tells the executor to act on none of them, and no reservation kills
//     are produced (YARN skips those sends too).
// Output order is deterministic: selection order (selector, leaf pre-order, app preemption
// order, container order).
#pragma once

#include <string>
#include <vector>

#include "scheduler/capacity/preemption/preemption_settings.h"
#include "scheduler/capacity/preemption/preemption_snapshot.h"

namespace spindle::preemption {

enum class SelectorKind { kQueuePriority, kReservedContainer, kFifo, kFifoBalance, kIntraQueue };

std::string_view selectorName(SelectorKind k);

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
  std::vector<std::string> beneficiaries;
};

// The per-(queue, partition) figures of the FIFO calculator, for reports and tests.
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
};

Result<PreemptionPlan> planPreemptionRound(const PreemptionSnapshot& snapshot,
                                           const PreemptionSettings& settings);

}  // namespace spindle::preemption
