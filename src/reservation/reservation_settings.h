// The reservation system's configuration keys, read into frozen settings, and the registry that
// builds a reservable queue's plan, agent and replanner from YARN's class names.
//
//   auto lookup = [&](std::string_view key) { return conf.get(key); };  // optional<string>
//   ReservationSystemSettings sys = readReservationSystemSettings(lookup).value();
//   ReservableQueueSettings q = readCapacityQueueReservationSettings(lookup, "root.dedicated")
//                                   .value();
//   ReservationPlan rp = makeReservationPlan(sys, q, calc, clock, planCapacity, minAlloc,
//                                            maxAlloc).value();
//   rp.agent->createReservation(id, "alice", *rp.plan, definition);
//
// Keys (defaults in brackets) and who reads them:
//  yarn-site.xml, yarn.resourcemanager.reservation-system.:
//   enable [false] (the RM), class, plan.follower (the RM / plan follower),
//   planfollower.time-step [1000 ms; a negative value falls back to 1000] (plan step and
//   follower period), max-periodicity [86400000] (validator), favor-early-allocation [true] and
//   smoothness-factor [10] (agents);
//  capacity-scheduler.xml, yarn.scheduler.capacity.<queue-path>.:
//   reservable [false], reservation-agent [AlignedPlannerWithGreedy], reservation-policy
//   [CapacityOverTimePolicy], reservation-window [86400000], instantaneous-max-capacity [100,
//   a percentage], average-capacity [100, a percentage], reservation-planner
//   [SimpleCapacityReplanner], reservation-move-on-expiry [true],
//   reservation-enforcement-window [3600000], show-reservations-as-queues [false].
// Mirrors YarnConfiguration's reservation keys and ReservationSchedulerConfiguration /
// CapacitySchedulerConfiguration's per-queue getters.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "reservation/in_memory_plan.h"
#include "reservation/reservation_agent.h"
#include "reservation/sharing_policy.h"
#include "reservation/simple_capacity_replanner.h"

namespace spindle::reservation {

inline constexpr const char* kCapacityReservationSystemClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacityReservationSystem";
inline constexpr const char* kCapacitySchedulerPlanFollowerClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacitySchedulerPlanFollower";

struct ReservationSystemSettings {
  bool enabled = false;
  std::string systemClass = kCapacityReservationSystemClass;
  std::string planFollowerClass = kCapacitySchedulerPlanFollowerClass;
  int64_t planFollowerTimeStepMs = 1000;
  int64_t maxPeriodicityMs = 86400000;
  AgentSettings agent;
};

struct ReservableQueueSettings {
  std::string queuePath;
  bool reservable = false;
  std::string agentClass = kAlignedPlannerWithGreedyClass;
  std::string policyClass = kCapacityOverTimePolicyClass;
  int64_t reservationWindowMs = 86400000;
  float instantaneousMaxCapacity = 100;  // percent
  float averageCapacity = 100;           // percent
  std::string plannerClass = kSimpleCapacityReplannerClass;
  bool moveOnExpiry = true;
  int64_t enforcementWindowMs = 3600000;
  bool showReservationsAsQueues = false;
};

// A property's raw value, or nullopt when unset.
using PropertyLookup = std::function<std::optional<std::string>(std::string_view key)>;

// InvalidArgument naming the key and value for malformed booleans, numbers or durations.
Result<ReservationSystemSettings> readReservationSystemSettings(const PropertyLookup& props);
Result<ReservableQueueSettings> readCapacityQueueReservationSettings(const PropertyLookup& props,
                                                                     std::string_view queuePath);

// By class name (full or simple); InvalidArgument naming it otherwise.
Result<std::unique_ptr<SharingPolicy>> makeSharingPolicy(std::string_view className,
                                                         const ReservableQueueSettings& queue);

// One reservable queue's plan with its policy, agent and replanner.
struct ReservationPlan {
  std::unique_ptr<InMemoryPlan> plan;
  std::unique_ptr<ReservationAgent> agent;
  std::unique_ptr<Planner> replanner;
};

Result<ReservationPlan> makeReservationPlan(const ReservationSystemSettings& system,
                                            const ReservableQueueSettings& queue,
                                            const ResourceCalculator& calc, const Clock& clock,
                                            const Resource& planCapacity,
                                            const Resource& minimumAllocation,
                                            const Resource& maximumAllocation);

}  // namespace spindle::reservation
