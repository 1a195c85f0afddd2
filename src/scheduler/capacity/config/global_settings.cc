// Step 1: the global yarn.scheduler.capacity.* keys (CapacitySchedulerConfiguration getters).

#include <string>

#include "resource/resource_calculator.h"
#include "scheduler/capacity/config/config_builder.h"

namespace spindle::capacity_config {
namespace {

constexpr const char* kDefaultCalculator =
    "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";

void readResourceCalculator(BuildContext& ctx) {
  const std::string key = globalKey("resource-calculator");
  std::string name(trimView(ctx.conf.get(key, kDefaultCalculator)));
  auto rc = makeResourceCalculator(name, ctx.types);
  if (!rc) {
    ctx.problems.error(key, "{}", rc.status().message());
    return;
  }
  ctx.out.resourceCalculator = (*rc)->className();
}

// Integer keys that YARN reads with getInt and applies no check to, beyond those noted.
void readLocality(BuildContext& ctx) {
  Problems& p = ctx.problems;
  CapacityConfig& out = ctx.out;
  out.nodeLocalityDelay = p.take(ctx.conf.getInt(globalKey("node-locality-delay"), 40), 40);
  out.rackLocalityAdditionalDelay =
      p.take(ctx.conf.getInt(globalKey("rack-locality-additional-delay"), -1), -1);
  out.rackLocalityFullReset =
      p.take(ctx.conf.getBool(globalKey("rack-locality-full-reset"), true), true);
}

void readHeartbeatLimits(BuildContext& ctx) {
  Problems& p = ctx.problems;
  CapacityConfig& out = ctx.out;
  out.multipleAssignmentsEnabled = p.take(
      ctx.conf.getBool(globalKey("per-node-heartbeat.multiple-assignments-enabled"), true), true);
  const std::string maxKey = globalKey("per-node-heartbeat.maximum-container-assignments");
  out.maximumContainerAssignments = p.take(ctx.conf.getInt(maxKey, 100), 100);
  if (out.maximumContainerAssignments < -1) {
    p.error(maxKey, "must be -1 (unlimited) or >= 0, got {}", out.maximumContainerAssignments);
  }
  // CapacitySchedulerConfiguration.getOffSwitchPerHeartbeatLimit: < 1 is raised to 1.
  const std::string offKey = globalKey("per-node-heartbeat.maximum-offswitch-assignments");
  out.maximumOffswitchAssignments = p.take(ctx.conf.getInt(offKey, 1), 1);
  if (out.maximumOffswitchAssignments < 1) {
    p.warn(offKey, "{}({}) < 1. Using 1.", offKey, out.maximumOffswitchAssignments);
    out.maximumOffswitchAssignments = 1;
  }
}

void readAsync(BuildContext& ctx) {
  Problems& p = ctx.problems;
  CapacityConfig& out = ctx.out;
  out.reservationsContinueLookAllNodes =
      p.take(ctx.conf.getBool(globalKey("reservations-continue-look-all-nodes"), true), true);
  out.scheduleAsynchronously =
      p.take(ctx.conf.getBool(globalKey("schedule-asynchronously.enable"), false), false);
  const std::string threadsKey = globalKey("schedule-asynchronously.maximum-threads");
  out.asyncMaximumThreads = p.take(ctx.conf.getInt(threadsKey, 1), 1);
  if (out.asyncMaximumThreads < 1) {
    p.error(threadsKey, "must be >= 1, got {}", out.asyncMaximumThreads);
  }
  const std::string backlogKey = globalKey("schedule-asynchronously.maximum-pending-backlogs");
  out.asyncMaximumPendingBacklogs = p.take(ctx.conf.getInt(backlogKey, 100), 100);
  if (out.asyncMaximumPendingBacklogs < 1) {
    p.error(backlogKey, "must be >= 1, got {}", out.asyncMaximumPendingBacklogs);
  }
  const std::string intervalKey = globalKey("schedule-asynchronously.scheduling-interval-ms");
  out.asyncSchedulingIntervalMs = p.take(ctx.conf.getLong(intervalKey, 5), int64_t{5});
  if (out.asyncSchedulingIntervalMs < 0) {
    p.error(intervalKey, "must be >= 0, got {}", out.asyncSchedulingIntervalMs);
  }
}

// Application limits and the global defaults of per-queue keys.
void readApplicationLimits(BuildContext& ctx) {
  Problems& p = ctx.problems;
  CapacityConfig& out = ctx.out;
  const std::string maxAppsKey = globalKey("maximum-applications");
  out.maximumApplications = p.take(ctx.conf.getInt(maxAppsKey, 10000), 10000);
  if (out.maximumApplications < 0) {
    p.error(maxAppsKey, "must be >= 0, got {}", out.maximumApplications);
  }
  out.globalQueueMaxApplication =
      p.take(ctx.conf.getInt(globalKey("global-queue-max-application"), -1), -1);
  const std::string amKey = globalKey("maximum-am-resource-percent");
  out.maximumAmResourcePercent = static_cast<float>(p.take(ctx.conf.getDouble(amKey, 0.1), 0.1));
  if (out.maximumAmResourcePercent < 0 || out.maximumAmResourcePercent > 1) {
    p.error(amKey, "is a fraction in [0, 1] (0.1 = 10%), got {}",
            javaFloat(static_cast<float>(out.maximumAmResourcePercent)));
  }
  const std::string ulfKey = globalKey("user-limit-factor");
  out.userLimitFactor = static_cast<float>(p.take(ctx.conf.getDouble(ulfKey, 1.0), 1.0));
  if (out.userLimitFactor < 0 && out.userLimitFactor != -1) {
    p.error(ulfKey, "must be -1 (disabled) or >= 0, got {}",
            javaFloat(static_cast<float>(out.userLimitFactor)));
  }
  const std::string mulpKey = globalKey("minimum-user-limit-percent");
  out.minimumUserLimitPercent = static_cast<float>(p.take(ctx.conf.getDouble(mulpKey, 100), 100.0));
  if (out.minimumUserLimitPercent <= 0) {
    p.error(mulpKey, "must be > 0, got {}",
            javaFloat(static_cast<float>(out.minimumUserLimitPercent)));
  }
  const std::string parallelKey = globalKey("max-parallel-apps");
  out.defaultMaxParallelApps = p.take(ctx.conf.getInt(parallelKey, INT32_MAX), INT32_MAX);
  if (out.defaultMaxParallelApps < 0) {
    p.error(parallelKey, "must be >= 0, got {}", out.defaultMaxParallelApps);
  }
  out.clusterMaxApplicationPriority =
      p.take(ctx.conf.getInt("yarn.cluster.max-application-priority", 0), 0);
}

// yarn.scheduler.capacity.user.max-parallel-apps and user.<name>.max-parallel-apps; user names
// may contain dots, so the name is everything between the two fixed parts.
void readUserParallelApps(BuildContext& ctx) {
  Problems& p = ctx.problems;
  const std::string defaultKey = globalKey("user.max-parallel-apps");
  ctx.out.userMaxParallelApps = p.take(ctx.conf.getInt(defaultKey, INT32_MAX), INT32_MAX);
  if (ctx.out.userMaxParallelApps < 0) {
    p.error(defaultKey, "must be >= 0, got {}", ctx.out.userMaxParallelApps);
  }
  const std::string prefix = globalKey("user.");
  constexpr std::string_view kSuffix = ".max-parallel-apps";
  for (const std::string& key : ctx.conf.namesWithPrefix(prefix)) {
    if (key == defaultKey || !std::string_view(key).ends_with(kSuffix)) continue;
    std::string user = key.substr(prefix.size(), key.size() - prefix.size() - kSuffix.size());
    if (user.empty()) continue;
    int32_t limit = p.take(ctx.conf.getInt(key, INT32_MAX), INT32_MAX);
    if (limit < 0) p.error(key, "must be >= 0, got {}", limit);
    ctx.out.perUserMaxParallelApps[user] = limit;
  }
}

}  // namespace

void readGlobalSettings(BuildContext& ctx) {
  readResourceCalculator(ctx);
  readLocality(ctx);
  readHeartbeatLimits(ctx);
  readAsync(ctx);
  readApplicationLimits(ctx);
  readUserParallelApps(ctx);
  ctx.out.queueMappingsOverride = ctx.problems.take(
      ctx.conf.getBool(globalKey("queue-mappings-override.enable"), false), false);
}

}  // namespace spindle::capacity_config
