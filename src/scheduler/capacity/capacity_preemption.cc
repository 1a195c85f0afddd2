// Capacity preemption in the live Capacity Scheduler: one policy round per MonitorTick (YARN's
// ProportionalCapacityPreemptionPolicy.editSchedule), the executor's events applied to the
// scheduler (CapacityScheduler.handle(ContainerPreemptEvent)), the AM's preemption message
// (FiCaSchedulerApp.getAllocation), and PlaceContainer{reserved}.
//
// A round:
//  1. snapshot the live state (cs_preemption_snapshot.cc), plan on it (preemption_policy.h):
//     first on the queues alone, then, only when some queue has something to obtain (or a
//     selector that always looks at containers is on), on the full snapshot; any error is
//     logged and changes nothing: no mark, no kill, the last report stays;
//  2. observe_only: report the figures and what would have been selected, act on nothing;
//  3. otherwise unreserve the reservations the FIFO selector visited (KILL_RESERVED_CONTAINER),
//     then advance the executor: new candidates are marked (kPreemptMark, the AM's message
//     grows), candidates whose wait is over are killed with exit status PREEMPTED (or, with
//     lazy preemption, made killable), stale marks are dropped;
//  4. the report: the FIFO calculator's figures per (queue, partition), the selected total per
//     queue and the counts marked and killed.
#include <algorithm>
#include <cmath>
#include <map>

#include "base/log.h"
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/preemption/preemption_policy.h"

namespace spindle {

namespace {

using preemption::PreemptionCandidate;
using preemption::PreemptionPlan;

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out.empty() ? "none" : out;
}

std::string partitionName(const std::string& p) { return p.empty() ? "<default>" : p; }

// "fifo selector: queue root.b on <default> is over its share (guaranteed <...>, used <...>,
// ideal <...>, to be preempted <...>), for root.a"
std::string candidateWhy(const PreemptionCandidate& c) {
  return fmt::format(
      "{} selector: queue {} on partition {} has guaranteed {}, used {}, ideal {}, to be "
      "preempted {}; serves {}",
      preemption::selectorName(c.selector), c.queuePath, partitionName(c.partition),
      c.guaranteed.toString(), c.used.toString(), c.ideal.toString(), c.toBePreempted.toString(),
      joined(c.beneficiaries));
}

std::vector<std::pair<std::string, double>> candidateNumbers(const PreemptionCandidate& c) {
  return {{"guaranteedMb", double(c.guaranteed.memoryMb())},
          {"guaranteedVcores", double(c.guaranteed.vcores())},
          {"usedMb", double(c.used.memoryMb())},
          {"usedVcores", double(c.used.vcores())},
          {"idealMb", double(c.ideal.memoryMb())},
          {"idealVcores", double(c.ideal.vcores())},
          {"toBePreemptedMb", double(c.toBePreempted.memoryMb())},
          {"toBePreemptedVcores", double(c.toBePreempted.vcores())},
          {"killWaitMs", double(c.killWaitMs)}};
}

PreemptionRoundReport reportOf(const PreemptionPlan& plan, TimeMs now) {
  PreemptionRoundReport r;
  r.timeMs = now;
  r.observeOnly = plan.observeOnly;
  std::map<std::pair<std::string, std::string>, Resource> selected;
  for (const PreemptionCandidate& c : plan.candidates)
    selected[{c.queuePath, c.partition}] += c.size;
  for (const preemption::QueueFigures& f : plan.figures) {
    QueuePreemptionFigures q;
    q.queue = f.path;
    q.partition = f.partition;
    q.guaranteed = f.guaranteed;
    q.maximum = f.max;
    q.used = f.used;
    q.pending = f.pending;
    q.idealAssigned = f.ideal;
    q.toBePreempted = f.toBePreempted;
    q.actuallyToBePreempted = f.actuallyToBePreempted;
    q.preemptableExtra = f.preemptableExtra;
    q.untouchableExtra = f.untouchableExtra;
    if (auto it = selected.find({f.path, f.partition}); it != selected.end())
      q.selected = it->second;
    r.queues.push_back(std::move(q));
  }
  return r;
}

}  // namespace

void CapacityScheduler::runPreemptionRound() {
  Status s = preemptionRound();
  if (!s.isOk()) {
    ++preemption_.failedRounds;
    SPINDLE_LOG_ERROR("capacity preemption: the round at {} ms failed and changed nothing: {}",
                      clock().nowMs(), s.message());
  }
}

Result<PreemptionPlan> CapacityScheduler::planPreemption(bool queuesOnly) const {
  SPINDLE_ASSIGN_OR_RETURN(preemption::PreemptionSnapshot snapshot,
                           buildPreemptionSnapshot(queuesOnly));
  if (preemption_.snapshotHook) SPINDLE_RETURN_IF_ERROR(preemption_.snapshotHook(snapshot));
  // The scheduler's own calculator, by reference: allocation and preemption order resources the
  // same way (YARN's policy takes the scheduler's ResourceCalculator too).
  return preemption::planPreemptionRound(snapshot, calculator(), preemption_.config.policy);
}

Status CapacityScheduler::preemptionRound() {
  sync();
  // The queues' figures first: most rounds on a busy cluster find nothing to obtain, and then
  // copying every container and node would be wasted (the plan is the same either way).
  SPINDLE_ASSIGN_OR_RETURN(PreemptionPlan plan, planPreemption(/*queuesOnly=*/true));
  if (plan.needsDetail) {
    SPINDLE_ASSIGN_OR_RETURN(plan, planPreemption(/*queuesOnly=*/false));
  }
  // Nothing below fails: the plan is applied whole.
  PreemptionRoundReport report = reportOf(plan, clock().nowMs());
  if (plan.observeOnly) {
    for (const PreemptionCandidate& c : plan.candidates) {
      SPINDLE_LOG_DEBUG("capacity preemption (observe only): would preempt {} ({})",
                        containerIdString(c.container), candidateWhy(c));
    }
  } else {
    applyPreemptionPlan(plan, report);
  }
  preemption_.lastRound = std::move(report);
  return Status::ok();
}

void CapacityScheduler::applyPreemptionPlan(const PreemptionPlan& plan,
                                            PreemptionRoundReport& report) {
  for (ContainerId r : plan.reservationsToKill) killReservation(r, plan);
  const TimeMs now = clock().nowMs();
  const preemption::PreemptionSettings& knobs = preemption_.config.policy;
  PreemptionExecutor::Step step =
      preemption_.executor.advance(plan.candidates, now, knobs.maxWaitBeforeKillMs);
  for (size_t i : step.marked) {
    const PreemptionCandidate& c = plan.candidates[i];
    const Container* ct = findContainer(c.container);
    if (ct == nullptr) {
      preemption_.executor.forget(c.container);
      continue;
    }
    Decision d;
    d.kind = DecisionKind::kPreemptMark;
    d.app = c.container.app();
    d.container = c.container;
    d.node = ct->node;
    d.queue = c.queuePath;
    d.key = ct->key;
    d.resource = ct->resource;
    d.am = ct->isAm;
    d.reason = fmt::format("marked for preemption, killed after {} ms unless released: {}",
                           c.killWaitMs, candidateWhy(c));
    d.numbers = candidateNumbers(c);
    record(std::move(d));
    ++report.containersMarked;
  }
  for (size_t i : step.due) {
    const PreemptionCandidate& c = plan.candidates[i];
    if (findContainer(c.container) == nullptr) continue;
    if (knobs.lazyPreemptionEnabled) {
      // MARK_CONTAINER_FOR_KILLABLE with lazy preemption: the allocator takes it when it needs
      // the room; the next rounds count it as killable.
      preemption_.executor.makeKillable(c.container);
      SPINDLE_LOG_DEBUG("capacity preemption: {} is killable ({})", containerIdString(c.container),
                        candidateWhy(c));
      continue;
    }
    finishContainer(c.container, ContainerEvent::KILL, ContainerExitStatus::PREEMPTED,
                    DecisionKind::kKill,
                    fmt::format("preempted: still selected {} ms after it was marked: {}",
                                c.killWaitMs, candidateWhy(c)));
    ++report.containersKilled;
  }
  for (ContainerId c : step.stale) {
    SPINDLE_LOG_DEBUG("capacity preemption: mark of {} dropped (not re-selected in time)",
                      containerIdString(c));
  }
}

// KILL_RESERVED_CONTAINER: the reservation ends at once ("unreserved" completion).
void CapacityScheduler::killReservation(ContainerId id, const PreemptionPlan& plan) {
  auto it = csApps_.find(id.app());
  if (it == csApps_.end()) return;
  CsApp& s = it->second;
  for (const auto& [node, r] : s.reservations) {
    if (r.id != id) continue;
    std::string why = "reserved container killed by capacity preemption";
    for (const PreemptionCandidate& c : plan.candidates) {
      if (c.container == id) why += ": " + candidateWhy(c);
    }
    unreserve(s, node, why);
    return;
  }
}

// Lazy preemption's allocator side. YARN's RegularContainerAllocator.assignContainer adds the
// node's killable containers to its unallocated resource one by one until the ask fits, and the
// commit kills them. Spindle runs that step just before the node's allocation pass, for the
// first app (leaves in queue pre-order, apps in ordering-policy order) of a leaf that is under
// its guarantee on the node's partition and whose next ask there does not fit the node's free
// resource: killable containers of other queues are killed, newest first, until the ask fits.
// The pass that follows allocates as usual (a leaf under its guarantee sorts first).
// Simplification: user limits and queue maximums of that app are not re-checked here.
void CapacityScheduler::reclaimKillable(NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  if (node.reservation()) return;
  std::vector<const Container*> killable;
  for (ContainerId id : node.containers()) {
    if (preemption_.executor.isKillable(id)) killable.push_back(findContainer(id));
  }
  std::reverse(killable.begin(), killable.end());  // newest first
  if (killable.empty()) return;
  sync();
  const std::string& p = node.partition();
  const ResourceCalculator& rc = calculator();
  const Resource R = partitionResource(p);
  for (CsQueue* leaf : tree_->leaves()) {
    if (!leaf->config().canAccess(p) || leaf->usage(p).pending.isZero()) continue;
    if (!rc.lessThan(R, leaf->usage(p).used, leaf->cap(p).effectiveMin)) continue;
    for (const AppOrderKey& k : leaf->schedulable) {
      CsApp& s = csApps_.at(k.app);
      if (!s.pendingIn(p)) continue;
      std::optional<Resource> need;
      s.app->asks().forEachActiveKey([&](const SchedulerKey&, const ResourceRequest& any) {
        if (nodeFilter().checkPartition(keyPartition(s, any), p, /*respectExclusivity=*/true) !=
            SkipReason::kNone) {
          return true;
        }
        need = any.capability;
        return false;
      });
      if (!need) continue;
      Resource available = node.unallocated();
      if (rc.fitsIn(*need, available)) return;
      std::vector<const Container*> victims;
      for (const Container* c : killable) {
        if (rc.fitsIn(*need, available)) break;
        const CsApp* owner = csApp(c->id.app());
        if (owner == nullptr || owner->leaf == leaf) continue;
        victims.push_back(c);
        available += c->resource;
      }
      if (!rc.fitsIn(*need, available)) return;
      for (const Container* c : victims) {
        const std::string victimQueue = csApp(c->id.app())->leaf->path();
        finishContainer(
            c->id, ContainerEvent::KILL, ContainerExitStatus::PREEMPTED, DecisionKind::kKill,
            fmt::format("preempted (lazy): killable container of {} taken for {} in {}, which "
                        "is under its guarantee {} on partition {} and needs {} on {} (free {})",
                        victimQueue, appIdString(s.app->id()), leaf->path(),
                        leaf->cap(p).effectiveMin.toString(), partitionName(p), need->toString(),
                        node.name(), node.unallocated().toString()));
      }
      return;
    }
  }
}

// FiCaSchedulerApp.getAllocation: the marked containers and one ANY request of
// ceil(total / minimum allocation) minimum allocations (the calculator's ratio).
PreemptionMessage CapacityScheduler::preemptionMessage(AppId app) const {
  PreemptionMessage m;
  Resource total;
  for (ContainerId id : preemption_.executor.containersOf(app)) {
    const Container* c = findContainer(id);
    if (c == nullptr) continue;
    m.negotiable.push_back(id);
    total += c->resource;
  }
  if (m.negotiable.empty()) return m;
  const Resource& minAlloc = settings().bounds.minimum;
  const double ratio = calculator().isInvalidDivisor(minAlloc)
                           ? 0.0
                           : calculator().divide(cluster().total(), total, minAlloc);
  m.negotiableResource = minAlloc.times(static_cast<int64_t>(std::ceil(ratio)));
  return m;
}

// PlaceContainer{reserved}: the node's reserved container for the app, as reserve() makes it.
Status CapacityScheduler::placeReservation(Application& app, NodeId node, const SchedulerKey& key,
                                           const Resource& resource) {
  sync();
  auto it = csApps_.find(app.id());
  if (it == csApps_.end()) {
    return failedPrecondition("place reserved: {} is not in a Capacity Scheduler queue",
                              appIdString(app.id()));
  }
  CsApp& s = it->second;
  const Node& n = cluster().node(node);
  if (n.reservation()) {
    return failedPrecondition("place reserved: node {} already holds reservation {} of {}",
                              n.name(), containerIdString(n.reservation()->container),
                              appIdString(n.reservation()->container.app()));
  }
  if (resource.isZero()) {
    return invalidArgument("place reserved: the reserved resource on {} is empty", n.name());
  }
  if (!resource.fitsIn(n.total())) {
    return invalidArgument("place reserved: {} does not fit node {} ({})", resource.toString(),
                           n.name(), n.total().toString());
  }
  if (!s.leaf->config().canAccess(n.partition())) {
    return invalidArgument("place reserved: queue {} cannot access partition '{}' of node {}",
                           s.leaf->path(), n.partition(), n.name());
  }
  reserve(s, node, key, resource,
          fmt::format("placed directly (reserved container of {} at priority {} on {})",
                      resource.toString(), key.priority, n.name()));
  return Status::ok();
}

}  // namespace spindle
