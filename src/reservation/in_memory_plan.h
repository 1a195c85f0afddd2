// The plan of one reservable queue: every accepted reservation, the committed load over time,
// each user's load, and the sharing policy that admits new reservations.
//
//   SimulatedClock clock(0);
//   auto calc = makeDefaultResourceCalculator(ResourceTypes());
//   InMemoryPlan plan(PlanSettings{.queueName = "dedicated",
//                                  .totalCapacity = Resource::of(102400, 100),
//                                  .stepMs = 1000},
//                     *calc, std::make_unique<NoOverCommitPolicy>(), clock);
//   PlanStatus s = plan.addReservation(std::move(alloc));
//   plan.totalCommittedResources(5000);
//   plan.archiveCompletedReservations(clock.nowMs());
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan (3.x,
// non-periodic reservations). Indexes and their invariants (checkInvariants() verifies them):
//  1. table_ holds every reservation by id;
//  2. byInterval_ holds (start, end, id) and byEnd_ holds (end, id) for each, and nothing else;
//  3. committed_ is the sum of every reservation's skyline;
//  4. userLoad_[u] is the sum of u's reservations' skylines; a user with none has no entry;
//  5. userActive_[u] counts u's reservations over [first, last) breakpoint of each skyline.
// add, update, delete and lookups by id cost O(log n + k) for n reservations and k breakpoints
// of the reservation; archiving costs O(log n + k) per archived reservation; queries by time
// cost O(log n + m) for the m reservations starting before the query's end.
//
// Thread-compatible: one owner (the reservation system on the scheduler's thread).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "reservation/planning_status.h"
#include "reservation/reservation_allocation.h"
#include "reservation/sharing_policy.h"
#include "resource/resource_calculator.h"

namespace spindle::reservation {

struct PlanSettings {
  std::string queueName;
  Resource totalCapacity;
  int64_t stepMs = 1000;  // planfollower.time-step
  Resource minimumAllocation = Resource::of(1024, 1);
  Resource maximumAllocation = Resource::of(8192, 4);
  bool moveOnExpiry = true;           // reservation-move-on-expiry
  int64_t maxPeriodicity = 86400000;  // max-periodicity
};

class InMemoryPlan {
 public:
  InMemoryPlan(PlanSettings settings, const ResourceCalculator& calc,
               std::unique_ptr<SharingPolicy> policy, const Clock& clock);

  // Validates with the policy (unless recovering), stamps the acceptance time and indexes it.
  // IllegalArgumentException "... already exists" for a known id. A refused reservation leaves
  // the plan unchanged.
  PlanStatus addReservation(ReservationAllocation alloc, bool isRecovering = false);
  // Replaces the reservation of the same id: validate, remove the old, add the new (validated
  // again); on failure the old version is restored. IllegalArgumentException
  // "... does not exist in the plan" for an unknown id.
  PlanStatus updateReservation(ReservationAllocation alloc);
  PlanStatus deleteReservation(const ReservationId& id);
  // Removes every reservation whose end <= tick - policy window. Returns the ids removed.
  std::vector<ReservationId> archiveCompletedReservations(int64_t tick);

  const ReservationAllocation* reservationById(const ReservationId& id) const;
  // With an id: that reservation (or none). Otherwise every reservation with start <= end and
  // end > start of `interval` (all time when absent), of `user` unless empty; ordered by
  // (start, end, id).
  std::vector<const ReservationAllocation*> reservations(
      std::optional<ReservationId> id, std::optional<ReservationInterval> interval,
      const std::string& user = "") const;
  // Reservations whose [start, end) contains t, including those holding zero at t.
  std::vector<const ReservationAllocation*> reservationsAtTime(int64_t t) const;
  std::vector<const ReservationAllocation*> allReservations() const;
  size_t size() const { return table_.size(); }

  Resource totalCommittedResources(int64_t t) const { return committed_.capacityAtTime(t); }
  // The committed skyline restricted to [start, end] (getCumulativeLoadOverTime).
  RleSparseResourceAllocation cumulativeLoadOverTime(int64_t start, int64_t end) const {
    return committed_.rangeOverlapping(start, end);
  }
  RleSparseResourceAllocation consumptionForUserOverTime(const std::string& user, int64_t start,
                                                         int64_t end) const;
  const RleSparseResourceAllocation& committed() const { return committed_; }
  // Number of `user`'s reservations active at t.
  int64_t activeReservationCount(const std::string& user, int64_t t) const;
  // capacity - committed over [start, end] (fails if the plan is already over-committed there,
  // as YARN's subtractTestNonNegative merge), plus the old version of `oldId`, then lowered by
  // the sharing policy for `user`.
  PlanResult<RleSparseResourceAllocation> availableResourceOverTime(
      const std::string& user, std::optional<ReservationId> oldId, int64_t start,
      int64_t end) const;
  // The same into `out`: the form the agents and policies use (no map is built).
  PlanStatus availableResourceOverTimeInto(const std::string& user,
                                           std::optional<ReservationId> oldId, int64_t start,
                                           int64_t end,
                                           RleSparseResourceAllocation::Points& out) const;
  // `user`'s committed skyline (empty when the user holds nothing).
  const RleSparseResourceAllocation& userLoad(const std::string& user) const;
  int64_t lastEndTime() const { return committed_.latestNonNullTime(); }
  int64_t earliestStartTime() const { return committed_.earliestStartTime(); }

  const std::string& queueName() const { return settings_.queueName; }
  const Resource& totalCapacity() const { return settings_.totalCapacity; }
  // The plan follower pushes the plan queue's guaranteed resources here every step.
  void setTotalCapacity(const Resource& r) { settings_.totalCapacity = r; }
  int64_t stepMs() const { return settings_.stepMs; }
  const Resource& minimumAllocation() const { return settings_.minimumAllocation; }
  const Resource& maximumAllocation() const { return settings_.maximumAllocation; }
  bool moveOnExpiry() const { return settings_.moveOnExpiry; }
  int64_t maxPeriodicity() const { return settings_.maxPeriodicity; }
  const ResourceCalculator& calculator() const { return calc_; }
  const SharingPolicy& sharingPolicy() const { return *policy_; }
  const Clock& clock() const { return clock_; }

  // Recomputes every aggregate from the reservations and compares (tests, simulator).
  Status checkInvariants() const;

 private:
  void index(std::unique_ptr<ReservationAllocation> alloc);
  std::unique_ptr<ReservationAllocation> unindex(const ReservationId& id);

  PlanSettings settings_;
  const ResourceCalculator& calc_;
  std::unique_ptr<SharingPolicy> policy_;
  const Clock& clock_;

  std::unordered_map<ReservationId, std::unique_ptr<ReservationAllocation>> table_;
  std::set<std::tuple<int64_t, int64_t, ReservationId>> byInterval_;
  std::set<std::pair<int64_t, ReservationId>> byEnd_;
  RleSparseResourceAllocation committed_;
  std::map<std::string, RleSparseResourceAllocation> userLoad_;
  std::map<std::string, RleSparseResourceAllocation> userActive_;
};

}  // namespace spindle::reservation
