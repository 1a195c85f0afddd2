#include "scheduler/fair/policy/compute_fair_shares.h"

#include <algorithm>
#include <cassert>

#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {
namespace {

// getFairShareIfFixed: the fixed share, or -1 when the schedulable takes part in the search.
int64_t fixedShare(const Schedulable& s, int type, ShareMode mode) {
  if (s.maxShare.get(type) <= 0) return 0;
  if (mode == ShareMode::kInstantaneous && s.isQueue && !s.isActive) return 0;
  if (s.weight <= 0) {
    const int64_t min = s.minShare.get(type);
    return min <= 0 ? 0 : min;
  }
  return -1;
}

// resourceUsedWithWeightToResourceRatio: saturating sum of the shares at ratio r.
int64_t resourceUsed(double r, const std::vector<const Schedulable*>& searched, int type) {
  int64_t taken = 0;
  for (const Schedulable* s : searched) {
    taken = saturatingAdd(taken, computeShare(*s, r, type));
    if (taken == kResourceMax) break;
  }
  return taken;
}

}  // namespace

int64_t computeShare(const Schedulable& s, double weightToResourceRatio, int type) {
  // float weight promoted to double, as Java evaluates `sched.getWeight() * w2rRatio`.
  double share = static_cast<double>(s.weight) * weightToResourceRatio;
  share = std::max(share, static_cast<double>(s.minShare.get(type)));
  share = std::min(share, static_cast<double>(s.maxShare.get(type)));
  return javaLongCast(share);
}

void computeShares(const std::vector<Schedulable>& schedulables, const Resource& total, int type,
                   ShareMode mode, std::vector<Resource>& shares) {
  assert(shares.size() == schedulables.size());
  std::vector<const Schedulable*> searched;
  std::vector<size_t> searchedIndex;
  int64_t taken = 0;
  for (size_t i = 0; i < schedulables.size(); ++i) {
    const int64_t fixed = fixedShare(schedulables[i], type, mode);
    if (fixed < 0) {
      searched.push_back(&schedulables[i]);
      searchedIndex.push_back(i);
    } else {
      shares[i].set(type, fixed);
      taken = saturatingAdd(taken, fixed);
    }
  }
  if (searched.empty()) return;

  int64_t totalMaxShare = 0;
  for (const Schedulable* s : searched) {
    totalMaxShare = saturatingAdd(totalMaxShare, s->maxShare.get(type));
    if (totalMaxShare == kResourceMax) break;
  }
  int64_t totalResource = std::max<int64_t>(saturatingSub(total.get(type), taken), 0);
  totalResource = std::min(totalMaxShare, totalResource);

  double rMax = 1.0;
  while (resourceUsed(rMax, searched, type) < totalResource) rMax *= 2.0;

  double left = 0;
  double right = rMax;
  for (int i = 0; i < kComputeFairSharesIterations; ++i) {
    const double mid = (left + right) / 2.0;
    const int64_t planned = resourceUsed(mid, searched, type);
    if (planned == totalResource) {
      right = mid;
      break;
    }
    if (planned < totalResource) {
      left = mid;
    } else {
      right = mid;
    }
  }
  for (size_t k = 0; k < searched.size(); ++k) {
    shares[searchedIndex[k]].set(type, computeShare(*searched[k], right, type));
  }
}

}  // namespace spindle::fair
