#include "scheduler/driver.h"

#include "scheduler/scheduler_factory.h"

namespace spindle {

const char* toString(ContainerAction a) {
  switch (a) {
    case ContainerAction::kAllocated: return "allocated";
    case ContainerAction::kCompleted: return "completed";
    case ContainerAction::kReleased: return "released";
    case ContainerAction::kKilled: return "killed";
    case ContainerAction::kPreemptionMarked: return "preemption-marked";
  }
  return "?";
}

const char* toString(AppAction a) {
  switch (a) {
    case AppAction::kAccepted: return "accepted";
    case AppAction::kRejected: return "rejected";
    case AppAction::kFinished: return "finished";
    case AppAction::kMoved: return "moved";
  }
  return "?";
}

const char* toString(QueueAction a) {
  switch (a) {
    case QueueAction::kCreated: return "created";
    case QueueAction::kResized: return "resized";
    case QueueAction::kRemoved: return "removed";
  }
  return "?";
}

Driver::Driver(std::unique_ptr<Scheduler> scheduler, DriverOptions options)
    : sched_(std::move(scheduler)),
      checkEvery_(options.checkInvariantsEvery),
      untilCheck_(options.checkInvariantsEvery) {
  sched_->setOutcome(&outcome_);
  armMonitor();
}

Driver::~Driver() { sched_->setOutcome(nullptr); }

Result<std::unique_ptr<Driver>> Driver::create(const Configuration& conf, const Clock& clock,
                                               Rng& rng, DriverOptions options) {
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<Scheduler> s, createScheduler(conf, clock, rng));
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<ReservationSystem> rs,
                           ReservationSystem::create(conf, *s, clock));
  auto d = std::make_unique<Driver>(std::move(s), options);
  if (rs) {
    d->reservations_ = std::move(rs);
    d->nextFollow_ = clock.nowMs() + d->reservations_->stepMs();
  }
  return d;
}

void Driver::armMonitor() {
  if (nextTick_) return;
  if (const int64_t every = sched_->monitorIntervalMs(); every > 0) {
    nextTick_ = sched_->clock().nowMs() + every;
  }
}

Status Driver::checkInvariants(Status s) {
  untilCheck_ = checkEvery_;
  sched_->settle();  // the checker compares what node events leave for later once it is current
  Status inv = sched_->checkInvariants();
  if (inv.isOk() && reservations_) inv = reservations_->checkInvariants();
  if (inv.isOk() || !s.isOk()) return s;
  return internalError("invariant broken after event {} at {} ms: {}", events_,
                       sched_->clock().nowMs(), inv.message());
}

Result<const Outcome&> Driver::handle(const SchedulerEvent& event) {
  if (const auto* added = std::get_if<AppAdded>(&event)) return submit(added->submission);
  if (std::holds_alternative<MonitorTick>(event)) return monitorTick();
  outcome_.clear();
  return finish(sched_->handle(event));
}

Result<const Outcome&> Driver::submit(const AppSubmission& submission) {
  outcome_.clear();
  Result<AppId> id = sched_->submit(submission);
  // The scheduler's refusal is recorded in the Outcome (kRejected): a value, not bad input.
  const AppChange* admission = outcome_.admission();
  const bool rejected =
      !id.isOk() && admission != nullptr && admission->action == AppAction::kRejected;
  return finish(id.isOk() || rejected ? Status::ok() : id.status());
}

Result<const Outcome&> Driver::restartAttempt(AppId app, bool countsAsFailure,
                                              bool keepContainers) {
  outcome_.clear();
  return finish(sched_->restartAttempt(app, countsAsFailure, keepContainers));
}

Result<const Outcome&> Driver::refreshConfiguration(const Configuration& conf) {
  outcome_.clear();
  Status s = sched_->refreshConfiguration(conf);
  // A refresh that enables monitors starts them (SchedulingMonitorManager); a running cadence
  // picks up the new interval after its next tick.
  if (s.isOk()) armMonitor();
  return finish(std::move(s));
}

Result<const Outcome&> Driver::moveApp(AppId app, std::string_view queue) {
  outcome_.clear();
  return finish(sched_->moveApp(app, queue));
}

Result<const Outcome&> Driver::tick(bool monitors, bool follower) {
  outcome_.clear();
  Status s = Status::ok();
  if (monitors) {
    s = sched_->handle(MonitorTick{});
    outcome_.monitorRan = true;
    nextTick_.reset();
    armMonitor();
  }
  if (follower && s.isOk()) {
    // The plans' capacities are the plan queues' guarantees: current once node events settle.
    sched_->settle();
    s = reservations_->follow(*sched_, outcome_);
    nextFollow_ = sched_->clock().nowMs() + reservations_->stepMs();
  }
  return finish(std::move(s));
}

Result<const Outcome&> Driver::runDueMonitorTick() {
  const TimeMs now = sched_->clock().nowMs();
  const bool monitors = nextTick_ && *nextTick_ <= now;
  const bool follower = nextFollow_ && *nextFollow_ <= now;
  if (monitors || follower) return tick(monitors, follower);
  outcome_.clear();
  return outcome_;
}

}  // namespace spindle
