// Fair-share computation of YARN's Fair Scheduler (FS/policies/ComputeFairShares.java, newest
// version: any resource type, long shares, "fixed" shares).
//
//   std::vector<Schedulable> children = ...;             // weight, min, max, isActive
//   std::vector<Resource> shares(children.size());        // in/out: only `type` is written
//   computeShares(children, parentShare, kMemoryIndex, ShareMode::kInstantaneous, shares);
//
// Algorithm, for one resource type with total T (the parent's share of that type):
//  1. Fixed shares: max <= 0 -> 0; an inactive queue (instantaneous mode only) -> 0; weight <= 0
//     -> min if min > 0 else 0. Their sum is `taken`; they leave the search.
//  2. totalResource = min(saturating sum of the remaining max shares, max(T - taken, 0)).
//  3. R = 1.0, doubled while used(R) < totalResource, where used(R) is the saturating sum of
//     computeShare(S, R) = (long) min(max(weight x R, min), max)  (double maths, Java truncation).
//  4. Bisection on [0, R], 25 iterations, stopping early when used(mid) == totalResource.
//  5. Every remaining share is computeShare(S, right): the UPPER bound. When no exact split exists
//     the shares therefore add up to slightly more than the total (YARN's tests rely on it: one
//     vcore split between two equal children gives each 1).
// Pure function; thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "resource/resource.h"
#include "scheduler/fair/policy/schedulable.h"

namespace spindle::fair {

// YARN's ComputeFairShares.COMPUTE_FAIR_SHARES_ITERATIONS.
inline constexpr int kComputeFairSharesIterations = 25;

enum class ShareMode {
  kInstantaneous,  // inactive queues get 0 (FSQueue.isActive); used for scheduling/preemption
  kSteady,         // every queue counts, active or not; for display
};

// computeShare(S, R) of step 3 for one resource type.
int64_t computeShare(const Schedulable& s, double weightToResourceRatio, int type);

// Writes type `type` of shares[i] for every schedulable i (other types untouched, as YARN sets one
// resource value of the existing fair-share object). `shares` must have schedulables.size()
// entries.
void computeShares(const std::vector<Schedulable>& schedulables, const Resource& total, int type,
                   ShareMode mode, std::vector<Resource>& shares);

}  // namespace spindle::fair
