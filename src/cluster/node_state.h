// The node lifecycle: YARN's RMNodeImpl state machine (NodeState x RMNodeEventType,
// hadoop-yarn-server-resourcemanager .../rmnode/RMNodeImpl.java, 3.x) as one transition table.
//
//   NodeState s = NodeState::NEW;
//   s = *nextNodeState(s, NodeEvent::STARTED);                          // RUNNING
//   s = *nextNodeState(s, NodeEvent::STATUS_UPDATE, {.healthy = false}); // UNHEALTHY
//   s = *nextNodeState(s, NodeEvent::GRACEFUL_DECOMMISSION);            // DECOMMISSIONING
//   s = *nextNodeState(s, NodeEvent::STATUS_UPDATE, {.drained = true});  // DECOMMISSIONED
//
// Multi-target arcs: where YARN's table names an EnumSet of targets and the hook decides from
// the heartbeat, the table has one guarded row per target and the caller passes the facts in a
// NodeTransitionContext (is the node healthy, has a decommissioning node drained).
//
// Final states (DECOMMISSIONED, LOST, REBOOTED, SHUTDOWN) reject every event. YARN keeps
// RESOURCE_UPDATE and FINISHED_CONTAINERS_PULLED_BY_AM self-loops there (bookkeeping on an
// inactive node); here the owner checks isFinal() first. A node that comes back registers as a
// new NEW node, as in YARN, where ResourceTrackerService creates a fresh RMNodeImpl.
//
// Thread-safety: everything here is a pure function over constant data.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "base/status.h"

namespace spindle {

// org.apache.hadoop.yarn.api.records.NodeState, the names REST (`node.state`) and
// `yarn node -list` print.
enum class NodeState : uint8_t {
  NEW,
  RUNNING,
  UNHEALTHY,
  DECOMMISSIONED,
  LOST,
  REBOOTED,
  DECOMMISSIONING,
  SHUTDOWN,
};

// RMNodeEventType, in YARN's order. (CONTAINER_ALLOCATED is left out: RMNodeImpl has no
// transition for it.)
enum class NodeEvent : uint8_t {
  STARTED,
  // From AdminService (rmadmin -refreshNodes, with -g for graceful).
  DECOMMISSION,
  GRACEFUL_DECOMMISSION,
  RECOMMISSION,
  // From AdminService and ResourceTrackerService.
  RESOURCE_UPDATE,
  // From ResourceTrackerService.
  STATUS_UPDATE,
  REBOOTING,
  RECONNECTED,
  SHUTDOWN,
  // From the application.
  CLEANUP_APP,
  // From containers.
  CLEANUP_CONTAINER,
  UPDATE_CONTAINER,
  // From ClientRMService.
  SIGNAL_CONTAINER,
  // From RMAppAttempt.
  FINISHED_CONTAINERS_PULLED_BY_AM,
  // From NMLivelinessMonitor: no heartbeat within yarn.nm.liveness-monitor.expiry-interval-ms.
  EXPIRE,
};

// Which fact selects a row among the targets of one (from, event) pair.
enum class NodeGuard : uint8_t {
  kAlways,
  // AddNodeTransition, StatusUpdateWhenHealthyTransition, StatusUpdateWhenUnHealthyTransition:
  // the NM's health report.
  kHealthy,
  kUnhealthy,
  // StatusUpdateWhenHealthyTransition on a DECOMMISSIONING node: no running application and no
  // keep-alive application is left, so the node can be decommissioned.
  kDrained,
  kNotDrained,
};

struct NodeTransition {
  NodeState from;
  NodeEvent event;
  NodeState to;
  NodeGuard guard = NodeGuard::kAlways;
};

struct NodeTransitionContext {
  // STARTED, STATUS_UPDATE: the NM reports itself healthy.
  bool healthy = true;
  // STATUS_UPDATE while DECOMMISSIONING: the node has drained.
  bool drained = false;
};

// The whole table, for tests and documentation.
std::span<const NodeTransition> nodeTransitions();

// The row taken by `event` in `from`. FailedPrecondition "invalid transition: node in state X
// cannot take event Y" when the pair has no row.
Result<NodeTransition> findNodeTransition(NodeState from, NodeEvent event,
                                          const NodeTransitionContext& context = {});
// findNodeTransition(...).to.
Result<NodeState> nextNodeState(NodeState from, NodeEvent event,
                                const NodeTransitionContext& context = {});

// DECOMMISSIONED, LOST, REBOOTED, SHUTDOWN (YARN's inactive nodes).
bool isFinal(NodeState s);

// Enum names exactly as YARN prints them.
const char* toString(NodeState s);
const char* toString(NodeEvent e);
// Case-insensitive, as the REST `states` filter and `yarn node -states` are; InvalidArgument
// lists the valid names.
Result<NodeState> nodeStateFromString(std::string_view name);
Result<NodeEvent> nodeEventFromString(std::string_view name);

// Every value in declaration order.
std::span<const NodeState> allNodeStates();
std::span<const NodeEvent> allNodeEvents();

}  // namespace spindle
