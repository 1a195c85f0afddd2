#include "app/attempt_state.h"
#include "base/enum_names.h"

#include <array>
#include <cstddef>

#include <fmt/ranges.h>

namespace spindle {
namespace {

using S = AttemptState;
using E = AttemptEvent;
using G = AttemptGuard;

// RMAppAttemptImpl's stateMachineFactory, row for row, in YARN's order; YARN's EnumSet
// self-loops are spelled out one event per row. The self-loops YARN keeps on final states are
// left out (see attempt_state.h).
constexpr AttemptTransition kTable[] = {
    // NEW
    {S::NEW, E::START, S::SUBMITTED},
    {S::NEW, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::NEW, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // An AM registering for an attempt that has no container (UnexpectedAMRegisteredTransition).
    {S::NEW, E::REGISTERED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::NEW, E::RECOVER, S::FINISHED, G::kRecovered},
    {S::NEW, E::RECOVER, S::KILLED, G::kRecovered},
    {S::NEW, E::RECOVER, S::FAILED, G::kRecovered},
    {S::NEW, E::RECOVER, S::LAUNCHED, G::kRecovered},
    // SUBMITTED: waiting for the scheduler to add the attempt.
    {S::SUBMITTED, E::ATTEMPT_ADDED, S::SCHEDULED, G::kManagedAm},
    {S::SUBMITTED, E::ATTEMPT_ADDED, S::LAUNCHED_UNMANAGED_SAVING, G::kUnmanagedAm},
    {S::SUBMITTED, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::SUBMITTED, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::SUBMITTED, E::REGISTERED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // SCHEDULED: the AM container is asked for.
    {S::SCHEDULED, E::CONTAINER_ALLOCATED, S::ALLOCATED_SAVING, G::kAmContainerAllocated},
    {S::SCHEDULED, E::CONTAINER_ALLOCATED, S::SCHEDULED, G::kAmContainerNotAllocated},
    {S::SCHEDULED, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::SCHEDULED, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::SCHEDULED, E::CONTAINER_FINISHED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // ALLOCATED_SAVING: the attempt with its AM container is being stored.
    {S::ALLOCATED_SAVING, E::ATTEMPT_NEW_SAVED, S::ALLOCATED},
    {S::ALLOCATED_SAVING, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::ALLOCATED_SAVING, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::ALLOCATED_SAVING, E::CONTAINER_FINISHED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // LAUNCHED_UNMANAGED_SAVING: an unmanaged AM's attempt is being stored; it runs outside.
    {S::LAUNCHED_UNMANAGED_SAVING, E::ATTEMPT_NEW_SAVED, S::LAUNCHED},
    {S::LAUNCHED_UNMANAGED_SAVING, E::REGISTERED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::LAUNCHED_UNMANAGED_SAVING, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::LAUNCHED_UNMANAGED_SAVING, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // ALLOCATED: AMLauncher is starting the AM container.
    {S::ALLOCATED, E::LAUNCHED, S::LAUNCHED},
    {S::ALLOCATED, E::LAUNCH_FAILED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::ALLOCATED, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::ALLOCATED, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::ALLOCATED, E::CONTAINER_FINISHED, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // LAUNCHED: the AM runs and has not registered; AMLivelinessMonitor may expire it.
    {S::LAUNCHED, E::REGISTERED, S::RUNNING},
    {S::LAUNCHED, E::CONTAINER_FINISHED, S::LAUNCHED, G::kOtherContainer},
    {S::LAUNCHED, E::CONTAINER_FINISHED, S::FINAL_SAVING, G::kAmContainer, S::FAILED},
    {S::LAUNCHED, E::EXPIRE, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::LAUNCHED, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::LAUNCHED, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // RUNNING: the AM registered. An unmanaged AM has no container to wait for, so its
    // unregistration saves FINISHED directly (YARN-1815) instead of going through FINISHING.
    {S::RUNNING, E::UNREGISTERED, S::FINAL_SAVING, G::kManagedAm, S::FINISHING},
    {S::RUNNING, E::UNREGISTERED, S::FINAL_SAVING, G::kUnmanagedAm, S::FINISHED},
    {S::RUNNING, E::STATUS_UPDATE, S::RUNNING},
    {S::RUNNING, E::CONTAINER_ALLOCATED, S::RUNNING},
    {S::RUNNING, E::CONTAINER_FINISHED, S::RUNNING, G::kOtherContainer},
    {S::RUNNING, E::CONTAINER_FINISHED, S::FINAL_SAVING, G::kAmContainer, S::FAILED},
    {S::RUNNING, E::EXPIRE, S::FINAL_SAVING, G::kAlways, S::FAILED},
    {S::RUNNING, E::KILL, S::FINAL_SAVING, G::kAlways, S::KILLED},
    {S::RUNNING, E::FAIL, S::FINAL_SAVING, G::kAlways, S::FAILED},
    // FINAL_SAVING: the final state is being stored; everything else waits or is ignored.
    {S::FINAL_SAVING, E::ATTEMPT_UPDATE_SAVED, S::FINISHING, G::kSavedTarget},
    {S::FINAL_SAVING, E::ATTEMPT_UPDATE_SAVED, S::FAILED, G::kSavedTarget},
    {S::FINAL_SAVING, E::ATTEMPT_UPDATE_SAVED, S::KILLED, G::kSavedTarget},
    {S::FINAL_SAVING, E::ATTEMPT_UPDATE_SAVED, S::FINISHED, G::kSavedTarget},
    {S::FINAL_SAVING, E::CONTAINER_FINISHED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::EXPIRE, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::UNREGISTERED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::STATUS_UPDATE, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::LAUNCHED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::LAUNCH_FAILED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::CONTAINER_ALLOCATED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::ATTEMPT_NEW_SAVED, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::KILL, S::FINAL_SAVING},
    {S::FINAL_SAVING, E::FAIL, S::FINAL_SAVING},
    // FINISHING: FINISHED is stored; waiting for the AM container to exit (or to expire).
    {S::FINISHING, E::CONTAINER_FINISHED, S::FINISHED, G::kAmContainer},
    {S::FINISHING, E::CONTAINER_FINISHED, S::FINISHING, G::kOtherContainer},
    {S::FINISHING, E::EXPIRE, S::FINISHED},
    {S::FINISHING, E::UNREGISTERED, S::FINISHING},
    {S::FINISHING, E::STATUS_UPDATE, S::FINISHING},
    {S::FINISHING, E::CONTAINER_ALLOCATED, S::FINISHING},
    {S::FINISHING, E::KILL, S::FINISHING},
    {S::FINISHING, E::FAIL, S::FINISHING},
};

constexpr size_t kStateCount = static_cast<size_t>(S::KILLED) + 1;
constexpr size_t kEventCount = static_cast<size_t>(E::RECOVER) + 1;

constexpr std::array<const char*, kStateCount> kStateNames = {
    "NEW",          "SUBMITTED",
    "SCHEDULED",    "ALLOCATED_SAVING",
    "ALLOCATED",    "LAUNCHED_UNMANAGED_SAVING",
    "LAUNCHED",     "RUNNING",
    "FINAL_SAVING", "FINISHING",
    "FINISHED",     "FAILED",
    "KILLED",
};
constexpr std::array<const char*, kEventCount> kEventNames = {
    "START",
    "KILL",
    "FAIL",
    "LAUNCHED",
    "LAUNCH_FAILED",
    "EXPIRE",
    "REGISTERED",
    "STATUS_UPDATE",
    "UNREGISTERED",
    "CONTAINER_ALLOCATED",
    "CONTAINER_FINISHED",
    "ATTEMPT_NEW_SAVED",
    "ATTEMPT_UPDATE_SAVED",
    "ATTEMPT_ADDED",
    "RECOVER",
};

constexpr bool isFinalState(S s) { return s == S::FINISHED || s == S::FAILED || s == S::KILLED; }

// The guard that covers the other half of a boolean fact; kAlways for the target-picking ones.
constexpr G complement(G g) {
  switch (g) {
    case G::kManagedAm: return G::kUnmanagedAm;
    case G::kUnmanagedAm: return G::kManagedAm;
    case G::kAmContainerAllocated: return G::kAmContainerNotAllocated;
    case G::kAmContainerNotAllocated: return G::kAmContainerAllocated;
    case G::kAmContainer: return G::kOtherContainer;
    case G::kOtherContainer: return G::kAmContainer;
    case G::kAlways:
    case G::kSavedTarget:
    case G::kRecovered: return G::kAlways;
  }
  return G::kAlways;
}

// Table invariants, checked at compile time:
//   1. No row leaves a final state.
//   2. afterSave is set exactly on rows entering FINAL_SAVING from another state, and names
//      FINISHING or a final state.
//   3. A (from, event) pair with a kAlways row has no other row.
//   4. A row guarded by one side of a boolean fact has a row for the other side, so the pair
//      always has a row to take.
constexpr bool tableIsWellFormed() {
  for (const AttemptTransition& t : kTable) {
    if (isFinalState(t.from)) return false;
    if (t.afterSave.has_value() != (t.to == S::FINAL_SAVING && t.from != S::FINAL_SAVING)) {
      return false;
    }
    if (t.afterSave && !isFinalState(*t.afterSave) && *t.afterSave != S::FINISHING) return false;
    bool hasComplement = complement(t.guard) == G::kAlways;
    for (const AttemptTransition& u : kTable) {
      if (&t == &u || t.from != u.from || t.event != u.event) continue;
      if (t.guard == G::kAlways || u.guard == G::kAlways) return false;
      hasComplement = hasComplement || u.guard == complement(t.guard);
    }
    if (!hasComplement) return false;
  }
  return true;
}
static_assert(tableIsWellFormed(), "RMAppAttempt transition table breaks an invariant above");

bool holds(const AttemptTransition& t, const AttemptTransitionContext& c) {
  switch (t.guard) {
    case G::kAlways: return true;
    case G::kManagedAm: return !c.unmanagedAm;
    case G::kUnmanagedAm: return c.unmanagedAm;
    case G::kAmContainerAllocated: return c.amContainerAllocated;
    case G::kAmContainerNotAllocated: return !c.amContainerAllocated;
    case G::kAmContainer: return c.isAmContainer;
    case G::kOtherContainer: return !c.isAmContainer;
    case G::kSavedTarget: return t.to == c.savedTarget;
    case G::kRecovered: return t.to == c.recoveredState;
  }
  return false;
}

constexpr auto kAllStates = enumValues<AttemptState, kStateCount>();
constexpr auto kAllEvents = enumValues<AttemptEvent, kEventCount>();

}  // namespace

std::span<const AttemptTransition> attemptTransitions() { return kTable; }

Result<AttemptTransition> findAttemptTransition(AttemptState from, AttemptEvent event,
                                                const AttemptTransitionContext& context) {
  const AttemptTransition* guarded = nullptr;
  for (const AttemptTransition& t : kTable) {
    if (t.from != from || t.event != event) continue;
    if (holds(t, context)) return t;
    guarded = &t;
  }
  if (guarded == nullptr) {
    return failedPrecondition("invalid transition: attempt in state {} cannot take event {}",
                              toString(from), toString(event));
  }
  // Only the target-picking guards can all miss (invariant 4).
  AttemptState wanted =
      guarded->guard == G::kRecovered ? context.recoveredState : context.savedTarget;
  return failedPrecondition(
      "invalid transition: attempt in state {} cannot take event {} to state {}", toString(from),
      toString(event), toString(wanted));
}

Result<AttemptState> nextAttemptState(AttemptState from, AttemptEvent event,
                                      const AttemptTransitionContext& context) {
  SPINDLE_ASSIGN_OR_RETURN(AttemptTransition t, findAttemptTransition(from, event, context));
  return t.to;
}

bool isFinal(AttemptState s) { return isFinalState(s); }

AttemptState reportedAttemptState(AttemptState current, AttemptState beforeFinalSaving) {
  return current == S::FINAL_SAVING ? beforeFinalSaving : current;
}

const char* toString(AttemptState s) {
  auto i = static_cast<size_t>(s);
  return i < kStateNames.size() ? kStateNames[i] : "INVALID_ATTEMPT_STATE";
}

const char* toString(AttemptEvent e) {
  auto i = static_cast<size_t>(e);
  return i < kEventNames.size() ? kEventNames[i] : "INVALID_ATTEMPT_EVENT";
}

Result<AttemptState> attemptStateFromString(std::string_view name) {
  return parseEnumName<AttemptState>(name, kStateNames, "attempt state");
}

Result<AttemptEvent> attemptEventFromString(std::string_view name) {
  return parseEnumName<AttemptEvent>(name, kEventNames, "attempt event");
}

std::span<const AttemptState> allAttemptStates() { return kAllStates; }
std::span<const AttemptEvent> allAttemptEvents() { return kAllEvents; }

}  // namespace spindle
