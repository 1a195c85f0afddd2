// FairSharePolicy's comparator (FS/policies/FairSharePolicy.java, newest version). Memory only.
// compare(a, b) < 0 means a is offered resources first.
//
//   std::sort(apps.begin(), apps.end(), [](auto& a, auto& b) { return fairShareCompare(a, b) < 0;
//   });
//
// Stages, each consulted only when the previous ones tie:
//  1. Demand: a schedulable with demand.mem == 0 ranks after one with demand.mem > 0. A queue
//     with runnable apps (numRunnableApps > 0) counts as having demand even at demand 0: this is
//     the recent trunk behaviour TestFairSharePolicyPendingApps expects (vector FP-5, low
//     confidence); with numRunnableApps left at 0 it is exactly the released comparator.
//  2. Min share: minShareX = min(minShare.mem, demand.mem); X is needy when usage.mem <
//     minShareX. Needy first; both needy: usage.mem / minShareX (double), lower first.
//  3. Usage over weight: both weights > 0: usage.mem / weight, lower first; equal weights (both
//     0): raw usage; exactly one weight 0: that one ranks after (ratios -weight, Double.compare).
//  4. Start time (sign of the difference), then name (String.compareTo).
// Returns -1, 0 or 1.
//
// FairShareKey is the same order as a precomputed value (the Fair Scheduler keeps one per member
// of its sorted orders, next to the member, so that comparing touches one cache line):
//   compareFairShareKeys(fairShareKey(a), fairShareKey(b)) == fairShareCompare(a, b)
// for any two views, provided both have name ranks from the same set (nameRank >= 0; the last
// stage compares ranks only).
#pragma once

#include <cmath>
#include <cstdint>

#include "scheduler/fair/policy/schedulable.h"

namespace spindle::fair {

int fairShareCompare(const Schedulable& s1, const Schedulable& s2);

// The comparator's stages as values, compared in this order (doubles with Double.compare),
// with the two inputs besides usage that the usage stages read, so that a new usage re-keys a
// member without its view (setUsage).
struct FairShareKey {
  int64_t minShareX = 0;  // min(minShare.mem, demand.mem)
  float weight = 1.0f;
  bool noDemand = false;           // stage 1: ranks after those with demand
  bool notNeedy = false;           // stage 2: needy ones first...
  bool weightNotPositive = false;  // stage 3: weight > 0 first
  double needyRatio = 0;           // ...by usage / minShareX (0 when not needy)
  double usageOverWeight = 0;      // weight > 0: usage / weight; else -weight (0 for +-0)
  double rawUsage = 0;             // weight <= 0 (not NaN): usage, for equal weights; else 0
  int64_t startTime = 0;           // stage 4
  int64_t nameRank = -1;
};
FairShareKey fairShareKey(const Schedulable& s);
// Re-keys k for usage.mem = use, in place (every container moves a member's key; inline):
//   FairShareKey k = fairShareKey(s); setUsage(k, u);   // fairShareKey(s with usage.mem u)
inline void setUsage(FairShareKey& k, int64_t use) {
  // compareMinShareUsage, one side at a time.
  const int64_t min = k.minShareX;
  k.notNeedy = !(use < min);
  k.needyRatio = 0;
  if (!k.notNeedy) {
    k.needyRatio =
        min > 1 ? static_cast<double>(use) / static_cast<double>(min) : static_cast<double>(use);
  }
  // compareFairShareUsage: two positive weights compare usage / weight; a positive weight goes
  // before any other (Double.compare(-w1, -w2) with -w1 < 0 <= -w2, NaN the greatest); two
  // other weights that are equal (0 == -0) compare raw usage, unequal ones -weight (a NaN weight
  // equals nothing, not even another NaN, so Double.compare(NaN, NaN) = 0 ends the stage).
  const double w = k.weight;
  k.weightNotPositive = false;
  k.rawUsage = 0;
  if (w > 0.0) {
    k.usageOverWeight = static_cast<double>(use) / w;
  } else {
    k.weightNotPositive = true;
    k.usageOverWeight = w == 0.0 ? 0.0 : -w;
    k.rawUsage = std::isnan(w) ? 0.0 : static_cast<double>(use);
  }
}

inline int compareFairShareKeys(const FairShareKey& a, const FairShareKey& b) {
  if (a.noDemand != b.noDemand) return a.noDemand ? 1 : -1;
  if (a.notNeedy != b.notNeedy) return a.notNeedy ? 1 : -1;
  if (const int c = javaDoubleCompare(a.needyRatio, b.needyRatio)) return c;
  if (a.weightNotPositive != b.weightNotPositive) return a.weightNotPositive ? 1 : -1;
  if (const int c = javaDoubleCompare(a.usageOverWeight, b.usageOverWeight)) return c;
  if (const int c = javaDoubleCompare(a.rawUsage, b.rawUsage)) return c;
  if (const int c = signum(a.startTime, b.startTime)) return c;
  return signum(a.nameRank, b.nameRank);
}

}  // namespace spindle::fair
