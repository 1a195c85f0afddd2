// The replanner: when the plan's capacity drops below what it has promised, drop reservations
// until it fits again.
//
//   SimpleCapacityReplanner replanner(/*enforcementWindowMs=*/3600000);
//   plan.setTotalCapacity(Resource::of(71680, 70));
//   std::vector<ReservationId> dropped = replanner.plan(plan).value();
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.
// {Planner, SimpleCapacityReplanner}. Algorithm, for t = now; t < plan.lastEndTime() (no limit
// when the plan holds periodic reservations, which never end) and t < now + window; t += step:
//  1. excess = committed(t) - capacity;
//  2. while excess > 0 (calculator comparison), delete the reservations active at t, newest
//     acceptance first (ties: larger id first), subtracting each one's resources at t.
// It never moves or shrinks a reservation; violations past the enforcement window are left for
// later runs. Priority in the definition is not consulted (as in YARN).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "reservation/in_memory_plan.h"

namespace spindle::reservation {

inline constexpr const char* kSimpleCapacityReplannerClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.SimpleCapacityReplanner";

class Planner {
 public:
  virtual ~Planner() = default;
  virtual const char* className() const = 0;
  // Returns the ids of the reservations it deleted.
  virtual PlanResult<std::vector<ReservationId>> plan(InMemoryPlan& plan) = 0;
};

class SimpleCapacityReplanner : public Planner {
 public:
  explicit SimpleCapacityReplanner(int64_t enforcementWindowMs = 3600000)
      : windowMs_(enforcementWindowMs) {}
  const char* className() const override { return kSimpleCapacityReplannerClass; }
  PlanResult<std::vector<ReservationId>> plan(InMemoryPlan& plan) override;

 private:
  int64_t windowMs_;
};

// "SimpleCapacityReplanner" (full or simple name); InvalidArgument otherwise.
Result<std::unique_ptr<Planner>> makeReplanner(std::string_view className,
                                               int64_t enforcementWindowMs);

}  // namespace spindle::reservation
