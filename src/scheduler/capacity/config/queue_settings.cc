// Step 5: the per-queue keys (the Hadoop docs' CapacityScheduler page, 'Queue Properties') other
// than capacities and labels, read in pre-order so that inherited values (state, ordering policy of
// parents, max-parallel-apps, preemption switches, maximum allocation) come from an already
// resolved parent.

#include <algorithm>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "scheduler/capacity/config/config_builder.h"
#include "scheduler/capacity/config/priority_acl.h"

namespace spindle::capacity_config {
namespace {

constexpr std::string_view kPolicyPackage =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.";

const QueueConfig* parentOf(const BuildContext& ctx, const QueueConfig& q) {
  return q.parent.empty() ? nullptr : &ctx.out.queues.at(q.parent);
}

float readFloat(BuildContext& ctx, const std::string& key, float fallback) {
  return static_cast<float>(
      ctx.problems.take(ctx.conf.getDouble(key, fallback), static_cast<double>(fallback)));
}

void readUserLimits(BuildContext& ctx, QueueConfig& q) {
  const std::string ulfKey = queueKey(q.path, "user-limit-factor");
  float ulf = readFloat(ctx, ulfKey, static_cast<float>(ctx.out.userLimitFactor));
  if (ulf < 0 && ulf != -1.0f) {
    ctx.problems.error(ulfKey, "must be -1 (disabled) or >= 0, got {}", javaFloat(ulf));
    ulf = 1;
  }
  q.userLimitFactor = ulf;
  const std::string mulpKey = queueKey(q.path, "minimum-user-limit-percent");
  float mulp = readFloat(ctx, mulpKey, static_cast<float>(ctx.out.minimumUserLimitPercent));
  if (mulp <= 0) {
    ctx.problems.error(mulpKey, "must be > 0, got {}", javaFloat(mulp));
    mulp = 100;
  }
  q.minimumUserLimitPercent = mulp;
}

// user-settings.<user>.weight (CapacitySchedulerConfiguration.getAllUserWeightsForQueue; the
// user name may contain dots). Leaves check each weight as LeafQueue.setupQueueConfigs does.
void readUserWeights(BuildContext& ctx, QueueConfig& q) {
  const std::string prefix = queueKey(q.path, "user-settings.");
  constexpr std::string_view kSuffix = ".weight";
  const float queueUl = std::min(100.0f, static_cast<float>(q.minimumUserLimitPercent));
  for (const std::string& key : ctx.conf.namesWithPrefix(prefix)) {
    if (!std::string_view(key).ends_with(kSuffix) || key.size() <= prefix.size() + kSuffix.size()) {
      ctx.problems.warn(key, "not a user setting (expected user-settings.<user>.weight); ignored");
      continue;
    }
    std::string user = key.substr(prefix.size(), key.size() - prefix.size() - kSuffix.size());
    float weight = readFloat(ctx, key, 1.0f);
    if (q.isLeaf() && (weight < 0.0f || weight > 100.0f / queueUl)) {
      ctx.problems.error(key,
                         "Weight ({}) for user \"{}\" must be between 0 and 100 / {} (= {}, "
                         "the number of concurrent active users in {})",
                         javaFloat(weight), user, javaFloat(queueUl), javaFloat(100.0f / queueUl),
                         q.path);
      continue;
    }
    q.userWeights[user] = weight;
  }
}

// AbstractLeafQueue.setupQueueConfigs / updateMaximumApplications.
void readApplicationLimits(BuildContext& ctx, QueueConfig& q) {
  const std::string key = queueKey(q.path, "maximum-applications");
  q.configuredMaximumApplications = ctx.problems.take(ctx.conf.getInt(key, -1), -1);
  const int32_t systemMax = ctx.out.maximumApplications;
  const bool absolute = q.partition("").capacity.mode == CapacityMode::kAbsolute;
  int32_t maxApps = q.configuredMaximumApplications;
  if (maxApps < 0) {
    if (ctx.out.globalQueueMaxApplication > 0 && !absolute) {
      maxApps = std::min(ctx.out.globalQueueMaxApplication, systemMax);
    } else {
      maxApps = 0;
      for (const auto& [label, p] : q.partitions) {
        float byLabel = static_cast<float>(systemMax) * static_cast<float>(p.absoluteCapacity);
        maxApps = std::max(maxApps, static_cast<int32_t>(byLabel));
      }
    }
  }
  q.maximumApplications = maxApps;
  // maxApplicationsPerUser = min(maxApps, (int)(maxApps * MULP/100 * ULF)), float arithmetic.
  if (q.userLimitFactor == -1) {
    q.maxApplicationsPerUser = maxApps;
  } else {
    float perUser = static_cast<float>(maxApps) *
                    (static_cast<float>(q.minimumUserLimitPercent) / 100.0f) *
                    static_cast<float>(q.userLimitFactor);
    int32_t truncated =
        perUser >= static_cast<float>(INT32_MAX) ? INT32_MAX : static_cast<int32_t>(perUser);
    q.maxApplicationsPerUser = std::min(maxApps, truncated);
  }
  const std::string parallelKey = queueKey(q.path, "max-parallel-apps");
  int32_t parallel = ctx.problems.take(ctx.conf.getInt(parallelKey, ctx.out.defaultMaxParallelApps),
                                       ctx.out.defaultMaxParallelApps);
  if (parallel < 0) {
    ctx.problems.error(parallelKey, "must be >= 0, got {}", parallel);
    parallel = ctx.out.defaultMaxParallelApps;
  }
  const QueueConfig* parent = parentOf(ctx, q);
  q.maxParallelApps = parent ? std::min(parallel, parent->maxParallelApps) : parallel;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// QueueState.valueOf(upper case); unset inherits the parent's state (AbstractCSQueue
// initializeQueueState), and a RUNNING queue may not sit below a STOPPED parent.
void readState(BuildContext& ctx, QueueConfig& q) {
  const std::string key = queueKey(q.path, "state");
  const QueueConfig* parent = parentOf(ctx, q);
  const QueueStateConfig inherited = parent ? parent->state : QueueStateConfig::kRunning;
  std::optional<std::string> value = ctx.conf.get(key);
  if (!value) {
    q.state = inherited;
    return;
  }
  std::string state = upper(trimView(*value));
  if (state == "RUNNING") {
    q.state = QueueStateConfig::kRunning;
  } else if (state == "STOPPED") {
    q.state = QueueStateConfig::kStopped;
  } else {
    ctx.problems.error(key, "invalid queue state '{}': expected RUNNING or STOPPED",
                       trimView(*value));
    q.state = inherited;
    return;
  }
  if (parent && parent->state == QueueStateConfig::kStopped &&
      q.state == QueueStateConfig::kRunning) {
    ctx.problems.error(key,
                       "The parent queue:{} cannot be STOPPED as the child queue:{} is in "
                       "RUNNING state.",
                       parent->path, q.path);
  }
}

// getAcl: root defaults to "*" (everyone), other queues to " " (nobody).
void readAcls(BuildContext& ctx, QueueConfig& q) {
  const char* fallback = q.parent.empty() ? "*" : " ";
  for (auto [suffix, acl] : {std::pair{"acl_submit_applications", &q.submitAcl},
                             std::pair{"acl_administer_queue", &q.administerAcl}}) {
    const std::string key = queueKey(q.path, suffix);
    std::string text = ctx.conf.get(key, fallback);
    auto parsed = parseAccessControlList(text);
    if (!parsed) {
      ctx.problems.error(key, "invalid ACL '{}': {}", text, parsed.status().message());
      continue;
    }
    *acl = *parsed;
  }
}

// Leaf: getAppOrderingPolicy (short names or the policy class names). Parent:
// getQueueOrderingPolicy, defaulting to the parent's policy, else utilization.
void readOrderingPolicy(BuildContext& ctx, QueueConfig& q) {
  const std::string key = queueKey(q.path, "ordering-policy");
  const QueueConfig* parent = parentOf(ctx, q);
  if (!q.isLeaf()) {
    std::string fallback = parent ? parent->orderingPolicy : "utilization";
    std::string policy(trimView(ctx.conf.get(key, fallback)));
    if (policy != "utilization" && policy != "priority-utilization") {
      ctx.problems.error(key,
                         "Unable to construct queue ordering policy={} queue={} (a parent "
                         "queue takes utilization or priority-utilization)",
                         policy, q.path);
      policy = fallback;
    }
    q.orderingPolicy = policy;
    return;
  }
  std::string policy(trimView(ctx.conf.get(key, "fifo")));
  std::string_view simple = policy;
  if (simple.starts_with(kPolicyPackage)) simple.remove_prefix(kPolicyPackage.size());
  if (simple == "fifo" || simple == "FifoOrderingPolicy") {
    q.orderingPolicy = "fifo";
  } else if (simple == "fair" || simple == "FairOrderingPolicy") {
    q.orderingPolicy = "fair";
  } else if (simple == "fifo-with-partitions" ||
             simple == "FifoOrderingPolicyWithExclusivePartitions") {
    q.orderingPolicy = "fifo-with-partitions";
  } else if (simple == "fifo-for-pending-apps" || simple == "FifoOrderingPolicyForPendingApps") {
    q.orderingPolicy = "fifo-for-pending-apps";
  } else {
    ctx.problems.error(key,
                       "Unable to construct ordering policy for: {} (a leaf queue takes "
                       "fifo, fair, fifo-with-partitions or fifo-for-pending-apps)",
                       policy);
  }
  q.fairSizeBasedWeight = ctx.problems.take(
      ctx.conf.getBool(queueKey(q.path, "ordering-policy.fair.enable-size-based-weight"), false),
      false);
  const std::string partitionsKey =
      queueKey(q.path, "ordering-policy.exclusive-enforced-partitions");
  for (const std::string& label : ctx.conf.getStrings(partitionsKey)) {
    if (ctx.labels.count(label) == 0) {
      ctx.problems.error(partitionsKey,
                         "NodeLabelManager doesn't include label = {}, please "
                         "check.",
                         label);
      continue;
    }
    q.exclusiveEnforcedPartitions.insert(label);
  }
}

void readPriorities(BuildContext& ctx, QueueConfig& q) {
  q.priority = ctx.problems.take(ctx.conf.getInt(queueKey(q.path, "priority"), 0), 0);
  int32_t appPriority =
      ctx.problems.take(ctx.conf.getInt(queueKey(q.path, "default-application-priority"), 0), 0);
  // Capped by yarn.cluster.max-application-priority, as CapacityScheduler caps app priorities.
  q.defaultApplicationPriority = std::min(appPriority, ctx.out.clusterMaxApplicationPriority);
  const std::string aclKey = queueKey(q.path, "acl_application_max_priority");
  if (std::optional<std::string> text = ctx.conf.get(aclKey)) {
    auto acls = parsePriorityAcls(*text, ctx.out.clusterMaxApplicationPriority);
    if (!acls) {
      ctx.problems.error(aclKey, "invalid priority ACL '{}': {}", *text, acls.status().message());
    } else {
      q.priorityAcls = *acls;
    }
  }
}

// QueueAllocationSettings.setupMaximumAllocation: start from the parent's (root: the cluster's)
// maximum; the generic maximum-allocation key wins over the -mb / -vcores keys; nothing may
// exceed the cluster setting.
void readMaximumAllocation(BuildContext& ctx, QueueConfig& q) {
  const int n = ctx.types.count();
  const Resource& clusterMax = ctx.clusterBounds.maximum;
  const QueueConfig* parent = parentOf(ctx, q);
  Resource max;
  for (int i = 0; i < n; ++i)
    max.set(i, parent ? parent->maximumAllocation.get(i) : clusterMax.get(i));
  const std::string genericKey = queueKey(q.path, "maximum-allocation");
  const std::string mbKey = queueKey(q.path, "maximum-allocation-mb");
  const std::string vcoresKey = queueKey(q.path, "maximum-allocation-vcores");
  std::string blame;
  bool tooLarge = false;
  if (std::optional<std::string> generic = ctx.conf.get(genericKey)) {
    auto pairs = parseResourcePairs(*generic, ctx.types);
    if (!pairs) {
      ctx.problems.error(genericKey, "{}", pairs.status().message());
    } else {
      for (int i = 0; i < n; ++i) {
        if (!pairs->present[i]) continue;
        max.set(i, pairs->values.get(i));
        tooLarge = tooLarge || pairs->values.get(i) > clusterMax.get(i);
      }
      blame = genericKey;
    }
  } else {
    int64_t mb = ctx.problems.take(ctx.conf.getLong(mbKey, -1), int64_t{-1});
    int64_t vcores = ctx.problems.take(ctx.conf.getLong(vcoresKey, -1), int64_t{-1});
    for (auto [key, value] : {std::pair{&mbKey, &mb}, std::pair{&vcoresKey, &vcores}}) {
      if (*value == -1 || *value > 0) continue;
      ctx.problems.error(*key, "must be > 0, or -1 for the parent's maximum; got {}", *value);
      *value = -1;
    }
    if (mb != -1) max.set(kMemoryIndex, mb);
    if (vcores != -1) max.set(kVcoresIndex, vcores);
    bool mbTooLarge = mb != -1 && mb > clusterMax.memoryMb();
    bool vcoresTooLarge = vcores != -1 && vcores > clusterMax.vcores();
    tooLarge = mbTooLarge || vcoresTooLarge;
    blame = mbTooLarge ? mbKey : vcoresKey;
  }
  if (tooLarge) {
    ctx.problems.error(blame,
                       "Queue maximum allocation cannot be larger than the cluster setting "
                       "for queue {} max allocation per queue: {} cluster setting: {}",
                       q.path, max.toString(), clusterMax.toString());
  }
  q.maximumAllocation = ResourceLimit::of(max, n);
}

// AbstractCSQueue.isQueueHierarchyPreemptionDisabled / isIntraQueueHierarchyPreemptionDisabled
// without the system-wide switches (the preemption monitor applies those).
void readPreemption(BuildContext& ctx, QueueConfig& q) {
  const QueueConfig* parent = parentOf(ctx, q);
  bool inherited = parent && parent->disablePreemption;
  q.disablePreemption = ctx.problems.take(
      ctx.conf.getBool(queueKey(q.path, "disable_preemption"), inherited), inherited);
  bool intraInherited = parent && parent->intraQueueDisablePreemption;
  q.intraQueueDisablePreemption = ctx.problems.take(
      ctx.conf.getBool(queueKey(q.path, "intra-queue-preemption.disable_preemption"),
                       intraInherited),
      intraInherited);
}

// CapacitySchedulerConfiguration.isReservable; CapacitySchedulerQueueManager refuses it on a
// parent ("Only Leaf Queues can be reservable for <queue>").
void readReservable(BuildContext& ctx, QueueConfig& q) {
  const std::string key = queueKey(q.path, "reservable");
  q.reservable = ctx.problems.take(ctx.conf.getBool(key, false), false);
  if (q.reservable && !q.isLeaf()) {
    ctx.problems.error(key, "Only Leaf Queues can be reservable for {}", q.path);
  }
}

}  // namespace

void readQueueSettings(BuildContext& ctx) {
  for (const std::string& path : ctx.out.preorder) {
    QueueConfig& q = ctx.out.queues.at(path);
    readUserLimits(ctx, q);
    readUserWeights(ctx, q);
    readApplicationLimits(ctx, q);
    readState(ctx, q);
    readAcls(ctx, q);
    readOrderingPolicy(ctx, q);
    readPriorities(ctx, q);
    readMaximumAllocation(ctx, q);
    readPreemption(ctx, q);
    readReservable(ctx, q);
  }
}

}  // namespace spindle::capacity_config
