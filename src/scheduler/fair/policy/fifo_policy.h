// FifoPolicy (FS/policies/FifoPolicy.java), leaf queues only.
//
//   int c = fifoCompare(app1, app2);                       // < 0: app1 first
//   std::optional<size_t> i = fifoShareOwner(apps);        // index that gets the whole share
//
// Comparator: priority (Priority.compareTo, newer form `other - this`: the larger priority number
// first; FS apps all have priority 1), then start time (earlier first), then name.
// computeShares: the app with the earliest start time (the first one on ties) receives the whole
// fair share; the others keep whatever share they had (YARN does not reset them). There is no
// steady computation.
#pragma once

#include <optional>
#include <vector>

#include "scheduler/fair/policy/schedulable.h"

namespace spindle::fair {

int fifoCompare(const Schedulable& s1, const Schedulable& s2);

// The index of the earliest-started schedulable; nullopt when empty.
std::optional<size_t> fifoShareOwner(const std::vector<Schedulable>& schedulables);

}  // namespace spindle::fair
