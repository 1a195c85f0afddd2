// The Capacity Scheduler's scheduling monitor (YARN's SchedulingMonitor running
// ProportionalCapacityPreemptionPolicy): which policies run, how often, and the state one
// preemption round leaves for the next.
//
//   SPINDLE_ASSIGN_OR_RETURN(MonitorConfig m, parseMonitorConfig(conf));
//   if (m.preemptionActive()) deliverMonitorTickEvery(m.intervalMs());
//
// Keys: yarn.resourcemanager.scheduler.monitor.enable (default false) and
// yarn.resourcemanager.scheduler.monitor.policies (default: the proportional policy). A policy
// is named by its full class name
// org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy
// or its simple name; any other name is a configuration error naming the key and the value.
// The policy's own knobs are read by preemption::parsePreemptionSettings.
//
// One MonitorTick = one policy round (CapacityScheduler::runMonitors). YARN's invoker re-arms
// its timer when a refresh changed the interval; here the Driver (driver.h) re-reads
// monitorIntervalMs() after every tick, which has the same effect.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "base/status.h"
#include "config/configuration.h"
#include "scheduler/capacity/preemption/preemption_settings.h"
#include "scheduler/capacity/preemption/preemption_snapshot.h"
#include "scheduler/capacity/preemption_executor.h"
#include "scheduler/preemption_report.h"

namespace spindle {

inline constexpr std::string_view kMonitorEnableKey =
    "yarn.resourcemanager.scheduler.monitor.enable";
inline constexpr std::string_view kMonitorPoliciesKey =
    "yarn.resourcemanager.scheduler.monitor.policies";
inline constexpr std::string_view kProportionalPolicyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity."
    "ProportionalCapacityPreemptionPolicy";

struct MonitorConfig {
  bool enabled = false;            // monitor.enable
  bool proportionalPolicy = true;  // the proportional policy is listed in monitor.policies
  preemption::PreemptionSettings policy;

  bool preemptionActive() const { return enabled && proportionalPolicy; }
  // monitoring_interval when the policy runs, else 0 (no ticks needed).
  int64_t intervalMs() const { return preemptionActive() ? policy.monitoringIntervalMs : 0; }
};

// Reads the two monitor keys and every preemption knob. Errors name the key and the value.
Result<MonitorConfig> parseMonitorConfig(const Configuration& conf);

// Everything capacity preemption keeps between rounds, owned by the Capacity Scheduler.
struct CsPreemptionState {
  MonitorConfig config;
  PreemptionExecutor executor;
  std::optional<PreemptionRoundReport> lastRound;
  int64_t failedRounds = 0;
  // Tests only: runs on each snapshot before planning; an error fails the round.
  std::function<Status(preemption::PreemptionSnapshot&)> snapshotHook;
};

}  // namespace spindle
