// The Fair Scheduler's allocation file (fair-scheduler.xml) parsed, validated and frozen (STYLE
// rule 9), plus the yarn-site keys. Mirrors FS/allocation/AllocationFileParser.java,
// AllocationFileQueueParser.java and AllocationConfiguration.java; the Hadoop docs'
// FairScheduler page, 'Configuration'; vectors CFG-*, QP-*, FP-3/FP-4 (policy placement).
//
//   Result<FairSchedulerConfig> cfg = parseFairSchedulerConfig(conf, types,
//   "/etc/fair-scheduler.xml"); if (!cfg.isOk()) ... cfg.status().message() lists every error, one
//   per line, each as
//                        "fair-scheduler.xml:12: <maxResources> (queue root.a): Missing resource:
//                        mb"
//   const FairQueueConfig& a = cfg->allocation.queue("root.a");
//   ResourceLimit max = a.maxShare(cluster, types.count());
//   Result<Placement> p = assignAppToQueue(cfg->allocation.placementPolicy, "default", "bob",
//                                          groups, cfg->allocation.configuredQueues);
//
// Resolution done here (YARN resolves the same values in AllocationConfiguration and
// FSQueue.updatePreemptionVariables):
//  1. root always exists (implicit when the file does not declare it); so does root.default
//     (an implicit leaf), as YARN's QueueManager creates it.
//  2. Unset per-queue values take the file's defaults: maxRunningApps <- queueMaxAppsDefault,
//     maxAMShare <- queueMaxAMShareDefault, schedulingPolicy <- defaultQueueSchedulingPolicy,
//     maxResources <- queueMaxResourcesDefault (not for root).
//  3. Preemption timeouts and the threshold: root takes its own value or the file default;
//     every other queue its own value or its parent's. allowPreemptionFrom=false on a queue
//     applies to all its descendants.
//  4. Policy placement (FSParentQueue / SchedulingPolicy.isChildPolicyAllowed): a parent with
//     FIFO, or a drf queue under a fair parent, would not be created by YARN at first load, nor
//     its subtree: such queues keep policyAllowed=false and a warning is recorded. (On reload
//     YARN keeps the old policies instead; the scheduler decides.)
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "config/access_control_list.h"
#include "config/configuration.h"
#include "resource/resource.h"
#include "scheduler/fair/config/fair_site_config.h"
#include "scheduler/fair/config/queue_placement.h"
#include "scheduler/fair/config/resource_value.h"
#include "scheduler/fair/policy/scheduling_policy.h"

namespace spindle::fair {

inline constexpr int64_t kNoTimeout = INT64_MAX;  // Long.MAX_VALUE: never preempt

struct FairQueueConfig {
  std::string path;                   // "root.a.b"
  std::string name;                   // "b"
  std::string parent;                 // "" for root
  std::vector<std::string> children;  // full paths, in file order
  bool isParent = false;              // has child queues or type="parent"
  bool isLeaf() const { return !isParent; }
  bool declared = false;  // appears in the file (root/root.default may be implicit)
  int line = 0;           // line of its <queue> element (0 when implicit)

  float weight = 1.0f;
  std::optional<ConfigurableResource> minResources;       // unset: 0
  std::optional<ConfigurableResource> maxResources;       // resolved with queueMaxResourcesDefault;
                                                          // unset: unbounded
  std::optional<ConfigurableResource> maxChildResources;  // max share of ad hoc children
  // maxContainerAllocation, inherited from the nearest ancestor that sets it; unset: the
  // scheduler's maximum allocation.
  std::optional<Resource> maxContainerAllocation;
  int32_t maxRunningApps = INT32_MAX;
  float maxAMShare = 0.5f;  // capped at 1.0; -1 disables the check
  PolicyKind policy = PolicyKind::kFair;
  int64_t minSharePreemptionTimeoutMs = kNoTimeout;
  int64_t fairSharePreemptionTimeoutMs = kNoTimeout;
  float fairSharePreemptionThreshold = 0.5f;  // clamped to [0, 1]
  bool allowPreemptionFrom = true;            // false when this queue or an ancestor says false
  AccessControlList submitAcl;                // as configured; root default "*", others nobody
  AccessControlList administerAcl;
  std::optional<std::string> aclAdministerReservations;  // raw ACL strings (reservation system)
  std::optional<std::string> aclListReservations;
  std::optional<std::string> aclSubmitReservations;
  bool reservation = false;   // a ReservationSystem plan queue
  bool policyAllowed = true;  // see rule 4 above

  // Min share: minResources resolved against the cluster (0 when unset).
  Resource minShare(const Resource& cluster, int typeCount) const;
  // Max share: componentwiseMax(maxResources, minResources), as FSQueue.getMaxShare; unbounded
  // types stay unbounded.
  ResourceLimit maxShare(const Resource& cluster, int typeCount) const;
};

struct AllocationConfig {
  std::map<std::string, FairQueueConfig> queues;  // by full path, including root and root.default
  std::vector<std::string> preorder;              // root first, children in file order
  const FairQueueConfig& queue(const std::string& path) const { return queues.at(path); }
  const FairQueueConfig* find(const std::string& path) const;
  // The queues the file declares, by type (placement rules test these; root.default only when
  // the file declares it).
  QueueCatalog configuredQueues;
  // FSQueue.hasAccess: granted when the ACL of the queue or of any ancestor allows the user (root
  // defaults to "*", so by default everyone may submit everywhere). Submission is also granted by
  // the administer ACL, as YARN checks both. False for an unknown queue.
  bool hasAccess(const std::string& path, QueueAcl acl, const std::string& user,
                 const std::vector<std::string>& userGroups) const;

  int32_t userMaxAppsDefault = INT32_MAX;
  std::map<std::string, int32_t> userMaxApps;  // <user name="u"><maxRunningApps>
  int32_t maxRunningAppsOfUser(const std::string& user) const;
  int32_t queueMaxAppsDefault = INT32_MAX;
  std::optional<ConfigurableResource> queueMaxResourcesDefault;
  float queueMaxAMShareDefault = 0.5f;
  PolicyKind defaultSchedulingPolicy = PolicyKind::kFair;
  int64_t defaultMinSharePreemptionTimeoutMs = kNoTimeout;
  int64_t defaultFairSharePreemptionTimeoutMs = kNoTimeout;
  float defaultFairSharePreemptionThreshold = 0.5f;
  std::string reservationAgent =
      "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.AlignedPlannerWithGreedy";
  std::string reservationPolicy =
      "org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacityOverTimePolicy";
  std::string reservationPlanner =
      "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.SimpleCapacityReplanner";

  PlacementPolicy placementPolicy;  // from the file, else defaultPlacementPolicy(site)
  bool placementPolicyFromFile = false;
  std::vector<std::string> warnings;  // ignored elements, policy violations, max < min
};

struct FairSchedulerConfig {
  FairSiteConfig site;
  AllocationConfig allocation;
  // The file the allocation was read from; empty when it came as text or no file was found.
  std::string allocationFile;
};

// Parses an allocation file's text. `site` supplies the placement default (allow-undeclared-pools,
// user-as-default-queue). Every error is collected and returned together.
Result<AllocationConfig> parseAllocationText(std::string_view xml, std::string_view sourceName,
                                             const ResourceTypes& types,
                                             const FairSiteConfig& site);
Result<AllocationConfig> parseAllocationFile(const std::string& path, const ResourceTypes& types,
                                             const FairSiteConfig& site);
// The allocation used when there is no file: root, root.default and the site's placement.
AllocationConfig emptyAllocation(const FairSiteConfig& site);

// yarn-site keys plus the allocation file. `allocationPath` overrides the site's
// yarn.scheduler.fair.allocation.file; when neither names a file that exists and the key was not
// set, the empty allocation is used (YARN logs that the file was not found); a file named
// explicitly must exist.
Result<FairSchedulerConfig> parseFairSchedulerConfig(const Configuration& conf,
                                                     const ResourceTypes& types,
                                                     const std::string& allocationPath = "");
// As above with the allocation file's text given directly.
Result<FairSchedulerConfig> parseFairSchedulerConfigText(const Configuration& conf,
                                                         const ResourceTypes& types,
                                                         std::string_view allocationXml,
                                                         std::string_view sourceName);

}  // namespace spindle::fair
