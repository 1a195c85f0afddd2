// The Fair Scheduler's yarn-site keys (yarn.scheduler.fair.*; FS/FairSchedulerConfiguration.java,
// the Hadoop docs' FairScheduler page, 'Properties that can be placed in yarn-site.xml'), read from
// a Configuration into a frozen struct.
//
//   Result<FairSiteConfig> site = parseFairSiteConfig(conf);
//   if (!site.isOk()) ... every malformed key, one per line, "file:line: property NAME: ..."
//   if (site->preemption) ...
//
// Floats: YARN reads the fractional keys with getFloat; they are kept as float so that the
// scheduler's float arithmetic (numNodes x threshold, utilisation > threshold) matches.
// Resource types and allocation bounds (minimum/maximum/increment allocation) are read by
// resource/resource_config.h with fairIncrements=true.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::fair {

inline constexpr const char* kFairPrefix = "yarn.scheduler.fair.";
// Spindle's switch between the two preemption designs (docs/configuration.md).
inline constexpr const char* kPreemptionDesignKey = "spindle.scheduler.fair.preemption.design";

// 3.x: per-app starvation and FSPreemptionThread (fair_preemption.cc); 2.x: the update thread's
// resToPreempt with warn-then-kill (fair_preemption_2x.cc).
enum class PreemptionDesign { k3x, k2x };

struct FairSiteConfig {
  std::string allocationFile = "fair-scheduler.xml";  // yarn.scheduler.fair.allocation.file
  bool allocationFileSet = false;  // the key was given (a missing file is then an error)
  // AllocationFileLoaderService constants (no keys): reload check period and the quiet time a
  // modified file must have before it is reloaded.
  int64_t allocationReloadIntervalMs = 10000;
  int64_t allocationReloadWaitMs = 5000;
  bool userAsDefaultQueue = true;               // user-as-default-queue
  bool allowUndeclaredPools = true;             // allow-undeclared-pools
  bool preemption = false;                      // preemption
  float preemptionUtilizationThreshold = 0.8f;  // preemption.cluster-utilization-threshold
  bool sizeBasedWeight = false;                 // sizebasedweight
  bool assignMultiple = false;                  // assignmultiple
  bool dynamicMaxAssign = true;                 // dynamic.max.assign
  int32_t maxAssign = -1;                       // max.assign (<= 0: unlimited)
  float localityThresholdNode = -1.0f;          // locality.threshold.node (clamped to <= 1 at use)
  float localityThresholdRack = -1.0f;          // locality.threshold.rack
  bool continuousSchedulingEnabled = false;     // continuous-scheduling-enabled (deprecated)
  int32_t continuousSchedulingSleepMs = 5;      // continuous-scheduling-sleep-ms (deprecated)
  int64_t localityDelayNodeMs = -1;             // locality-delay-node-ms
  int64_t localityDelayRackMs = -1;             // locality-delay-rack-ms
  int64_t updateIntervalMs = 500;        // update-interval-ms (negative -> 500, with a warning)
  int64_t waitTimeBeforeKillMs = 15000;  // waitTimeBeforeKill
  int64_t waitTimeBeforeNextStarvationCheckMs = 10000;        // waitTimeBeforeNextStarvationCheck
  int64_t preemptionIntervalMs = 5000;                        // preemptionInterval (2.x)
  bool amPreemption = true;                                   // am.preemption
  PreemptionDesign preemptionDesign = PreemptionDesign::k3x;  // kPreemptionDesignKey: "3.x" | "2.x"
  float reservableNodes = 0.05f;                              // reservable-nodes
  float reservationThresholdIncrementMultiple = 2.0f;
  // yarn.scheduler.reservation-threshold.increment-multiple
  bool eventLogEnabled = false;       // event-log-enabled (2.x)
  std::vector<std::string> warnings;  // values replaced by their defaults
};

// Every key above; malformed values are collected and returned together.
Result<FairSiteConfig> parseFairSiteConfig(const Configuration& conf);

}  // namespace spindle::fair
