// RmCore: the ApplicationMasterProtocol (YARN's ApplicationMasterService).
#include <algorithm>

#include "base/log.h"
#include "placement/spec_parser.h"
#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

namespace {

// A constraint in its PlacementSpec expression form; the error names `where`.
Result<placement::PlacementConstraint> constraintOf(const std::string& spec,
                                                    const std::string& where) {
  auto c = placement::parseExpression(spec);
  if (!c) return c.status().withContext(where);
  return std::move(*c);
}

Result<SchedulingRequest> schedulingRequestOf(const protocol::SchedulingRequestRecord& r,
                                              size_t i) {
  SchedulingRequest s;
  s.allocationRequestId = r.allocationRequestId;
  s.priority = r.priority;
  s.executionType = r.executionType == "OPPORTUNISTIC" ? RequestExecutionType::kOpportunistic
                                                       : RequestExecutionType::kGuaranteed;
  s.allocationTags = r.allocationTags;
  if (r.resourceSizing) {
    s.sizing = ResourceSizing{
        r.resourceSizing->numAllocations,
        Resource::of(r.resourceSizing->resources.memory, r.resourceSizing->resources.vCores)};
  }
  if (!r.placementConstraint.empty()) {
    SPINDLE_ASSIGN_OR_RETURN(
        s.constraint,
        constraintOf(r.placementConstraint,
                     fmt::format("AllocateRequest.schedulingRequests[{}].placementConstraint", i)));
  }
  return s;
}

}  // namespace

Result<RmCore::RmApp*> RmCore::attemptFor(const std::string& attemptId, bool allowFinished) {
  auto parsed = protocol::parseAttemptId(attemptId);
  if (!parsed) return parsed.status();
  if (parsed->app.clusterTimestamp != sched().settings().clusterTimestamp) {
    return notFound("application attempt {} is not of this cluster (timestamp {})", attemptId,
                    sched().settings().clusterTimestamp);
  }
  RmApp* app = findApp(AppId(parsed->app.seq));
  if (app == nullptr) return notFound("application attempt {} does not exist", attemptId);
  if (!allowFinished && !appLive(app->id)) {
    return failedPrecondition("application attempt {} has finished: its application is {}",
                              attemptId, toString(sched().findApp(app->id)->state()));
  }
  if (parsed->attempt != app->attempt) {
    return failedPrecondition("application attempt {} is not the current attempt (attempt {})",
                              attemptId, app->attempt);
  }
  return app;
}

Result<protocol::RegisterApplicationMasterResponse> RmCore::registerAm(
    const protocol::RegisterApplicationMasterRequest& r) {
  FlushOnReturn flushOnReturn(*this);
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, attemptFor(r.applicationAttemptId));
  if (app->registered) {
    return failedPrecondition("Application Master is already registered : {}",
                              r.applicationAttemptId);
  }
  if (!r.placementConstraints.empty()) {
    // The AM's constraints per source tags (PlacementConstraintManager); the `disabled`
    // handler refuses them and the registration fails, as YARN's processor chain does.
    RegisterApplicationMaster reg;
    reg.app = app->id;
    for (size_t i = 0; i < r.placementConstraints.size(); ++i) {
      const protocol::PlacementConstraintEntry& e = r.placementConstraints[i];
      SPINDLE_ASSIGN_OR_RETURN(
          placement::PlacementConstraint c,
          constraintOf(e.placementConstraint,
                       fmt::format("RegisterApplicationMasterRequest.placementConstraints[{}]."
                                   "placementConstraint",
                                   i)));
      reg.placementConstraints.emplace_back(e.allocationTags, std::move(c));
    }
    auto out = driver_->handle(reg);
    if (!out) return out.status();
    apply(*out);
  }
  app->registered = true;
  app->recovered = false;
  markDirty(app->id);
  if (!app->attempts.empty()) app->attempts.back().state = "RUNNING";
  app->amHost = r.host;
  app->amRpcPort = r.rpcPort;
  app->trackingUrl = r.trackingUrl;
  app->lastAmContact = clock_.nowMs();
  protocol::RegisterApplicationMasterResponse resp;
  const Resource& max = sched().settings().bounds.maximum;
  resp.maximumCapability = {max.memoryMb(), max.vcores()};
  const Application& a = *sched().findApp(app->id);
  resp.queue = a.queue();
  // keep-containers-across-application-attempts: the earlier attempts' running containers
  // (ApplicationMasterService.registerApplicationMaster's containersFromPreviousAttempts).
  if (app->ctx.keepContainersAcrossApplicationAttempts) {
    for (ContainerId id : a.liveContainers()) {
      if (id.attempt.attempt >= a.attempt()) continue;
      const Container* c = sched().findContainer(id);
      if (c == nullptr) continue;
      protocol::Container pc;
      pc.id = sched().containerIdString(id);
      pc.nodeId = sched().cluster().nodeName(c->node);
      if (auto n = nodes_.find(pc.nodeId); n != nodes_.end()) {
        pc.nodeHttpAddress = n->second->httpAddress;
      }
      pc.resource = {c->resource.memoryMb(), c->resource.vcores()};
      pc.priority = c->key.priority;
      pc.allocationRequestId = c->key.allocationRequestId;
      resp.containersFromPreviousAttempts.push_back(std::move(pc));
    }
  }
  return resp;
}

Result<protocol::AllocateResponse> RmCore::allocate(const protocol::AllocateRequest& r) {
  FlushOnReturn flushOnReturn(*this);
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, attemptFor(r.applicationAttemptId));
  if (!app->registered && app->recovered) {
    // The AM registered with the RM before a restart: AMCommand.AM_RESYNC tells it to register
    // again and re-send its asks (ApplicationMasterService after a work-preserving restart).
    app->lastAmContact = clock_.nowMs();
    protocol::AllocateResponse resync;
    resync.amCommand = protocol::AMCommand::AM_RESYNC;
    return resync;
  }
  if (!app->registered) {
    return failedPrecondition(
        "AM is not registered for known application attempt: {} or RM had restarted after AM "
        "registered. AM should re-register.",
        r.applicationAttemptId);
  }
  app->lastAmContact = clock_.nowMs();
  // responseId: the previous id repeats the last call (answered again, applied once); any other
  // mismatch is a stale or forged call (ApplicationMasterService's check).
  const int32_t expected = app->lastResponse ? app->lastResponse->responseId : 0;
  if (app->lastResponse && r.responseId + 1 == expected) return *app->lastResponse;
  if (r.responseId != expected) {
    return invalidArgument(
        "Invalid responseId in AllocateRequest from application attempt: {}, expect responseId "
        "to be {}, but get {}",
        r.applicationAttemptId, expected, r.responseId);
  }
  AppAllocate event;
  event.app = app->id;
  for (const protocol::ResourceRequest& a : r.ask) {
    event.asks.push_back({{a.priority, a.allocationRequestId},
                          a.resourceName,
                          Resource::of(a.capability.memory, a.capability.vCores),
                          a.numContainers,
                          a.relaxLocality,
                          a.nodeLabelExpression});
  }
  for (size_t i = 0; i < r.release.size(); ++i) {
    auto id = sched().parseContainerId(r.release[i]);
    if (!id) return invalidArgument("AllocateRequest.release[{}]: {}", i, id.status().message());
    if (id->app() != app->id) {
      return invalidArgument("AllocateRequest.release[{}]: {} is not a container of {}", i,
                             r.release[i], sched().appIdString(app->id));
    }
    const Application* a = sched().findApp(app->id);
    if (a != nullptr && !a->liveContainers().contains(*id)) {
      // Unknown or already finished: not an error (AbstractYarnScheduler.releaseContainers).
      // Within the NM expiry interval of a restart an NM may yet report it: remember it.
      if (recoveredAt_ && clock_.nowMs() - *recoveredAt_ < settings_.nmExpiryMs) {
        SPINDLE_LOG_INFO(
            "{}: released container {} is not known yet; it is stopped if a "
            "NodeManager reports it",
            sched().appIdString(app->id), r.release[i]);
        app->pendingRelease.insert(*id);
      } else {
        SPINDLE_LOG_INFO("{}: released container {} is not running; nothing to release",
                         sched().appIdString(app->id), r.release[i]);
      }
      continue;
    }
    event.releases.push_back(*id);
  }
  event.blacklistAdd = r.blacklistRequest.blacklistAdditions;
  event.blacklistRemove = r.blacklistRequest.blacklistRemovals;
  for (size_t i = 0; i < r.schedulingRequests.size(); ++i) {
    SPINDLE_ASSIGN_OR_RETURN(SchedulingRequest s, schedulingRequestOf(r.schedulingRequests[i], i));
    event.schedulingRequests.push_back(std::move(s));
  }
  auto out = driver_->handle(event);
  if (!out) return out.status();
  for (const protocol::SchedulingRequestRecord& s : r.schedulingRequests) {
    app->schedulingRequests[{s.priority, s.allocationRequestId}] = s;
  }
  apply(*out);
  app->progress = r.progress;
  protocol::AllocateResponse resp;
  resp.responseId = expected + 1;
  resp.allocatedContainers.swap(app->newlyAllocated);
  resp.completedContainerStatuses.swap(app->completed);
  resp.rejectedSchedulingRequests.swap(app->rejected);
  for (auto& [id, report] : app->updatedNodes) resp.updatedNodes.push_back(std::move(report));
  app->updatedNodes.clear();
  if (auto h = sched().headroom(app->id)) resp.limit = {h->memoryMb(), h->vcores()};
  resp.numClusterNodes = static_cast<int32_t>(sched().cluster().numNodes());
  for (ContainerId c : sched().preemptionMessage(app->id).containers) {
    resp.preemptContainers.push_back(sched().containerIdString(c));
  }
  app->lastResponse = resp;
  return resp;
}

Result<protocol::FinishApplicationMasterResponse> RmCore::finishAm(
    const protocol::FinishApplicationMasterRequest& r) {
  FlushOnReturn flushOnReturn(*this);
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, attemptFor(r.applicationAttemptId, true));
  if (app->unregistered) return protocol::FinishApplicationMasterResponse{true};  // a repeat
  if (!appLive(app->id)) {
    return failedPrecondition("application attempt {} has finished: its application is {}",
                              r.applicationAttemptId, toString(sched().findApp(app->id)->state()));
  }
  // A recovered AM unregistering before its next allocate (the RM restarted while the AM was
  // finishing) registered with the previous RM: its finish is taken.
  if (!app->registered && !app->recovered) {
    return failedPrecondition(
        "Application Master is trying to unregister before registering for: {}",
        r.applicationAttemptId);
  }
  app->unregistered = true;
  markDirty(app->id);
  app->finalStatus = r.finalApplicationStatus;
  app->diagnostics = r.diagnostics;
  if (!r.trackingUrl.empty()) app->trackingUrl = r.trackingUrl;
  app->progress = 1;
  // YARN keeps the app FINISHING until the AM container exits; here it finishes at once and
  // the AM container is cleaned up on its node (docs/compatibility.md).
  const AppState state = r.finalApplicationStatus == protocol::FinalApplicationStatus::KILLED
                             ? AppState::KILLED
                             : AppState::FINISHED;
  app->endAttempt(state == AppState::KILLED ? "KILLED" : "FINISHED", clock_.nowMs(), r.diagnostics);
  auto out = driver_->handle(AppRemoved{app->id, state});
  if (!out) return out.status();
  apply(*out);
  return protocol::FinishApplicationMasterResponse{true};
}

}  // namespace spindle::rm
