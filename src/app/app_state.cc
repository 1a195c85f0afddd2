#include "app/app_state.h"
#include "base/enum_names.h"

#include <array>
#include <cstddef>

#include <fmt/ranges.h>

namespace spindle {
namespace {

using S = AppState;
using E = AppEvent;
using G = AppGuard;

// RMAppImpl's stateMachineFactory, row for row, in YARN's order. Self-loops are YARN's
// transitions whose hook acts without changing state (NODE_UPDATE records the node,
// APP_RUNNING_ON_NODE remembers where the app ran) or that YARN lists as ignorable in a live
// state. The self-loops YARN keeps on final states are left out (see app_state.h).
constexpr AppTransition kTable[] = {
    // NEW
    {S::NEW, E::NODE_UPDATE, S::NEW},
    {S::NEW, E::START, S::NEW_SAVING},
    {S::NEW, E::RECOVER, S::SUBMITTED, G::kRecovered},
    {S::NEW, E::RECOVER, S::ACCEPTED, G::kRecovered},
    {S::NEW, E::RECOVER, S::FINISHED, G::kRecovered},
    {S::NEW, E::RECOVER, S::FAILED, G::kRecovered},
    {S::NEW, E::RECOVER, S::KILLED, G::kRecovered},
    {S::NEW, E::KILL, S::KILLED},
    {S::NEW, E::APP_REJECTED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // NEW_SAVING: the submission is being written to the state store.
    {S::NEW_SAVING, E::NODE_UPDATE, S::NEW_SAVING},
    {S::NEW_SAVING, E::APP_NEW_SAVED, S::SUBMITTED},
    {S::NEW_SAVING, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::NEW_SAVING, E::APP_REJECTED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::NEW_SAVING, E::APP_SAVE_FAILED, S::FAILED},
    // SUBMITTED: handed to the scheduler, which accepts (queue ACLs, limits) or rejects.
    {S::SUBMITTED, E::NODE_UPDATE, S::SUBMITTED},
    {S::SUBMITTED, E::APP_REJECTED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::SUBMITTED, E::APP_ACCEPTED, S::ACCEPTED},
    {S::SUBMITTED, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    // ACCEPTED: an attempt exists; its AM has not registered yet.
    {S::ACCEPTED, E::NODE_UPDATE, S::ACCEPTED},
    {S::ACCEPTED, E::ATTEMPT_REGISTERED, S::RUNNING},
    {S::ACCEPTED, E::ATTEMPT_LAUNCHED, S::ACCEPTED},
    // A recovered app waits in ACCEPTED for its previous AM to exit, so an attempt may fail or
    // finish here.
    {S::ACCEPTED, E::ATTEMPT_FAILED, S::ACCEPTED, G::kAttemptsRemain},
    {S::ACCEPTED, E::ATTEMPT_FAILED, S::FINAL_SAVING, G::kNoAttemptsRemain, S::FAILED},
    {S::ACCEPTED, E::ATTEMPT_FINISHED, S::FINAL_SAVING, G::kAlways, S::FINISHED},
    {S::ACCEPTED, E::KILL, S::KILLING},
    {S::ACCEPTED, E::ATTEMPT_KILLED, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::ACCEPTED, E::APP_RUNNING_ON_NODE, S::ACCEPTED},
    // RUNNING: the AM registered.
    {S::RUNNING, E::NODE_UPDATE, S::RUNNING},
    {S::RUNNING, E::ATTEMPT_UNREGISTERED, S::FINAL_SAVING, G::kAlways, S::FINISHING},
    // An unmanaged AM has no container to wait for and jumps to FINISHED.
    {S::RUNNING, E::ATTEMPT_FINISHED, S::FINISHED},
    {S::RUNNING, E::APP_RUNNING_ON_NODE, S::RUNNING},
    {S::RUNNING, E::ATTEMPT_FAILED, S::ACCEPTED, G::kAttemptsRemain},
    {S::RUNNING, E::ATTEMPT_FAILED, S::FINAL_SAVING, G::kNoAttemptsRemain, S::FAILED},
    {S::RUNNING, E::KILL, S::KILLING},
    // FINAL_SAVING: the final state is being written; APP_UPDATE_SAVED goes where the entering
    // arc said.
    {S::FINAL_SAVING, E::APP_UPDATE_SAVED, S::FINISHING, G::kSavedTarget},
    {S::FINAL_SAVING, E::APP_UPDATE_SAVED, S::FAILED, G::kSavedTarget},
    {S::FINAL_SAVING, E::APP_UPDATE_SAVED, S::KILLED, G::kSavedTarget},
    {S::FINAL_SAVING, E::APP_UPDATE_SAVED, S::FINISHED, G::kSavedTarget},
    {S::FINAL_SAVING, E::ATTEMPT_FINISHED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::APP_RUNNING_ON_NODE, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::NODE_UPDATE, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::KILL, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::APP_NEW_SAVED, S::FINAL_SAVING},
    // FINISHING: FINISHED is saved; waiting for the AM container to exit. A kill is ignored.
    {S::FINISHING, E::ATTEMPT_FINISHED, S::FINISHED},
    {S::FINISHING, E::APP_RUNNING_ON_NODE, S::FINISHING},
    {S::FINISHING, E::NODE_UPDATE, S::FINISHING},
    {S::FINISHING, E::KILL, S::FINISHING},
    // KILLING: the attempt is being killed.
    {S::KILLING, E::APP_RUNNING_ON_NODE, S::KILLING},
    {S::KILLING, E::ATTEMPT_KILLED, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::KILLING, E::ATTEMPT_UNREGISTERED, S::FINAL_SAVING, G::kAlways, S::FINISHING},
    {S::KILLING, E::ATTEMPT_FINISHED, S::FINISHED},
    // An attempt that fails while the app is being killed ends the app as KILLED unless it was
    // the last attempt anyway (AttemptFailedTransition with initialState KILLING).
    {S::KILLING, E::ATTEMPT_FAILED, S::FINAL_SAVING, G::kAttemptsRemain, S::KILLED},
    {S::KILLING, E::ATTEMPT_FAILED, S::FINAL_SAVING, G::kNoAttemptsRemain, S::FAILED},
    {S::KILLING, E::NODE_UPDATE, S::KILLING},
    {S::KILLING, E::ATTEMPT_REGISTERED, S::KILLING},
    {S::KILLING, E::APP_UPDATE_SAVED, S::KILLING},
    {S::KILLING, E::KILL, S::KILLING},
};

constexpr size_t kStateCount = static_cast<size_t>(S::KILLED) + 1;
constexpr size_t kEventCount = static_cast<size_t>(E::APP_SAVE_FAILED) + 1;

constexpr std::array<const char*, kStateCount> kStateNames = {
    "NEW",       "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING", "FINAL_SAVING",
    "FINISHING", "FINISHED",   "FAILED",    "KILLING",  "KILLED",
};
constexpr std::array<const char*, kEventCount> kEventNames = {
    "START",
    "RECOVER",
    "KILL",
    "APP_REJECTED",
    "APP_ACCEPTED",
    "ATTEMPT_REGISTERED",
    "ATTEMPT_UNREGISTERED",
    "ATTEMPT_FINISHED",
    "ATTEMPT_FAILED",
    "ATTEMPT_KILLED",
    "NODE_UPDATE",
    "ATTEMPT_LAUNCHED",
    "APP_RUNNING_ON_NODE",
    "APP_NEW_SAVED",
    "APP_UPDATE_SAVED",
    "APP_SAVE_FAILED",
};

constexpr bool isFinalState(S s) { return s == S::FINISHED || s == S::FAILED || s == S::KILLED; }

// Table invariants, checked at compile time:
//   1. No row leaves a final state.
//   2. afterSave is set exactly on rows entering FINAL_SAVING from another state, and names
//      FINISHING or a final state.
//   3. A (from, event) pair with a kAlways row has no other row.
//   4. kAttemptsRemain and kNoAttemptsRemain rows come in pairs, so ATTEMPT_FAILED always has a
//      row to take.
constexpr bool sameArc(const AppTransition& a, const AppTransition& b) {
  return a.from == b.from && a.event == b.event;
}
constexpr bool tableIsWellFormed() {
  for (const AppTransition& t : kTable) {
    if (isFinalState(t.from)) return false;
    if (t.afterSave.has_value() != (t.to == S::FINAL_SAVING && t.from != S::FINAL_SAVING)) {
      return false;
    }
    if (t.afterSave && !isFinalState(*t.afterSave) && *t.afterSave != S::FINISHING) return false;
    bool hasRemain = false;
    bool hasNoRemain = false;
    for (const AppTransition& u : kTable) {
      if (&t == &u || !sameArc(t, u)) continue;
      if (t.guard == G::kAlways || u.guard == G::kAlways) return false;
      hasRemain = hasRemain || u.guard == G::kAttemptsRemain;
      hasNoRemain = hasNoRemain || u.guard == G::kNoAttemptsRemain;
    }
    if (t.guard == G::kAttemptsRemain && !hasNoRemain) return false;
    if (t.guard == G::kNoAttemptsRemain && !hasRemain) return false;
  }
  return true;
}
static_assert(tableIsWellFormed(), "RMApp transition table breaks an invariant listed above");

bool holds(const AppTransition& t, const AppTransitionContext& c) {
  switch (t.guard) {
    case G::kAlways: return true;
    case G::kAttemptsRemain: return c.attemptsRemain;
    case G::kNoAttemptsRemain: return !c.attemptsRemain;
    case G::kSavedTarget: return t.to == c.savedTarget;
    case G::kRecovered: return t.to == c.recoveredState;
  }
  return false;
}

// The target the context asked for, for the error when no row of the pair has it.
AppState wantedTarget(AppGuard g, const AppTransitionContext& c) {
  return g == G::kRecovered ? c.recoveredState : c.savedTarget;
}

constexpr auto kAllStates = enumValues<AppState, kStateCount>();
constexpr auto kAllEvents = enumValues<AppEvent, kEventCount>();

}  // namespace

std::span<const AppTransition> appTransitions() { return kTable; }

Result<AppTransition> findAppTransition(AppState from, AppEvent event,
                                        const AppTransitionContext& context) {
  const AppTransition* guarded = nullptr;
  for (const AppTransition& t : kTable) {
    if (t.from != from || t.event != event) continue;
    if (holds(t, context)) return t;
    guarded = &t;
  }
  if (guarded == nullptr) {
    return failedPrecondition("invalid transition: app in state {} cannot take event {}",
                              toString(from), toString(event));
  }
  return failedPrecondition("invalid transition: app in state {} cannot take event {} to state {}",
                            toString(from), toString(event),
                            toString(wantedTarget(guarded->guard, context)));
}

Result<AppState> nextAppState(AppState from, AppEvent event, const AppTransitionContext& context) {
  SPINDLE_ASSIGN_OR_RETURN(AppTransition t, findAppTransition(from, event, context));
  return t.to;
}

bool isFinal(AppState s) { return isFinalState(s); }

AppState reportedAppState(AppState current, AppState beforeFinalSaving, AppState beforeKilling) {
  AppState s = current;
  if (s == S::FINAL_SAVING) s = beforeFinalSaving;
  if (s == S::KILLING) s = beforeKilling;
  if (s == S::FINISHING) s = S::FINISHED;
  return s;
}

const char* toString(AppState s) {
  auto i = static_cast<size_t>(s);
  return i < kStateNames.size() ? kStateNames[i] : "INVALID_APP_STATE";
}

const char* toString(AppEvent e) {
  auto i = static_cast<size_t>(e);
  return i < kEventNames.size() ? kEventNames[i] : "INVALID_APP_EVENT";
}

Result<AppState> appStateFromString(std::string_view name) {
  return parseEnumName<AppState>(name, kStateNames, "app state");
}

Result<AppEvent> appEventFromString(std::string_view name) {
  return parseEnumName<AppEvent>(name, kEventNames, "app event");
}

std::span<const AppState> allAppStates() { return kAllStates; }
std::span<const AppEvent> allAppEvents() { return kAllEvents; }

}  // namespace spindle
