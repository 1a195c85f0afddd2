#include "scheduler/fair/policy/scheduling_policy.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "scheduler/fair/policy/drf_policy.h"
#include "scheduler/fair/policy/fair_share_policy.h"
#include "scheduler/fair/policy/fifo_policy.h"

namespace spindle::fair {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

int64_t memoryHeadroom(int type, const Resource& fairShare, const Resource& usage,
                       const Resource& maxAvailable) {
  const int64_t room = std::max<int64_t>(saturatingSub(fairShare.get(type), usage.get(type)), 0);
  return std::min(maxAvailable.get(type), room);
}

}  // namespace

Result<PolicyKind> parseSchedulingPolicy(std::string_view text) {
  if (equalsIgnoreCase(text, "fair") || text == kFairSharePolicyClass) return PolicyKind::kFair;
  if (equalsIgnoreCase(text, "drf") || text == kDrfPolicyClass) return PolicyKind::kDrf;
  if (equalsIgnoreCase(text, "fifo") || text == kFifoPolicyClass) return PolicyKind::kFifo;
  return invalidArgument("{} SchedulingPolicy class not found!", text);
}

const char* policyName(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kFair: return "fair";
    case PolicyKind::kDrf: return "DRF";
    case PolicyKind::kFifo: return "FIFO";
  }
  return "?";
}

bool isAllowedOnParent(PolicyKind kind) { return kind != PolicyKind::kFifo; }

bool isChildPolicyAllowed(PolicyKind parent, PolicyKind child) {
  return !(parent == PolicyKind::kFair && child == PolicyKind::kDrf);
}

void SchedulingPolicy::computeShares(const std::vector<Schedulable>& schedulables,
                                     const Resource& total, ShareMode mode,
                                     std::vector<Resource>& shares) const {
  switch (kind_) {
    case PolicyKind::kFair:
      fair::computeShares(schedulables, total, kMemoryIndex, mode, shares);
      return;
    case PolicyKind::kDrf:
      for (int t = 0; t < typeCount_; ++t)
        fair::computeShares(schedulables, total, t, mode, shares);
      return;
    case PolicyKind::kFifo:
      if (mode == ShareMode::kSteady) return;
      if (auto owner = fifoShareOwner(schedulables)) shares[*owner] = total;
      return;
  }
}

int SchedulingPolicy::compare(const Schedulable& s1, const Schedulable& s2) const {
  switch (kind_) {
    case PolicyKind::kFair: return fairShareCompare(s1, s2);
    case PolicyKind::kDrf: return DrfComparator(cluster_, typeCount_).compare(s1, s2);
    case PolicyKind::kFifo: return fifoCompare(s1, s2);
  }
  return 0;
}

Resource SchedulingPolicy::headroom(const Resource& fairShare, const Resource& usage,
                                    const Resource& maxAvailable) const {
  const int64_t memory = memoryHeadroom(kMemoryIndex, fairShare, usage, maxAvailable);
  const int64_t vcores = kind_ == PolicyKind::kDrf
                             ? memoryHeadroom(kVcoresIndex, fairShare, usage, maxAvailable)
                             : maxAvailable.vcores();
  return Resource::of(memory, vcores);
}

Result<bool> SchedulingPolicy::isUsageOverFairShare(const Resource& usage,
                                                    const Resource& fairShare) const {
  switch (kind_) {
    case PolicyKind::kFair: return usage.memoryMb() > fairShare.memoryMb();
    case PolicyKind::kDrf: return !usage.fitsIn(fairShare);
    case PolicyKind::kFifo: break;
  }
  return failedPrecondition("FifoPolicy does not support checkIfUsageOverFairShare");
}

bool SchedulingPolicy::isAmUsageOverLimit(const Resource& amUsage,
                                          const Resource& maxAmResource) const {
  if (kind_ == PolicyKind::kDrf) return !amUsage.fitsIn(maxAmResource);
  return amUsage.memoryMb() > maxAmResource.memoryMb();
}

}  // namespace spindle::fair
