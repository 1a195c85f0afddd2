// The application lifecycle: YARN's RMAppImpl state machine (RMAppState x RMAppEventType,
// hadoop-yarn-server-resourcemanager .../rmapp/RMAppImpl.java, 3.x) as one transition table.
//
//   AppState s = AppState::NEW;
//   s = *nextAppState(s, AppEvent::START);                      // NEW_SAVING
//   ...
//   AppTransitionContext ctx{.attemptsRemain = true};
//   Result<AppState> next = nextAppState(AppState::RUNNING, AppEvent::ATTEMPT_FAILED, ctx);
//   // *next == AppState::ACCEPTED: YARN starts a new attempt
//   toString(AppState::ACCEPTED);                               // "ACCEPTED"
//   appStateFromString("running");                              // AppState::RUNNING
//
// Multi-target arcs. Where YARN's table names an EnumSet of targets and a transition hook picks
// one at run time, the table has one row per target with a guard, and the caller passes the
// fact the hook would consult in an AppTransitionContext (whether attempts remain, the target
// remembered on entering FINAL_SAVING, the recovered state).
//
// FINAL_SAVING. Every arc into FINAL_SAVING carries `afterSave`: the state APP_UPDATE_SAVED
// leads to once the store has the final state (YARN's targetedFinalState, remembered by
// rememberTargetTransitionsAndStoreState). The owner keeps it and passes it back as
// AppTransitionContext::savedTarget.
//
// Final states (FINISHED, FAILED, KILLED) reject every event. YARN keeps self-loops there that
// ignore late events (KILL, NODE_UPDATE, ATTEMPT_FINISHED, APP_RUNNING_ON_NODE); here the owner
// checks isFinal() first and decides what a late event means (a kill of a finished app answers
// with the app's state, as the REST API does), so a stray event on a finished app is never
// mistaken for a lifecycle step.
//
// Thread-safety: everything here is a pure function over constant data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "base/status.h"

namespace spindle {

// RMAppState. The REST API and the CLI print YarnApplicationState, which lacks FINAL_SAVING,
// FINISHING and KILLING; reportedAppState() maps them the way RMAppImpl does.
enum class AppState : uint8_t {
  NEW,
  NEW_SAVING,
  SUBMITTED,
  ACCEPTED,
  RUNNING,
  FINAL_SAVING,
  FINISHING,
  FINISHED,
  FAILED,
  KILLING,
  KILLED,
};

// RMAppEventType (3.x; the 2.x MOVE event is gone: moves are synchronous in the scheduler).
enum class AppEvent : uint8_t {
  // From ClientRMService.
  START,
  RECOVER,
  KILL,
  // From the scheduler and RMAppManager.
  APP_REJECTED,
  APP_ACCEPTED,
  // From RMAppAttempt.
  ATTEMPT_REGISTERED,
  ATTEMPT_UNREGISTERED,
  ATTEMPT_FINISHED,
  ATTEMPT_FAILED,
  ATTEMPT_KILLED,
  NODE_UPDATE,
  ATTEMPT_LAUNCHED,
  // From containers and ResourceTrackerService.
  APP_RUNNING_ON_NODE,
  // From RMStateStore.
  APP_NEW_SAVED,
  APP_UPDATE_SAVED,
  APP_SAVE_FAILED,
};

// Which fact selects a row among the targets of one (from, event) pair.
enum class AppGuard : uint8_t {
  kAlways,
  // RMAppImpl.AttemptFailedTransition: a managed AM with failures < maxAppAttempts retries.
  kAttemptsRemain,
  kNoAttemptsRemain,
  // RMAppImpl.FinalStateSavedTransition: the row whose `to` is context.savedTarget.
  kSavedTarget,
  // RMAppImpl.RMAppRecoveredTransition: the row whose `to` is context.recoveredState.
  kRecovered,
};

struct AppTransition {
  AppState from;
  AppEvent event;
  AppState to;
  AppGuard guard = AppGuard::kAlways;
  // Set exactly on arcs entering FINAL_SAVING from another state: where APP_UPDATE_SAVED
  // leads afterwards.
  std::optional<AppState> afterSave = std::nullopt;
};

// The run-time facts YARN's multi-target transition hooks consult; the app object owns them.
struct AppTransitionContext {
  // ATTEMPT_FAILED: another attempt may start (not an unmanaged AM, and failures counted within
  // yarn.resourcemanager.am.max-attempts / the app's maxAppAttempts remain).
  bool attemptsRemain = false;
  // APP_UPDATE_SAVED in FINAL_SAVING: the afterSave of the arc that entered FINAL_SAVING.
  AppState savedTarget = AppState::FINISHED;
  // RECOVER in NEW: the final state found in the state store, else SUBMITTED when no attempt was
  // saved, else ACCEPTED.
  AppState recoveredState = AppState::ACCEPTED;
};

// The whole table, for tests and documentation.
std::span<const AppTransition> appTransitions();

// The row taken by `event` in `from`. FailedPrecondition "invalid transition: app in state X
// cannot take event Y" when the pair has no row, or "... to state Z" when the context names a
// target the pair does not have.
Result<AppTransition> findAppTransition(AppState from, AppEvent event,
                                        const AppTransitionContext& context = {});
// findAppTransition(...).to.
Result<AppState> nextAppState(AppState from, AppEvent event,
                              const AppTransitionContext& context = {});

// FINISHED, FAILED, KILLED.
bool isFinal(AppState s);

// What the REST API, the CLI and ApplicationReport show (RMAppImpl.createApplicationState):
// FINAL_SAVING shows the state it was entered from, KILLING the state the kill arrived in,
// FINISHING shows FINISHED. The owner remembers both "before" states (YARN's
// stateBeforeFinalSaving and stateBeforeKilling).
AppState reportedAppState(AppState current, AppState beforeFinalSaving, AppState beforeKilling);

// Enum names exactly as YARN prints them ("NEW_SAVING", "ATTEMPT_FAILED").
const char* toString(AppState s);
const char* toString(AppEvent e);
// Case-insensitive, as the REST `states` filter is; InvalidArgument lists the valid names.
Result<AppState> appStateFromString(std::string_view name);
Result<AppEvent> appEventFromString(std::string_view name);

// Every value in declaration order.
std::span<const AppState> allAppStates();
std::span<const AppEvent> allAppEvents();

}  // namespace spindle
