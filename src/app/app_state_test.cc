// The app, attempt and container lifecycles against YARN's RMAppImpl, RMAppAttemptImpl and
// RMContainerImpl: the normal paths walk through, wrong events are refused with both names,
// final states refuse everything.
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/attempt_state.h"
#include "app/container_state.h"

namespace spindle {

// Readable gtest failures (found by ADL, so outside the anonymous namespace).
void PrintTo(AppState s, std::ostream* os) { *os << toString(s); }
void PrintTo(AttemptState s, std::ostream* os) { *os << toString(s); }
void PrintTo(ContainerState s, std::ostream* os) { *os << toString(s); }

namespace {

// Walks one object through events the way its owner would: it keeps the state, remembers where
// FINAL_SAVING leads (afterSave) and hands that back on the "saved" event. A refused event fails
// the test and leaves the state as it was.
//
//   EXPECT_EQ(AppWalk(AppState::NEW).on(AppEvent::START).path(), "NEW NEW_SAVING");
template <typename State, typename Event, typename Context, auto find>
class Walk {
 public:
  explicit Walk(State start) : state_(start), path_(toString(start)) {}

  Walk& on(Event event, Context context = {}) {
    if constexpr (requires { context.savedTarget; }) {
      if (saved_) context.savedTarget = *saved_;
    }
    auto t = find(state_, event, context);
    EXPECT_TRUE(t.isOk()) << "event " << toString(event) << ": " << t.status().toString();
    if (!t.isOk()) return *this;
    if constexpr (requires { t->afterSave; }) {
      if (t->afterSave) saved_ = *t->afterSave;
    }
    state_ = t->to;
    path_ += std::string(" ") + toString(state_);
    return *this;
  }

  State state() const { return state_; }
  // Every state visited, space separated, starting with the initial one.
  const std::string& path() const { return path_; }

 private:
  State state_;
  std::string path_;
  std::optional<State> saved_;
};

using AppWalk = Walk<AppState, AppEvent, AppTransitionContext, &findAppTransition>;
using AttemptWalk =
    Walk<AttemptState, AttemptEvent, AttemptTransitionContext, &findAttemptTransition>;
using ContainerWalk =
    Walk<ContainerState, ContainerEvent, ContainerTransitionContext, &findContainerTransition>;

// Checks two table-wide properties: every event of the enum is taken somewhere (no dead event
// names), and every live state can reach a final state (no trap a lifecycle cannot leave).
template <typename Transition, typename State, typename Event>
void expectTableIsComplete(std::span<const Transition> table, std::span<const State> states,
                           std::span<const Event> events) {
  for (Event e : events) {
    bool used = false;
    for (const Transition& t : table) used = used || t.event == e;
    EXPECT_TRUE(used) << "event " << toString(e) << " has no transition";
  }
  for (State start : states) {
    if (isFinal(start)) continue;
    std::set<State> seen{start};
    std::vector<State> todo{start};
    bool reachesFinal = false;
    while (!todo.empty() && !reachesFinal) {
      State s = todo.back();
      todo.pop_back();
      reachesFinal = isFinal(s);
      for (const Transition& t : table) {
        if (t.from == s && seen.insert(t.to).second) todo.push_back(t.to);
      }
    }
    EXPECT_TRUE(reachesFinal) << toString(start) << " cannot reach a final state";
  }
}

// ---------------------------------------------------------------------------------------------
// Applications (RMAppImpl)

TEST(AppState, SubmitRunUnregisterFinish) {
  AppWalk w(AppState::NEW);
  w.on(AppEvent::START)
      .on(AppEvent::APP_NEW_SAVED)
      .on(AppEvent::APP_ACCEPTED)
      .on(AppEvent::ATTEMPT_LAUNCHED)
      .on(AppEvent::ATTEMPT_REGISTERED)
      .on(AppEvent::NODE_UPDATE)
      .on(AppEvent::ATTEMPT_UNREGISTERED)
      .on(AppEvent::APP_UPDATE_SAVED)
      .on(AppEvent::ATTEMPT_FINISHED);
  EXPECT_EQ(w.path(),
            "NEW NEW_SAVING SUBMITTED ACCEPTED ACCEPTED RUNNING RUNNING FINAL_SAVING FINISHING "
            "FINISHED");
  EXPECT_TRUE(isFinal(w.state()));
}

TEST(AppState, FailedAttemptRetriesUntilAttemptsRunOut) {
  AppWalk w(AppState::RUNNING);
  w.on(AppEvent::ATTEMPT_FAILED, {.attemptsRemain = true})
      .on(AppEvent::ATTEMPT_REGISTERED)
      .on(AppEvent::ATTEMPT_FAILED, {.attemptsRemain = false})
      .on(AppEvent::APP_UPDATE_SAVED);
  EXPECT_EQ(w.path(), "RUNNING ACCEPTED RUNNING FINAL_SAVING FAILED");
  // An AM that never registered fails the same way from ACCEPTED.
  EXPECT_EQ(*nextAppState(AppState::ACCEPTED, AppEvent::ATTEMPT_FAILED, {.attemptsRemain = true}),
            AppState::ACCEPTED);
}

TEST(AppState, KillWhileRunningWaitsForTheAttempt) {
  AppWalk w(AppState::RUNNING);
  w.on(AppEvent::KILL)
      .on(AppEvent::KILL)
      .on(AppEvent::ATTEMPT_KILLED)
      .on(AppEvent::APP_UPDATE_SAVED);
  EXPECT_EQ(w.path(), "RUNNING KILLING KILLING FINAL_SAVING KILLED");
}

TEST(AppState, AttemptFailingDuringKillEndsKilledNotRetried) {
  auto t = findAppTransition(AppState::KILLING, AppEvent::ATTEMPT_FAILED, {.attemptsRemain = true});
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(t->to, AppState::FINAL_SAVING);
  EXPECT_EQ(t->afterSave, AppState::KILLED);
  // The last attempt failing while being killed is still a failure.
  t = findAppTransition(AppState::KILLING, AppEvent::ATTEMPT_FAILED, {.attemptsRemain = false});
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(t->afterSave, AppState::FAILED);
}

TEST(AppState, RejectionAndEarlyKillAreSavedBeforeTheyShow) {
  EXPECT_EQ(AppWalk(AppState::NEW)
                .on(AppEvent::START)
                .on(AppEvent::APP_NEW_SAVED)
                .on(AppEvent::APP_REJECTED)
                .on(AppEvent::APP_UPDATE_SAVED)
                .path(),
            "NEW NEW_SAVING SUBMITTED FINAL_SAVING FAILED");
  EXPECT_EQ(AppWalk(AppState::NEW_SAVING).on(AppEvent::KILL).on(AppEvent::APP_UPDATE_SAVED).path(),
            "NEW_SAVING FINAL_SAVING KILLED");
  // Nothing is stored yet in NEW, so a kill ends the app at once.
  EXPECT_EQ(*nextAppState(AppState::NEW, AppEvent::KILL), AppState::KILLED);
  EXPECT_EQ(*nextAppState(AppState::NEW_SAVING, AppEvent::APP_SAVE_FAILED), AppState::FAILED);
}

TEST(AppState, RecoveryResumesTheStoredState) {
  for (AppState s : {AppState::SUBMITTED, AppState::ACCEPTED, AppState::FINISHED, AppState::FAILED,
                     AppState::KILLED}) {
    EXPECT_EQ(*nextAppState(AppState::NEW, AppEvent::RECOVER, {.recoveredState = s}), s);
  }
  auto bad = nextAppState(AppState::NEW, AppEvent::RECOVER, {.recoveredState = AppState::RUNNING});
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(),
            "invalid transition: app in state NEW cannot take event RECOVER to state RUNNING");
}

TEST(AppState, InvalidTransitionNamesStateAndEvent) {
  auto r = nextAppState(AppState::ACCEPTED, AppEvent::APP_NEW_SAVED);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.status().message(),
            "invalid transition: app in state ACCEPTED cannot take event APP_NEW_SAVED");
  // An unregistered AM cannot register again.
  EXPECT_FALSE(nextAppState(AppState::FINISHING, AppEvent::ATTEMPT_REGISTERED).isOk());
}

TEST(AppState, SavedTargetMustBeOneOfFinalSavingsTargets) {
  auto r = nextAppState(AppState::FINAL_SAVING, AppEvent::APP_UPDATE_SAVED,
                        {.savedTarget = AppState::RUNNING});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(),
            "invalid transition: app in state FINAL_SAVING cannot take event APP_UPDATE_SAVED to "
            "state RUNNING");
}

TEST(AppState, FinalStatesRejectEveryEvent) {
  for (AppState s : {AppState::FINISHED, AppState::FAILED, AppState::KILLED}) {
    EXPECT_TRUE(isFinal(s));
    for (AppEvent e : allAppEvents()) {
      auto r = nextAppState(s, e, {.attemptsRemain = true});
      EXPECT_FALSE(r.isOk()) << toString(s) << " took " << toString(e);
      EXPECT_NE(r.status().message().find(toString(s)), std::string::npos);
    }
  }
  EXPECT_FALSE(isFinal(AppState::FINISHING));
  EXPECT_FALSE(isFinal(AppState::KILLING));
}

TEST(AppState, ArcsIntoFinalSavingSayWhereTheyLead) {
  for (const AppTransition& t : appTransitions()) {
    EXPECT_EQ(t.afterSave.has_value(),
              t.to == AppState::FINAL_SAVING && t.from != AppState::FINAL_SAVING)
        << toString(t.from) << " --" << toString(t.event) << "--> " << toString(t.to);
  }
}

TEST(AppState, TableIsComplete) {
  expectTableIsComplete(appTransitions(), allAppStates(), allAppEvents());
}

TEST(AppState, ReportedStateHidesSavingAndKilling) {
  EXPECT_EQ(reportedAppState(AppState::FINAL_SAVING, AppState::RUNNING, AppState::NEW),
            AppState::RUNNING);
  EXPECT_EQ(reportedAppState(AppState::KILLING, AppState::NEW, AppState::ACCEPTED),
            AppState::ACCEPTED);
  // Killed while running: FINAL_SAVING was entered from KILLING, which shows RUNNING.
  EXPECT_EQ(reportedAppState(AppState::FINAL_SAVING, AppState::KILLING, AppState::RUNNING),
            AppState::RUNNING);
  EXPECT_EQ(reportedAppState(AppState::FINISHING, AppState::RUNNING, AppState::NEW),
            AppState::FINISHED);
  EXPECT_EQ(reportedAppState(AppState::KILLED, AppState::KILLING, AppState::RUNNING),
            AppState::KILLED);
}

TEST(AppState, NamesRoundTripAsYarnPrintsThem) {
  for (AppState s : allAppStates()) EXPECT_EQ(*appStateFromString(toString(s)), s);
  for (AppEvent e : allAppEvents()) EXPECT_EQ(*appEventFromString(toString(e)), e);
  EXPECT_STREQ(toString(AppState::NEW_SAVING), "NEW_SAVING");
  EXPECT_STREQ(toString(AppEvent::ATTEMPT_UNREGISTERED), "ATTEMPT_UNREGISTERED");
  EXPECT_EQ(*appStateFromString("accepted"), AppState::ACCEPTED);
  auto bad = appStateFromString("DONE");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "unknown app state 'DONE'; expected one of NEW, NEW_SAVING, SUBMITTED, ACCEPTED, "
            "RUNNING, FINAL_SAVING, FINISHING, FINISHED, FAILED, KILLING, KILLED");
}

// ---------------------------------------------------------------------------------------------
// Attempts (RMAppAttemptImpl)

TEST(AttemptState, ManagedAmFromScheduleToFinish) {
  AttemptWalk w(AttemptState::NEW);
  w.on(AttemptEvent::START)
      .on(AttemptEvent::ATTEMPT_ADDED)
      .on(AttemptEvent::CONTAINER_ALLOCATED, {.amContainerAllocated = false})
      .on(AttemptEvent::CONTAINER_ALLOCATED)
      .on(AttemptEvent::ATTEMPT_NEW_SAVED)
      .on(AttemptEvent::LAUNCHED)
      .on(AttemptEvent::REGISTERED)
      .on(AttemptEvent::STATUS_UPDATE)
      .on(AttemptEvent::CONTAINER_FINISHED)  // a worker container, not the AM
      .on(AttemptEvent::UNREGISTERED)
      .on(AttemptEvent::ATTEMPT_UPDATE_SAVED)
      .on(AttemptEvent::CONTAINER_FINISHED)  // another worker
      .on(AttemptEvent::CONTAINER_FINISHED, {.isAmContainer = true});
  EXPECT_EQ(w.path(),
            "NEW SUBMITTED SCHEDULED SCHEDULED ALLOCATED_SAVING ALLOCATED LAUNCHED RUNNING RUNNING "
            "RUNNING FINAL_SAVING FINISHING FINISHING FINISHED");
}

TEST(AttemptState, UnmanagedAmSkipsTheContainerAndFinishing) {
  AttemptTransitionContext unmanaged{.unmanagedAm = true};
  AttemptWalk w(AttemptState::SUBMITTED);
  w.on(AttemptEvent::ATTEMPT_ADDED, unmanaged)
      .on(AttemptEvent::ATTEMPT_NEW_SAVED)
      .on(AttemptEvent::REGISTERED)
      .on(AttemptEvent::UNREGISTERED, unmanaged)
      .on(AttemptEvent::ATTEMPT_UPDATE_SAVED);
  EXPECT_EQ(w.path(), "SUBMITTED LAUNCHED_UNMANAGED_SAVING LAUNCHED RUNNING FINAL_SAVING FINISHED");
}

TEST(AttemptState, AmContainerLossFailsTheAttempt) {
  EXPECT_EQ(AttemptWalk(AttemptState::RUNNING)
                .on(AttemptEvent::CONTAINER_FINISHED, {.isAmContainer = true})
                .on(AttemptEvent::KILL)  // ignored while the failure is stored
                .on(AttemptEvent::ATTEMPT_UPDATE_SAVED)
                .path(),
            "RUNNING FINAL_SAVING FINAL_SAVING FAILED");
  EXPECT_EQ(AttemptWalk(AttemptState::LAUNCHED)
                .on(AttemptEvent::EXPIRE)
                .on(AttemptEvent::ATTEMPT_UPDATE_SAVED)
                .path(),
            "LAUNCHED FINAL_SAVING FAILED");
  EXPECT_EQ(AttemptWalk(AttemptState::ALLOCATED)
                .on(AttemptEvent::LAUNCH_FAILED)
                .on(AttemptEvent::ATTEMPT_UPDATE_SAVED)
                .path(),
            "ALLOCATED FINAL_SAVING FAILED");
}

TEST(AttemptState, KillFromEveryLiveStateSavesKilled) {
  for (AttemptState s :
       {AttemptState::NEW, AttemptState::SUBMITTED, AttemptState::SCHEDULED,
        AttemptState::ALLOCATED_SAVING, AttemptState::ALLOCATED,
        AttemptState::LAUNCHED_UNMANAGED_SAVING, AttemptState::LAUNCHED, AttemptState::RUNNING}) {
    auto t = findAttemptTransition(s, AttemptEvent::KILL);
    ASSERT_TRUE(t.isOk()) << toString(s);
    EXPECT_EQ(t->to, AttemptState::FINAL_SAVING) << toString(s);
    EXPECT_EQ(t->afterSave, AttemptState::KILLED) << toString(s);
  }
}

TEST(AttemptState, RecoveryResumesTheStoredState) {
  for (AttemptState s : {AttemptState::LAUNCHED, AttemptState::FINISHED, AttemptState::FAILED,
                         AttemptState::KILLED}) {
    EXPECT_EQ(*nextAttemptState(AttemptState::NEW, AttemptEvent::RECOVER, {.recoveredState = s}),
              s);
  }
  EXPECT_FALSE(nextAttemptState(AttemptState::NEW, AttemptEvent::RECOVER,
                                {.recoveredState = AttemptState::SCHEDULED})
                   .isOk());
}

TEST(AttemptState, InvalidTransitionNamesStateAndEvent) {
  auto r = nextAttemptState(AttemptState::SCHEDULED, AttemptEvent::REGISTERED);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.status().message(),
            "invalid transition: attempt in state SCHEDULED cannot take event REGISTERED");
  auto saved = nextAttemptState(AttemptState::FINAL_SAVING, AttemptEvent::ATTEMPT_UPDATE_SAVED,
                                {.savedTarget = AttemptState::RUNNING});
  ASSERT_FALSE(saved.isOk());
  EXPECT_EQ(saved.status().message(),
            "invalid transition: attempt in state FINAL_SAVING cannot take event "
            "ATTEMPT_UPDATE_SAVED to state RUNNING");
}

TEST(AttemptState, FinalStatesRejectEveryEvent) {
  for (AttemptState s : {AttemptState::FINISHED, AttemptState::FAILED, AttemptState::KILLED}) {
    EXPECT_TRUE(isFinal(s));
    for (AttemptEvent e : allAttemptEvents()) {
      EXPECT_FALSE(nextAttemptState(s, e, {.isAmContainer = true}).isOk())
          << toString(s) << " took " << toString(e);
    }
  }
  EXPECT_FALSE(isFinal(AttemptState::FINISHING));
}

TEST(AttemptState, TableIsComplete) {
  expectTableIsComplete(attemptTransitions(), allAttemptStates(), allAttemptEvents());
  for (const AttemptTransition& t : attemptTransitions()) {
    EXPECT_EQ(t.afterSave.has_value(),
              t.to == AttemptState::FINAL_SAVING && t.from != AttemptState::FINAL_SAVING)
        << toString(t.from) << " --" << toString(t.event) << "--> " << toString(t.to);
  }
}

TEST(AttemptState, ReportedStateHidesFinalSaving) {
  EXPECT_EQ(reportedAttemptState(AttemptState::FINAL_SAVING, AttemptState::RUNNING),
            AttemptState::RUNNING);
  EXPECT_EQ(reportedAttemptState(AttemptState::FINISHING, AttemptState::RUNNING),
            AttemptState::FINISHING);
}

TEST(AttemptState, NamesRoundTripAsYarnPrintsThem) {
  for (AttemptState s : allAttemptStates()) EXPECT_EQ(*attemptStateFromString(toString(s)), s);
  for (AttemptEvent e : allAttemptEvents()) EXPECT_EQ(*attemptEventFromString(toString(e)), e);
  EXPECT_STREQ(toString(AttemptState::LAUNCHED_UNMANAGED_SAVING), "LAUNCHED_UNMANAGED_SAVING");
  EXPECT_EQ(*attemptEventFromString("container_finished"), AttemptEvent::CONTAINER_FINISHED);
  EXPECT_EQ(attemptStateFromString("GONE").status().code(), StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------------------------------------
// Containers (RMContainerImpl)

TEST(ContainerState, AllocateAcquireLaunchFinish) {
  EXPECT_EQ(ContainerWalk(ContainerState::NEW)
                .on(ContainerEvent::START)
                .on(ContainerEvent::ACQUIRED)
                .on(ContainerEvent::LAUNCHED)
                .on(ContainerEvent::FINISHED)
                .path(),
            "NEW ALLOCATED ACQUIRED RUNNING COMPLETED");
}

TEST(ContainerState, ReservationTurnsIntoAnAllocation) {
  EXPECT_EQ(ContainerWalk(ContainerState::NEW)
                .on(ContainerEvent::RESERVED)
                .on(ContainerEvent::RESERVED)
                .on(ContainerEvent::START)
                .path(),
            "NEW RESERVED RESERVED ALLOCATED");
  EXPECT_EQ(*nextContainerState(ContainerState::RESERVED, ContainerEvent::RELEASED),
            ContainerState::RELEASED);
}

TEST(ContainerState, UnlaunchedContainersExpire) {
  EXPECT_EQ(*nextContainerState(ContainerState::ALLOCATED, ContainerEvent::EXPIRE),
            ContainerState::EXPIRED);
  EXPECT_EQ(*nextContainerState(ContainerState::ACQUIRED, ContainerEvent::EXPIRE),
            ContainerState::EXPIRED);
  // Once the NM reports it, the allocation expirer no longer applies.
  EXPECT_FALSE(nextContainerState(ContainerState::RUNNING, ContainerEvent::EXPIRE).isOk());
}

TEST(ContainerState, AmReleasesWhatItAcquired) {
  EXPECT_EQ(*nextContainerState(ContainerState::ACQUIRED, ContainerEvent::RELEASED),
            ContainerState::RELEASED);
  EXPECT_EQ(*nextContainerState(ContainerState::RUNNING, ContainerEvent::RELEASED),
            ContainerState::RELEASED);
}

TEST(ContainerState, KillEndsEveryLiveState) {
  for (ContainerState s : allContainerStates()) {
    if (isFinal(s)) continue;
    EXPECT_EQ(*nextContainerState(s, ContainerEvent::KILL), ContainerState::KILLED) << toString(s);
  }
}

TEST(ContainerState, RecoveryFollowsTheNodeReport) {
  EXPECT_EQ(*nextContainerState(ContainerState::NEW, ContainerEvent::RECOVER),
            ContainerState::RUNNING);
  EXPECT_EQ(*nextContainerState(ContainerState::NEW, ContainerEvent::RECOVER,
                                {.recoveredState = ContainerState::COMPLETED}),
            ContainerState::COMPLETED);
  EXPECT_FALSE(nextContainerState(ContainerState::NEW, ContainerEvent::RECOVER,
                                  {.recoveredState = ContainerState::RESERVED})
                   .isOk());
}

TEST(ContainerState, InvalidTransitionNamesStateAndEvent) {
  auto r = nextContainerState(ContainerState::ACQUIRED, ContainerEvent::RESERVED);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.status().message(),
            "invalid transition: container in state ACQUIRED cannot take event RESERVED");
  EXPECT_FALSE(nextContainerState(ContainerState::NEW, ContainerEvent::LAUNCHED).isOk());
}

TEST(ContainerState, FinalStatesRejectEveryEvent) {
  for (ContainerState s : {ContainerState::COMPLETED, ContainerState::EXPIRED,
                           ContainerState::RELEASED, ContainerState::KILLED}) {
    EXPECT_TRUE(isFinal(s));
    for (ContainerEvent e : allContainerEvents()) {
      EXPECT_FALSE(nextContainerState(s, e).isOk()) << toString(s) << " took " << toString(e);
    }
  }
  EXPECT_FALSE(isFinal(ContainerState::RESERVED));
}

TEST(ContainerState, TableIsComplete) {
  expectTableIsComplete(containerTransitions(), allContainerStates(), allContainerEvents());
}

TEST(ContainerState, NamesRoundTripAsYarnPrintsThem) {
  for (ContainerState s : allContainerStates()) {
    EXPECT_EQ(*containerStateFromString(toString(s)), s);
  }
  for (ContainerEvent e : allContainerEvents()) {
    EXPECT_EQ(*containerEventFromString(toString(e)), e);
  }
  EXPECT_STREQ(toString(ContainerEvent::NM_DONE_CHANGE_RESOURCE), "NM_DONE_CHANGE_RESOURCE");
  EXPECT_EQ(containerEventFromString("LAUNCH").status().code(), StatusCode::kInvalidArgument);
}

TEST(ContainerState, ExitStatusesMatchYarn) {
  EXPECT_EQ(ContainerExitStatus::SUCCESS, 0);
  EXPECT_EQ(ContainerExitStatus::INVALID, -1000);
  EXPECT_EQ(ContainerExitStatus::ABORTED, -100);
  EXPECT_EQ(ContainerExitStatus::PREEMPTED, -102);
  EXPECT_EQ(ContainerExitStatus::KILLED_BY_RESOURCEMANAGER, -106);
  EXPECT_EQ(ContainerExitStatus::KILLED_FOR_EXCESS_LOGS, -109);
  EXPECT_EQ(containerExitStatusName(-102), "PREEMPTED");
  EXPECT_EQ(containerExitStatusName(ContainerExitStatus::KILLED_AFTER_APP_COMPLETION),
            "KILLED_AFTER_APP_COMPLETION");
  // A process exit code is not a named status.
  EXPECT_EQ(containerExitStatusName(137), "");
}

}  // namespace
}  // namespace spindle
