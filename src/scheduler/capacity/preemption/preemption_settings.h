// Knobs of the capacity preemption policy (YARN's ProportionalCapacityPreemptionPolicy), parsed
// once from a Configuration and then frozen (STYLE rule 9).
//
//   SPINDLE_ASSIGN_OR_RETURN(PreemptionSettings s, parsePreemptionSettings(conf));
//   if (s.observeOnly) { ... }
//   Resource budget = multiplyAndRoundDown(cluster, asYarnFloat(s.totalPreemptionPerRound));
//
// Key names and defaults are YARN's (CapacitySchedulerConfiguration, 3.x); see
// docs/preemption.md for the table. Fractions are kept as double because YARN keeps them as
// float or double and multiplies resources by them with its own rounding (truncate, or
// normalise-up); the resource calculator applies exactly those rounding rules, so no double is
// ever compared.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::preemption {

inline constexpr std::string_view kPreemptionPrefix =
    "yarn.resourcemanager.monitor.capacity.preemption.";

enum class IntraQueueOrderPolicy { kUserLimitFirst, kPriorityFirst };

// YARN stores some fractions as float (total_preemption_per_round, normalizedGuarantee, the
// results of Resources.divide); multiplying by the float value reproduces its truncations
// exactly (0.1f * 100 and 0.1 * 100 differ in the last bit).
inline double asYarnFloat(double v) { return static_cast<double>(static_cast<float>(v)); }

struct PreemptionSettings {
  // yarn.resourcemanager.scheduler.monitor.enable
  bool monitorEnabled = false;
  bool observeOnly = false;                      // P.observe_only
  int64_t monitoringIntervalMs = 3000;           // P.monitoring_interval
  int64_t maxWaitBeforeKillMs = 15000;           // P.max_wait_before_kill
  double totalPreemptionPerRound = 0.1;          // P.total_preemption_per_round
  double maxIgnoredOverCapacity = 0.1;           // P.max_ignored_over_capacity
  double naturalTerminationFactor = 0.2;         // P.natural_termination_factor
  bool selectBasedOnReservedContainers = false;  // P.select_based_on_reserved_containers
  bool additionalResBalanceBasedOnReservedContainers = false;  // P.additional_res_balance_...
  bool crossQueueConservativeDrf = false;                      // P.conservative-drf
  bool preemptToBalanceEnabled = false;  // P.preemption-to-balance-queue-after-satisfied.enabled
  int64_t preemptToBalanceMaxWaitBeforeKillMs = 300000;  // ...after-satisfied.max-wait-before-kill
  bool intraQueueEnabled = false;                        // P.intra-queue-preemption.enabled
  double intraQueueMinimumThreshold = 0.5;   // P.intra-queue-preemption.minimum-threshold
  double intraQueueMaxAllowableLimit = 0.2;  // P.intra-queue-preemption.max-allowable-limit
  IntraQueueOrderPolicy intraQueueOrderPolicy = IntraQueueOrderPolicy::kUserLimitFirst;
  bool intraQueueConservativeDrf = true;  // P.intra-queue-preemption.conservative-drf
  // yarn.scheduler.capacity.lazy-preemption-enabled
  bool lazyPreemptionEnabled = false;
  // yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.*
  bool underutilizedPreemptionEnabled = false;
  int64_t underutilizedReservedContainerDelayMs = 60000;
  bool underutilizedAllowMoveReservation = false;
  // Newest trunk's CapacitySchedulerConfiguration.AM_PREEMPTION_ENABLED; its key string is not
  // known (FifoCandidatesSelector's AM pass; testPreemptSkippedAllAMContainers), so it is settable
  // only in code, never from a file.
  bool amPreemptionEnabled = true;
};

// Reads every key above (absent keys keep the default). Errors name the key and the value:
// non-numbers, negative durations, fractions outside their range, an unknown order policy.
Result<PreemptionSettings> parsePreemptionSettings(const Configuration& conf);

}  // namespace spindle::preemption
