#include "scheduler/capacity/preemption/preemption_policy.h"

#include <map>

#include "scheduler/capacity/preemption/fifo_selector.h"
#include "scheduler/capacity/preemption/intra_queue_selector.h"
#include "scheduler/capacity/preemption/queue_priority_selector.h"
#include "scheduler/capacity/preemption/reserved_selector.h"
#include "scheduler/capacity/preemption/round_state.h"

namespace spindle::preemption {
namespace {

std::vector<QueueFigures> collectFigures(const RoundState& st) {
  std::vector<QueueFigures> out;
  for (const std::string& p : st.partitionNames()) {
    for (size_t i = 0; i < st.snapshot().queues.size(); ++i) {
      QueueId id(static_cast<uint32_t>(i));
      const TempQueue& t = st.queue(id, p);
      out.push_back(QueueFigures{.queue = id,
                                 .path = st.snapshot().queues[i].path,
                                 .partition = p,
                                 .guaranteed = t.guaranteed,
                                 .max = t.max,
                                 .used = t.used,
                                 .pending = t.pending,
                                 .ideal = t.idealAssigned,
                                 .toBePreempted = t.toBePreempted,
                                 .actuallyToBePreempted = t.actuallyToBePreempted,
                                 .preemptableExtra = t.preemptableExtra,
                                 .untouchableExtra = t.untouchableExtra});
    }
  }
  return out;
}

}  // namespace

std::string_view selectorName(SelectorKind k) {
  switch (k) {
    case SelectorKind::kReservedContainer: return "reserved-container";
    case SelectorKind::kFifo: return "fifo";
    case SelectorKind::kFifoBalance: return "fifo-balance";
    case SelectorKind::kIntraQueue: return "intra-queue";
    case SelectorKind::kQueuePriority: return "queue-priority";
  }
  return "?";
}

Result<PreemptionPlan> planPreemptionRound(const PreemptionSnapshot& snapshot,
                                           const ResourceCalculator& rc,
                                           const PreemptionSettings& settings) {
  SPINDLE_ASSIGN_OR_RETURN(RoundState st, RoundState::build(snapshot, rc, settings));
  PreemptionPlan plan;
  plan.observeOnly = settings.observeOnly;
  // These selectors look at containers or nodes whatever the queues' figures say.
  if (snapshot.queuesOnly &&
      (settings.underutilizedPreemptionEnabled || settings.selectBasedOnReservedContainers ||
       settings.preemptToBalanceEnabled || settings.intraQueueEnabled)) {
    plan.needsDetail = true;
    return plan;
  }
  // Selector index -> kind and kill wait, in YARN's order.
  std::vector<std::pair<SelectorKind, int64_t>> selectors;
  st.clearUnderServed();
  if (settings.underutilizedPreemptionEnabled) {
    selectors.emplace_back(SelectorKind::kQueuePriority, settings.maxWaitBeforeKillMs);
    QueuePrioritySelector(static_cast<int>(selectors.size() - 1)).select(st);
  }
  if (settings.selectBasedOnReservedContainers) {
    selectors.emplace_back(SelectorKind::kReservedContainer, settings.maxWaitBeforeKillMs);
    ReservedSelector(static_cast<int>(selectors.size() - 1)).select(st);
  }
  selectors.emplace_back(SelectorKind::kFifo, settings.maxWaitBeforeKillMs);
  FifoSelector(false, static_cast<int>(selectors.size() - 1)).select(st, plan.reservationsToKill);
  if (st.needsDetail()) {
    plan.needsDetail = true;
    return plan;
  }
  // The FIFO calculation's figures name the beneficiaries below.
  const std::vector<QueueFigures> fifoFigures = collectFigures(st);
  if (settings.preemptToBalanceEnabled) {
    selectors.emplace_back(SelectorKind::kFifoBalance,
                           settings.preemptToBalanceMaxWaitBeforeKillMs);
    FifoSelector(true, static_cast<int>(selectors.size() - 1)).select(st, plan.reservationsToKill);
  }
  // The round's figures are what the per-queue state holds after the last selector that
  // recomputes it: YARN's selectors share the TempQueuePerPartition objects, so with
  // preemption-to-balance the balance selector's ideal assignment is what stays.
  plan.figures = settings.preemptToBalanceEnabled ? collectFigures(st) : fifoFigures;
  if (settings.intraQueueEnabled) {
    selectors.emplace_back(SelectorKind::kIntraQueue, settings.maxWaitBeforeKillMs);
    IntraQueueSelector(static_cast<int>(selectors.size() - 1)).select(st);
  }
  // The FIFO calculator's under-served leaves per partition (ideal above used), in figures
  // order: the beneficiaries of every candidate whose selector names no single queue. Built
  // once per partition and shared.
  std::map<std::string, QueuePathList> underServedLeaves;
  auto beneficiariesOf = [&](const std::string& partition) -> const QueuePathList& {
    auto it = underServedLeaves.find(partition);
    if (it != underServedLeaves.end()) return it->second;
    std::vector<std::string> paths;
    for (const QueueFigures& f : fifoFigures) {
      if (f.partition == partition && snapshot.queue(f.queue).isLeaf() &&
          st.rc().greaterThan(snapshot.clusterTotal, f.ideal, f.used)) {
        paths.push_back(f.path);
      }
    }
    return underServedLeaves.emplace(partition, QueuePathList(std::move(paths))).first->second;
  };
  plan.candidates.reserve(st.selections().size());
  for (const Selection& s : st.selections()) {
    PreemptionCandidate c{.container = s.container,
                          .queue = s.queue,
                          .queuePath = snapshot.queue(s.queue).path,
                          .partition = s.partition,
                          .size = s.size,
                          .isAm = s.isAm,
                          .isReservation = s.isReservation,
                          .selector = selectors[s.selectorIndex].first,
                          .killWaitMs = selectors[s.selectorIndex].second,
                          .guaranteed = s.victimGuaranteed,
                          .used = s.victimUsed,
                          .ideal = s.victimIdeal,
                          .toBePreempted = s.victimToBePreempted,
                          .beneficiaries = {}};
    if (s.servedQueue.valid()) {
      c.beneficiaries = QueuePathList({snapshot.queue(s.servedQueue).path});
    } else {
      c.beneficiaries = beneficiariesOf(s.partition);
    }
    plan.candidates.push_back(std::move(c));
  }
  plan.budgetLeft = st.totalPreemptionAllowed();
  return plan;
}

}  // namespace spindle::preemption
