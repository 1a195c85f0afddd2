// Resource calculators with Hadoop's semantics: DefaultResourceCalculator (memory only) and
// DominantResourceCalculator (every type, dominant share).
//
//   const ResourceCalculator& rc = dominantResourceCalculator(types);
//   int c = rc.compare(cluster, a, b);                // <0, 0, >0
//   bool fits = rc.fitsIn(ask, nodeFree);
//   Resource n = rc.normalize(ask, minAlloc, maxAlloc, increment);
//
// Mirrors org.apache.hadoop.yarn.util.resource.{ResourceCalculator, DefaultResourceCalculator,
// DominantResourceCalculator}. Scheduling comparisons are exact where Hadoop's are (integer
// compares); ratios are doubles where Hadoop returns float/double, and callers that order by
// them keep Hadoop's rounding (see each method). Thread-safe: calculators are immutable.
#pragma once

#include <memory>

#include "resource/resource.h"

namespace spindle {

class ResourceCalculator {
 public:
  virtual ~ResourceCalculator() = default;

  // "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator" etc.
  virtual const char* className() const = 0;

  // Orders lhs and rhs relative to the cluster. Default: by memory. Dominant: by dominant share
  // of the cluster, then the next largest share, and so on (Hadoop's N-type compare); with
  // singleType=true only the dominant share. A zero cluster compares componentwise.
  virtual int compare(const Resource& cluster, const Resource& lhs, const Resource& rhs,
                      bool singleType = false) const = 0;

  // How many `required` fit into `available`: Default floor(avail.mem / req.mem); Dominant the
  // minimum over types with req > 0. A required of zero for every counted type gives INT_MAX.
  virtual int64_t computeAvailableContainers(const Resource& available,
                                             const Resource& required) const = 0;

  // numerator/denominator as shares of the cluster: Default mem/mem; Dominant
  // dominantShare(numerator)/dominantShare(denominator).
  virtual double divide(const Resource& cluster, const Resource& numerator,
                        const Resource& denominator) const = 0;

  // True when the divisor would make ratio() divide by zero (Default: mem == 0; Dominant: any
  // counted type == 0).
  virtual bool isInvalidDivisor(const Resource& r) const = 0;

  // a/b: Default mem/mem; Dominant max over types of a_i/b_i (b_i == 0 gives +inf when a_i > 0,
  // 0 when a_i == 0), as DominantResourceCalculator.ratio.
  virtual double ratio(const Resource& a, const Resource& b) const = 0;

  // Every counted type divided by `denominator`, rounded up.
  virtual Resource divideAndCeil(const Resource& numerator, int64_t denominator) const = 0;
  virtual Resource divideAndCeil(const Resource& numerator, double denominator) const = 0;

  // Hadoop's normalize(r, min, max, step): each counted type becomes
  // min(roundUp(max(r_i, min_i), step_i), max_i); Default only touches memory (vcores pass
  // through unchanged). A step of 0 leaves the value unrounded.
  virtual Resource normalize(const Resource& r, const Resource& minimum, const Resource& maximum,
                             const Resource& step) const = 0;

  // Rounds every counted type up / down to a multiple of step (step 0: unchanged).
  virtual Resource roundUp(const Resource& r, const Resource& step) const = 0;
  virtual Resource roundDown(const Resource& r, const Resource& step) const = 0;

  // r * by, then rounded up / down to step, per counted type. Up uses ceil; Down uses floor.
  virtual Resource multiplyAndNormalizeUp(const Resource& r, double by,
                                          const Resource& step) const = 0;
  virtual Resource multiplyAndNormalizeDown(const Resource& r, double by,
                                            const Resource& step) const = 0;

  // smaller fits in bigger: Default compares memory only (vcores ignored, as YARN's fit checks
  // under the default calculator); Dominant requires every counted type to fit.
  virtual bool fitsIn(const Resource& smaller, const Resource& bigger) const = 0;

  // Any counted "major" type (memory, vcores) is <= 0 / > 0. Default looks at memory only.
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

// By Hadoop class name (full or simple): DefaultResourceCalculator / DominantResourceCalculator.
Result<std::unique_ptr<ResourceCalculator>> makeResourceCalculator(std::string_view className,
                                                                   const ResourceTypes& types);

// YARN's SchedulerUtils.normalizeRequest: a request smaller than the minimum allocation grows
// to it, is rounded up to the increment (the minimum under the Capacity/FIFO schedulers,
// yarn.resource-types.*.increment-allocation under Fair), then capped at the maximum.
struct AllocationBounds {
  Resource minimum;    // yarn.scheduler.minimum-allocation-mb / -vcores / per-type minimum
  Resource maximum;    // yarn.scheduler.maximum-allocation-mb / -vcores / per-type maximum
  Resource increment;  // step for rounding up
};
Resource normalizeRequest(const ResourceCalculator& rc, const Resource& ask,
                          const AllocationBounds& bounds);

}  // namespace spindle
