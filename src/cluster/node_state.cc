#include "cluster/node_state.h"
#include "base/enum_names.h"

#include <array>
#include <cstddef>

#include <fmt/ranges.h>

namespace spindle {
namespace {

using S = NodeState;
using E = NodeEvent;
using G = NodeGuard;

// RMNodeImpl's stateMachineFactory, row for row, in YARN's order. Self-loops are YARN's
// transitions whose hook acts without changing state (cleanup lists, resource updates). The
// self-loops YARN keeps on final states are left out (see node_state.h).
constexpr NodeTransition kTable[] = {
    // NEW
    {S::NEW, E::STARTED, S::RUNNING, G::kHealthy},
    {S::NEW, E::STARTED, S::UNHEALTHY, G::kUnhealthy},
    {S::NEW, E::RESOURCE_UPDATE, S::NEW},
    {S::NEW, E::DECOMMISSION, S::DECOMMISSIONED},
    // RUNNING
    {S::RUNNING, E::STATUS_UPDATE, S::RUNNING, G::kHealthy},
    {S::RUNNING, E::STATUS_UPDATE, S::UNHEALTHY, G::kUnhealthy},
    {S::RUNNING, E::DECOMMISSION, S::DECOMMISSIONED},
    {S::RUNNING, E::GRACEFUL_DECOMMISSION, S::DECOMMISSIONING},
    {S::RUNNING, E::EXPIRE, S::LOST},
    {S::RUNNING, E::REBOOTING, S::REBOOTED},
    {S::RUNNING, E::CLEANUP_APP, S::RUNNING},
    {S::RUNNING, E::CLEANUP_CONTAINER, S::RUNNING},
    {S::RUNNING, E::FINISHED_CONTAINERS_PULLED_BY_AM, S::RUNNING},
    {S::RUNNING, E::RECONNECTED, S::RUNNING},
    {S::RUNNING, E::RESOURCE_UPDATE, S::RUNNING},
    {S::RUNNING, E::UPDATE_CONTAINER, S::RUNNING},
    {S::RUNNING, E::SIGNAL_CONTAINER, S::RUNNING},
    {S::RUNNING, E::SHUTDOWN, S::SHUTDOWN},
    // DECOMMISSIONING: no new containers; the running ones finish, then the node leaves (or
    // DecommissioningNodesWatcher's timeout sends DECOMMISSION).
    {S::DECOMMISSIONING, E::DECOMMISSION, S::DECOMMISSIONED},
    {S::DECOMMISSIONING, E::RECOMMISSION, S::RUNNING},
    {S::DECOMMISSIONING, E::RESOURCE_UPDATE, S::DECOMMISSIONING},
    {S::DECOMMISSIONING, E::STATUS_UPDATE, S::DECOMMISSIONED, G::kDrained},
    {S::DECOMMISSIONING, E::STATUS_UPDATE, S::DECOMMISSIONING, G::kNotDrained},
    // A new -g timeout for a node already decommissioning.
    {S::DECOMMISSIONING, E::GRACEFUL_DECOMMISSION, S::DECOMMISSIONING},
    {S::DECOMMISSIONING, E::EXPIRE, S::LOST},
    {S::DECOMMISSIONING, E::REBOOTING, S::REBOOTED},
    {S::DECOMMISSIONING, E::FINISHED_CONTAINERS_PULLED_BY_AM, S::DECOMMISSIONING},
    {S::DECOMMISSIONING, E::CLEANUP_APP, S::DECOMMISSIONING},
    {S::DECOMMISSIONING, E::SHUTDOWN, S::SHUTDOWN},
    {S::DECOMMISSIONING, E::CLEANUP_CONTAINER, S::DECOMMISSIONING},
    {S::DECOMMISSIONING, E::RECONNECTED, S::DECOMMISSIONING},
    // UNHEALTHY: registered but not schedulable until a healthy report.
    {S::UNHEALTHY, E::STATUS_UPDATE, S::UNHEALTHY, G::kUnhealthy},
    {S::UNHEALTHY, E::STATUS_UPDATE, S::RUNNING, G::kHealthy},
    {S::UNHEALTHY, E::DECOMMISSION, S::DECOMMISSIONED},
    {S::UNHEALTHY, E::GRACEFUL_DECOMMISSION, S::DECOMMISSIONING},
    {S::UNHEALTHY, E::EXPIRE, S::LOST},
    {S::UNHEALTHY, E::REBOOTING, S::REBOOTED},
    {S::UNHEALTHY, E::RECONNECTED, S::UNHEALTHY},
    {S::UNHEALTHY, E::CLEANUP_APP, S::UNHEALTHY},
    {S::UNHEALTHY, E::CLEANUP_CONTAINER, S::UNHEALTHY},
    {S::UNHEALTHY, E::RESOURCE_UPDATE, S::UNHEALTHY},
    {S::UNHEALTHY, E::FINISHED_CONTAINERS_PULLED_BY_AM, S::UNHEALTHY},
    {S::UNHEALTHY, E::SHUTDOWN, S::SHUTDOWN},
};

constexpr size_t kStateCount = static_cast<size_t>(S::SHUTDOWN) + 1;
constexpr size_t kEventCount = static_cast<size_t>(E::EXPIRE) + 1;

constexpr std::array<const char*, kStateCount> kStateNames = {
    "NEW",  "RUNNING",  "UNHEALTHY",       "DECOMMISSIONED",
    "LOST", "REBOOTED", "DECOMMISSIONING", "SHUTDOWN",
};
constexpr std::array<const char*, kEventCount> kEventNames = {
    "STARTED",
    "DECOMMISSION",
    "GRACEFUL_DECOMMISSION",
    "RECOMMISSION",
    "RESOURCE_UPDATE",
    "STATUS_UPDATE",
    "REBOOTING",
    "RECONNECTED",
    "SHUTDOWN",
    "CLEANUP_APP",
    "CLEANUP_CONTAINER",
    "UPDATE_CONTAINER",
    "SIGNAL_CONTAINER",
    "FINISHED_CONTAINERS_PULLED_BY_AM",
    "EXPIRE",
};

constexpr bool isFinalState(S s) {
  return s == S::DECOMMISSIONED || s == S::LOST || s == S::REBOOTED || s == S::SHUTDOWN;
}

constexpr G complement(G g) {
  switch (g) {
    case G::kHealthy: return G::kUnhealthy;
    case G::kUnhealthy: return G::kHealthy;
    case G::kDrained: return G::kNotDrained;
    case G::kNotDrained: return G::kDrained;
    case G::kAlways: return G::kAlways;
  }
  return G::kAlways;
}

// Table invariants, checked at compile time:
//   1. No row leaves a final state.
//   2. A (from, event) pair with a kAlways row has no other row.
//   3. A row guarded by one side of a fact has a row for the other side, so every pair in the
//      table has a row to take whatever the context says.
constexpr bool tableIsWellFormed() {
  for (const NodeTransition& t : kTable) {
    if (isFinalState(t.from)) return false;
    bool hasComplement = t.guard == G::kAlways;
    for (const NodeTransition& u : kTable) {
      if (&t == &u || t.from != u.from || t.event != u.event) continue;
      if (t.guard == G::kAlways || u.guard == G::kAlways) return false;
      hasComplement = hasComplement || u.guard == complement(t.guard);
    }
    if (!hasComplement) return false;
  }
  return true;
}
static_assert(tableIsWellFormed(), "RMNode transition table breaks an invariant listed above");

bool holds(const NodeTransition& t, const NodeTransitionContext& c) {
  switch (t.guard) {
    case G::kAlways: return true;
    case G::kHealthy: return c.healthy;
    case G::kUnhealthy: return !c.healthy;
    case G::kDrained: return c.drained;
    case G::kNotDrained: return !c.drained;
  }
  return false;
}

constexpr auto kAllStates = enumValues<NodeState, kStateCount>();
constexpr auto kAllEvents = enumValues<NodeEvent, kEventCount>();

}  // namespace

std::span<const NodeTransition> nodeTransitions() { return kTable; }

Result<NodeTransition> findNodeTransition(NodeState from, NodeEvent event,
                                          const NodeTransitionContext& context) {
  for (const NodeTransition& t : kTable) {
    if (t.from == from && t.event == event && holds(t, context)) return t;
  }
  // Invariant 3: a pair in the table always has a row that holds, so this is a missing pair.
  return failedPrecondition("invalid transition: node in state {} cannot take event {}",
                            toString(from), toString(event));
}

Result<NodeState> nextNodeState(NodeState from, NodeEvent event,
                                const NodeTransitionContext& context) {
  SPINDLE_ASSIGN_OR_RETURN(NodeTransition t, findNodeTransition(from, event, context));
  return t.to;
}

bool isFinal(NodeState s) { return isFinalState(s); }

const char* toString(NodeState s) {
  auto i = static_cast<size_t>(s);
  return i < kStateNames.size() ? kStateNames[i] : "INVALID_NODE_STATE";
}

const char* toString(NodeEvent e) {
  auto i = static_cast<size_t>(e);
  return i < kEventNames.size() ? kEventNames[i] : "INVALID_NODE_EVENT";
}

Result<NodeState> nodeStateFromString(std::string_view name) {
  return parseEnumName<NodeState>(name, kStateNames, "node state");
}

Result<NodeEvent> nodeEventFromString(std::string_view name) {
  return parseEnumName<NodeEvent>(name, kEventNames, "node event");
}

std::span<const NodeState> allNodeStates() { return kAllStates; }
std::span<const NodeEvent> allNodeEvents() { return kAllEvents; }

}  // namespace spindle
