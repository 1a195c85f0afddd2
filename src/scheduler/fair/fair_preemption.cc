// Fair Scheduler 3.x starvation and preemption (FSLeafQueue.updateStarvedApps,
// FSAppAttempt.fairShareStarvation, FSPreemptionThread, FSSchedulerNode's preemption list).
// Vectors P3-*.
//
// Spindle runs the preemption "thread" synchronously after the update pass on a MonitorTick:
//  1. Only when yarn.scheduler.fair.preemption is on and cluster utilisation (max of memory and
//     vcores) is above the threshold, each leaf computes its starved apps: runnable apps with
//     pending demand whose next starvation check is due, in the leaf policy's order; fair-share
//     starvation per app (usage below min(fairShare x threshold, demand) for longer than the
//     fair-share timeout), stopping at the first app that is not starved; then the leaf's
//     min-share starvation (min(minShare, demand) - usage after the min-share timeout), minus
//     the apps' fair-share starvation, spread over the same apps.
//  2. Starved apps, smaller starvation first (memory, then vcores, then app id: a total order
//     standing in for FSStarvedApps' fitsIn comparator), pick victims: for each request
//     (below), floor(starvation.memory / ask.memory) containers (at most the ask's count); for
//     each, among the nodes the request names, the node whose victims free enough room with the
//     fewest AM containers (non-AM first, AM last; no victim may take its app below its fair share
//     or come from a queue with allowPreemptionFrom=false, nor be an AM when am.preemption is off).
//  3. Victims are marked (PREEMPT_MARK) and killed (exit status PREEMPTED) once
//     waitTimeBeforeKill has passed on the injected clock; the freed room on their node is held
//     for the starved app, which is offered the node first on its next heartbeats while it is
//     still starved. The app is not checked again for
//     waitTimeBeforeKill + 4 x NM heartbeat interval + waitTimeBeforeNextStarvationCheck.
// Requests are visited once per (priority, capability) across locality levels
// (VisitedResourceRequestTracker), ANY first, then racks, then hosts (YARN's order is a hash
// map's); a relaxed host or rack request whose best victim set holds AM containers is retried on
// every other node (getBestPreemptableContainers). See docs/compatibility.md.
#include <algorithm>

#include <fmt/format.h>

#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

namespace {

// Resources.multiply(r, float): each type truncated.
Resource times(const Resource& r, float by, int typeCount) {
  Resource out;
  for (int i = 0; i < typeCount; ++i) {
    out.set(i, static_cast<int64_t>(static_cast<double>(r.get(i)) * static_cast<double>(by)));
  }
  return out;
}

}  // namespace

bool FairScheduler::shouldAttemptPreemption() const {
  if (!config_.site.preemption) return false;
  const Resource& total = cluster().total();
  const Resource& used = cluster().allocated();
  const float mem = total.memoryMb()
                        ? static_cast<float>(used.memoryMb()) / static_cast<float>(total.memoryMb())
                        : 0.0f;
  const float cpu = total.vcores()
                        ? static_cast<float>(used.vcores()) / static_cast<float>(total.vcores())
                        : 0.0f;
  return config_.site.preemptionUtilizationThreshold < std::max(mem, cpu);
}

bool FairScheduler::usageBelowShare(fair::PolicyKind policy, const Resource& usage,
                                    const Resource& share) const {
  // FSAppAttempt.isUsageBelowShare: the policy's calculator (DominantResourceCalculator for DRF,
  // memory otherwise) with singleType = true, i.e. only the dominant shares are compared.
  if (policy == fair::PolicyKind::kDrf) {
    return dominant_->compare(cluster().total(), usage, share, /*singleType=*/true) < 0;
  }
  return usage.memoryMb() < share.memoryMb();
}

Resource FairScheduler::fairShareStarvation(FsApp& fa) {
  const TimeMs now = clock().nowMs();
  const FsQueue& leaf = *fa.leaf;
  const Resource threshold =
      times(fa.fairShare, leaf.config().fairSharePreemptionThreshold, settings().types.count());
  const Resource fairDemand = Resource::componentwiseMin(threshold, fa.demand);
  const Resource& usage = apps().at(fa.id)->used();
  const bool starved = usageBelowShare(leaf.policy(), usage, fairDemand);
  if (!starved) fa.lastTimeAtFairShare = now;
  if (!starved || now - fa.lastTimeAtFairShare < leaf.config().fairSharePreemptionTimeoutMs) {
    fa.fairshareStarvation = Resource();
  } else {
    fa.fairshareStarvation = (fairDemand - usage).clampedAtZero();
  }
  return fa.fairshareStarvation;
}

Resource FairScheduler::minShareStarvation(FsQueue& leaf) {
  const TimeMs now = clock().nowMs();
  if (!leaf.lastTimeAtMinShare) leaf.lastTimeAtMinShare = now;
  Resource starvation =
      (Resource::componentwiseMin(leaf.minShare, leaf.demand) - leaf.usage).clampedAtZero();
  if (starvation.isZero()) leaf.lastTimeAtMinShare = now;
  if (now - *leaf.lastTimeAtMinShare < leaf.config().minSharePreemptionTimeoutMs) {
    starvation = Resource();
  }
  return starvation;
}

void FairScheduler::updateStarvedApps(FsQueue& leaf, std::vector<AppId>& starved) {
  const TimeMs now = clock().nowMs();
  const fair::SchedulingPolicy policy = policyOf(leaf);
  std::vector<std::pair<fair::Schedulable, FsApp*>> order;
  for (AppId id : leaf.runnableApps) {
    FsApp& fa = fsApps_.at(id);
    const Resource pending = (fa.demand - apps().at(id)->used()).clampedAtZero();
    if (pending.isZero() || now < fa.nextStarvationCheck) continue;
    order.emplace_back(appView(fa), &fa);
  }
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return policy.compare(a.first, b.first) < 0;
  });
  Resource fairTotal;
  for (auto& [view, fa] : order) {
    const Resource s = fairShareStarvation(*fa);
    if (s.isZero()) break;
    starved.push_back(fa->id);
    fairTotal += s;
  }
  Resource remaining = (minShareStarvation(leaf) - fairTotal).clampedAtZero();
  if (remaining.isZero()) return;
  for (auto& [view, fa] : order) {
    if (remaining.isZero()) {
      fa->minshareStarvation = Resource();
      continue;
    }
    const Resource pending = (fa->demand - apps().at(fa->id)->used()).clampedAtZero();
    const Resource slice =
        Resource::componentwiseMin((pending - fa->fairshareStarvation).clampedAtZero(), remaining);
    remaining = (remaining - slice).clampedAtZero();
    fa->minshareStarvation = slice;
    if (std::find(starved.begin(), starved.end(), fa->id) == starved.end()) {
      starved.push_back(fa->id);
    }
  }
}

void FairScheduler::preemptForStarvedApps(std::vector<AppId> starved) {
  auto starvation = [&](AppId id) {
    const FsApp& fa = fsApps_.at(id);
    return fa.fairshareStarvation + fa.minshareStarvation;
  };
  std::stable_sort(starved.begin(), starved.end(), [&](AppId a, AppId b) {
    const Resource sa = starvation(a), sb = starvation(b);
    if (sa.memoryMb() != sb.memoryMb()) return sa.memoryMb() < sb.memoryMb();
    if (sa.vcores() != sb.vcores()) return sa.vcores() < sb.vcores();
    return a < b;
  });
  const fair::FairSiteConfig& s = config_.site;
  const int64_t allocDelay = s.continuousSchedulingEnabled
                                 ? 10 * int64_t{s.continuousSchedulingSleepMs}
                                 : 4 * heartbeatIntervalMs_;
  for (AppId id : starved) {
    FsApp& fa = fsApps_.at(id);
    for (ContainerId c : identifyContainersToPreempt(fa)) {
      killAt_[c] = clock().nowMs() + s.waitTimeBeforeKillMs;
      killWhy_[c] = fmt::format("preempted {} ms after its mark for starved {} in {}",
                                s.waitTimeBeforeKillMs, fa.name, fa.leaf->path());
    }
    fa.nextStarvationCheck = clock().nowMs() + s.waitTimeBeforeKillMs + allocDelay +
                             s.waitTimeBeforeNextStarvationCheckMs;
  }
  killDuePreemptions();
}

namespace {

// VisitedResourceRequestTracker: per (priority, capability), a request is visited once across
// locality levels; ANY only while no rack or host of that pair was visited, a rack only while
// neither ANY nor a host on it was, a host only while neither ANY nor its rack was.
class VisitedRequests {
 public:
  explicit VisitedRequests(const Cluster& cluster) : cluster_(cluster) {}
  bool visit(const ResourceRequest& rr) {
    Tracker& t = trackers_[fmt::format("{}|{}", rr.key.priority, rr.capability.toString())];
    if (rr.resourceName == kAnyResourceName) {
      if (t.racks.empty() && t.racksWithNodes.empty()) t.any = true;
      return t.any;
    }
    if (std::optional<NodeId> n = cluster_.findNode(rr.resourceName)) {
      const std::string& rack = cluster_.node(*n).rack();
      if (t.any || t.racks.count(rack)) return false;
      t.racksWithNodes.insert(rack);
      return true;
    }
    if (!cluster_.hasRack(rr.resourceName)) return false;  // no such node or rack
    if (t.any || t.racksWithNodes.count(rr.resourceName)) return false;
    t.racks.insert(rr.resourceName);
    return true;
  }

 private:
  struct Tracker {
    std::set<std::string> racksWithNodes, racks;
    bool any = false;
  };
  const Cluster& cluster_;
  std::map<std::string, Tracker> trackers_;
};

}  // namespace

std::vector<ResourceRequest> FairScheduler::starvedResourceRequests(const FsApp& starved) const {
  // FSAppAttempt.getStarvedResourceRequests: per scheduler key, ANY first, then racks, then
  // hosts (YARN walks a hash map; Spindle fixes this order).
  std::vector<ResourceRequest> all = apps().at(starved.id)->asks().all();
  std::stable_partition(all.begin(), all.end(), [](const ResourceRequest& rr) {
    return rr.resourceName == kAnyResourceName;
  });
  std::stable_sort(all.begin(), all.end(), [&](const ResourceRequest& a, const ResourceRequest& b) {
    auto level = [&](const ResourceRequest& r) {
      if (r.resourceName == kAnyResourceName) return 0;
      return cluster().findNode(r.resourceName) ? 2 : 1;
    };
    if (a.key != b.key) return a.key < b.key;
    return level(a) < level(b);
  });
  VisitedRequests visited(cluster());
  Resource pending = starved.fairshareStarvation + starved.minshareStarvation;
  std::vector<ResourceRequest> out;
  for (const ResourceRequest& rr : all) {
    if (pending.isZero()) break;
    if (rr.numContainers <= 0 || !visited.visit(rr)) continue;
    if (rr.capability.memoryMb() <= 0) continue;
    const int64_t k = pending.memoryMb() / rr.capability.memoryMb();
    if (k == 0) continue;
    ResourceRequest take = rr;
    take.numContainers = static_cast<int32_t>(std::min<int64_t>(k, rr.numContainers));
    pending = (pending - rr.capability.times(take.numContainers)).clampedAtZero();
    out.push_back(std::move(take));
  }
  return out;
}

std::optional<FairScheduler::Victims> FairScheduler::bestVictims(const Resource& request,
                                                                 const std::vector<NodeId>& nodes) {
  // identifyContainersToPreemptForOneContainer: each node's set must have fewer AMs than the
  // best so far; a set without AMs ends the search.
  std::optional<Victims> best;
  int maxAm = INT32_MAX;
  for (NodeId node : nodes) {
    std::optional<Victims> v = victimsOnNode(request, node, maxAm);
    if (!v) continue;
    maxAm = v->amCount;
    best = std::move(v);
    if (maxAm == 0) break;
  }
  return best;
}

std::vector<ContainerId> FairScheduler::identifyContainersToPreempt(FsApp& starved) {
  std::vector<ContainerId> chosen;
  for (const ResourceRequest& rr : starvedResourceRequests(starved)) {
    std::vector<NodeId> potential;
    if (rr.resourceName == kAnyResourceName) {
      potential = cluster().nodeIds();
    } else if (std::optional<NodeId> n = cluster().findNode(rr.resourceName)) {
      potential = {*n};
    } else {
      const std::set<NodeId>& onRack = cluster().nodesOnRack(rr.resourceName);
      potential.assign(onRack.begin(), onRack.end());
    }
    for (int32_t i = 0; i < rr.numContainers; ++i) {
      std::optional<Victims> best = bestVictims(rr.capability, potential);
      // getBestPreemptableContainers: a relaxed host or rack request whose best set holds AMs
      // also looks at every other node, and takes a set with fewer AMs there.
      if (best && best->amCount > 0 && rr.relaxLocality && rr.resourceName != kAnyResourceName) {
        std::vector<NodeId> others;
        for (NodeId n : cluster().nodeIds()) {
          if (std::find(potential.begin(), potential.end(), n) == potential.end()) {
            others.push_back(n);
          }
        }
        std::optional<Victims> spare = bestVictims(rr.capability, others);
        if (spare && spare->amCount < best->amCount) best = std::move(spare);
      }
      if (!best || best->containers.empty()) continue;
      for (ContainerId c : best->containers) {
        markVictim(c, starved, rr);
        chosen.push_back(c);
      }
    }
  }
  return chosen;
}

void FairScheduler::markVictim(ContainerId c, const FsApp& starved, const ResourceRequest& rr) {
  // trackPreemptionsAgainstNode (the freed room is held for the starved app) and
  // trackContainerForPreemption (the owner's AM is told).
  const Container& victim = *findContainer(c);
  FsApp& owner = fsApps_.at(c.app());
  owner.markedForPreemption.insert(c);
  owner.markedResource += victim.resource;
  NodePreemption& np = nodePreemption_[victim.node];
  np.containers.insert(c);
  np.forApp[starved.id] += victim.resource;
  np.total += victim.resource;
  Decision d;
  d.kind = DecisionKind::kPreemptMark;
  d.time = clock().nowMs();
  d.app = c.app();
  d.container = c;
  d.node = victim.node;
  d.queue = owner.leaf->path();
  d.resource = victim.resource;
  d.am = victim.isAm;
  d.reason = fmt::format(
      "preempted for starved {} in {} (starvation {}: fair share {}, min share {}) asking {} at "
      "{}",
      starved.name, starved.leaf->path(),
      (starved.fairshareStarvation + starved.minshareStarvation).toString(),
      starved.fairshareStarvation.toString(), starved.minshareStarvation.toString(),
      rr.capability.toString(), rr.resourceName);
  record(std::move(d));
}

std::optional<FairScheduler::Victims> FairScheduler::victimsOnNode(const Resource& request,
                                                                   NodeId nodeId, int maxAm) {
  const Node& node = cluster().node(nodeId);
  const NodePreemption* np = nodePreemption_.count(nodeId) ? &nodePreemption_.at(nodeId) : nullptr;
  // Running containers, non-AM first and AM last, minus those already marked.
  std::vector<const Container*> candidates;
  for (ContainerId id : node.containers()) {
    if (np && np->containers.count(id)) continue;
    candidates.push_back(findContainer(id));
  }
  std::stable_partition(candidates.begin(), candidates.end(),
                        [](const Container* c) { return !c->isAm; });
  Resource reserved = np ? np->total : Resource();
  if (node.reservation()) reserved += node.reservation()->resource;
  Resource potential = (node.unallocated() - reserved).clampedAtZero();
  Victims v;
  std::map<AppId, Resource> considering;
  for (const Container* c : candidates) {
    if (canContainerBePreempted(*c, considering[c->id.app()])) {
      v.containers.push_back(c->id);
      considering[c->id.app()] += c->resource;
      if (c->isAm && ++v.amCount >= maxAm) return std::nullopt;
      potential += c->resource;
    }
    if (request.fitsIn(potential)) return v;
  }
  return std::nullopt;
}

bool FairScheduler::canContainerBePreempted(const Container& c,
                                            const Resource& alreadyConsidering) const {
  const FsApp* owner = fsApp(c.id.app());
  if (owner == nullptr || !owner->leaf->config().allowPreemptionFrom) return false;
  if (c.isAm && !config_.site.amPreemption) return false;
  if (owner->markedForPreemption.count(c.id)) return false;
  const Resource after =
      (apps().at(owner->id)->used() - owner->markedResource - c.resource - alreadyConsidering)
          .clampedAtZero();
  return !usageBelowShare(owner->leaf->policy(), after, owner->fairShare);
}

void FairScheduler::killDuePreemptions() {
  const TimeMs now = clock().nowMs();
  std::vector<ContainerId> due;
  for (const auto& [c, at] : killAt_) {
    if (at <= now) due.push_back(c);
  }
  for (ContainerId c : due) {
    if (findContainer(c) == nullptr) {
      killAt_.erase(c);
      killWhy_.erase(c);
      continue;
    }
    auto why = killWhy_.find(c);
    const std::string reason =
        why != killWhy_.end() ? why->second : std::string("preempted for a starved application");
    finishContainer(c, ContainerEvent::KILL, ContainerExitStatus::PREEMPTED, DecisionKind::kKill,
                    reason);
  }
}

std::optional<Resource> FairScheduler::fairShare(std::string_view queue) const {
  const std::string name(queue);
  if (const FsQueue* q = tree_.find(name)) return q->fairShare;
  if (const FsQueue* q = tree_.find("root." + name)) return q->fairShare;
  for (const FsQueue* q : tree_.preorder()) {
    if (q->isLeaf() && q->name() == name) return q->fairShare;
  }
  return std::nullopt;
}

PreemptionMessage FairScheduler::preemptionMessage(AppId id) const {
  PreemptionMessage m;
  if (const FsApp* fa = fsApp(id)) {
    m.containers.assign(fa->markedForPreemption.begin(), fa->markedForPreemption.end());
  }
  return m;
}

void FairScheduler::forgetPreemptedContainer(const Container& c) {
  killAt_.erase(c.id);
  killWhy_.erase(c.id);
  warnedAt2x_.erase(c.id);
  auto it = fsApps_.find(c.id.app());
  if (it != fsApps_.end() && it->second.markedForPreemption.erase(c.id)) {
    it->second.markedResource -= c.resource;
  }
  auto np = nodePreemption_.find(c.node);
  if (np != nodePreemption_.end()) np->second.containers.erase(c.id);
}

void FairScheduler::assignPreemptedContainers(NodeId nodeId) {
  auto np = nodePreemption_.find(nodeId);
  if (np == nodePreemption_.end()) return;
  // cleanupPreemptionList: drop apps that are gone or no longer starved.
  for (auto it = np->second.forApp.begin(); it != np->second.forApp.end();) {
    auto fa = fsApps_.find(it->first);
    if (fa == fsApps_.end() || !isStarved(fa->second)) {
      np->second.total = (np->second.total - it->second).clampedAtZero();
      it = np->second.forApp.erase(it);
    } else {
      ++it;
    }
  }
  const std::vector<std::pair<AppId, Resource>> list(np->second.forApp.begin(),
                                                     np->second.forApp.end());
  for (auto [id, pending] : list) {
    FsApp& fa = fsApps_.at(id);
    while (!pending.isZero()) {
      const Assignment a = assignApp(fa, nodeId, /*reserved=*/false);
      if (a.outcome != Outcome::kAllocated) break;
      pending = (pending - a.resource).clampedAtZero();
    }
  }
}

}  // namespace spindle
