// Sharing policies: the plan's admission control. A policy checks a candidate reservation
// against the plan (validate) and lowers the availability the agents see (availableResources).
//
//   auto policy = std::make_unique<CapacityOverTimePolicy>(
//       CapacityOverTimePolicy::Settings{.validWindowMs = 86400000,
//                                        .instantaneousMaxPercent = 75,
//                                        .averagePercent = 25});
//   PlanStatus s = policy->validate(plan, candidate);  // PlanningQuotaException if over quota
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.{SharingPolicy,
// NoOverCommitPolicy, CapacityOverTimePolicy} of Hadoop 3.x. Policies are immutable and read
// the plan only; the plan calls validate() inside add / update.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reservation/planning_status.h"
#include "reservation/reservation_allocation.h"
#include "reservation/rle_sparse_resource_allocation.h"

namespace spindle::reservation {

class InMemoryPlan;

inline constexpr const char* kNoOverCommitPolicyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.NoOverCommitPolicy";
inline constexpr const char* kCapacityOverTimePolicyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacityOverTimePolicy";

class SharingPolicy {
 public:
  virtual ~SharingPolicy() = default;
  virtual const char* className() const = 0;
  // Accepts or refuses `candidate` (which may replace the plan's reservation of the same id).
  virtual PlanStatus validate(const InMemoryPlan& plan,
                              const ReservationAllocation& candidate) const = 0;
  // Lowers `available` (the plan's free capacity over [start, end], in place) to what `user`
  // may still take, counting the reservation `oldId` being replaced as free.
  virtual PlanStatus availableResources(RleSparseResourceAllocation::Points& available,
                                        const InMemoryPlan& plan, const std::string& user,
                                        std::optional<ReservationId> oldId, int64_t start,
                                        int64_t end) const = 0;
  // How long finished reservations stay in the plan (archiveCompletedReservations).
  virtual int64_t validWindowMs() const = 0;
};

// Periodic reservations: validate() checks a periodic candidate with the plan's periodic
// availability (every later period) and its allocation unrolled over [start, end]; the user's
// periodic load counts in every period in availableResources() and in the integral check.
//
// NoOverCommitPolicy:
//  1. avail = plan.availableResourceOverTime(user, id, start, end, periodicity) (the replaced
//     version free);
//  2. the candidate must fit in avail componentwise at every breakpoint of [start, end]
//     (a kSubtractTestNonNegative merge), else ResourceOverCommitException "Resources at time
//     ... would be overcommitted by accepting reservation: <id>".
// availableResources is the identity; the window is 0 (reservations archive as they end).
class NoOverCommitPolicy : public SharingPolicy {
 public:
  const char* className() const override { return kNoOverCommitPolicyClass; }
  PlanStatus validate(const InMemoryPlan& plan,
                      const ReservationAllocation& candidate) const override;
  PlanStatus availableResources(RleSparseResourceAllocation::Points& available,
                                const InMemoryPlan& plan, const std::string& user,
                                std::optional<ReservationId> oldId, int64_t start,
                                int64_t end) const override;
  int64_t validWindowMs() const override { return 0; }
};

// CapacityOverTimePolicy (the default): a user may hold at most instantaneousMaxPercent of the
// plan at any instant, and on average at most averagePercent over any window of validWindowMs.
//  availableResources: min (under the calculator, whole resources) of the plan's availability
//    and maxInst * capacity - the user's load + the replaced version.
//  validate:
//   1. the NoOverCommit check with that lowered availability; any failure, even a physical
//      over-commit, becomes PlanningQuotaException;
//   2. the integral check over [start - W, end + W]: toCheck = the user's load + the replaced
//      version (YARN 3.x adds it where its comment says subtract: kept, see
//      docs/reservations.md) + the candidate. Walking toCheck's breakpoints (plus one every W
//      inside longer runs) with the running integral I(p) (resource-ms), up(p) = round(I(p)/W)
//      and down(p + W) = round(I(p)/W); the step function up - down must stay within
//      maxAvg * capacity in every type, else PlanningQuotaException "Integral (avg over time)
//      quota capacity ... would be exceeded ...". The check is conservative: 25 % for 25 h
//      against a 25 % average over 24 h is refused. For a periodic candidate the range runs
//      on to max(start + max-periodicity, the user's last non-periodic end) + W (YARN stops at
//      end + W, which misses later periods).
// Percentages are floats divided by 100 in float, and capacity * fraction truncates, as YARN.
class CapacityOverTimePolicy : public SharingPolicy {
 public:
  struct Settings {
    int64_t validWindowMs = 86400000;     // reservation-window
    float instantaneousMaxPercent = 100;  // instantaneous-max-capacity
    float averagePercent = 100;           // average-capacity
  };
  explicit CapacityOverTimePolicy(Settings settings);
  const char* className() const override { return kCapacityOverTimePolicyClass; }
  PlanStatus validate(const InMemoryPlan& plan,
                      const ReservationAllocation& candidate) const override;
  PlanStatus availableResources(RleSparseResourceAllocation::Points& available,
                                const InMemoryPlan& plan, const std::string& user,
                                std::optional<ReservationId> oldId, int64_t start,
                                int64_t end) const override;
  int64_t validWindowMs() const override { return settings_.validWindowMs; }
  const Settings& settings() const { return settings_; }

 private:
  PlanStatus checkIntegral(const InMemoryPlan& plan, const ReservationAllocation& candidate) const;
  Settings settings_;
  float maxInst_;
  float maxAvg_;
};

// capacity * fraction per type, truncated toward zero (Resources.multiply).
Resource multiplyTruncating(const Resource& r, double by);

}  // namespace spindle::reservation
