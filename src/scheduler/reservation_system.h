// The reservation system of a running scheduler (YARN's AbstractReservationSystem with
// CapacityReservationSystem or FairReservationSystem, and AbstractSchedulerPlanFollower): one
// plan per reservable queue, the client verbs (new id, submit, update, delete, list) and the
// plan follower that turns the plans into reservation queues. The Driver owns it and runs the
// follower on its monitor cadence (driver.h), so every front end shares it.
//
//   auto rs = ReservationSystem::create(conf, scheduler, clock).value();  // nullptr: disabled
//   ReservationId id = rs->newReservationId();
//   PlanStatus s = rs->submit("dedicated", id, &definition, "alice");
//   if (!s) return s.toStatus();                  // YARN's message; the plan is unchanged
//   driver.submit({.queue = "dedicated", .reservationId = id.toString(), ...});
//   rs->follow(scheduler, outcome);               // what Driver::monitorTick does
//
// The follower, per plan (AbstractSchedulerPlanFollower.synchronizePlan; the arithmetic is
// planFollowerStep, reservation/plan_follower_step.h):
//  1. the plan's capacity becomes the plan queue's guaranteed resources now;
//  2. planFollowerStep over the queues that exist; when the plan is over-committed now the
//     replanner runs (its deletions are in Outcome::reservationsReplanned);
//  3. the scheduler's setPlanQueues applies the step in one go: expired queues lose their
//     apps (moved to `<plan>-default` or killed, per reservation-move-on-expiry) and go,
//     current reservations get their queues at their entitlements, the default queue takes
//     the rest; Outcome::queues lists what was created, resized or removed;
//  4. the plan archives reservations past its sharing policy's window
//     (Outcome::reservationsArchived).
// Single-threaded, on the scheduler's thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "config/configuration.h"
#include "reservation/in_memory_plan.h"
#include "reservation/reservation_input_validator.h"
#include "reservation/reservation_settings.h"
#include "scheduler/outcome.h"
#include "scheduler/scheduler.h"

namespace spindle {

class ReservationSystem {
 public:
  // Reads yarn.resourcemanager.reservation-system.* and each plan queue's reservation keys (the
  // Fair Scheduler: the allocation file's reservation classes);
  // nullptr when the system is not enabled. Errors name the key. `scheduler` must outlive it
  // (the Driver owns both).
  static Result<std::unique_ptr<ReservationSystem>> create(const Configuration& conf,
                                                           const Scheduler& scheduler,
                                                           const Clock& clock);

  // The plan follower's period and the plans' step (planfollower.time-step).
  int64_t stepMs() const { return settings_.planFollowerTimeStepMs; }

  // ClientRMService.getNewReservation: reservation_<cluster timestamp>_<sequence>.
  reservation::ReservationId newReservationId();
  // ClientRMService.submitReservation: the plan's capacity brought to its queue's guaranteed
  // resources now, ReservationInputValidator, then the plan's agent. A
  // submission repeating an accepted id with the same definition succeeds and changes nothing;
  // any refusal leaves every plan as it was.
  reservation::PlanStatus submit(std::string_view queue,
                                 std::optional<reservation::ReservationId> id,
                                 const reservation::ReservationDefinition* definition,
                                 const std::string& user);
  reservation::PlanStatus update(std::optional<reservation::ReservationId> id,
                                 const reservation::ReservationDefinition* definition,
                                 const std::string& user);
  reservation::PlanStatus remove(std::optional<reservation::ReservationId> id,
                                 const std::string& user);

  // After an RM restart: new ids carry `timestamp` (the restarted RM's start time, as YARN's
  // ResourceManager.getClusterTimeStamp), so the id of a reservation deleted before the
  // restart is never handed out again. Call before recover().
  void restartIds(int64_t timestamp) {
    clusterTimestamp_ = timestamp;
    nextSequence_ = 1;
  }
  // A reservation read back from the RM's state store (AbstractReservationSystem.recover):
  // added to the plan of `queue` as accepted, without the agent or the sharing policy
  // (InMemoryPlan.addReservation with isRecovering). Ids this system hands out afterwards
  // follow the recovered ones. InvalidArgument when `queue` has no plan (it is no longer
  // reservable) or the id is already in a plan.
  Status recover(std::string_view queue, reservation::ReservationAllocation alloc);

  // Whether the follower may run the replanner on an over-committed plan (default true). A
  // restarted RM turns it off until its NodeManagers are back: a plan over a cluster that has
  // not re-registered yet looks over-committed, and replanning would drop what was accepted.
  void setReplanning(bool on) { replanning_ = on; }
  bool replanning() const { return replanning_; }

  // A plan by its queue's full path or short name; nullptr when the queue is not reservable.
  const reservation::InMemoryPlan* plan(std::string_view queue) const;
  // The plan holding the reservation, or nullptr.
  const reservation::InMemoryPlan* planOf(const reservation::ReservationId& id) const;
  // Full paths of the plan queues.
  std::vector<std::string> planQueues() const;
  // The plan queue's full path of a plan.
  std::string planPath(const reservation::InMemoryPlan& plan) const;

  // One run of the plan follower over every plan, applied to the scheduler's queues (the one
  // create() was given, through the Driver's mutable handle); what changed goes to `out`.
  Status follow(Scheduler& scheduler, Outcome& out);

  // Every plan's checkInvariants.
  Status checkInvariants() const;

 private:
  struct Plan {
    std::string path;
    reservation::ReservationPlan rp;
    // The entitlements the last follower run set, by queue name (the Outcome's changes).
    std::map<std::string, QueueEntitlement> entitlements;
  };
  ReservationSystem(reservation::ReservationSystemSettings settings, const Scheduler& scheduler,
                    const Clock& clock, int64_t clusterTimestamp);
  // AbstractReservationSystem.synchronizePlan without replanning: the plans' capacities become
  // their queues' guaranteed resources now (before a submission or update is planned).
  void synchronizeCapacities();
  Plan* find(std::string_view queue);
  const Plan* find(std::string_view queue) const;
  Plan* holding(const reservation::ReservationId& id);
  Status followPlan(Scheduler& scheduler, Plan& p, Outcome& out);

  reservation::ReservationSystemSettings settings_;
  const Scheduler& scheduler_;
  const Clock& clock_;
  int64_t clusterTimestamp_ = 0;
  int64_t nextSequence_ = 1;
  bool replanning_ = true;
  std::vector<std::unique_ptr<Plan>> plans_;
  reservation::ReservationInputValidator validator_;
};

}  // namespace spindle
