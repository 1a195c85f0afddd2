// The Driver: the one owner of a scheduler for every front end (the simulator, the scenario
// runner, the coming ResourceManager daemon). It delivers events, keeps the monitor cadence and
// hands back each event's Outcome (outcome.h): the containers to launch, the completed and
// killed ones, the apps whose preemption message grew, the apps accepted, rejected and
// finished. Front ends act on those values; decision records (decision.h) are an observer
// stream beside them.
//
//   SimulatedClock clock;
//   Rng rng(42);
//   auto driver = Driver::create(conf, clock, rng).value();
//   DecisionLog log;
//   driver->setDecisionSink(&log);                      // optional: the audit stream
//   SPINDLE_CHECK_OK(driver->handle(NodeAdded{"h1", "/r1", Resource::of(8192, 8)}).status());
//   auto sub = driver->submit({.name = "a", .amResource = Resource::of(1024, 1)});
//   if (sub->admission()->action == AppAction::kRejected) ...  // a value, not an error
//   auto out = driver->heartbeat(*driver->scheduler().cluster().findNode("h1"), {});
//   for (const ContainerChange& c : out->containers) ...       // the AM container, to launch
//   if (auto t = driver->nextMonitorTick(); t && *t <= clock.nowMs()) driver->monitorTick();
//
// What a front end must do, and how the Driver does it:
//  1. Every state change is an event through the Driver (handle(), or the typed shortcuts:
//     heartbeat() is the NODE_UPDATE fast path for simulators, without the name lookup). An
//     error Status means bad input: nothing was applied (as Scheduler::handle).
//  2. Each call returns the Driver's one Outcome, cleared first and reused (no allocation once
//     warm): read it before the next call.
//  3. Monitor ticks: the scheduler needs MonitorTick every Scheduler::monitorIntervalMs() of
//     the injected clock. The Driver knows when the next is due (nextMonitorTick(): the time
//     the Driver was created plus the interval, then each tick's time plus the interval as
//     re-read after that tick, so a refreshed configuration takes effect from the next tick;
//     a refresh that turns monitors on arms them). A front end with its own timeline (the
//     simulator's event heap) delivers monitorTick() at that time; one driven by time passing
//     (a daemon) calls runDueMonitorTick() after moving its clock; one with explicit ticks (a
//     scenario's `monitor` step) calls monitorTick() when it says so.
//  4. Preemption: an AM reads its app's Scheduler::preemptionMessage on its next allocate
//     call; Outcome::preemptionMessageGrew lists the apps whose message grew (an idle AM is
//     woken to read it).
//  5. Submission: a scheduler's rejection (unknown or stopped queue, ACL, app limits) is a
//     value, AppAction::kRejected with the reason; an error is bad input (a negative or
//     oversized AM resource) and no app id was used.
//  6. Heartbeat-skip contract (Scheduler::emptyHeartbeatIsNoop, hasPendingDemand): a front end
//     may skip delivering a heartbeat that reports no completed containers exactly when
//     emptyHeartbeatIsNoop(node) holds (it would allocate, reserve and record nothing and
//     change no state); while hasPendingDemand() is false that holds for every node, so the
//     front end may skip all empty heartbeats. Outputs are the same with and without skipping.
//  7. Invariants: with DriverOptions::checkInvariantsEvery = N, Scheduler::checkInvariants()
//     runs after every N-th event; a broken invariant fails that event (internal error).
//  8. Reservations: with yarn.resourcemanager.reservation-system.enable, the Driver owns the
//     ReservationSystem (reservation_system.h; reservationSystem() takes the client verbs) and
//     runs its plan follower every planfollower.time-step ms on the same cadence:
//     nextMonitorTick() is the earlier of the two, monitorTick() runs both (Outcome::monitorRan
//     and planFollowerRan), runDueMonitorTick() only those due.
// Single-threaded, like the scheduler it owns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/rng.h"
#include "base/status.h"
#include "config/configuration.h"
#include "scheduler/decision.h"
#include "scheduler/events.h"
#include "scheduler/outcome.h"
#include "scheduler/reservation_system.h"
#include "scheduler/scheduler.h"

namespace spindle {

struct DriverOptions {
  // Run Scheduler::checkInvariants() after every N-th event; 0 = never.
  int64_t checkInvariantsEvery = 0;
};

class Driver {
 public:
  explicit Driver(std::unique_ptr<Scheduler> scheduler, DriverOptions options = {});
  // The scheduler yarn.resourcemanager.scheduler.class names (createScheduler).
  static Result<std::unique_ptr<Driver>> create(const Configuration& conf, const Clock& clock,
                                                Rng& rng, DriverOptions options = {});
  ~Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  // Any event. AppAdded goes through submit(), MonitorTick through monitorTick().
  Result<const Outcome&> handle(const SchedulerEvent& event);
  // NODE_UPDATE without the name lookup (the simulator's hot path).
  Result<const Outcome&> heartbeat(NodeId node, const std::vector<CompletedContainer>& completed) {
    outcome_.clear();
    return finish(sched_->heartbeat(node, completed));
  }
  // APP_ADDED: Outcome::admission() is the app, accepted or rejected (with the reason).
  Result<const Outcome&> submit(const AppSubmission& submission);
  // The AM container was lost: a new attempt, or the app FAILS (Scheduler::restartAttempt).
  // `countsAsFailure` false: a new attempt regardless of the attempts made (an RM restart lost
  // the AM container, not the app); `keepContainers`: Scheduler::restartAttempt.
  Result<const Outcome&> restartAttempt(AppId app, bool countsAsFailure = true,
                                        bool keepContainers = false);
  // Scheduler::beginBulkAdmission / endBulkAdmission (an RM recovering its stored apps).
  void beginBulkAdmission() { sched_->beginBulkAdmission(); }
  Result<const Outcome&> endBulkAdmission() {
    outcome_.clear();
    sched_->endBulkAdmission();
    return finish(Status::ok());
  }
  // `yarn rmadmin -refreshQueues` (Scheduler::refreshConfiguration).
  Result<const Outcome&> refreshConfiguration(const Configuration& conf);
  // Node attributes set by the administrator or reported by a node (NodeAttributesUpdate);
  // an error names the node and attribute and nothing changed.
  Result<const Outcome&> updateNodeAttributes(const NodeAttributesUpdate& update) {
    return handle(update);
  }
  // `yarn application -movetoqueue` (Scheduler::moveApp).
  Result<const Outcome&> moveApp(AppId app, std::string_view queue);
  // `rmadmin -removeFromClusterNodeLabels` and `-replaceLabelsOnNode` (Scheduler's
  // removeNodeLabels, replaceNodeLabels); AddNodeLabels is an event (handle()).
  Result<const Outcome&> removeNodeLabels(const std::vector<std::string>& labels) {
    outcome_.clear();
    return finish(sched_->removeNodeLabels(labels));
  }
  Result<const Outcome&> replaceNodeLabels(std::string_view node,
                                           const std::vector<std::string>& labels) {
    outcome_.clear();
    return finish(sched_->replaceNodeLabels(node, labels));
  }
  // `yarn application -updatePriority` (Scheduler::updateAppPriority); the app's priority()
  // is the effective one afterwards.
  Result<const Outcome&> updateAppPriority(AppId app, int32_t priority) {
    outcome_.clear();
    return finish(sched_->updateAppPriority(app, priority));
  }

  // When the next MonitorTick or plan follower run is due (injected-clock ms); nullopt while
  // neither is needed.
  std::optional<TimeMs> nextMonitorTick() const {
    if (!nextFollow_) return nextTick_;
    if (!nextTick_) return nextFollow_;
    return std::min(*nextTick_, *nextFollow_);
  }
  // Runs every monitor once now (Outcome::monitorRan) and the plan follower (planFollowerRan)
  // when there is a reservation system, then re-reads the intervals: each is next due that
  // long after now.
  Result<const Outcome&> monitorTick() { return tick(true, reservations_ != nullptr); }
  // Runs the plan follower alone now (an empty Outcome without a reservation system): the
  // reservation queues of plans just recovered exist before their apps come back.
  Result<const Outcome&> followPlansNow() { return tick(false, reservations_ != nullptr); }
  // Runs what is due at the clock's time (the monitors, the follower, both), else returns an
  // empty Outcome.
  Result<const Outcome&> runDueMonitorTick();

  // The reservation system (nullptr unless yarn.resourcemanager.reservation-system.enable):
  // new ids, submit, update, delete and the plans. Its plans change no scheduler state until
  // the follower runs.
  ReservationSystem* reservationSystem() { return reservations_.get(); }
  const ReservationSystem* reservationSystem() const { return reservations_.get(); }

  // The heartbeat-skip contract (rule 6 above).
  bool hasPendingDemand() const { return sched_->hasPendingDemand(); }
  bool emptyHeartbeatIsNoop(NodeId node) const { return sched_->emptyHeartbeatIsNoop(node); }

  // Brings what node events leave for later (Scheduler::settle: the Capacity Scheduler's queue
  // resolution) up to date. Call it before reading views after node events; it changes no
  // decision, only when derived state is computed.
  void settle() { sched_->settle(); }

  // The observer of the decision stream (nullptr for none).
  void setDecisionSink(DecisionSink* sink) { sched_->setDecisionSink(sink); }
  // Read-only: every change goes through the Driver.
  const Scheduler& scheduler() const { return *sched_; }
  const Clock& clock() const { return sched_->clock(); }
  // The last event's outcome.
  const Outcome& outcome() const { return outcome_; }
  // Events delivered so far (failed ones included).
  int64_t events() const { return events_; }

 private:
  Result<const Outcome&> finish(Status s) {
    ++events_;
    if (checkEvery_ > 0 && --untilCheck_ == 0) s = checkInvariants(std::move(s));
    if (!s.isOk()) return s;
    return outcome_;
  }
  Status checkInvariants(Status s);
  void armMonitor();
  Result<const Outcome&> tick(bool monitors, bool follower);

  std::unique_ptr<Scheduler> sched_;
  Outcome outcome_;
  std::optional<TimeMs> nextTick_;
  std::unique_ptr<ReservationSystem> reservations_;
  std::optional<TimeMs> nextFollow_;
  int64_t checkEvery_ = 0;
  int64_t untilCheck_ = 0;
  int64_t events_ = 0;
};

}  // namespace spindle
