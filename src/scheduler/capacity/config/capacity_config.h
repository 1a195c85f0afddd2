// The Capacity Scheduler's configuration, parsed from capacity-scheduler.xml keys
// (yarn.scheduler.capacity.*) and validated into an immutable tree (STYLE rule 9). Reference:
// shared/reference/yarn/capacity-scheduler.md §1 (keys, defaults, build-time checks).
//
//   ClusterLabels labels{{"x", {.exclusive = false}}};
//   Result<CapacityConfig> cfg = parseCapacityConfig(conf, settings.types, settings.bounds, labels);
//   if (!cfg.ok()) ... cfg.status().message() lists every error, each naming the property;
//   const QueueConfig& a = cfg->queue("root.a");
//   double abs = a.partition("").absoluteCapacity;   // fraction of the cluster (percent/weight)
//
// Scales (reference §1 conventions): `capacity` and `maximum-capacity` are stored as fractions
// (0..1) of the parent, as YARN's CSQueue getters return them; maximum-am-resource-percent is a
// fraction; minimum-user-limit-percent stays a percent; user-limit-factor is a multiplier.
// Absolute-mode capacities ([memory=..,vcores=..]) are resolved against the cluster at run time
// (the scheduler, src/scheduler/capacity/); their fractions here are 0 (100 for maximum) as in YARN.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle {

inline constexpr const char* kCapacityPrefix = "yarn.scheduler.capacity.";
inline constexpr const char* kDefaultPartition = "";

struct NodeLabelInfo {
  bool exclusive = true;
};
// The cluster's node labels (partitions) by name; "" (the default partition) is implicit.
using ClusterLabels = std::map<std::string, NodeLabelInfo>;

enum class CapacityMode { kPercent, kWeight, kAbsolute };

// One configured capacity value: "12.5", "2w", or "[memory=10240,vcores=12]".
struct CapacityValue {
  CapacityMode mode = CapacityMode::kPercent;
  double fraction = 0;   // percent mode: value / 100; weight and absolute mode: 0 (1 for root)
  double weight = -1;    // weight mode: the weight; -1 = not set
  Resource absolute;     // absolute mode: the configured amounts (absent types are 0)
};

// Per-partition settings of a queue ("" = the default partition).
struct PartitionConfig {
  CapacityValue capacity;          // accessible-node-labels.<l>.capacity (default 0); "" = capacity
  CapacityValue maximumCapacity;   // ...maximum-capacity (default 100 %)
  double maximumAmResourcePercent = 0.1;  // fraction; per label defaults to the queue value
  // Derived for percent and weight modes (absolute mode: filled at run time):
  double absoluteCapacity = 0;     // capacity x parent's absoluteCapacity
  double absoluteMaximumCapacity = 1;  // maximumCapacity x parent's absoluteMaximumCapacity
};

// "u1,u2 g1,g2" (users, a space, groups); "*" = everyone; " " = nobody.
struct AccessControlList {
  bool everyone = false;
  std::set<std::string> users;
  std::set<std::string> groups;
  bool allows(const std::string& user, const std::vector<std::string>& userGroups) const;
  std::string toString() const;
};

enum class QueueStateConfig { kRunning, kStopped };

struct QueueConfig {
  std::string path;                    // "root.a.a1"
  std::string name;                    // "a1"
  std::string parent;                  // "" for root
  std::vector<std::string> children;   // full paths, in the order `queues` lists them
  bool isLeaf() const { return children.empty(); }

  std::map<std::string, PartitionConfig> partitions;  // "" always present
  const PartitionConfig& partition(const std::string& label) const;  // default one if absent
  bool accessibleToAllLabels = false;  // accessible-node-labels "*" (root always)
  std::set<std::string> accessibleLabels;  // resolved (inherited when unset)
  bool canAccess(const std::string& label) const {
    return label.empty() || accessibleToAllLabels || accessibleLabels.count(label) > 0;
  }
  std::string defaultNodeLabelExpression;  // "" = none

  // Leaf settings (present on parents too, for inheritance and templates).
  double userLimitFactor = 1.0;              // -1 = disabled (cap is the queue's max)
  double minimumUserLimitPercent = 100;      // percent; floats and values > 100 accepted
  std::map<std::string, double> userWeights; // user-settings.<user>.weight
  int32_t maximumApplications = 10000;       // resolved (reference §1.2 derivation)
  int32_t maxApplicationsPerUser = 10000;    // derived: min(maxApps, maxApps x MULP/100 x ULF)
  int32_t maxParallelApps = INT32_MAX;       // resolved: lowest along the branch
  QueueStateConfig state = QueueStateConfig::kRunning;
  AccessControlList submitAcl;               // as configured (inheritance is checked at use)
  AccessControlList administerAcl;
  std::string orderingPolicy = "fifo";       // leaf: fifo, fair, fifo-with-partitions...;
                                             // parent: utilization, priority-utilization
  bool fairSizeBasedWeight = false;          // ordering-policy.fair.enable-size-based-weight
  int32_t priority = 0;                      // queue priority (priority-utilization parents)
  int32_t defaultApplicationPriority = 0;
  ResourceLimit maximumAllocation;           // maximum-allocation-mb/-vcores; unbounded = cluster
  bool disablePreemption = false;            // resolved (inherited)
  bool intraQueueDisablePreemption = false;  // resolved (inherited)
  bool allowZeroCapacitySum = false;
};

enum class MappingKind { kUser, kGroup };
// One entry of queue-mappings: "u:<user>:<queue>" / "g:<group>:<queue>", queue possibly
// "parent.%user", "%user", "%primary_group", "%secondary_group".
struct QueueMapping {
  MappingKind kind = MappingKind::kUser;
  std::string source;  // user or group name, or "%user" (u:%user:...)
  std::string queue;   // target, placeholders unresolved
};

struct CapacityConfig {
  std::map<std::string, QueueConfig> queues;  // by full path
  std::vector<std::string> preorder;          // root first, children in configured order
  std::map<std::string, std::string> leafByName;  // short leaf name -> path (unique names only)
  const QueueConfig& queue(const std::string& path) const { return queues.at(path); }
  // A queue by full path or (unique) short leaf name.
  const QueueConfig* find(const std::string& nameOrPath) const;

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
  int32_t maximumApplications = 10000;       // system-wide
  int32_t globalQueueMaxApplication = -1;
  double maximumAmResourcePercent = 0.1;
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

// Checks what a refresh may not change (reference §1.4 item 5: a queue's maximum allocation may
// not shrink; a queue may not change from parent to leaf while...). Queue removal with running
// apps is checked by the scheduler, which knows the apps. Returns every error together.
Status checkCapacityRefresh(const CapacityConfig& before, const CapacityConfig& after);

}  // namespace spindle
