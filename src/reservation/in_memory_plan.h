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
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan (3.x).
// Indexes and their invariants (checkInvariants() verifies them):
//  1. table_ holds every reservation by id;
//  2. byInterval_ holds (start, end, id) for each; byEnd_ holds (end, id) for each
//     non-periodic one, and nothing else (periodic reservations are never archived);
//  3. committed_ is the sum of every non-periodic reservation's skyline;
//  4. userLoad_[u] is the sum of u's non-periodic reservations' skylines; a user with none
//     has no entry;
//  5. periodicCommitted_[p] is the sum of the folded allocations of the periodic reservations
//     of period p, with their count; userPeriodicLoad_[u][p] the same for u's; a period (a
//     user) with none has no entry;
//  6. userActive_[u] counts u's reservations over [first, last) breakpoint of each
//     non-periodic skyline and over [start, forever) for each periodic one.
// The load at t is committed_(t) plus, for each period p in use, periodicCommitted_[p] at
// t mod p (YARN keeps a single periodic skyline over max-periodicity and copies each periodic
// reservation into it max-periodicity / p times; one skyline per period holds the same sums
// without the copies). A periodic reservation counts in every period, also those before its
// start, as in YARN.
// add, update, delete and lookups by id cost O(log n + k) for n reservations and k breakpoints
// of the reservation; archiving costs O(log n + k) per archived reservation; queries by time
// cost O(log n + m) for the m reservations starting before the query's end; load queries over
// [s, e] add O(k_p * ((e - s) / p + 1)) per period p in use.
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
#include "reservation/periodic_rle_sparse_resource_allocation.h"
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

  // Non-periodic and periodic reservations together.
  Resource totalCommittedResources(int64_t t) const;
  // The committed load (periodic reservations unrolled) restricted to [start, end]
  // (getCumulativeLoadOverTime).
  PlanResult<RleSparseResourceAllocation> cumulativeLoadOverTime(int64_t start, int64_t end) const;
  // `user`'s load (periodic reservations unrolled) restricted to [start, end]
  // (getConsumptionForUserOverTime).
  PlanResult<RleSparseResourceAllocation> consumptionForUserOverTime(const std::string& user,
                                                                     int64_t start,
                                                                     int64_t end) const;
  Resource userResourcesAtTime(const std::string& user, int64_t t) const;
  // The non-periodic reservations' skyline.
  const RleSparseResourceAllocation& committed() const { return committed_; }
  // Number of `user`'s reservations active at t.
  int64_t activeReservationCount(const std::string& user, int64_t t) const;
  // getAvailableResourceOverTime(user, oldId, start, end, period).
  // period 0: capacity - committed (periodic reservations included) over [start, end] (fails
  // if the plan is already over-committed there, as YARN's subtractTestNonNegative merge),
  // plus the old version of `oldId`, then lowered by the sharing policy for `user`.
  // period > 0 (a periodic request; end - start <= period, period divides max-periodicity,
  // else PlanningException): for each offset in [start, end], the least (a kMin merge) of the
  // period-0 availability at that offset in every instance start + i * period: the
  // max-periodicity / period instances YARN looks at, and beyond them every instance that
  // meets a non-periodic reservation, so the request fits in all its future periods.
  PlanResult<RleSparseResourceAllocation> availableResourceOverTime(
      const std::string& user, std::optional<ReservationId> oldId, int64_t start, int64_t end,
      int64_t period = 0) const;
  // The same into `out`: the form the agents and policies use (no map is built).
  PlanStatus availableResourceOverTimeInto(const std::string& user,
                                           std::optional<ReservationId> oldId, int64_t start,
                                           int64_t end,
                                           RleSparseResourceAllocation::Points& out) const {
    return availableResourceOverTimeInto(user, oldId, start, end, 0, out);
  }
  PlanStatus availableResourceOverTimeInto(const std::string& user,
                                           std::optional<ReservationId> oldId, int64_t start,
                                           int64_t end, int64_t period,
                                           RleSparseResourceAllocation::Points& out) const;
  // `user`'s non-periodic skyline (empty when the user holds nothing non-periodic).
  const RleSparseResourceAllocation& userLoad(const std::string& user) const;
  bool hasPeriodicLoad(const std::string& user) const { return userPeriodicLoad_.contains(user); }
  bool hasPeriodicReservations() const { return !periodicCommitted_.empty(); }
  // The end of the non-periodic load (getLastEndTime); periodic reservations have none.
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
  // The folded load of the periodic reservations of each period in use.
  struct PeriodicLoad {
    PeriodicRleSparseResourceAllocation skyline;
    int64_t reservations = 0;
  };
  using PeriodicLoads = std::map<int64_t, PeriodicLoad>;

  void index(std::unique_ptr<ReservationAllocation> alloc);
  std::unique_ptr<ReservationAllocation> unindex(const ReservationId& id);
  PlanStatus periodicAvailableInto(const std::string& user, std::optional<ReservationId> oldId,
                                   int64_t start, int64_t end, int64_t period,
                                   RleSparseResourceAllocation::Points& out) const;
  // `nonPeriodic` restricted to [start, end] plus every skyline of `periodic` unrolled there.
  PlanStatus loadInto(const RleSparseResourceAllocation& nonPeriodic, const PeriodicLoads& periodic,
                      int64_t start, int64_t end, RleSparseResourceAllocation::Points& out) const;

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
  PeriodicLoads periodicCommitted_;
  std::map<std::string, PeriodicLoads> userPeriodicLoad_;
  size_t periodicCount_ = 0;
};

}  // namespace spindle::reservation
