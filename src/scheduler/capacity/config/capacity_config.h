// The Capacity Scheduler's configuration, parsed from capacity-scheduler.xml keys
// (yarn.scheduler.capacity.*) and validated into an immutable tree (STYLE rule 9). Keys and
// defaults: the Hadoop docs' CapacityScheduler page and CapacitySchedulerConfiguration;
// build-time checks: YARN's ParentQueue and CSQueueUtils.
//
//   ClusterLabels labels{{"x", {.exclusive = false}}};
//   Result<CapacityConfig> cfg = parseCapacityConfig(conf, settings.types, settings.bounds,
//   labels); if (!cfg.isOk()) ... cfg.status().message() lists every error, one per line, each as
//                        "file:line: property 'yarn.scheduler.capacity.root.a.capacity': ...";
//   for (const std::string& w : cfg->warnings) log(w);  // ignored keys, adjusted values
//   const QueueConfig& a = cfg->queue("root.a");
//   double abs = a.partition("").absoluteCapacity;   // fraction of the cluster (percent/weight)
//
// Scales (as in CapacitySchedulerConfiguration): `capacity` and `maximum-capacity` are stored as
// fractions (0..1) of the parent, as YARN's CSQueue getters return them;
// maximum-am-resource-percent is a fraction; minimum-user-limit-percent stays a percent;
// user-limit-factor is a multiplier. Absolute-mode capacities ([memory=..,vcores=..]) are resolved
// against the cluster at run time (the scheduler, src/scheduler/capacity/); their fractions here
// are 0 (100 for maximum) as in YARN.
//
// Float fidelity: YARN keeps capacities as Java floats (QueueCapacities). Every capacity
// fraction here is computed in float exactly as YARN computes it (percent / 100f, weight / sum,
// capacity x parent) and then widened to double, so 8.5 % reads 0.085000000894... (0.085f).
// Compare with EXPECT_FLOAT_EQ or a tolerance, never with ==.
//
// Not read here (other components): reservation keys other than `reservable` (reservation-*,
// read by the reservation system), auto-created
// queues (auto-create-child-queue.*, auto-queue-creation-v2.*, leaf-queue-template.*),
// lifetimes, preemption monitor keys, and the system-wide preemption switches that YARN applies
// on top of disable_preemption.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "config/access_control_list.h"
#include "config/configuration.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle {

inline constexpr const char* kCapacityPrefix = "yarn.scheduler.capacity.";
// A string, not a literal: the allocation path passes it where a const std::string& is
// expected, and a literal would build a temporary string at every call.
inline const std::string kDefaultPartition;

struct NodeLabelInfo {
  bool exclusive = true;
};
// The cluster's node labels (partitions) by name; "" (the default partition) is implicit.
using ClusterLabels = std::map<std::string, NodeLabelInfo>;

enum class CapacityMode { kPercent, kWeight, kAbsolute };

// One configured capacity value: "12.5", "2w", or "[memory=10240,vcores=12]".
struct CapacityValue {
  CapacityMode mode = CapacityMode::kPercent;
  double fraction = 0;  // percent mode: value / 100; weight and absolute mode: 0 (1 for root)
  double weight = -1;   // weight mode: the weight; -1 = not set
  Resource absolute;    // absolute mode: the configured amounts (absent types are 0)
};

// Per-partition settings of a queue ("" = the default partition).
struct PartitionConfig {
  CapacityValue capacity;         // accessible-node-labels.<l>.capacity (default 0); "" = capacity
  CapacityValue maximumCapacity;  // ...maximum-capacity (default 100 %)
  double maximumAmResourcePercent = 0.1;  // fraction; per label defaults to the queue value
  // Derived for percent and weight modes (absolute mode: filled at run time):
  double absoluteCapacity = 0;         // capacity x parent's absoluteCapacity
  double absoluteMaximumCapacity = 1;  // maximumCapacity x parent's absoluteMaximumCapacity
  // Capacity relative to the parent as YARN's QueueCapacities.getCapacity reports it: percent
  // mode value / 100, weight mode weight / sum of the siblings' weights (for this partition),
  // absolute mode 0 (1 for root).
  double relativeCapacity = 0;
};

// One bracketed group of acl_application_max_priority (priority_acl.h).
struct PriorityAcl {
  AccessControlList who;
  int32_t maxPriority = 0;
  std::optional<int32_t> defaultPriority;
};

enum class QueueStateConfig { kRunning, kStopped };

struct QueueConfig {
  std::string path;                   // "root.a.a1"
  std::string name;                   // "a1"
  std::string parent;                 // "" for root
  std::vector<std::string> children;  // full paths, in the order `queues` lists them
  bool isLeaf() const { return children.empty(); }

  std::map<std::string, PartitionConfig> partitions;                 // "" always present
  const PartitionConfig& partition(const std::string& label) const;  // default one if absent
  bool accessibleToAllLabels = false;      // accessible-node-labels "*" (root always)
  std::set<std::string> accessibleLabels;  // resolved (inherited when unset)
  bool canAccess(const std::string& label) const {
    return label.empty() || accessibleToAllLabels || accessibleLabels.count(label) > 0;
  }
  std::string defaultNodeLabelExpression;  // "" = none

  // Leaf settings (present on parents too, for inheritance and templates).
  double userLimitFactor = 1.0;               // -1 = disabled (cap is the queue's max)
  double minimumUserLimitPercent = 100;       // percent; floats and values > 100 accepted
  std::map<std::string, double> userWeights;  // user-settings.<user>.weight
  // Resolved (AbstractLeafQueue.updateMaximumApplications). A queue whose capacity is absolute gets
  // 0 from the derivation here (its absoluteCapacity is not known yet): when
  // configuredMaximumApplications is -1 and globalQueueMaxApplication is unset, re-derive it once
  // the cluster is known.
  int32_t maximumApplications = 10000;
  int32_t configuredMaximumApplications = -1;  // the maximum-applications key; -1 = derived
                                               // (absolute-mode queues re-derive at run time)
  int32_t maxApplicationsPerUser = 10000;      // derived: min(maxApps, maxApps x MULP/100 x ULF)
  int32_t maxParallelApps = INT32_MAX;         // resolved: lowest along the branch
  QueueStateConfig state = QueueStateConfig::kRunning;  // resolved: unset inherits the parent's
  AccessControlList submitAcl;  // as configured (inheritance is checked at use)
  AccessControlList administerAcl;
  std::string orderingPolicy = "fifo";  // leaf: fifo, fair, fifo-with-partitions...;
                                        // parent: utilization, priority-utilization
  bool fairSizeBasedWeight = false;     // ordering-policy.fair.enable-size-based-weight
  std::set<std::string>
      exclusiveEnforcedPartitions;  // ordering-policy.exclusive-enforced-partitions
  int32_t priority = 0;             // queue priority (priority-utilization parents)
  int32_t defaultApplicationPriority = 0;
  // acl_application_max_priority, highest max_priority first; empty = no priority ACL.
  std::vector<PriorityAcl> priorityAcls;
  // Resolved maximum allocation (QueueAllocationSettings): the parent's (root: the cluster's
  // yarn.scheduler.maximum-allocation-*), overridden by maximum-allocation or, when that is
  // unset, by maximum-allocation-mb / -vcores. Every type of the registry is bounded.
  ResourceLimit maximumAllocation = ResourceLimit::unbounded();
  bool disablePreemption = false;            // resolved (inherited)
  bool intraQueueDisablePreemption = false;  // resolved (inherited)
  bool allowZeroCapacitySum = false;
  // reservable: a plan queue of the reservation system (YARN's PlanQueue). It is configured as
  // a leaf; the scheduler runs it as a parent of its reservation queues (plan_queues.h).
  bool reservable = false;
  // A reservation queue (YARN's ReservationQueue) the scheduler added under a plan queue: never
  // in a parsed configuration.
  bool reservationQueue = false;
};

enum class MappingKind { kUser, kGroup };
// One entry of queue-mappings: "u:<user>:<queue>" / "g:<group>:<queue>", queue possibly
// "parent.%user", "%user", "%primary_group", "%secondary_group".
struct QueueMapping {
  MappingKind kind = MappingKind::kUser;
  std::string source;       // user or group name, or "%user" (u:%user:...)
  std::string queue;        // target, placeholders unresolved
  std::string parentQueue;  // part of `queue` before its last '.', "" when none
  std::string leafQueue;    // part of `queue` after its last '.'
};

struct CapacityConfig {
  std::map<std::string, QueueConfig> queues;      // by full path
  std::vector<std::string> preorder;              // root first, children in configured order
  std::map<std::string, std::string> leafByName;  // short leaf name -> path (unique names only)
  const QueueConfig& queue(const std::string& path) const { return queues.at(path); }
  // A queue by full path or (unique) short leaf name.
  const QueueConfig* find(const std::string& nameOrPath) const;
  // YARN's ConfiguredYarnAuthorizer: granted when the ACL of the queue or of any ancestor allows
  // the user. (Submission is allowed with kSubmitApplications or kAdministerQueue, as RMAppManager
  // checks both.) False for an unknown queue.
  bool hasAccess(const std::string& path, QueueAcl acl, const std::string& user,
                 const std::vector<std::string>& userGroups) const;
  // Notes that did not stop parsing (root's accessible-node-labels ignored, offswitch limit
  // raised to 1, properties naming queues that are not in the tree, ...), each naming the key.
  std::vector<std::string> warnings;

  std::string resourceCalculator;  // class name of yarn.scheduler.capacity.resource-calculator
  int32_t nodeLocalityDelay = 40;
  int32_t rackLocalityAdditionalDelay = -1;
  bool rackLocalityFullReset = true;
  bool multipleAssignmentsEnabled = true;
  int32_t maximumContainerAssignments = 100;  // -1 = unlimited
  int32_t maximumOffswitchAssignments = 1;    // < 1 forced to 1
  bool reservationsContinueLookAllNodes = true;
  bool scheduleAsynchronously = false;
  int32_t asyncMaximumThreads = 1;
  int32_t asyncMaximumPendingBacklogs = 100;
  int64_t asyncSchedulingIntervalMs = 5;  // schedule-asynchronously.scheduling-interval-ms
  int32_t maximumApplications = 10000;    // system-wide
  int32_t globalQueueMaxApplication = -1;
  double maximumAmResourcePercent = 0.1;
  double userLimitFactor = 1.0;                // global default of the per-queue key
  double minimumUserLimitPercent = 100;        // global default of the per-queue key
  int32_t defaultMaxParallelApps = INT32_MAX;  // yarn.scheduler.capacity.max-parallel-apps
  std::vector<QueueMapping> queueMappings;
  bool queueMappingsOverride = false;
  std::vector<std::pair<std::string, std::string>> appNameMappings;  // appName -> queue
  int32_t userMaxParallelApps = INT32_MAX;
  std::map<std::string, int32_t> perUserMaxParallelApps;
  int32_t clusterMaxApplicationPriority = 0;  // yarn.cluster.max-application-priority
};

// Parses and validates every capacity-scheduler key of `conf`. All problems are collected and
// returned together, each naming the property and the reason (YARN's texts where the reference
// gives them: "Illegal capacity of X for queue Y", "Illegal capacity sum of ...", ...).
Result<CapacityConfig> parseCapacityConfig(const Configuration& conf, const ResourceTypes& types,
                                           const AllocationBounds& clusterBounds,
                                           const ClusterLabels& labels);

// Checks what a refresh may not change, judging by the two configurations alone: a queue present in
// both may not lower its (resolved) maximum allocation in any type (the
// maximum-allocation-mb/-vcores queue keys; YARN's "Trying to reinitialize root.a the maximum
// allocation size can not be decreased! ..."). Queue removal and leaf/parent conversion depend on
// the queue's state and running applications, so the scheduler checks them. Returns every error
// together.
Status checkCapacityRefresh(const CapacityConfig& before, const CapacityConfig& after);

}  // namespace spindle
