// The Scheduler's side of SchedulingRequests: checking an allocate call's requests, handing
// them to the configured handler, AM registration of placement constraints, rejections, and the
// lazily created placement state. The placement processor itself is placement_processor.cc.
#include <fmt/format.h>

#include "placement/evaluator.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {

namespace {

// The YARN class name an operator configured (the disabled-handler messages name it).
std::string_view yarnClassOf(std::string_view typeName) {
  if (typeName == "capacityScheduler") {
    return "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler";
  }
  if (typeName == "fairScheduler") {
    return "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler";
  }
  return "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler";
}

// Everything but numAllocations (SingleConstraintAppPlacementAllocator's update rule).
bool sameButCount(const SchedulingRequest& a, const SchedulingRequest& b) {
  return a.executionType == b.executionType && a.allocationTags == b.allocationTags &&
         a.constraint == b.constraint && a.sizing.has_value() == b.sizing.has_value() &&
         (!a.sizing || a.sizing->resource == b.sizing->resource);
}

std::string describe(const SchedulingRequest& r) {
  return fmt::format(
      "{{allocationRequestId={}, priority={}, tags=[{}], numAllocations={}, "
      "constraint={}}}",
      r.allocationRequestId, r.priority, fmt::join(r.allocationTags, ","),
      r.sizing ? r.sizing->numAllocations : 0, r.constraint ? r.constraint->toString() : "null");
}

}  // namespace

SchedulerPlacement& Scheduler::ensurePlacement() {
  if (!placement_) {
    placement_ = std::make_unique<SchedulerPlacement>(cluster_);
    for (const auto& [tag, c] : settings_.placement.globalConstraints) {
      placement_->addGlobalConstraint(tag, c);
    }
    for (const auto& [id, a] : apps_) {
      if (!a->submission().applicationTags.empty()) {
        placement_->setApplicationTags(id, a->submission().applicationTags);
      }
    }
    nodeFilter_.setPlacementCheck(placement_.get());
  }
  return *placement_;
}

Status Scheduler::onRegisterApplicationMaster(const RegisterApplicationMaster& e) {
  SPINDLE_ASSIGN_OR_RETURN(Application * a, liveApp(e.app));
  if (e.placementConstraints.empty()) return Status::ok();
  if (settings_.placement.handler == PlacementHandler::kDisabled) {
    // ApplicationMasterService with DisabledPlacementProcessor.
    return failedPrecondition(
        "Found non empty placement constraints map in RegisterApplicationMasterRequest for "
        "application={}, but the configured "
        "yarn.resourcemanager.placement-constraints.handler cannot handle placement constraints. "
        "Rejecting this registerApplicationMaster operation",
        attemptIdString(a->attemptId()));
  }
  for (const auto& [tags, c] : e.placementConstraints) {
    SPINDLE_RETURN_IF_ERROR(placement::validateConstraint(c).withContext(
        fmt::format("{}: placement constraint for source tags [{}]", appIdString(e.app),
                    fmt::join(tags, ","))));
  }
  ensurePlacement().registerApplication(e.app, e.placementConstraints);
  return Status::ok();
}

Status Scheduler::checkSchedulingRequests(const Application& app, const AppAllocate& e,
                                          std::vector<SchedulingRequest>& normalized) const {
  const std::string attempt = attemptIdString(app.attemptId());
  switch (settings_.placement.handler) {
    case PlacementHandler::kDisabled:
      return failedPrecondition(
          "Found non empty SchedulingRequest in AllocateRequest for application={}, but the "
          "configured yarn.resourcemanager.placement-constraints.handler cannot handle placement "
          "constraints. Rejecting this allocate operation",
          attempt);
    case PlacementHandler::kScheduler:
      if (!supportsSchedulingRequests()) {
        // SchedulerPlacementProcessor.allocate.
        return failedPrecondition(
            "Found non empty SchedulingRequest of AllocateRequest for application={}, however "
            "the configured scheduler={} cannot handle placement constraints, rejecting this "
            "allocate operation",
            attempt, yarnClassOf(typeName()));
      }
      break;
    case PlacementHandler::kPlacementProcessor: break;
  }
  const bool schedulerHandler = settings_.placement.handler == PlacementHandler::kScheduler;
  for (const SchedulingRequest& r : e.schedulingRequests) {
    const std::string who = fmt::format("{}: SchedulingRequest allocationRequestId {} priority {}",
                                        appIdString(app.id()), r.allocationRequestId, r.priority);
    if (!r.sizing) {
      return invalidArgument(
          "{}: No ResourceSizing found in the scheduling request, please "
          "double check",
          who);
    }
    if (r.executionType != RequestExecutionType::kGuaranteed) {
      return invalidArgument("{}: Only GUARANTEED execution type is supported.", who);
    }
    if (r.sizing->numAllocations < 0) {
      return invalidArgument("{}: numAllocations {} is negative", who, r.sizing->numAllocations);
    }
    if (r.priority < 0) return invalidArgument("{}: negative priority", who);
    if (Result<std::string> p = targetPartition(r); !p) {
      return invalidArgument("{}: {}", who, p.status().message());
    }
    for (const ResourceRequest& rr : e.asks) {
      if (rr.key == r.key()) {
        return invalidArgument("{}: a ResourceRequest in the same call uses its scheduler key",
                               who);
      }
    }
    const SchedulerPlacement::StoredRequest* stored =
        placement_ ? placement_->request(app.id(), r.key()) : nullptr;
    if (stored == nullptr && app.asks().find(r.key(), kAnyResourceName) != nullptr) {
      return invalidArgument("{}: the app has ResourceRequests at this scheduler key", who);
    }
    ResourceRequest any{r.key(), std::string(kAnyResourceName), r.sizing->resource, 0, true, ""};
    SPINDLE_ASSIGN_OR_RETURN(auto sized, normalizeAsks({any}, app));
    SchedulingRequest n = r;
    n.sizing->resource = sized.front().capability;
    if (schedulerHandler && stored != nullptr && stored->schedulerHandled &&
        !sameButCount(stored->request, n)) {
      return invalidArgument(
          "{}: Invalid updated SchedulingRequest added to scheduler, we only allows changing "
          "numAllocations for the updated SchedulingRequest. Old={} new={}",
          who, describe(stored->request), describe(n));
    }
    normalized.push_back(std::move(n));
  }
  for (const ResourceRequest& rr : e.asks) {
    if (placement_ && placement_->request(app.id(), rr.key) != nullptr) {
      return invalidArgument(
          "{}: ResourceRequest at priority {} allocationRequestId {}: a SchedulingRequest holds "
          "this scheduler key",
          appIdString(app.id()), rr.key.priority, rr.key.allocationRequestId);
    }
  }
  return Status::ok();
}

void Scheduler::applySchedulingRequests(Application& app, std::vector<SchedulingRequest> requests) {
  SchedulerPlacement& p = ensurePlacement();
  const bool schedulerHandler = settings_.placement.handler == PlacementHandler::kScheduler;
  std::vector<SchedulerKey> batch;
  for (SchedulingRequest& r : requests) {
    const SchedulerKey key = r.key();
    SchedulerPlacement::StoredRequest& stored =
        p.storeRequest(app.id(), std::move(r), schedulerHandler);
    Status valid = Status::ok();
    for (const placement::PlacementConstraint* c : stored.levels) {
      if (valid = placement::validateConstraint(*c); !valid.isOk()) break;
    }
    const ResourceSizing& sizing = *stored.request.sizing;
    if (!valid.isOk()) {
      // Constraints the evaluator can never satisfy (e.g. an unknown namespace) come back as
      // rejected instead of pending forever (YARN's testInvalidSchedulingRequest).
      const SchedulingRequest copy = stored.request;
      p.storeRequest(app.id(), copy, /*schedulerHandled=*/false);
      rejectSchedulingRequest(app, copy, sizing.numAllocations,
                              RejectionReason::kCouldNotPlaceOnNode, valid.message());
      continue;
    }
    if (schedulerHandler) {
      // The request's allocator: one ANY ask at its key, in its target partition, so that the
      // Capacity Scheduler's queue, user and locality rules apply unchanged.
      ResourceRequest any{key,
                          std::string(kAnyResourceName),
                          sizing.resource,
                          sizing.numAllocations,
                          true,
                          stored.partition};
      (void)app.asks().update({any});  // non-negative: checked
    } else if (sizing.numAllocations > 0) {
      batch.push_back(key);
    }
  }
  if (!batch.empty()) runPlacementProcessor(app, batch);
}

void Scheduler::rejectSchedulingRequest(const Application& app, const SchedulingRequest& r,
                                        int32_t count, RejectionReason reason,
                                        std::string message) {
  if (outcome_ != nullptr) {
    RejectedSchedulingRequest x{app.id(), reason, r, message};
    x.request.sizing->numAllocations = count;
    outcome_->rejectedSchedulingRequests.push_back(std::move(x));
  }
  Decision d;
  d.kind = DecisionKind::kRequestRejected;
  d.app = app.id();
  d.queue = app.queue();
  d.key = r.key();
  d.resource = r.sizing->resource;
  d.rejection = reason;
  d.reason = fmt::format("{} allocation(s) of allocationRequestId {} rejected ({}): {}", count,
                         r.allocationRequestId, toString(reason), message);
  d.numbers = {{"numAllocations", double(count)}};
  record(std::move(d));
}

}  // namespace spindle
