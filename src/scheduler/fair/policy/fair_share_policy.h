// FairSharePolicy's comparator (FS/policies/FairSharePolicy.java, newest version; reference
// fair-scheduler.md §2.1). Memory only. compare(a, b) < 0 means a is offered resources first.
//
//   std::sort(apps.begin(), apps.end(), [](auto& a, auto& b) { return fairShareCompare(a, b) < 0; });
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
#pragma once

#include "scheduler/fair/policy/schedulable.h"

namespace spindle::fair {

int fairShareCompare(const Schedulable& s1, const Schedulable& s2);

}  // namespace spindle::fair
