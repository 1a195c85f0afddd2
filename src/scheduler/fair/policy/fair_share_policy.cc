#include "scheduler/fair/policy/fair_share_policy.h"

#include <algorithm>
#include <cmath>

#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {
namespace {

bool hasDemand(const Schedulable& s) { return s.demand.memoryMb() > 0 || s.numRunnableApps > 0; }

int compareDemand(const Schedulable& s1, const Schedulable& s2) {
  const bool d1 = hasDemand(s1);
  const bool d2 = hasDemand(s2);
  if (!d1 && d2) return 1;
  if (!d2 && d1) return -1;
  return 0;
}

int compareMinShareUsage(const Schedulable& s1, const Schedulable& s2) {
  const int64_t min1 = std::min(s1.minShare.memoryMb(), s1.demand.memoryMb());
  const int64_t min2 = std::min(s2.minShare.memoryMb(), s2.demand.memoryMb());
  const int64_t use1 = s1.usage.memoryMb();
  const int64_t use2 = s2.usage.memoryMb();
  const bool needy1 = use1 < min1;
  const bool needy2 = use2 < min2;
  if (needy1 && !needy2) return -1;
  if (needy2 && !needy1) return 1;
  if (!needy1) return 0;
  // Both needy, so both minShareX > usage >= 0. YARN divides only when minShareX > 1; with
  // minShareX == 1 the usage is 0 and the ratio 0 either way.
  const double ratio1 =
      min1 > 1 ? static_cast<double>(use1) / static_cast<double>(min1) : static_cast<double>(use1);
  const double ratio2 =
      min2 > 1 ? static_cast<double>(use2) / static_cast<double>(min2) : static_cast<double>(use2);
  return javaDoubleCompare(ratio1, ratio2);
}

int compareFairShareUsage(const Schedulable& s1, const Schedulable& s2) {
  const double w1 = s1.weight;
  const double w2 = s2.weight;
  const double use1 = static_cast<double>(s1.usage.memoryMb());
  const double use2 = static_cast<double>(s2.usage.memoryMb());
  if (w1 > 0.0 && w2 > 0.0) return javaDoubleCompare(use1 / w1, use2 / w2);
  if (w1 == w2) return javaDoubleCompare(use1, use2);
  // The zero-weight one gets the larger (negated) ratio and so ranks after.
  return javaDoubleCompare(-w1, -w2);
}

}  // namespace

FairShareKey fairShareKey(const Schedulable& s) {
  FairShareKey k;
  k.noDemand = !hasDemand(s);
  k.minShareX = std::min(s.minShare.memoryMb(), s.demand.memoryMb());
  k.weight = s.weight;
  k.startTime = s.startTime;
  k.nameRank = s.nameRank;
  setUsage(k, s.usage.memoryMb());
  return k;
}

int fairShareCompare(const Schedulable& s1, const Schedulable& s2) {
  int res = compareDemand(s1, s2);
  if (res == 0) res = compareMinShareUsage(s1, s2);
  if (res == 0) res = compareFairShareUsage(s1, s2);
  if (res == 0) res = signum(s1.startTime, s2.startTime);
  if (res == 0) res = compareNames(s1, s2);
  return res;
}

}  // namespace spindle::fair
