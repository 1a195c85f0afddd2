// The container lifecycle: YARN's RMContainerImpl state machine (RMContainerState x
// RMContainerEventType, hadoop-yarn-server-resourcemanager .../rmcontainer/RMContainerImpl.java,
// 3.x) as one transition table, and YARN's ContainerExitStatus codes.
//
//   ContainerState s = ContainerState::NEW;
//   s = *nextContainerState(s, ContainerEvent::START);      // ALLOCATED
//   s = *nextContainerState(s, ContainerEvent::ACQUIRED);   // ACQUIRED: the AM pulled it
//   s = *nextContainerState(s, ContainerEvent::LAUNCHED);   // RUNNING: the NM reported it
//   s = *nextContainerState(s, ContainerEvent::FINISHED);   // COMPLETED
//   nextContainerState(s, ContainerEvent::KILL);
//   // FailedPrecondition "invalid transition: container in state COMPLETED cannot take event KILL"
//
// Final states (COMPLETED, EXPIRED, RELEASED, KILLED) reject every event. YARN ignores late
// KILL, RELEASED, EXPIRE and FINISHED there (a node lost after the AM released the container,
// say); here the owner checks isFinal() first, so a late event is its decision and never a
// lifecycle step.
//
// Thread-safety: everything here is a pure function over constant data.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "base/status.h"

namespace spindle {

// RMContainerState.
enum class ContainerState : uint8_t {
  NEW,
  RESERVED,
  ALLOCATED,
  ACQUIRED,
  RUNNING,
  COMPLETED,
  EXPIRED,
  RELEASED,
  KILLED,
};

// RMContainerEventType, in YARN's order.
enum class ContainerEvent : uint8_t {
  // From the scheduler's application attempt.
  START,
  ACQUIRED,
  ACQUIRE_UPDATED_CONTAINER,  // the AM pulled a resized or re-typed container (YARN-5221)
  KILL,                       // also on node removal and preemption
  RESERVED,
  // From the NM heartbeat.
  LAUNCHED,
  FINISHED,
  // From ApplicationMasterService, through the scheduler.
  RELEASED,
  // From ContainerAllocationExpirer: acquired but not launched within
  // yarn.resourcemanager.rm.container-allocation.expiry-interval-ms.
  EXPIRE,
  RECOVER,
  // The NM reported that a resource change is done.
  NM_DONE_CHANGE_RESOURCE,
};

// Which fact selects a row among the targets of one (from, event) pair.
enum class ContainerGuard : uint8_t {
  kAlways,
  // ContainerRecoveredTransition: the row whose `to` is context.recoveredState.
  kRecovered,
};

struct ContainerTransition {
  ContainerState from;
  ContainerEvent event;
  ContainerState to;
  ContainerGuard guard = ContainerGuard::kAlways;
};

struct ContainerTransitionContext {
  // RECOVER in NEW: RUNNING or COMPLETED, from the NM's container report after an RM restart.
  ContainerState recoveredState = ContainerState::RUNNING;
};

// The whole table, for tests and documentation.
std::span<const ContainerTransition> containerTransitions();

// The row taken by `event` in `from`. FailedPrecondition "invalid transition: container in state
// X cannot take event Y" when the pair has no row, "... to state Z" when the recovered state is
// not a target.
Result<ContainerTransition> findContainerTransition(ContainerState from, ContainerEvent event,
                                                    const ContainerTransitionContext& context = {});
// findContainerTransition(...).to.
Result<ContainerState> nextContainerState(ContainerState from, ContainerEvent event,
                                          const ContainerTransitionContext& context = {});

// COMPLETED, EXPIRED, RELEASED, KILLED.
bool isFinal(ContainerState s);

// Enum names exactly as YARN prints them.
const char* toString(ContainerState s);
const char* toString(ContainerEvent e);
// Case-insensitive; InvalidArgument lists the valid names.
Result<ContainerState> containerStateFromString(std::string_view name);
Result<ContainerEvent> containerEventFromString(std::string_view name);

// Every value in declaration order.
std::span<const ContainerState> allContainerStates();
std::span<const ContainerEvent> allContainerEvents();

// YARN's ContainerExitStatus (hadoop-yarn-api .../records/ContainerExitStatus.java). Any other
// value is the exit code of the container's process.
struct ContainerExitStatus {
  static constexpr int32_t SUCCESS = 0;
  static constexpr int32_t INVALID = -1000;
  // Released by the framework or the node went away.
  static constexpr int32_t ABORTED = -100;
  static constexpr int32_t DISKS_FAILED = -101;
  static constexpr int32_t PREEMPTED = -102;
  static constexpr int32_t KILLED_EXCEEDED_VMEM = -103;
  static constexpr int32_t KILLED_EXCEEDED_PMEM = -104;
  static constexpr int32_t KILLED_BY_APPMASTER = -105;
  static constexpr int32_t KILLED_BY_RESOURCEMANAGER = -106;
  static constexpr int32_t KILLED_AFTER_APP_COMPLETION = -107;
  static constexpr int32_t KILLED_BY_CONTAINER_SCHEDULER = -108;
  static constexpr int32_t KILLED_FOR_EXCESS_LOGS = -109;
};

// "PREEMPTED" for -102 and so on; empty for a value that is not one of the constants above.
std::string_view containerExitStatusName(int32_t status);

}  // namespace spindle
