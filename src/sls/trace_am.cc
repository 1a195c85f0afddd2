#include "sls/trace_am.h"

#include "protocol/yarn_ids.h"
#include "scheduler/scheduler.h"

namespace spindle::sls {

namespace {

const std::string kAny(kAnyResourceName);

std::string hostOf(const std::string& nodeId) {
  const size_t colon = nodeId.rfind(':');
  return colon == std::string::npos ? nodeId : nodeId.substr(0, colon);
}

protocol::ResourceRecord record(const Resource& r) { return {r.memoryMb(), r.vcores()}; }

}  // namespace

TraceAm::TraceAm(const TraceJob& job, sim::AmKind kind, const sim::PlacementAsks* placement,
                 RackOf rackOf)
    : job_(job),
      placement_(placement),
      rackOf_(std::move(rackOf)),
      am_(job, kind, /*workPreserving=*/false, placement) {}

Result<ContainerId> TraceAm::parse(const std::string& containerId) const {
  SPINDLE_ASSIGN_OR_RETURN(protocol::ContainerIdParts p,
                           protocol::parseContainerIdParts(containerId));
  return ContainerId{AttemptId{AppId(1), p.attempt.attempt}, p.seq};
}

NodeId TraceAm::intern(const std::string& nodeId) {
  auto [it, added] = nodeIndex_.try_emplace(nodeId, NodeId(static_cast<uint32_t>(nodes_.size())));
  if (added) nodes_.push_back(nodeId);
  return it->second;
}

Status TraceAm::amStarted(const std::string& containerId) {
  SPINDLE_ASSIGN_OR_RETURN(ContainerId id, parse(containerId));
  if (id.attempt.attempt <= attempt_) return Status::ok();  // started twice: already known
  if (attempt_ > 0) am_.resetForNewAttempt();
  attempt_ = id.attempt.attempt;
  rmAsks_.clear();  // a new attempt starts with an empty ask table
  ids_[id] = containerId;
  am_.notifyAllocated({id, NodeId(), "", "", Locality::kOffSwitch, kAmKey, true});
  return Status::ok();
}

// AppSchedulingInfo.allocate's decrement, on the RM's table as this AM sent it.
Locality TraceAm::inferLocality(const SchedulerKey& key, const std::string& host,
                                const std::string& rack) {
  auto table = rmAsks_.find(key);
  if (table == rmAsks_.end()) return Locality::kOffSwitch;
  auto& asks = table->second;
  auto positive = [&](const std::string& name) {
    auto it = asks.find(name);
    return it != asks.end() && it->second > 0;
  };
  auto dec = [&](const std::string& name) {
    auto it = asks.find(name);
    if (it != asks.end() && it->second > 0) --it->second;
  };
  Locality l = Locality::kOffSwitch;
  if (positive(host)) {
    l = Locality::kNodeLocal;
  } else if (positive(rack)) {
    l = Locality::kRackLocal;
  }
  dec(kAny);
  if (l != Locality::kOffSwitch) dec(rack);
  if (l == Locality::kNodeLocal) dec(host);
  return l;
}

Status TraceAm::onAllocateResponse(const protocol::AllocateResponse& r, int64_t simNowMs) {
  for (const protocol::Container& c : r.allocatedContainers) {
    SPINDLE_ASSIGN_OR_RETURN(ContainerId id, parse(c.id));
    ids_[id] = c.id;
    resources_[id] = c.resource;
    ++allocated_;
    const SchedulerKey key{c.priority, c.allocationRequestId};
    const std::string host = hostOf(c.nodeId);
    const std::string rack = rackOf_(c.nodeId);
    const Locality l = inferLocality(key, host, rack);
    am_.notifyAllocated({id, intern(c.nodeId), host, rack, l, key, false});
  }
  for (const protocol::ContainerStatus& s : r.completedContainerStatuses) {
    SPINDLE_ASSIGN_OR_RETURN(ContainerId id, parse(s.containerId));
    am_.notifyCompleted(id, s.exitStatus, simNowMs);
  }
  for (const protocol::RejectedSchedulingRequestRecord& rej : r.rejectedSchedulingRequests) {
    const int32_t n =
        rej.request.resourceSizing ? rej.request.resourceSizing->numAllocations : int32_t{1};
    am_.notifyRejected(SchedulerKey{rej.request.priority, rej.request.allocationRequestId}, n);
  }
  preemption_ = PreemptionMessage{};
  for (const std::string& cid : r.preemptContainers) {
    SPINDLE_ASSIGN_OR_RETURN(ContainerId id, parse(cid));
    preemption_.containers.push_back(id);
  }
  return Status::ok();
}

std::string TraceAm::specText(const placement::PlacementConstraint& c) const {
  if (placement_ == nullptr) return "";
  for (const auto& [text, parsed] : placement_->constraints) {
    if (parsed == c) return text;
  }
  return "";
}

TraceAm::Beat TraceAm::beat(int64_t simNowMs) {
  sim::AmActions act = am_.heartbeat(simNowMs, preemption_, /*honourPreemption=*/true);
  preemption_ = PreemptionMessage{};
  Beat b;
  b.finished = act.finished;
  b.restart = act.restart;
  for (const ResourceRequest& a : act.asks) {
    protocol::ResourceRequest p;
    p.priority = a.key.priority;
    p.allocationRequestId = a.key.allocationRequestId;
    p.resourceName = a.resourceName;
    p.capability = record(a.capability);
    p.numContainers = a.numContainers;
    p.relaxLocality = a.relaxLocality;
    p.nodeLabelExpression = a.nodeLabelExpression;
    rmAsks_[a.key][a.resourceName] = a.numContainers;
    b.asks.push_back(std::move(p));
  }
  for (const SchedulingRequest& s : act.schedulingRequests) {
    protocol::SchedulingRequestRecord p;
    p.priority = s.priority;
    p.allocationRequestId = s.allocationRequestId;
    p.allocationTags = s.allocationTags;
    if (s.sizing) p.resourceSizing = {s.sizing->numAllocations, record(s.sizing->resource)};
    if (s.constraint) p.placementConstraint = specText(*s.constraint);
    b.schedulingRequests.push_back(std::move(p));
  }
  const std::optional<ContainerId> amContainer = am_.amContainer();
  for (ContainerId id : act.releases) {
    // The finished AM's own container is not released: it exits when the AM unregisters.
    if (amContainer && id == *amContainer) continue;
    if (auto it = ids_.find(id); it != ids_.end()) b.releases.push_back(it->second);
    resources_.erase(id);
  }
  for (const sim::TaskStart& t : act.starts) {
    auto it = ids_.find(t.container);
    if (it == ids_.end() || t.node.value() >= nodes_.size()) continue;
    TaskToStart s;
    s.containerId = it->second;
    s.nodeId = nodes_[t.node.value()];
    s.durationMs = t.durationMs;
    if (auto r = resources_.find(t.container); r != resources_.end()) s.resource = r->second;
    b.starts.push_back(std::move(s));
  }
  return b;
}

}  // namespace spindle::sls
