#include "scheduler/fair/policy/compute_fair_shares.h"

#include <algorithm>
#include <cassert>
#include <limits>

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

// One searched schedulable's inputs to computeShare, converted to double once per call rather
// than once per bisection step (the same values and operations, so the same results).
struct Term {
  double weight;  // float weight promoted to double, as Java evaluates `getWeight() * w2rRatio`
  double min;
  double max;
};

Term termOf(const Schedulable& s, int type) {
  return Term{static_cast<double>(s.weight), static_cast<double>(s.minShare.get(type)),
              static_cast<double>(s.maxShare.get(type))};
}

int64_t shareAt(const Term& t, double weightToResourceRatio) {
  double share = t.weight * weightToResourceRatio;
  share = std::max(share, t.min);
  share = std::min(share, t.max);
  return javaLongCast(share);
}

// saturatingAdd (resource.h), inlined for the bisection's inner loop.
inline int64_t addSaturating(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}

// Consecutive searched schedulables with identical inputs (typically a leaf's apps, all of
// weight 1, min 0, max unbounded) have identical shares at any ratio: one evaluation per run.
struct Run {
  Term term;
  int64_t count;
};

// resourceUsedWithWeightToResourceRatio: saturating sum of the shares at ratio r. Every share of
// a searched schedulable is >= 0 (weight > 0 and r > 0, so weight x r >= 0 or NaN; min and max
// only raise it or cap it at max > 0; NaN casts to 0), so adding a run's `count` equal shares
// with saturation at once gives the same sum as adding them one by one (the sum saturates at
// the long maximum in either order). A negative share, if there could be one, is added one by
// one as YARN does.
int64_t resourceUsed(double r, const std::vector<Run>& runs) {
  int64_t taken = 0;
  for (const Run& run : runs) {
    const int64_t share = shareAt(run.term, r);
    if (share >= 0) {
      const int64_t all = share > kResourceMax / run.count ? kResourceMax : share * run.count;
      taken = addSaturating(taken, all);
    } else {
      for (int64_t k = 0; k < run.count && taken != kResourceMax; ++k) {
        taken = addSaturating(taken, share);
      }
    }
    if (taken == kResourceMax) break;
  }
  return taken;
}

}  // namespace

int64_t computeShare(const Schedulable& s, double weightToResourceRatio, int type) {
  return shareAt(termOf(s, type), weightToResourceRatio);
}

void computeShares(const std::vector<Schedulable>& schedulables, const Resource& total, int type,
                   ShareMode mode, std::vector<Resource>& shares) {
  assert(shares.size() == schedulables.size());
  std::vector<Term> searched;
  std::vector<size_t> searchedIndex;
  searched.reserve(schedulables.size());
  searchedIndex.reserve(schedulables.size());
  int64_t taken = 0;
  int64_t totalMaxShare = 0;
  for (size_t i = 0; i < schedulables.size(); ++i) {
    const int64_t fixed = fixedShare(schedulables[i], type, mode);
    if (fixed < 0) {
      searched.push_back(termOf(schedulables[i], type));
      searchedIndex.push_back(i);
      totalMaxShare = saturatingAdd(totalMaxShare, schedulables[i].maxShare.get(type));
    } else {
      shares[i].set(type, fixed);
      taken = saturatingAdd(taken, fixed);
    }
  }
  if (searched.empty()) return;

  int64_t totalResource = std::max<int64_t>(saturatingSub(total.get(type), taken), 0);
  totalResource = std::min(totalMaxShare, totalResource);

  std::vector<Run> runs;
  for (const Term& t : searched) {
    if (!runs.empty() && runs.back().term.weight == t.weight && runs.back().term.min == t.min &&
        runs.back().term.max == t.max) {
      ++runs.back().count;
    } else {
      runs.push_back(Run{t, 1});
    }
  }

  double rMax = 1.0;
  while (resourceUsed(rMax, runs) < totalResource) rMax *= 2.0;

  double left = 0;
  double right = rMax;
  for (int i = 0; i < kComputeFairSharesIterations; ++i) {
    const double mid = (left + right) / 2.0;
    const int64_t planned = resourceUsed(mid, runs);
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
    shares[searchedIndex[k]].set(type, shareAt(searched[k], right));
  }
}

}  // namespace spindle::fair
