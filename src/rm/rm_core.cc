#include "rm/rm_core.h"

#include <algorithm>
#include <limits>

#include "app/container_state.h"
#include "base/log.h"
#include "protocol/yarn_ids.h"
#include "rm/rm_activities.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using protocol::NodeAction;

const char* toString(RmNodeState s) {
  switch (s) {
    case RmNodeState::RUNNING: return "RUNNING";
    case RmNodeState::UNHEALTHY: return "UNHEALTHY";
    case RmNodeState::DECOMMISSIONING: return "DECOMMISSIONING";
    case RmNodeState::DECOMMISSIONED: return "DECOMMISSIONED";
    case RmNodeState::LOST: return "LOST";
  }
  return "?";
}

bool isActive(RmNodeState s) {
  return s == RmNodeState::RUNNING || s == RmNodeState::UNHEALTHY ||
         s == RmNodeState::DECOMMISSIONING;
}

bool inScheduler(RmNodeState s) {
  return s == RmNodeState::RUNNING || s == RmNodeState::DECOMMISSIONING;
}

RmCore::RmCore(RmSettings settings, Configuration conf, const Clock& clock, std::string schedAddr)
    : settings_(std::move(settings)),
      conf_(std::move(conf)),
      clock_(clock),
      schedulerAddress_(std::move(schedAddr)),
      startedOn_(clock.nowMs()),
      rng_(static_cast<uint64_t>(clock.nowMs())) {}

RmCore::~RmCore() = default;

Result<std::unique_ptr<RmCore>> RmCore::create(const RmSettings& settings, Configuration conf,
                                               const Clock& clock, std::string schedulerAddress,
                                               std::unique_ptr<store::StateStore> store) {
  // The cluster timestamp in every id is the RM's start time, as YARN's (a recovered store's
  // apps keep theirs: openStore).
  if (!conf.contains("spindle.cluster.timestamp")) {
    conf.set("spindle.cluster.timestamp", std::to_string(clock.nowMs()));
  }
  store::StoreSnapshot snapshot;
  uint64_t epoch = 0;
  if (store) SPINDLE_RETURN_IF_ERROR(openStore(*store, conf, snapshot, epoch));
  // The scheduler hands the NM heartbeat interval out; the RM's setting is the same key.
  std::unique_ptr<RmCore> core(new RmCore(settings, conf, clock, std::move(schedulerAddress)));
  auto driver = Driver::create(core->conf_, clock, core->rng_);
  if (!driver) return driver.status();
  core->driver_ = std::move(*driver);
  core->activities_ = std::make_unique<ActivitiesRecorder>();
  core->attachDecisionStore();
  // Both the activities endpoints and the web UI's decision store hear every decision.
  core->decisionSinks_.add(core->activities_.get());
  core->decisionSinks_.add(core->decisionSink_.get());
  core->driver_->setDecisionSink(&core->decisionSinks_);
  auto groups = GroupsProvider::fromConfig(core->conf_);
  if (!groups) return groups.status();
  core->groups_ = std::move(*groups);
  SPINDLE_RETURN_IF_ERROR(core->loadHostLists());
  // RackResolver.init: the DNSToSwitchMapping of net.topology.node.switch.mapping.impl, wrapped
  // in CachedDNSToSwitchMapping (an unknown implementation stops the RM).
  auto topology = topology::TopologySettings::fromConfiguration(core->conf_);
  if (!topology) return topology.status();
  auto warn = [](const std::string& w) { SPINDLE_LOG_WARN("rack topology: {}", w); };
  core->racks_ =
      std::make_shared<topology::RackResolver>(topology::createMapping(*topology, warn), warn);
  if (store) {
    core->store_ = std::move(store);
    core->epoch_ = epoch;
    SPINDLE_RETURN_IF_ERROR(core->recover(snapshot));
    core->flush();
  }
  return core;
}

RmCore::RmApp* RmCore::findApp(AppId id) {
  auto it = apps_.find(id);
  return it == apps_.end() ? nullptr : it->second.get();
}

const RmCore::RmApp* RmCore::findApp(AppId id) const {
  auto it = apps_.find(id);
  return it == apps_.end() ? nullptr : it->second.get();
}

bool RmCore::appLive(AppId id) const {
  const Application* a = sched().findApp(id);
  return a != nullptr && !isFinal(a->state());
}

std::vector<AmLaunch> RmCore::takeLaunches() {
  std::vector<AmLaunch> out;
  out.swap(launches_);
  return out;
}

void RmCore::addCleanup(NodeId node, const std::string& containerId) {
  if (!node.valid()) return;
  auto it = nodes_.find(sched().cluster().nodeName(node));
  if (it != nodes_.end() && isActive(it->second->state)) {
    it->second->toCleanup.push_back(containerId);
  }
}

// --- Outcomes ---------------------------------------------------------------------------------

void RmCore::apply(const Outcome& out) {
  struct FailedAttempt {
    AppId app;
    std::string why;
    int32_t amExitStatus;
  };
  std::vector<FailedAttempt> failedAttempts;
  for (const ContainerChange& c : out.containers) {
    RmApp* app = findApp(c.app());
    const std::string cid = sched().containerIdString(c.id);
    switch (c.action) {
      case ContainerAction::kAllocated: {
        if (app == nullptr) break;
        const std::string& nodeName = sched().cluster().nodeName(c.node);
        auto n = nodes_.find(nodeName);
        const std::string http = n != nodes_.end() ? n->second->httpAddress : "";
        if (placingRecovered_) {
          // A recovered container runs already; its AM has it (nothing to launch or hand out).
          if (c.am) {
            app->amContainer = c.id;
            app->amNodeHttpAddress = http;
            app->lastAmContact = clock_.nowMs();
          }
          break;
        }
        if (c.am) {
          markDirty(app->id);
          app->amContainer = c.id;
          app->amNodeHttpAddress = http;
          if (!app->attempts.empty()) {
            AttemptRecord& at = app->attempts.back();
            at.amContainerId = cid;
            at.nodeId = nodeName;
            at.nodeHttpAddress = http;
            at.state = "ALLOCATED";
          }
          app->lastAmContact = clock_.nowMs();
          AmLaunch launch;
          launch.nodeHttpAddress = http;
          protocol::StartContainerRequest start;
          start.containerId = cid;
          start.resource = {c.resource.memoryMb(), c.resource.vcores()};
          start.containerLaunchContext = app->ctx.amContainerSpec;
          auto& env = start.containerLaunchContext.environment;
          env["SPINDLE_RM_ADDRESS"] = schedulerAddress_;
          env["APP_SUBMIT_TIME_ENV"] =
              std::to_string(sched().findApp(c.app()) ? sched().findApp(c.app())->submitTime() : 0);
          launch.request.startContainerRequest.push_back(std::move(start));
          launches_.push_back(std::move(launch));
          SPINDLE_LOG_INFO("AM container {} allocated on {}", cid, nodeName);
        } else {
          app->newlyAllocated.push_back({cid,
                                         nodeName,
                                         http,
                                         {c.resource.memoryMb(), c.resource.vcores()},
                                         c.key.priority,
                                         c.key.allocationRequestId});
        }
        break;
      }
      case ContainerAction::kCompleted:
      case ContainerAction::kReleased:
      case ContainerAction::kKilled: {
        if (c.action != ContainerAction::kCompleted) addCleanup(c.node, cid);
        std::string diag;
        if (auto d = nodeDiagnostics_.find(c.id); d != nodeDiagnostics_.end()) {
          diag = std::move(d->second);
          nodeDiagnostics_.erase(d);
        } else if (c.exitStatus == ContainerExitStatus::ABORTED) {
          diag = "Container released on a *lost* node";
        } else if (c.action == ContainerAction::kReleased) {
          diag = "Container released by application";
        } else if (c.action == ContainerAction::kKilled) {
          diag = "Container killed by the ResourceManager";
        }
        if (c.exitStatus == ContainerExitStatus::ABORTED) {
          SPINDLE_LOG_INFO("container {} on {} ended ABORTED ({})", cid,
                           sched().cluster().nodeName(c.node), c.exitStatus);
        }
        if (app == nullptr) break;
        if (c.am) {
          if (app->amContainer == c.id) app->amContainer.reset();
          if (!app->unregistered && appLive(c.app())) {
            failedAttempts.push_back({c.app(),
                                      fmt::format("AM Container for {} exited with exitCode: {}{}",
                                                  sched().attemptIdString(c.id.attempt),
                                                  c.exitStatus, diag.empty() ? "" : ". " + diag),
                                      c.exitStatus});
          }
        } else if (c.id.attempt.attempt == app->attempt ||
                   app->ctx.keepContainersAcrossApplicationAttempts) {
          // A container kept from an earlier attempt (keep-containers-across-application-
          // attempts) reports to the current AM, which received it at registration (YARN
          // transfers it to the new attempt with its completion).
          app->completed.push_back(
              {cid, protocol::ContainerState::COMPLETE, c.exitStatus, std::move(diag)});
        }
        break;
      }
      case ContainerAction::kPreemptionMarked: break;
    }
  }
  for (const AppChange& a : out.apps) {
    RmApp* app = findApp(a.app);
    if (app == nullptr) continue;
    markDirty(a.app);
    if (a.action == AppAction::kRejected) app->diagnostics = a.reason;
    if (a.action == AppAction::kFinished) {
      SPINDLE_LOG_INFO("{} finished: {}", sched().appIdString(a.app), toString(a.finalState));
    }
  }
  for (const std::string& id : out.reservationsReplanned) markReservationDirty(id);
  for (const std::string& id : out.reservationsArchived) markReservationDirty(id);
  for (const RejectedSchedulingRequest& r : out.rejectedSchedulingRequests) {
    // Returned to the AM with its next allocate response (RejectedSchedulingRequest), the
    // request as the AM sent it with the allocations that were rejected.
    RmApp* app = findApp(r.app);
    if (app == nullptr) continue;
    protocol::RejectedSchedulingRequestRecord rec;
    rec.reason = toString(r.reason);
    rec.message = r.message;
    auto sent = app->schedulingRequests.find({r.request.priority, r.request.allocationRequestId});
    if (sent != app->schedulingRequests.end()) rec.request = sent->second;
    rec.request.allocationRequestId = r.request.allocationRequestId;
    rec.request.priority = r.request.priority;
    rec.request.allocationTags = r.request.allocationTags;
    if (r.request.sizing) {
      rec.request.resourceSizing = protocol::ResourceSizingRecord{
          r.request.sizing->numAllocations,
          {r.request.sizing->resource.memoryMb(), r.request.sizing->resource.vcores()}};
    }
    SPINDLE_LOG_INFO("{}: SchedulingRequest {} rejected ({}): {}", sched().appIdString(r.app),
                     r.request.allocationRequestId, rec.reason, r.message);
    app->rejected.push_back(std::move(rec));
  }
  for (const FailedAttempt& f : failedAttempts) failAttempt(f.app, f.why, f.amExitStatus);
}

void RmCore::failAttempt(AppId id, const std::string& why, int32_t amExitStatus) {
  RmApp* app = findApp(id);
  const Application* a = sched().findApp(id);
  if (app == nullptr || a == nullptr || isFinal(a->state())) return;
  markDirty(id);
  const int32_t max = app->ctx.maxAppAttempts > 0
                          ? std::min(app->ctx.maxAppAttempts, settings_.maxAppAttempts)
                          : settings_.maxAppAttempts;
  SPINDLE_LOG_INFO("{}: {}", sched().attemptIdString(a->attemptId()), why);
  if (a->amRunning()) {
    // The AM is still running (an expired attempt): its container ends first.
    const ContainerId am = *a->amContainer();
    const Container* c = sched().findContainer(am);
    if (c != nullptr) addCleanup(c->node, sched().containerIdString(am));
    auto out =
        driver_->handle(ContainerFinished{am, ContainerExitStatus::KILLED_BY_RESOURCEMANAGER});
    app->unregistered = true;  // the container's completion must not fail the attempt twice
    if (out) apply(*out);
    app->unregistered = false;
  }
  app->endAttempt("FAILED", clock_.nowMs(), why);
  if (!app->attempts.empty()) app->attempts.back().amContainerExitStatus = amExitStatus;
  const auto failures = static_cast<int32_t>(
      std::count_if(app->attempts.begin(), app->attempts.end(),
                    [](const AttemptRecord& r) { return r.countsTowardsMaxAttempts(); }));
  if (failures >= max) {
    app->diagnostics = fmt::format("Application {} failed {} times due to {}",
                                   sched().appIdString(id), failures, why);
    app->finalStatus = protocol::FinalApplicationStatus::FAILED;
    auto out = driver_->handle(AppRemoved{id, AppState::FAILED});
    if (out) apply(*out);
    return;
  }
  app->diagnostics = why;
  // The RM has counted the failures above; the scheduler starts the attempt regardless.
  auto out = driver_->restartAttempt(id, /*countsAsFailure=*/false,
                                     app->ctx.keepContainersAcrossApplicationAttempts);
  if (!out) {
    SPINDLE_LOG_ERROR("{}: cannot start a new attempt: {}", sched().appIdString(id),
                      out.status().message());
    return;
  }
  const Outcome copy = *out;
  app->attempt = sched().findApp(id)->attempt();
  app->attempts.push_back(AttemptRecord::started(app->attempt, clock_.nowMs()));
  app->registered = false;
  app->recovered = false;
  app->lastResponse.reset();
  app->newlyAllocated.clear();
  app->rejected.clear();
  app->schedulingRequests.clear();
  app->completed.clear();
  apply(copy);
}

// --- ResourceTracker --------------------------------------------------------------------------

protocol::RegisterNodeManagerResponse RmCore::registerNode(
    const protocol::RegisterNodeManagerRequest& r, const std::optional<std::string>& rack) {
  FlushOnReturn flushOnReturn(*this);
  protocol::RegisterNodeManagerResponse resp;
  resp.rmIdentifier = sched().settings().clusterTimestamp;
  resp.rmVersion = SPINDLE_VERSION;
  resp.resource = r.resource;
  if (!hostAllowed(r.nodeId)) {
    // ResourceTrackerService.registerNodeManager: a host the include / exclude files refuse.
    resp.nodeAction = NodeAction::SHUTDOWN;
    resp.diagnosticsMessage = "Disallowed NodeManager from  " +
                              r.nodeId.substr(0, r.nodeId.rfind(':')) +
                              ", Sending SHUTDOWN signal to the NodeManager.";
    SPINDLE_LOG_INFO("{}", resp.diagnosticsMessage);
    return resp;
  }
  auto it = nodes_.find(r.nodeId);
  if (it != nodes_.end() && inScheduler(it->second->state)) {
    // A reconnecting node (YARN's RMNodeReconnectEvent without work preservation): what it ran
    // before is gone.
    SPINDLE_LOG_INFO("node {} registers again: its previous containers end", r.nodeId);
    auto out = driver_->handle(NodeRemoved{r.nodeId});
    if (out) apply(*out);
  }
  // Distributed attributes the RM refuses leave the node without them (YARN's
  // ResourceTrackerService answers areNodeAttributesAcceptedByRM = false and registers it).
  const std::string host = r.nodeId.substr(0, r.nodeId.rfind(':'));
  std::vector<protocol::NodeAttributeRecord> distributed = r.nodeAttributes;
  if (Status st = checkDistributed(distributed); !st.isOk()) {
    resp.areNodeAttributesAcceptedByRM = false;
    resp.diagnosticsMessage = "node attributes not accepted: " + st.message();
    SPINDLE_LOG_WARN("node {}: {}", r.nodeId, resp.diagnosticsMessage);
    distributed.clear();
  }
  // Labels the RM refuses (outside distributed node-label configuration, or unknown to the
  // cluster) leave the node without them (YARN's ResourceTrackerService answers
  // areNodeLabelsAcceptedByRM = false and registers it).
  auto refuseLabels = [&](const std::string& why) {
    resp.areNodeLabelsAcceptedByRM = false;
    resp.diagnosticsMessage += (resp.diagnosticsMessage.empty() ? "" : "; ") + why;
    SPINDLE_LOG_WARN("node {}: {}", r.nodeId, why);
  };
  std::vector<std::string> labels = r.nodeLabels;
  if (std::string why = nodeReportedLabelsRefusal(); !why.empty() && !labels.empty()) {
    refuseLabels(why);
    labels.clear();
  }
  // ResourceTrackerService.registerNodeManager: the node's rack is RackResolver.resolve(host).
  NodeAdded added{r.nodeId, rack ? *rack : racks_->resolve(host),
                  Resource::of(r.resource.memory, r.resource.vCores), labels,
                  registrationAttributes(host, distributed)};
  auto out = driver_->handle(added);
  if (!out && !added.labels.empty()) {
    refuseLabels("node labels not accepted: " + out.status().message());
    added.labels.clear();
    out = driver_->handle(added);
  }
  if (!out) {
    resp.nodeAction = NodeAction::SHUTDOWN;
    resp.diagnosticsMessage = "node " + r.nodeId + " refused: " + out.status().message();
    SPINDLE_LOG_WARN("{}", resp.diagnosticsMessage);
    if (it != nodes_.end()) it->second->state = RmNodeState::LOST;
    return resp;
  }
  const Outcome copy = *out;
  auto n = std::make_unique<RmNode>();
  n->nodeId = r.nodeId;
  n->host = r.nodeId.substr(0, r.nodeId.rfind(':'));
  n->rack = added.rack;
  n->httpAddress = (r.httpHost.empty() ? n->host : r.httpHost) + ":" + std::to_string(r.httpPort);
  n->sched = *sched().cluster().findNode(r.nodeId);
  n->total = r.resource;
  n->labels = added.labels;
  n->distributed = std::move(distributed);
  n->registeredAt = n->lastHeartbeat = n->lastHealthUpdate = clock_.nowMs();
  n->lastResponse.responseId = 0;
  n->lastResponse.nextHeartBeatInterval = settings_.nmHeartbeatIntervalMs;
  RmNode& fresh = *n;
  nodes_[r.nodeId] = std::move(n);
  apply(copy);
  // The containers the NM still runs (YARN-556): recovered after an RM restart, else stopped.
  recoverContainers(fresh, r.containerStatuses);
  SPINDLE_LOG_INFO("node {} registered on rack {} with <memory:{}, vCores:{}>", r.nodeId,
                   fresh.rack, r.resource.memory, r.resource.vCores);
  return resp;
}

Result<protocol::NodeHeartbeatResponse> RmCore::nodeHeartbeat(
    const protocol::NodeHeartbeatRequest& r) {
  FlushOnReturn flushOnReturn(*this);
  const protocol::NodeStatus& st = r.nodeStatus;
  auto it = nodes_.find(st.nodeId);
  if (it != nodes_.end() && it->second->state == RmNodeState::DECOMMISSIONED) {
    protocol::NodeHeartbeatResponse shutdown;
    shutdown.nodeAction = NodeAction::SHUTDOWN;
    shutdown.diagnosticsMessage = it->second->shutdownMessage;
    return shutdown;
  }
  if (it == nodes_.end() || !isActive(it->second->state)) {
    protocol::NodeHeartbeatResponse resync;
    resync.nodeAction = NodeAction::RESYNC;
    resync.nextHeartBeatInterval = settings_.nmHeartbeatIntervalMs;
    resync.diagnosticsMessage =
        it == nodes_.end() ? "node " + st.nodeId + " is not registered: register again"
                           : "node " + st.nodeId + " was declared LOST (no heartbeat within " +
                                 std::to_string(settings_.nmExpiryMs) + " ms): register again";
    return resync;
  }
  RmNode& n = *it->second;
  if (st.responseId + 1 == n.lastResponse.responseId) return n.lastResponse;  // a repeat
  if (st.responseId != n.lastResponse.responseId) {
    protocol::NodeHeartbeatResponse resync;
    resync.nodeAction = NodeAction::RESYNC;
    resync.nextHeartBeatInterval = settings_.nmHeartbeatIntervalMs;
    resync.diagnosticsMessage = fmt::format("too far behind: responseId {}, the RM expected {}",
                                            st.responseId, n.lastResponse.responseId);
    return resync;
  }
  // Validate every status before anything changes.
  std::vector<CompletedContainer> completed;
  std::vector<protocol::ContainerStatus> unknownRunning;
  for (size_t i = 0; i < st.containersStatuses.size(); ++i) {
    const protocol::ContainerStatus& cs = st.containersStatuses[i];
    auto id = sched().parseContainerId(cs.containerId);
    if (!id) {
      return invalidArgument("NodeHeartbeatRequest.nodeStatus.containersStatuses[{}]: {}", i,
                             id.status().message());
    }
    const Container* c = sched().findContainer(*id);
    const bool here = c != nullptr && c->node == n.sched;
    if (cs.state == protocol::ContainerState::COMPLETE) {
      if (here) {
        completed.push_back({*id, cs.exitStatus});
        if (!cs.diagnostics.empty()) nodeDiagnostics_[*id] = cs.diagnostics;
      }
    } else if (!here) {
      unknownRunning.push_back(cs);  // recovered (an earlier epoch's), else stopped
    }
  }
  // Distributed attributes, when the node reports a change (NodeHeartbeatRequest.nodeAttributes;
  // YARN's ResourceTrackerService.updateNodeAttributesIfNecessary).
  std::string attributesRefused;
  if (r.nodeAttributes && *r.nodeAttributes != n.distributed) {
    Status st = checkDistributed(*r.nodeAttributes);
    if (st.isOk()) {
      NodeAttributesUpdate u;
      u.distributed = true;
      std::vector<placement::NodeAttribute> attrs;
      for (const protocol::NodeAttributeRecord& a : *r.nodeAttributes) {
        attrs.push_back({a.attributePrefix, a.attributeName, placement::NodeAttributeType::kString,
                         a.attributeValue});
      }
      u.nodes.push_back({n.nodeId, std::move(attrs)});
      auto out = driver_->updateNodeAttributes(u);
      st = out.status();
    }
    if (st.isOk()) {
      n.distributed = *r.nodeAttributes;
      SPINDLE_LOG_INFO("node {}: distributed attributes updated", n.nodeId);
    } else {
      attributesRefused = "node attributes not accepted: " + st.message();
      SPINDLE_LOG_WARN("node {}: {}", n.nodeId, attributesRefused);
    }
  }
  // NodeHeartbeatRequest.nodeLabels (ResourceTrackerService.nodeHeartbeat, distributed
  // configuration only).
  const std::string labelsRefused = r.nodeLabels ? applyReportedLabels(n, *r.nodeLabels) : "";
  if (!labelsRefused.empty()) SPINDLE_LOG_WARN("node {}: {}", n.nodeId, labelsRefused);
  const TimeMs now = clock_.nowMs();
  n.lastHeartbeat = now;
  if (n.healthReport != st.nodeHealthStatus.healthReport) n.lastHealthUpdate = now;
  n.healthReport = st.nodeHealthStatus.healthReport;
  if (st.containersUtilization) n.containersUtilization = st.containersUtilization;
  if (st.nodeUtilization) n.nodeUtilization = st.nodeUtilization;
  updateHealth(n, st.nodeHealthStatus);
  if (n.state == RmNodeState::DECOMMISSIONING && !completed.empty()) {
    // AbstractYarnScheduler.nodeUpdate: what the completed containers free is taken out of the
    // node's total before it is scheduled, so nothing new lands on a decommissioning node.
    Resource left = sched().cluster().node(n.sched).allocated();
    for (const CompletedContainer& c : completed) {
      if (const Container* k = sched().findContainer(c.id)) left = left - k->resource;
    }
    auto out = driver_->handle(NodeResourceUpdate{n.nodeId, left});
    if (out) apply(*out);
  }
  if (inSchedulingWait()) {
    // Nothing new is allocated yet (scheduling-wait-ms): completions only.
    for (const CompletedContainer& c : completed) {
      auto out = driver_->handle(ContainerFinished{c.id, c.exitStatus});
      if (out) apply(*out);
    }
  } else if (inScheduler(n.state) &&
             (!completed.empty() || !driver_->emptyHeartbeatIsNoop(n.sched))) {
    auto out = driver_->heartbeat(n.sched, completed);
    if (!out) return out.status();
    apply(*out);
  }
  // A container the RM does not know: one an AM started after its NM re-registered is
  // recovered like those reported at registration; any other is stopped.
  recoverContainers(n, unknownRunning);
  if (n.state == RmNodeState::DECOMMISSIONING) {
    if (auto ready = afterDecommissioningHeartbeat(n)) {
      protocol::NodeHeartbeatResponse shutdown;
      shutdown.nodeAction = NodeAction::SHUTDOWN;
      shutdown.diagnosticsMessage = *ready;
      return shutdown;
    }
  }
  protocol::NodeHeartbeatResponse resp;
  resp.responseId = n.lastResponse.responseId + 1;
  resp.nodeAction = NodeAction::NORMAL;
  resp.nextHeartBeatInterval = settings_.nmHeartbeatIntervalMs;
  resp.containersToCleanup.swap(n.toCleanup);
  if (!attributesRefused.empty()) {
    resp.areNodeAttributesAcceptedByRM = false;
    resp.diagnosticsMessage = attributesRefused;
  }
  if (!labelsRefused.empty()) {
    resp.areNodeLabelsAcceptedByRM = false;
    resp.diagnosticsMessage += (resp.diagnosticsMessage.empty() ? "" : "; ") + labelsRefused;
  }
  n.lastResponse = resp;
  return resp;
}

// RMAppImpl.processNodeUpdate: every live app's AM hears of the node on its next allocate
// (AllocateResponse.updatedNodes), the latest report per node. RMNodeImpl reports a node
// NODE_UNUSABLE when it turns UNHEALTHY, LOST or DECOMMISSIONED, NODE_USABLE when it is healthy
// again and NODE_DECOMMISSIONING, with the seconds left, when a graceful decommission starts
// (NodesListManager, RMAppNodeUpdateEvent); Spindle also reports a recommissioned node
// NODE_USABLE. A node that registers is not reported (docs/compatibility.md).
void RmCore::reportNodeUpdate(const RmNode& n, const char* updateType) {
  protocol::NodeReport r;
  r.nodeId = n.nodeId;
  r.nodeState = toString(n.state);
  r.nodeUpdateType = updateType;
  if (n.state == RmNodeState::DECOMMISSIONING && n.decommissionDeadline >= 0) {
    const int64_t leftMs = std::max<int64_t>(0, n.decommissionDeadline - clock_.nowMs());
    r.decommissioningTimeout =
        static_cast<int32_t>(std::min<int64_t>(leftMs / 1000, std::numeric_limits<int32_t>::max()));
  }
  r.httpAddress = n.httpAddress;
  r.capability = n.total;
  r.healthReport = n.healthReport;
  r.lastHealthReportTime = n.lastHealthUpdate;
  r.nodeLabels = n.labels;
  if (sched().cluster().contains(n.sched)) {
    const Node& node = sched().cluster().node(n.sched);
    r.used = {node.allocated().memoryMb(), node.allocated().vcores()};
    r.numContainers = static_cast<int32_t>(node.containers().size());
  }
  for (auto& [id, app] : apps_) {
    if (appLive(id)) app->updatedNodes[n.nodeId] = r;
  }
}

void RmCore::loseNode(RmNode& n, TimeMs silentMs) {
  SPINDLE_LOG_WARN("node {} LOST: no heartbeat for {} ms (expiry {} ms)", n.nodeId, silentMs,
                   settings_.nmExpiryMs);
  const bool held = inScheduler(n.state);
  n.state = RmNodeState::LOST;
  n.toCleanup.clear();
  reportNodeUpdate(n, "NODE_UNUSABLE");
  if (!held) return;
  auto out = driver_->handle(NodeRemoved{n.nodeId});
  if (out) apply(*out);
}

void RmCore::tick() {
  FlushOnReturn flushOnReturn(*this);
  const TimeMs now = clock_.nowMs();
  if (!waitEnded_ && !inSchedulingWait()) endSchedulingWait();
  for (auto& [id, n] : nodes_) {
    if (isActive(n->state) && now - n->lastHeartbeat > settings_.nmExpiryMs) {
      loseNode(*n, now - n->lastHeartbeat);
    }
  }
  tickDecommissioning(now);
  std::vector<AppId> expired;
  for (auto& [id, app] : apps_) {
    // A recovered attempt whose AM container is not reported yet is watched too (YARN
    // recovers it as LAUNCHED, under the AM liveness monitor).
    // Cheapest tests first: this runs over every app, finished ones included, at each tick.
    if (app->unregistered || now - app->lastAmContact <= settings_.amExpiryMs) continue;
    const bool watched = app->registered || app->amContainer || awaitingAm_.contains(id);
    if (watched && appLive(id)) {
      expired.push_back(id);
    }
  }
  for (AppId id : expired) {
    awaitingAm_.erase(id);
    failAttempt(id, fmt::format("ApplicationMaster for attempt {} timed out",
                                sched().attemptIdString(sched().findApp(id)->attemptId())));
  }
  auto out = driver_->runDueMonitorTick();
  if (out) apply(*out);
}

void RmCore::amLaunchFailed(const std::string& containerId, const std::string& why) {
  FlushOnReturn flushOnReturn(*this);
  auto id = sched().parseContainerId(containerId);
  if (!id || sched().findContainer(*id) == nullptr) return;
  nodeDiagnostics_[*id] = "launch failed: " + why;
  auto out = driver_->handle(ContainerFinished{*id, protocol::kInvalidExitStatus});
  if (out) apply(*out);
}

}  // namespace spindle::rm
