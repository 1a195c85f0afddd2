#include "app/container_state.h"
#include "base/enum_names.h"

#include <array>
#include <cstddef>

#include <fmt/ranges.h>

namespace spindle {
namespace {

using S = ContainerState;
using E = ContainerEvent;
using G = ContainerGuard;

// RMContainerImpl's stateMachineFactory, row for row, in YARN's order. The self-loops YARN keeps
// on final states are left out (see container_state.h).
constexpr ContainerTransition kTable[] = {
    // NEW
    {S::NEW, E::START, S::ALLOCATED},
    {S::NEW, E::KILL, S::KILLED},
    {S::NEW, E::RESERVED, S::RESERVED},
    // Opportunistic containers are handed to the AM as soon as they exist (YARN-5220).
    {S::NEW, E::ACQUIRED, S::ACQUIRED},
    {S::NEW, E::RECOVER, S::RUNNING, G::kRecovered},
    {S::NEW, E::RECOVER, S::COMPLETED, G::kRecovered},
    // RESERVED: holds a node for a request that does not fit yet; re-reserving updates it.
    {S::RESERVED, E::RESERVED, S::RESERVED},
    {S::RESERVED, E::START, S::ALLOCATED},
    {S::RESERVED, E::KILL, S::KILLED},
    {S::RESERVED, E::RELEASED, S::RELEASED},
    // ALLOCATED: waiting for the AM's next allocate call to pull it.
    {S::ALLOCATED, E::ACQUIRED, S::ACQUIRED},
    {S::ALLOCATED, E::EXPIRE, S::EXPIRED},
    {S::ALLOCATED, E::KILL, S::KILLED},
    // ACQUIRED: the AM has it; the allocation expirer runs until the NM reports it.
    {S::ACQUIRED, E::LAUNCHED, S::RUNNING},
    {S::ACQUIRED, E::FINISHED, S::COMPLETED},
    {S::ACQUIRED, E::RELEASED, S::RELEASED},
    {S::ACQUIRED, E::EXPIRE, S::EXPIRED},
    {S::ACQUIRED, E::KILL, S::KILLED},
    // RUNNING
    {S::RUNNING, E::FINISHED, S::COMPLETED},
    {S::RUNNING, E::KILL, S::KILLED},
    {S::RUNNING, E::RELEASED, S::RELEASED},
    // A recovered running container pulled by the re-registered AM.
    {S::RUNNING, E::ACQUIRED, S::RUNNING},
    {S::RUNNING, E::ACQUIRE_UPDATED_CONTAINER, S::RUNNING},
    {S::RUNNING, E::NM_DONE_CHANGE_RESOURCE, S::RUNNING},
};

constexpr size_t kStateCount = static_cast<size_t>(S::KILLED) + 1;
constexpr size_t kEventCount = static_cast<size_t>(E::NM_DONE_CHANGE_RESOURCE) + 1;

constexpr std::array<const char*, kStateCount> kStateNames = {
    "NEW",       "RESERVED", "ALLOCATED", "ACQUIRED", "RUNNING",
    "COMPLETED", "EXPIRED",  "RELEASED",  "KILLED",
};
constexpr std::array<const char*, kEventCount> kEventNames = {
    "START",
    "ACQUIRED",
    "ACQUIRE_UPDATED_CONTAINER",
    "KILL",
    "RESERVED",
    "LAUNCHED",
    "FINISHED",
    "RELEASED",
    "EXPIRE",
    "RECOVER",
    "NM_DONE_CHANGE_RESOURCE",
};

constexpr bool isFinalState(S s) {
  return s == S::COMPLETED || s == S::EXPIRED || s == S::RELEASED || s == S::KILLED;
}

// Table invariants, checked at compile time:
//   1. No row leaves a final state.
//   2. A (from, event) pair with a kAlways row has no other row.
constexpr bool tableIsWellFormed() {
  for (const ContainerTransition& t : kTable) {
    if (isFinalState(t.from)) return false;
    for (const ContainerTransition& u : kTable) {
      if (&t == &u || t.from != u.from || t.event != u.event) continue;
      if (t.guard == G::kAlways || u.guard == G::kAlways) return false;
    }
  }
  return true;
}
static_assert(tableIsWellFormed(), "RMContainer transition table breaks an invariant above");

bool holds(const ContainerTransition& t, const ContainerTransitionContext& c) {
  switch (t.guard) {
    case G::kAlways: return true;
    case G::kRecovered: return t.to == c.recoveredState;
  }
  return false;
}

constexpr auto kAllStates = enumValues<ContainerState, kStateCount>();
constexpr auto kAllEvents = enumValues<ContainerEvent, kEventCount>();

}  // namespace

std::span<const ContainerTransition> containerTransitions() { return kTable; }

Result<ContainerTransition> findContainerTransition(ContainerState from, ContainerEvent event,
                                                    const ContainerTransitionContext& context) {
  bool known = false;
  for (const ContainerTransition& t : kTable) {
    if (t.from != from || t.event != event) continue;
    if (holds(t, context)) return t;
    known = true;
  }
  if (!known) {
    return failedPrecondition("invalid transition: container in state {} cannot take event {}",
                              toString(from), toString(event));
  }
  // Only kRecovered rows can all miss.
  return failedPrecondition(
      "invalid transition: container in state {} cannot take event {} to state {}", toString(from),
      toString(event), toString(context.recoveredState));
}

Result<ContainerState> nextContainerState(ContainerState from, ContainerEvent event,
                                          const ContainerTransitionContext& context) {
  SPINDLE_ASSIGN_OR_RETURN(ContainerTransition t, findContainerTransition(from, event, context));
  return t.to;
}

bool isFinal(ContainerState s) { return isFinalState(s); }

const char* toString(ContainerState s) {
  auto i = static_cast<size_t>(s);
  return i < kStateNames.size() ? kStateNames[i] : "INVALID_CONTAINER_STATE";
}

const char* toString(ContainerEvent e) {
  auto i = static_cast<size_t>(e);
  return i < kEventNames.size() ? kEventNames[i] : "INVALID_CONTAINER_EVENT";
}

Result<ContainerState> containerStateFromString(std::string_view name) {
  return parseEnumName<ContainerState>(name, kStateNames, "container state");
}

Result<ContainerEvent> containerEventFromString(std::string_view name) {
  return parseEnumName<ContainerEvent>(name, kEventNames, "container event");
}

std::span<const ContainerState> allContainerStates() { return kAllStates; }
std::span<const ContainerEvent> allContainerEvents() { return kAllEvents; }

std::string_view containerExitStatusName(int32_t status) {
  using X = ContainerExitStatus;
  switch (status) {
    case X::SUCCESS: return "SUCCESS";
    case X::INVALID: return "INVALID";
    case X::ABORTED: return "ABORTED";
    case X::DISKS_FAILED: return "DISKS_FAILED";
    case X::PREEMPTED: return "PREEMPTED";
    case X::KILLED_EXCEEDED_VMEM: return "KILLED_EXCEEDED_VMEM";
    case X::KILLED_EXCEEDED_PMEM: return "KILLED_EXCEEDED_PMEM";
    case X::KILLED_BY_APPMASTER: return "KILLED_BY_APPMASTER";
    case X::KILLED_BY_RESOURCEMANAGER: return "KILLED_BY_RESOURCEMANAGER";
    case X::KILLED_AFTER_APP_COMPLETION: return "KILLED_AFTER_APP_COMPLETION";
    case X::KILLED_BY_CONTAINER_SCHEDULER: return "KILLED_BY_CONTAINER_SCHEDULER";
    case X::KILLED_FOR_EXCESS_LOGS: return "KILLED_FOR_EXCESS_LOGS";
    default: return {};
  }
}

}  // namespace spindle
