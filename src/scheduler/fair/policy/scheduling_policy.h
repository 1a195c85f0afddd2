// The Fair Scheduler's per-queue scheduling policy: its name, where it may be used, how it splits
// a share and how it orders schedulables (FS/SchedulingPolicy.java and the three policies in
// FS/policies/; FSLeafQueue / FSParentQueue use them).
//
//   Result<PolicyKind> kind = parseSchedulingPolicy("DRF");      // case-insensitive short names
//   SchedulingPolicy policy(*kind, cluster, types.count());
//   policy.computeShares(children, parentFairShare, ShareMode::kInstantaneous, shares);
//   std::sort(v.begin(), v.end(), [&](auto& a, auto& b) { return policy.compare(a, b) < 0; });
//   Resource room = policy.headroom(queueFairShare, queueUsage, maxAvailable);
//
// Thread-compatible value type.
#pragma once

#include <string_view>
#include <vector>

#include "base/status.h"
#include "resource/resource.h"
#include "scheduler/fair/policy/compute_fair_shares.h"
#include "scheduler/fair/policy/schedulable.h"

namespace spindle::fair {

enum class PolicyKind { kFair, kDrf, kFifo };

inline constexpr std::string_view kFairSharePolicyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy";
inline constexpr std::string_view kDrfPolicyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies."
    "DominantResourceFairnessPolicy";
inline constexpr std::string_view kFifoPolicyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FifoPolicy";

// SchedulingPolicy.parse: "fair", "drf", "fifo" in any case, or one of the three class names.
// Anything else: "<text> SchedulingPolicy class not found!" (YARN's text).
Result<PolicyKind> parseSchedulingPolicy(std::string_view text);
// getName(): "fair", "DRF", "FIFO".
const char* policyName(PolicyKind kind);
// FIFO is for leaf queues only (FSParentQueue refuses it).
bool isAllowedOnParent(PolicyKind kind);
// SchedulingPolicy.isChildPolicyAllowed: a fair parent does not allow a drf child; everything
// else is allowed.
bool isChildPolicyAllowed(PolicyKind parent, PolicyKind child);

class SchedulingPolicy {
 public:
  SchedulingPolicy(PolicyKind kind, const Resource& cluster, int typeCount)
      : kind_(kind), cluster_(cluster), typeCount_(typeCount) {}
  PolicyKind kind() const { return kind_; }

  // computeShares / computeSteadyShares. fair: memory only; drf: every type, each
  // independently; fifo: instantaneous gives the earliest app the whole `total` (the others keep
  // their previous value), steady does nothing. Only the written types of `shares` change.
  void computeShares(const std::vector<Schedulable>& schedulables, const Resource& total,
                     ShareMode mode, std::vector<Resource>& shares) const;
  // The policy's comparator; < 0 means s1 is offered resources first.
  int compare(const Schedulable& s1, const Schedulable& s2) const;
  // getHeadroom: fair/fifo memory = min(maxAvailable.mem, max(fairShare.mem - usage.mem, 0)) and
  // vcores = maxAvailable.vcores; drf the same rule for memory and vcores. Other types are 0.
  Resource headroom(const Resource& fairShare, const Resource& usage,
                    const Resource& maxAvailable) const;
  // checkIfUsageOverFairShare: fair usage.mem > fairShare.mem; drf !fitsIn(usage, fairShare);
  // fifo is unsupported in YARN (it throws): an error here.
  Result<bool> isUsageOverFairShare(const Resource& usage, const Resource& fairShare) const;
  // checkIfAMResourceUsageOverLimit: fair/fifo memory only; drf any type.
  bool isAmUsageOverLimit(const Resource& amUsage, const Resource& maxAmResource) const;

 private:
  PolicyKind kind_;
  Resource cluster_;
  int typeCount_;
};

}  // namespace spindle::fair
