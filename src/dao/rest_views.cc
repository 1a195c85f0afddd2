#include "dao/rest_views.h"

#include <limits>

#include "dao/capacity_view.h"
#include "dao/fair_view.h"
#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {

using nlohmann::json;

json resourceInfo(const ResourceTypes& types, const Resource& r) {
  json j = {{"memory", r.memoryMb()}, {"vCores", r.vcores()}};
  if (types.count() > 2) {
    json infos = json::array();
    for (int i = 0; i < types.count(); ++i) {
      infos.push_back(
          {{"name", types.info(i).name}, {"units", types.info(i).units}, {"value", r.get(i)}});
    }
    j["resourceInformations"] = {{"resourceInformation", infos}};
  }
  return j;
}

json resourceByName(const ResourceTypes& types, const Resource& r) {
  json j = json::object();
  for (int i = 0; i < types.count(); ++i) j[types.info(i).name] = r.get(i);
  return j;
}

namespace {

// A float ratio as YARN's JAXB writes it; 0/0 is NaN, written as the string "NaN".
json ratio(double num, double den) {
  if (den == 0) return num == 0 ? json("NaN") : json(std::numeric_limits<double>::infinity());
  return static_cast<float>(num / den);
}

json fifoInfo(const FifoScheduler& s) {
  const Cluster& c = s.cluster();
  return {{"type", s.typeName()},
          {"capacity", 1.0},
          {"usedCapacity", ratio(double(c.allocated().memoryMb()), double(c.total().memoryMb()))},
          {"qstate", "RUNNING"},
          {"minQueueMemoryCapacity", s.settings().bounds.minimum.memoryMb()},
          {"maxQueueMemoryCapacity", s.settings().bounds.maximum.memoryMb()},
          {"numNodes", c.numNodes()},
          {"usedNodeCapacity", c.allocated().memoryMb()},
          {"availNodeCapacity", (c.total() - c.allocated()).memoryMb()},
          {"totalNodeCapacity", c.total().memoryMb()},
          {"numContainers", s.containers().size()}};
}

}  // namespace

json schedulerView(const Scheduler& s) {
  json info;
  if (auto* fifo = dynamic_cast<const FifoScheduler*>(&s)) {
    info = fifoInfo(*fifo);
  } else if (auto* cs = dynamic_cast<const CapacityScheduler*>(&s)) {
    info = capacitySchedulerInfo(*cs);
  } else if (auto* fair = dynamic_cast<const FairScheduler*>(&s)) {
    info = fairSchedulerInfo(*fair);
  } else {
    info = {{"type", s.typeName()}};
  }
  return {{"scheduler", {{"schedulerInfo", info}}}};
}

json metricsView(const Scheduler& s) {
  int64_t submitted = 0, completed = 0, pending = 0, running = 0, failed = 0, killed = 0;
  int64_t containersPending = 0;
  for (const auto& [id, a] : s.apps()) {
    ++submitted;
    if (a->state() == AppState::RUNNING)
      ++running;
    else
      ++pending;
    for (const SchedulerKey& k : a->asks().activeKeys()) {
      containersPending += a->asks().count(k, kAnyResourceName);
    }
  }
  for (const auto& id : s.finishedAppIds()) {
    const Application* a = s.findApp(id);
    ++submitted;
    if (a->state() == AppState::FINISHED) ++completed;
    if (a->state() == AppState::FAILED) ++failed;
    if (a->state() == AppState::KILLED) ++killed;
  }
  const Cluster& c = s.cluster();
  const Resource avail = c.total() - c.allocated();
  int64_t reservedContainers = 0;
  for (NodeId n : c.nodeIds()) reservedContainers += c.node(n).reservation() ? 1 : 0;
  json m = {{"appsSubmitted", submitted},
            {"appsCompleted", completed},
            {"appsPending", pending},
            {"appsRunning", running},
            {"appsFailed", failed},
            {"appsKilled", killed},
            {"reservedMB", c.reserved().memoryMb()},
            {"availableMB", avail.memoryMb()},
            {"allocatedMB", c.allocated().memoryMb()},
            {"totalMB", c.total().memoryMb()},
            {"reservedVirtualCores", c.reserved().vcores()},
            {"availableVirtualCores", avail.vcores()},
            {"allocatedVirtualCores", c.allocated().vcores()},
            {"totalVirtualCores", c.total().vcores()},
            {"containersAllocated", s.containers().size()},
            {"containersReserved", reservedContainers},
            {"containersPending", containersPending},
            {"totalNodes", c.numNodes()},
            {"activeNodes", c.numNodes()},
            {"lostNodes", c.removedNodes()},
            {"unhealthyNodes", 0},
            {"decommissioningNodes", 0},
            {"decommissionedNodes", 0},
            {"rebootedNodes", 0},
            {"shutdownNodes", 0}};
  return {{"clusterMetrics", m}};
}

const char* yarnFinalStatus(AppState st) {
  switch (st) {
    case AppState::FINISHED: return "SUCCEEDED";
    case AppState::FAILED: return "FAILED";
    case AppState::KILLED: return "KILLED";
    default: return "UNDEFINED";
  }
}

json appView(const Scheduler& s, const Application& a) {
  const ResourceTypes& types = s.cluster().types();
  const TimeMs now = s.clock().nowMs();
  // Aggregate usage includes what live containers used so far (RMAppAttemptMetrics).
  int64_t memMs = a.accounting().memoryMbMs, vcoreMs = a.accounting().vcoreMs;
  for (ContainerId id : a.liveContainers()) {
    const Container* c = s.findContainer(id);
    memMs += c->resource.memoryMb() * (now - c->allocatedAt);
    vcoreMs += c->resource.vcores() * (now - c->allocatedAt);
  }
  const Resource total = s.cluster().total();
  const bool ended = a.finishTime() > 0 || a.state() == AppState::FINISHED ||
                     a.state() == AppState::FAILED || a.state() == AppState::KILLED;
  json requests = json::array();
  for (const ResourceRequest& rr : a.asks().all()) {
    requests.push_back({{"priority", rr.key.priority},
                        {"allocationRequestId", rr.key.allocationRequestId},
                        {"resourceName", rr.resourceName},
                        {"capability", resourceInfo(types, rr.capability)},
                        {"numContainers", rr.numContainers},
                        {"relaxLocality", rr.relaxLocality},
                        {"nodeLabelExpression", rr.nodeLabelExpression}});
  }
  json j = {{"id", s.appIdString(a.id())},
            {"user", a.user()},
            {"name", a.submission().name},
            {"queue", a.queue()},
            {"state", toString(a.state())},
            {"finalStatus", yarnFinalStatus(a.state())},
            {"progress", ended ? 100.0 : 0.0},
            {"trackingUI", ended ? "History" : "ApplicationMaster"},
            {"diagnostics", s.amDiagnostics(a)},
            {"clusterId", s.settings().clusterTimestamp},
            {"applicationType", a.submission().applicationType},
            {"priority", a.priority()},
            {"startedTime", a.submitTime()},
            {"launchTime", a.launchTime()},
            {"finishedTime", a.finishTime()},
            {"elapsedTime", (ended ? a.finishTime() : now) - a.submitTime()},
            {"allocatedMB", a.used().memoryMb()},
            {"allocatedVCores", a.used().vcores()},
            {"reservedMB", a.reserved().memoryMb()},
            {"reservedVCores", a.reserved().vcores()},
            {"runningContainers", a.liveContainers().size()},
            {"memorySeconds", memMs / 1000},
            {"vcoreSeconds", vcoreMs / 1000},
            {"queueUsagePercentage",
             total.memoryMb() ? 100.0 * a.used().memoryMb() / total.memoryMb() : 0.0},
            {"clusterUsagePercentage",
             total.memoryMb() ? 100.0 * a.used().memoryMb() / total.memoryMb() : 0.0},
            {"preemptedResourceMB", a.accounting().preempted.memoryMb()},
            {"preemptedResourceVCores", a.accounting().preempted.vcores()},
            {"numNonAMContainerPreempted", a.accounting().numNonAmPreempted},
            {"numAMContainerPreempted", a.accounting().numAmPreempted},
            {"amNodeLabelExpression", a.submission().amNodeLabelExpression},
            {"resourceRequests", requests}};
  if (auto am = a.amContainer()) {
    if (const Container* c = s.findContainer(*am)) {
      j["amHostHttpAddress"] = s.cluster().nodeName(c->node);
    }
  }
  return j;
}

json appsView(const Scheduler& s) {
  json list = json::array();
  std::vector<AppId> ids;
  for (const auto& [id, a] : s.apps()) ids.push_back(id);
  for (AppId id : s.finishedAppIds()) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  for (AppId id : ids) list.push_back(appView(s, *s.findApp(id)));
  return {{"apps", {{"app", list}}}};
}

json nodeView(const Scheduler& s, const Node& n) {
  const ResourceTypes& types = s.cluster().types();
  const Resource avail = n.unallocated();
  std::string host = n.name().substr(0, n.name().find(':'));
  return {{"rack", n.rack()},
          {"state", "RUNNING"},
          {"id", n.name()},
          {"nodeHostName", host},
          {"nodeHTTPAddress", ""},
          {"healthStatus", "Healthy"},
          {"healthReport", ""},
          {"numContainers", n.containers().size()},
          {"usedMemoryMB", n.allocated().memoryMb()},
          {"availMemoryMB", avail.memoryMb()},
          {"usedVirtualCores", n.allocated().vcores()},
          {"availableVirtualCores", avail.vcores()},
          {"nodeLabels", n.labels()},
          {"usedResource", resourceInfo(types, n.allocated())},
          {"availableResource", resourceInfo(types, avail)},
          {"totalResource", resourceInfo(types, n.total())}};
}

json nodesView(const Scheduler& s) {
  json list = json::array();
  for (NodeId id : s.cluster().nodeIds()) list.push_back(nodeView(s, s.cluster().node(id)));
  return {{"nodes", {{"node", list}}}};
}

}  // namespace spindle
