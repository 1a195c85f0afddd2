// Scheduler events: everything that changes scheduler state (YARN's SchedulerEventType).
//
//   scheduler.handle(NodeAdded{"host1", "/rack1", Resource::of(8192, 8)});
//   scheduler.handle(NodeHeartbeat{"host1", {}});        // allocation happens here
//
// Events name nodes by name and apps by id; the scheduler validates both and returns an error
// Status (nothing applied) for an unknown node, app or container, or a malformed ask.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/application.h"
#include "app/asks.h"
#include "base/ids.h"
#include "cluster/cluster.h"
#include "placement/constraint_manager.h"
#include "placement/node_attributes.h"
#include "resource/resource.h"
#include "scheduler/scheduling_request.h"

namespace spindle {

struct NodeAdded {
  std::string name;
  std::string rack;
  Resource total;
  std::vector<std::string> labels;
  std::map<std::string, std::string> attributes;
};

// Cluster node labels are declared (rmadmin -addToClusterNodeLabels); a node's labels must name
// declared labels.
struct AddNodeLabels {
  std::vector<NodeLabel> labels;
};

struct NodeRemoved {
  std::string name;
};

// Node attributes changed at run time (YARN-3409). Centralised: the administrator's
// NodesToAttributesMappingRequest (AttributeMappingOperationType ADD, REPLACE, REMOVE; prefix
// rm.yarn.io). Distributed: the node's provider report (REPLACE only; prefix nm.yarn.io), which
// replaces the node's previous distributed set. Every node and attribute is validated first
// (unknown node, wrong prefix, bad name or value, an attribute named twice for one node, REMOVE
// of an attribute the node lacks): an error names the node and the attribute, nothing changes.
enum class NodeAttributeOp : uint8_t { kAdd, kReplace, kRemove };
const char* toString(NodeAttributeOp op);  // "ADD", "REPLACE", "REMOVE"

struct NodeAttributesUpdate {
  struct Entry {
    std::string node;  // the scheduler's node name
    std::vector<placement::NodeAttribute> attributes;
  };
  NodeAttributeOp op = NodeAttributeOp::kReplace;
  bool distributed = false;
  std::vector<Entry> nodes;
};

struct NodeResourceUpdate {
  std::string name;
  Resource total;
};

struct CompletedContainer {
  ContainerId id;
  int32_t exitStatus = 0;  // ContainerExitStatus: 0 SUCCESS, -100 ABORTED, -102 PREEMPTED, ...
};

// NODE_UPDATE: a heartbeat with the containers that finished since the last one.
struct NodeHeartbeat {
  std::string name;
  std::vector<CompletedContainer> completed;
};

// APP_ADDED + APP_ATTEMPT_ADDED: the first attempt starts at once; when amResource is non-zero
// an AM ask (priority 0, "*", count 1) is added, as RMAppAttemptImpl does.
struct AppAdded {
  AppSubmission submission;
};

// APP_REMOVED with the final state; live containers are killed, asks dropped.
struct AppRemoved {
  AppId app;
  AppState finalState = AppState::FINISHED;
};

// The AM's allocate call: new asks, releases and blacklist changes (ApplicationMasterService).
struct AppAllocate {
  AppId app;
  std::vector<ResourceRequest> asks;
  std::vector<ContainerId> releases;
  std::vector<std::string> blacklistAdd;
  std::vector<std::string> blacklistRemove;
  // SchedulingRequests (placement constraints): handled as
  // yarn.resourcemanager.placement-constraints.handler says; refused when it is `disabled`.
  std::vector<SchedulingRequest> schedulingRequests{};
};

// RegisterApplicationMaster with the AM's placement constraints (source tag -> constraint).
// A non-empty map is refused when the handler is `disabled`; registering twice keeps the first.
struct RegisterApplicationMaster {
  AppId app;
  placement::PlacementConstraintManager::SourceTagConstraints placementConstraints;
};

// Puts a running container on a node without going through the allocation policy, as a
// recovered NM container report does; scenarios use it to set up a state directly.
struct PlaceContainer {
  AppId app;
  std::string node;
  Resource resource;
  int32_t priority = 0;
  bool isAm = false;
  // The container becomes the node's reserved container instead of a running one
  // (Scheduler::placeReservation; one per node).
  bool reserved = false;
  // The node label expression of the request the container was allocated for ("" = none);
  // a container with "" on a labelled node runs there ignoring the partition's exclusivity.
  std::string nodeLabel{};
  // The containers' allocation tags (a recovered container's tags enter the tag store).
  std::vector<std::string> tags{};
  // A container recovered from an NM's report after an RM restart keeps its id (YARN's
  // AbstractYarnScheduler.recoverContainersOnNode); it must belong to the app's current
  // attempt and not be live. Unset: a new id.
  std::optional<ContainerId> recoveredId{};
};

// A container finished outside a heartbeat (scenario "complete"); same effect as reporting
// it in the node's next heartbeat.
struct ContainerFinished {
  ContainerId id;
  int32_t exitStatus = 0;
};

// One run of the scheduling monitors (preemption policies).
struct MonitorTick {};

using SchedulerEvent =
    std::variant<AddNodeLabels, NodeAdded, NodeRemoved, NodeResourceUpdate, NodeHeartbeat, AppAdded,
                 AppRemoved, AppAllocate, PlaceContainer, ContainerFinished, MonitorTick,
                 RegisterApplicationMaster, NodeAttributesUpdate>;

}  // namespace spindle
