// The application attempt lifecycle: YARN's RMAppAttemptImpl state machine
// (RMAppAttemptState x RMAppAttemptEventType, hadoop-yarn-server-resourcemanager
// .../rmapp/attempt/RMAppAttemptImpl.java, 3.x) as one transition table.
//
//   AttemptState s = AttemptState::NEW;
//   s = *nextAttemptState(s, AttemptEvent::START);                  // SUBMITTED
//   s = *nextAttemptState(s, AttemptEvent::ATTEMPT_ADDED);          // SCHEDULED (managed AM)
//   ...
//   AttemptTransitionContext crash{.isAmContainer = true};
//   auto t = findAttemptTransition(AttemptState::RUNNING, AttemptEvent::CONTAINER_FINISHED, crash);
//   // t->to == FINAL_SAVING, t->afterSave == FAILED: the AM container died
//
// Multi-target arcs, FINAL_SAVING and final states work as in app_state.h: one guarded row per
// target, the facts in an AttemptTransitionContext, `afterSave` on every arc into FINAL_SAVING,
// and final states (FINISHED, FAILED, KILLED) reject every event. YARN's final states keep
// taking CONTAINER_FINISHED to record containers for the next attempt (work-preserving AM
// restart) and ignore other late events; that bookkeeping belongs to the owner, which checks
// isFinal() first.
//
// Thread-safety: everything here is a pure function over constant data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "base/status.h"

namespace spindle {

// RMAppAttemptState. REST and the CLI print YarnApplicationAttemptState, which lacks
// FINAL_SAVING; reportedAttemptState() maps it as RMAppAttemptImpl does.
enum class AttemptState : uint8_t {
  NEW,
  SUBMITTED,
  SCHEDULED,
  ALLOCATED_SAVING,
  ALLOCATED,
  LAUNCHED_UNMANAGED_SAVING,
  LAUNCHED,
  RUNNING,
  FINAL_SAVING,
  FINISHING,
  FINISHED,
  FAILED,
  KILLED,
};

// RMAppAttemptEventType, in YARN's order.
enum class AttemptEvent : uint8_t {
  // From RMApp.
  START,
  KILL,
  FAIL,  // ApplicationClientProtocol.failApplicationAttempt
  // From AMLauncher.
  LAUNCHED,
  LAUNCH_FAILED,
  // From AMLivelinessMonitor.
  EXPIRE,
  // From ApplicationMasterService.
  REGISTERED,
  STATUS_UPDATE,
  UNREGISTERED,
  // From containers.
  CONTAINER_ALLOCATED,
  CONTAINER_FINISHED,
  // From RMStateStore.
  ATTEMPT_NEW_SAVED,
  ATTEMPT_UPDATE_SAVED,
  // From the scheduler.
  ATTEMPT_ADDED,
  // From RMAppAttemptImpl.recover.
  RECOVER,
};

// Which fact selects a row among the targets of one (from, event) pair.
enum class AttemptGuard : uint8_t {
  kAlways,
  // ScheduleTransition / AMUnregisteredTransition: the submission's unmanaged-AM flag.
  kManagedAm,
  kUnmanagedAm,
  // AMContainerAllocatedTransition: scheduler.allocate handed out the AM container; if not,
  // the attempt stays SCHEDULED and asks again.
  kAmContainerAllocated,
  kAmContainerNotAllocated,
  // ContainerFinishedTransition / AMFinishingContainerFinishedTransition: the finished
  // container is this attempt's AM container.
  kAmContainer,
  kOtherContainer,
  // FinalStateSavedTransition: the row whose `to` is context.savedTarget.
  kSavedTarget,
  // AttemptRecoveredTransition: the row whose `to` is context.recoveredState.
  kRecovered,
};

struct AttemptTransition {
  AttemptState from;
  AttemptEvent event;
  AttemptState to;
  AttemptGuard guard = AttemptGuard::kAlways;
  // Set exactly on arcs entering FINAL_SAVING from another state: where ATTEMPT_UPDATE_SAVED
  // leads afterwards (YARN's targetedFinalState).
  std::optional<AttemptState> afterSave = std::nullopt;
};

// The run-time facts RMAppAttemptImpl's multi-target hooks consult; the attempt owns them.
struct AttemptTransitionContext {
  bool unmanagedAm = false;
  // CONTAINER_ALLOCATED in SCHEDULED: the AM container was obtained.
  bool amContainerAllocated = true;
  // CONTAINER_FINISHED: the finished container is the AM's.
  bool isAmContainer = false;
  // ATTEMPT_UPDATE_SAVED in FINAL_SAVING: the afterSave of the arc that entered FINAL_SAVING.
  AttemptState savedTarget = AttemptState::FINISHED;
  // RECOVER in NEW: the final state found in the store, else LAUNCHED (the AM may still run and
  // re-register).
  AttemptState recoveredState = AttemptState::LAUNCHED;
};

// The whole table, for tests and documentation.
std::span<const AttemptTransition> attemptTransitions();

// The row taken by `event` in `from`. FailedPrecondition "invalid transition: attempt in state
// X cannot take event Y" when the pair has no row, "... to state Z" when the context names a
// target the pair does not have.
Result<AttemptTransition> findAttemptTransition(AttemptState from, AttemptEvent event,
                                                const AttemptTransitionContext& context = {});
// findAttemptTransition(...).to.
Result<AttemptState> nextAttemptState(AttemptState from, AttemptEvent event,
                                      const AttemptTransitionContext& context = {});

// FINISHED, FAILED, KILLED.
bool isFinal(AttemptState s);

// What REST (`appAttemptState`) and the CLI show: FINAL_SAVING shows the state it was entered
// from (RMAppAttemptImpl.createApplicationAttemptState with stateBeforeFinalSaving).
AttemptState reportedAttemptState(AttemptState current, AttemptState beforeFinalSaving);

// Enum names exactly as YARN prints them.
const char* toString(AttemptState s);
const char* toString(AttemptEvent e);
// Case-insensitive; InvalidArgument lists the valid names.
Result<AttemptState> attemptStateFromString(std::string_view name);
Result<AttemptEvent> attemptEventFromString(std::string_view name);

// Every value in declaration order.
std::span<const AttemptState> allAttemptStates();
std::span<const AttemptEvent> allAttemptEvents();

}  // namespace spindle
