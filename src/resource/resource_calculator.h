// Resource calculators with Hadoop's semantics: DefaultResourceCalculator (memory only) and
// DominantResourceCalculator (every type, dominant share).
//
//   std::unique_ptr<ResourceCalculator> rc = makeDominantResourceCalculator(types);
//   int c = rc->compare(cluster, a, b);               // <0, 0, >0
//   bool fits = rc->fitsIn(ask, nodeFree);
//   Resource n = rc->normalize(ask, minAlloc, maxAlloc, increment);
//
// Mirrors org.apache.hadoop.yarn.util.resource.{ResourceCalculator, DefaultResourceCalculator,
// DominantResourceCalculator} of Hadoop 3.x. compare() is exact integer (128-bit rational)
// arithmetic where Hadoop compares double shares; the two agree except where distinct shares
// differ by less than a double's precision. Methods that return float in Hadoop (divide, ratio)
// return that float widened to double, so callers see Hadoop's float rounding.
//
// Default calculator results: like Hadoop's DefaultResourceCalculator, every method that returns
// a Resource builds it with Resources.createResource(memory), i.e. <memory, memory > 0 ? 1 : 0>
// with every other type zero. This is why YARN shows one vcore per container under the default
// calculator. The Dominant calculator keeps every type and rewrites the counted ones.
//
// Thread-safe: calculators are immutable.
#pragma once

#include <array>
#include <memory>
#include <string_view>

#include "resource/resource.h"

namespace spindle {

class ResourceCalculator {
 public:
  virtual ~ResourceCalculator() = default;

  // "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator" etc.
  virtual const char* className() const = 0;

  // Orders lhs and rhs relative to the cluster. Default: by memory, cluster unused. Dominant
  // (DominantResourceCalculator.compare):
  //  1. equal resources compare 0;
  //  2. if any counted cluster type is 0 (isInvalidDivisor), compare componentwise: 1 when lhs
  //     is greater in some type and rhs in none, -1 the other way round, else 0;
  //  3. with singleType, compare only the dominant shares max(0, max_i r_i / cluster_i);
  //  4. otherwise sort each side's shares descending and compare lexicographically.
  // Signed result is -1, 0 or 1.
  virtual int compare(const Resource& cluster, const Resource& lhs, const Resource& rhs,
                      bool singleType = false) const = 0;

  // How many `required` fit into `available`: Default avail.mem / req.mem (Java long division,
  // truncating); Dominant the minimum over types with req != 0, capped at INT_MAX as Hadoop's.
  // An ask of zero in every counted type gives INT_MAX; so does a zero-memory ask under Default
  // (Hadoop's DefaultResourceCalculator would throw ArithmeticException there).
  virtual int64_t computeAvailableContainers(const Resource& available,
                                             const Resource& required) const = 0;

  // numerator/denominator as shares of the cluster: Default mem/mem; Dominant
  // dominantShare(numerator)/dominantShare(denominator), each dominant share at least 0 and
  // taken over the types the cluster has (a type whose cluster amount is 0 is skipped, as
  // DominantResourceCalculator.calculateShares skips infinite shares).
  // Hadoop float result (0/0 is NaN, x/0 is +inf).
  virtual double divide(const Resource& cluster, const Resource& numerator,
                        const Resource& denominator) const = 0;

  // True when the divisor would make ratio() divide by zero (Default: mem == 0; Dominant: any
  // counted type == 0).
  virtual bool isInvalidDivisor(const Resource& r) const = 0;

  // a/b: Default mem/mem; Dominant max over types of a_i/b_i (b_i == 0 gives +inf when a_i > 0,
  // 0 when a_i == 0), as DominantResourceCalculator.ratio.
  virtual double ratio(const Resource& a, const Resource& b) const = 0;

  // Every counted type divided by `denominator`, rounded up with Hadoop's
  // ResourceCalculator.divideAndCeil: (a + b - 1) / b for integers, (long) ceil(a / (float) b)
  // for fractions (float arithmetic, as Hadoop); a denominator of 0 gives 0.
  virtual Resource divideAndCeil(const Resource& numerator, int64_t denominator) const = 0;
  virtual Resource divideAndCeil(const Resource& numerator, double denominator) const = 0;
  // Resolves divideAndCeil(r, 2) (int literal), which would otherwise be ambiguous.
  Resource divideAndCeil(const Resource& numerator, int denominator) const {
    return divideAndCeil(numerator, static_cast<int64_t>(denominator));
  }

  // Hadoop's normalize(r, min, max, step): each counted type becomes
  // min(roundUp(max(r_i, min_i), step_i), max_i). Dominant: a step of 0 leaves that type
  // unrounded. Default: memory only (result <mem, 1>, see above); a memory step of 0 is replaced
  // by the minimum, as Hadoop does after logging an error.
  virtual Resource normalize(const Resource& r, const Resource& minimum, const Resource& maximum,
                             const Resource& step) const = 0;

  // Rounds every counted type up / down to a multiple of step. Dominant: step 0 leaves the type
  // unchanged. Default: roundUp with a 0 step gives 0 (Hadoop's divideAndCeil(a, 0) = 0);
  // roundDown with a 0 step leaves memory unchanged (Hadoop would throw ArithmeticException).
  virtual Resource roundUp(const Resource& r, const Resource& step) const = 0;
  virtual Resource roundDown(const Resource& r, const Resource& step) const = 0;

  // r * by, then rounded up / down to step, per counted type; steps of 0 as in roundUp /
  // roundDown. Up: Default rounds memory half-up, (long)(mem * by + 0.5); Dominant rounds each
  // type up, (long) ceil((float)(v * by)) -- note Hadoop's float cast. Down truncates toward
  // zero, (long)(v * by), in both.
  virtual Resource multiplyAndNormalizeUp(const Resource& r, double by,
                                          const Resource& step) const = 0;
  // Per-type factors (Hadoop's multiplyAndNormalizeUp(Resource, double[], Resource)); Default
  // uses by[0] for memory. Dominant rounds (long) ceil(v * by[i]) in double: unlike the
  // single-factor form, Hadoop's per-type form has no float cast.
  virtual Resource multiplyAndNormalizeUp(const Resource& r,
                                          const std::array<double, kMaxResourceTypes>& by,
                                          const Resource& step) const = 0;
  // multiplyAndNormalizeUp with a step of one in every type, for plans that report every type
  // (the capacity preemption policy's ideal assignment and resource to obtain). The calculator's
  // rounding applies to every type of r: Dominant counts every type, so the result is Hadoop's;
  // Default rounds vcores and the extras half-up like memory, where Hadoop's
  // Resources.createResource(memory) would return <memory, 0 or 1>. Memory is Hadoop's in both.
  virtual Resource multiplyAndNormalizeUpEveryType(
      const Resource& r, const std::array<double, kMaxResourceTypes>& by) const = 0;
  virtual Resource multiplyAndNormalizeUpEveryType(const Resource& r, double by) const = 0;
  virtual Resource multiplyAndNormalizeDown(const Resource& r, double by,
                                            const Resource& step) const = 0;

  // smaller fits in bigger: Default compares memory only (vcores ignored, as YARN's fit checks
  // under the default calculator); Dominant requires every counted type to fit.
  virtual bool fitsIn(const Resource& smaller, const Resource& bigger) const = 0;

  // Any counted type is <= 0 / > 0 (DominantResourceCalculator.isAnyMajorResourceZeroOrNegative /
  // isAnyMajorResourceAboveZero loop over every known type, not only memory and vcores).
  // Default looks at memory only.
  virtual bool isAnyMajorResourceZeroOrNegative(const Resource& r) const = 0;
  virtual bool isAnyMajorResourceAboveZero(const Resource& r) const = 0;

  // --- Non-virtual helpers from Hadoop's Resources utility class, built on the above. ---
  bool greaterThan(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) > 0;
  }
  bool greaterThanOrEqual(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) >= 0;
  }
  bool lessThan(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) < 0;
  }
  bool lessThanOrEqual(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) <= 0;
  }
  const Resource& max(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) >= 0 ? a : b;
  }
  const Resource& min(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) <= 0 ? a : b;
  }
  // Resources.equals under this calculator: compare() == 0.
  bool equals(const Resource& cluster, const Resource& a, const Resource& b) const {
    return compare(cluster, a, b) == 0;
  }
};

// The calculators count the registry's first types.count() types.
std::unique_ptr<ResourceCalculator> makeDefaultResourceCalculator(const ResourceTypes& types);
std::unique_ptr<ResourceCalculator> makeDominantResourceCalculator(const ResourceTypes& types);

// By Hadoop class name (full or simple, surrounding whitespace ignored):
// "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator" or
// "DominantResourceCalculator", likewise Default. Unknown names are an InvalidArgument naming it.
Result<std::unique_ptr<ResourceCalculator>> makeResourceCalculator(std::string_view className,
                                                                   const ResourceTypes& types);

// YARN's SchedulerUtils.normalizeRequest / getNormalizedResource, i.e. rc.normalize(ask, min,
// max, increment): a request smaller than the minimum allocation grows to it, is rounded up to
// the increment (the minimum under the Capacity/FIFO schedulers,
// yarn.resource-types.*.increment-allocation under Fair), then capped at the maximum.
struct AllocationBounds {
  Resource minimum;    // yarn.scheduler.minimum-allocation-mb / -vcores / per-type minimum
  Resource maximum;    // yarn.scheduler.maximum-allocation-mb / -vcores / per-type maximum
  Resource increment;  // step for rounding up
};
Resource normalizeRequest(const ResourceCalculator& rc, const Resource& ask,
                          const AllocationBounds& bounds);

}  // namespace spindle
