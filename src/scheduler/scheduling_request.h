// SchedulingRequest: the ask with allocation tags and a placement constraint that an app sends
// beside its ResourceRequests (YARN's SchedulingRequest record), what happens to one that cannot
// be placed (RejectedSchedulingRequest), and the handler settings that decide who places them.
//
//   SchedulingRequest r;
//   r.allocationRequestId = 1;
//   r.priority = 1;
//   r.allocationTags = {"hbase-rs"};
//   r.sizing = ResourceSizing{3, Resource::of(1024, 1)};
//   r.constraint = placement::targetNotIn(placement::Scope::kNode,
//                                         {placement::allocationTag({"hbase-rs"})});
//   driver->handle(AppAllocate{.app = app, .schedulingRequests = {r}});
//
// A request's scheduler key is (priority, allocationRequestId), as a ResourceRequest's; one key
// holds either ResourceRequests or one SchedulingRequest, never both (YARN refuses the mix).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/asks.h"
#include "base/ids.h"
#include "base/status.h"
#include "config/configuration.h"
#include "placement/constraint.h"
#include "placement/placement_algorithm.h"
#include "resource/resource.h"
#include "scheduler/decision.h"

namespace spindle {

// RequestExecutionType; only GUARANTEED requests can be placed.
enum class RequestExecutionType : uint8_t { kGuaranteed, kOpportunistic };
const char* toString(RequestExecutionType t);  // "GUARANTEED", "OPPORTUNISTIC"

// ResourceSizing: how many allocations of what size.
struct ResourceSizing {
  int32_t numAllocations = 0;
  Resource resource;
};

struct SchedulingRequest {
  int64_t allocationRequestId = 0;
  int32_t priority = 0;
  RequestExecutionType executionType = RequestExecutionType::kGuaranteed;
  std::vector<std::string> allocationTags;
  std::optional<ResourceSizing> sizing;  // required: YARN rejects a request without it
  std::optional<placement::PlacementConstraint> constraint;

  SchedulerKey key() const { return {priority, allocationRequestId}; }
};

// A scheduling request returned to the AM (AllocateResponse.rejectedSchedulingRequests): the
// request with the allocations that were not made, and why.
struct RejectedSchedulingRequest {
  AppId app;
  RejectionReason reason = RejectionReason::kCouldNotPlaceOnNode;
  SchedulingRequest request;  // sizing.numAllocations: what was rejected
  std::string message;        // Spindle's detail (YARN carries only the reason)
};

// yarn.resourcemanager.placement-constraints.handler.
enum class PlacementHandler : uint8_t { kDisabled, kScheduler, kPlacementProcessor };
const char* toString(PlacementHandler h);  // "disabled", "scheduler", "placement-processor"

// The yarn.resourcemanager.placement-constraints.* keys, read once.
struct PlacementSettings {
  PlacementHandler handler = PlacementHandler::kDisabled;
  placement::RequestOrder order = placement::RequestOrder::kSerial;  // algorithm.iterator
  int32_t retryAttempts = 3;                                         // retry-attempts, >= 1
  // spindle.placement-constraints.global.<source tag> = a constraint expression: the cluster's
  // global constraint for requests whose only allocation tag is that tag (YARN keeps global
  // constraints in PlacementConstraintManager.addGlobalConstraint with no key or command to set
  // them).
  std::map<std::string, placement::PlacementConstraint> globalConstraints;
};

// Reads and validates the keys; errors name the file, line and property.
Result<PlacementSettings> placementSettingsFromConfig(const Configuration& conf);

}  // namespace spindle
