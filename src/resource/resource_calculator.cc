#include "resource/resource_calculator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "base/strings.h"

namespace spindle {
namespace {

constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr std::string_view kPackage = "org.apache.hadoop.yarn.util.resource.";

// Java's (long) cast of a double: NaN is 0, out-of-range values saturate (JLS 5.1.3). A plain
// C++ cast would be undefined behaviour there.
int64_t javaDoubleToLong(double d) {
  if (std::isnan(d)) return 0;
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (d >= kTwoTo63) return std::numeric_limits<int64_t>::max();
  if (d < -kTwoTo63) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// Java's long division, guarding the one quotient that overflows (MIN / -1).
int64_t javaDivide(int64_t a, int64_t b) {
  if (b == -1) return saturatingMul(a, -1);
  return a / b;
}

// ResourceCalculator.divideAndCeil(long a, long b): (a + (b - 1)) / b, and 0 when b == 0. For
// a >= 0, b > 0 this is the true ceiling, computed without the overflow Java's form has near
// Long.MAX_VALUE; other signs keep Hadoop's formula (saturating instead of wrapping).
int64_t divideAndCeil(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (a >= 0 && b > 0) return a / b + (a % b != 0 ? 1 : 0);
  return javaDivide(saturatingAdd(a, b - 1), b);
}

// ResourceCalculator.divideAndCeil(long a, float b): (long) Math.ceil(a / b) in float arithmetic.
int64_t divideAndCeil(int64_t a, float b) {
  if (b == 0.0f) return 0;
  float q = static_cast<float>(a) / b;
  return javaDoubleToLong(std::ceil(static_cast<double>(q)));
}

// ResourceCalculator.roundUp(long a, long b) = divideAndCeil(a, b) * b; b == 0 gives 0.
int64_t roundUp(int64_t a, int64_t b) { return saturatingMul(divideAndCeil(a, b), b); }

// ResourceCalculator.roundDown(long a, long b) = (a / b) * b. Callers never pass b == 0.
int64_t roundDown(int64_t a, int64_t b) { return saturatingMul(javaDivide(a, b), b); }

// A share value / cluster as an exact rational, so that compare() needs no doubles.
struct Share {
  int64_t num = 0;
  int64_t den = 1;  // never 0
};

// Sign of a.num/a.den - b.num/b.den. Products of two int64 fit in 127 bits, so the difference
// of two such products cannot overflow __int128.
int compareShares(const Share& a, const Share& b) {
  __int128 diff = static_cast<__int128>(a.num) * b.den - static_cast<__int128>(b.num) * a.den;
  int sign = diff > 0 ? 1 : (diff < 0 ? -1 : 0);
  return ((a.den < 0) != (b.den < 0)) ? -sign : sign;
}

// A step of one in every type: roundUp(v, 1) == v.
const Resource kStepOne = [] {
  Resource one;
  for (int i = 0; i < kMaxResourceTypes; ++i) one.set(i, 1);
  return one;
}();

// Resources.createResource(long memory): the default calculator's result type.
Resource memoryOnly(int64_t memoryMb) { return Resource::of(memoryMb, memoryMb > 0 ? 1 : 0); }

// Mirrors org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator: memory only.
class DefaultCalculator final : public ResourceCalculator {
 public:
  const char* className() const override {
    return "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";
  }

  int compare(const Resource&, const Resource& lhs, const Resource& rhs, bool) const override {
    return lhs.memoryMb() < rhs.memoryMb() ? -1 : (lhs.memoryMb() > rhs.memoryMb() ? 1 : 0);
  }

  int64_t computeAvailableContainers(const Resource& available,
                                     const Resource& required) const override {
    // Hadoop divides unguarded and would throw on a zero memory ask; INT_MAX matches the
    // Dominant calculator's answer for an all-zero ask.
    if (required.memoryMb() == 0) return kIntMax;
    return javaDivide(available.memoryMb(), required.memoryMb());
  }

  double divide(const Resource&, const Resource& numerator,
                const Resource& denominator) const override {
    return ratio(numerator, denominator);
  }

  bool isInvalidDivisor(const Resource& r) const override { return r.memoryMb() == 0; }

  // (float) a.getMemorySize() / b.getMemorySize(): float division.
  double ratio(const Resource& a, const Resource& b) const override {
    return static_cast<float>(a.memoryMb()) / static_cast<float>(b.memoryMb());
  }

  Resource divideAndCeil(const Resource& numerator, int64_t denominator) const override {
    return memoryOnly(spindle::divideAndCeil(numerator.memoryMb(), denominator));
  }
  Resource divideAndCeil(const Resource& numerator, double denominator) const override {
    return memoryOnly(
        spindle::divideAndCeil(numerator.memoryMb(), static_cast<float>(denominator)));
  }

  Resource normalize(const Resource& r, const Resource& minimum, const Resource& maximum,
                     const Resource& step) const override {
    // Hadoop logs "Memory cannot be allocated in increments of zero. Assuming <min>MB increment
    // size" and carries on with the minimum as the step.
    int64_t stepMb = step.memoryMb() == 0 ? minimum.memoryMb() : step.memoryMb();
    int64_t mem = spindle::roundUp(std::max(r.memoryMb(), minimum.memoryMb()), stepMb);
    return memoryOnly(std::min(mem, maximum.memoryMb()));
  }

  Resource roundUp(const Resource& r, const Resource& step) const override {
    return memoryOnly(spindle::roundUp(r.memoryMb(), step.memoryMb()));
  }
  Resource roundDown(const Resource& r, const Resource& step) const override {
    if (step.memoryMb() == 0) return memoryOnly(r.memoryMb());
    return memoryOnly(spindle::roundDown(r.memoryMb(), step.memoryMb()));
  }

  // Half-up, not ceil: roundUp((long) (r.getMemorySize() * by + 0.5), step). Preemption's
  // natural-termination factor relies on this (2 * 0.2 rounds to 0, no preemption).
  Resource multiplyAndNormalizeUp(const Resource& r, double by,
                                  const Resource& step) const override {
    int64_t mem = javaDoubleToLong(static_cast<double>(r.memoryMb()) * by + 0.5);
    return memoryOnly(spindle::roundUp(mem, step.memoryMb()));
  }
  Resource multiplyAndNormalizeUp(const Resource& r,
                                  const std::array<double, kMaxResourceTypes>& by,
                                  const Resource& step) const override {
    return multiplyAndNormalizeUp(r, by[kMemoryIndex], step);
  }
  // (long) (v * by + 0.5) for every type: memory as Hadoop's half-up, the rest the same way.
  Resource multiplyAndNormalizeUpEveryType(
      const Resource& r, const std::array<double, kMaxResourceTypes>& by) const override {
    Resource out;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      out.set(i, javaDoubleToLong(static_cast<double>(r.get(i)) * by[i] + 0.5));
    }
    return out;
  }
  Resource multiplyAndNormalizeUpEveryType(const Resource& r, double by) const override {
    std::array<double, kMaxResourceTypes> all;
    all.fill(by);
    return multiplyAndNormalizeUpEveryType(r, all);
  }
  Resource multiplyAndNormalizeDown(const Resource& r, double by,
                                    const Resource& step) const override {
    int64_t mem = javaDoubleToLong(static_cast<double>(r.memoryMb()) * by);
    if (step.memoryMb() == 0) return memoryOnly(mem);
    return memoryOnly(spindle::roundDown(mem, step.memoryMb()));
  }

  bool fitsIn(const Resource& smaller, const Resource& bigger) const override {
    return smaller.memoryMb() <= bigger.memoryMb();
  }
  bool isAnyMajorResourceZeroOrNegative(const Resource& r) const override {
    return r.memoryMb() <= 0;
  }
  bool isAnyMajorResourceAboveZero(const Resource& r) const override { return r.memoryMb() > 0; }
};

// Mirrors org.apache.hadoop.yarn.util.resource.DominantResourceCalculator over the first
// `count` types (Hadoop's getNumberOfCountableResourceTypes()).
class DominantCalculator final : public ResourceCalculator {
 public:
  explicit DominantCalculator(int count) : n_(count) {}

  const char* className() const override {
    return "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";
  }

  int compare(const Resource& cluster, const Resource& lhs, const Resource& rhs,
              bool singleType) const override {
    if (equalCounted(lhs, rhs)) return 0;
    if (isInvalidDivisor(cluster)) return compareComponentwise(lhs, rhs);

    std::array<Share, kMaxResourceTypes> l;
    std::array<Share, kMaxResourceTypes> r;
    for (int i = 0; i < n_; ++i) {
      l[i] = {lhs.get(i), cluster.get(i)};
      r[i] = {rhs.get(i), cluster.get(i)};
    }
    if (singleType) return compareShares(dominant(l), dominant(r));
    if (n_ == 2) return compareTwo(l, r);
    sortDescending(l);
    sortDescending(r);
    for (int i = 0; i < n_; ++i) {
      int c = compareShares(l[i], r[i]);
      if (c != 0) return c;
    }
    return 0;
  }

  int64_t computeAvailableContainers(const Resource& available,
                                     const Resource& required) const override {
    int64_t min = std::numeric_limits<int64_t>::max();
    for (int i = 0; i < n_; ++i) {
      if (required.get(i) != 0) min = std::min(min, javaDivide(available.get(i), required.get(i)));
    }
    return std::min(min, kIntMax);
  }

  // (float) (max[0] / max[1]) with max[] the dominant shares as doubles, floored at 0. A type
  // the cluster has none of is skipped (calculateShares: its share is +infinity, and infinite
  // shares take no part in the maximum).
  double divide(const Resource& cluster, const Resource& numerator,
                const Resource& denominator) const override {
    double maxNum = 0.0;
    double maxDen = 0.0;
    for (int i = 0; i < n_; ++i) {
      if (cluster.get(i) == 0) continue;
      double c = static_cast<double>(cluster.get(i));
      maxNum = std::max(maxNum, static_cast<double>(numerator.get(i)) / c);
      maxDen = std::max(maxDen, static_cast<double>(denominator.get(i)) / c);
    }
    return static_cast<float>(maxNum / maxDen);
  }

  bool isInvalidDivisor(const Resource& r) const override {
    for (int i = 0; i < n_; ++i) {
      if (r.get(i) == 0) return true;
    }
    return false;
  }

  // Max over types of divideSafelyAsFloat(a_i, b_i), starting at 0.
  double ratio(const Resource& a, const Resource& b) const override {
    float ratio = 0.0f;
    for (int i = 0; i < n_; ++i) {
      float tmp = (a.get(i) == 0 && b.get(i) == 0)
                      ? 0.0f
                      : static_cast<float>(a.get(i)) / static_cast<float>(b.get(i));
      ratio = ratio > tmp ? ratio : tmp;
    }
    return ratio;
  }

  Resource divideAndCeil(const Resource& numerator, int64_t denominator) const override {
    Resource out = numerator;
    for (int i = 0; i < n_; ++i) out.set(i, spindle::divideAndCeil(numerator.get(i), denominator));
    return out;
  }
  Resource divideAndCeil(const Resource& numerator, double denominator) const override {
    Resource out = numerator;
    float d = static_cast<float>(denominator);
    for (int i = 0; i < n_; ++i) out.set(i, spindle::divideAndCeil(numerator.get(i), d));
    return out;
  }

  Resource normalize(const Resource& r, const Resource& minimum, const Resource& maximum,
                     const Resource& step) const override {
    Resource out = r;
    for (int i = 0; i < n_; ++i) {
      int64_t value = std::max(r.get(i), minimum.get(i));
      if (step.get(i) != 0) value = spindle::roundUp(value, step.get(i));
      out.set(i, std::min(value, maximum.get(i)));
    }
    return out;
  }

  // DominantResourceCalculator.rounding(r, step, roundUp).
  Resource roundUp(const Resource& r, const Resource& step) const override {
    Resource out = r;
    for (int i = 0; i < n_; ++i) {
      if (step.get(i) != 0) out.set(i, spindle::roundUp(r.get(i), step.get(i)));
    }
    return out;
  }
  Resource roundDown(const Resource& r, const Resource& step) const override {
    Resource out = r;
    for (int i = 0; i < n_; ++i) {
      if (step.get(i) != 0) out.set(i, spindle::roundDown(r.get(i), step.get(i)));
    }
    return out;
  }

  // DominantResourceCalculator.multiplyAndNormalize(r, by, step, roundUp).
  Resource multiplyAndNormalizeUp(const Resource& r, double by,
                                  const Resource& step) const override {
    Resource out = r;
    for (int i = 0; i < n_; ++i) {
      // (long) Math.ceil((float) (rValue * by)): the product is rounded to float first.
      float product = static_cast<float>(static_cast<double>(r.get(i)) * by);
      int64_t value = javaDoubleToLong(std::ceil(static_cast<double>(product)));
      out.set(i, step.get(i) != 0 ? spindle::roundUp(value, step.get(i)) : value);
    }
    return out;
  }
  // DominantResourceCalculator.multiplyAndNormalizeUp(Resource, double[], Resource):
  // roundUp((long) Math.ceil(rValue * by[i]), step), the product kept in double.
  Resource multiplyAndNormalizeUp(const Resource& r,
                                  const std::array<double, kMaxResourceTypes>& by,
                                  const Resource& step) const override {
    Resource out = r;
    for (int i = 0; i < n_; ++i) {
      int64_t value = javaDoubleToLong(std::ceil(static_cast<double>(r.get(i)) * by[i]));
      out.set(i, step.get(i) != 0 ? spindle::roundUp(value, step.get(i)) : value);
    }
    return out;
  }
  // Every type is counted, so a step of one in every type gives Hadoop's result.
  Resource multiplyAndNormalizeUpEveryType(
      const Resource& r, const std::array<double, kMaxResourceTypes>& by) const override {
    return multiplyAndNormalizeUp(r, by, kStepOne);
  }
  Resource multiplyAndNormalizeUpEveryType(const Resource& r, double by) const override {
    return multiplyAndNormalizeUp(r, by, kStepOne);
  }
  Resource multiplyAndNormalizeDown(const Resource& r, double by,
                                    const Resource& step) const override {
    Resource out = r;
    for (int i = 0; i < n_; ++i) {
      int64_t value = javaDoubleToLong(static_cast<double>(r.get(i)) * by);
      out.set(i, step.get(i) != 0 ? spindle::roundDown(value, step.get(i)) : value);
    }
    return out;
  }

  bool fitsIn(const Resource& smaller, const Resource& bigger) const override {
    for (int i = 0; i < n_; ++i) {
      if (smaller.get(i) > bigger.get(i)) return false;
    }
    return true;
  }
  bool isAnyMajorResourceZeroOrNegative(const Resource& r) const override {
    for (int i = 0; i < n_; ++i) {
      if (r.get(i) <= 0) return true;
    }
    return false;
  }
  bool isAnyMajorResourceAboveZero(const Resource& r) const override {
    for (int i = 0; i < n_; ++i) {
      if (r.get(i) > 0) return true;
    }
    return false;
  }

 private:
  bool equalCounted(const Resource& a, const Resource& b) const {
    for (int i = 0; i < n_; ++i) {
      if (a.get(i) != b.get(i)) return false;
    }
    return true;
  }

  // The private DominantResourceCalculator.compare(lhs, rhs) used when the cluster has a zero.
  int compareComponentwise(const Resource& lhs, const Resource& rhs) const {
    bool lhsGreater = false;
    bool rhsGreater = false;
    for (int i = 0; i < n_; ++i) {
      if (lhs.get(i) > rhs.get(i)) lhsGreater = true;
      if (lhs.get(i) < rhs.get(i)) rhsGreater = true;
    }
    if (lhsGreater == rhsGreater) return 0;
    return lhsGreater ? 1 : -1;
  }

  // calculateSharesForTwoMandatoryResources: Hadoop's fast path for memory and vcores only,
  // the same order as sorting two shares.
  static int compareTwo(const std::array<Share, kMaxResourceTypes>& l,
                        const std::array<Share, kMaxResourceTypes>& r) {
    int lDom = compareShares(l[1], l[0]) > 0 ? 1 : 0;
    int rDom = compareShares(r[1], r[0]) > 0 ? 1 : 0;
    int c = compareShares(l[lDom], r[rDom]);
    return c != 0 ? c : compareShares(l[1 - lDom], r[1 - rDom]);
  }

  // Hadoop's max[] starts at 0.0, so a side whose shares are all negative has dominant share 0.
  Share dominant(const std::array<Share, kMaxResourceTypes>& shares) const {
    Share best{0, 1};
    for (int i = 0; i < n_; ++i) {
      if (compareShares(shares[i], best) > 0) best = shares[i];
    }
    return best;
  }

  // Insertion sort: n_ <= kMaxResourceTypes, and it allocates nothing.
  void sortDescending(std::array<Share, kMaxResourceTypes>& shares) const {
    for (int i = 1; i < n_; ++i) {
      Share s = shares[i];
      int j = i - 1;
      while (j >= 0 && compareShares(shares[j], s) < 0) {
        shares[j + 1] = shares[j];
        --j;
      }
      shares[j + 1] = s;
    }
  }

  int n_;
};

}  // namespace

std::unique_ptr<ResourceCalculator> makeDefaultResourceCalculator(const ResourceTypes&) {
  return std::make_unique<DefaultCalculator>();
}

std::unique_ptr<ResourceCalculator> makeDominantResourceCalculator(const ResourceTypes& types) {
  return std::make_unique<DominantCalculator>(types.count());
}

Result<std::unique_ptr<ResourceCalculator>> makeResourceCalculator(std::string_view className,
                                                                   const ResourceTypes& types) {
  std::string_view name = trimView(className);
  std::string_view simple = name;
  if (simple.starts_with(kPackage)) simple.remove_prefix(kPackage.size());
  if (simple == "DefaultResourceCalculator") return makeDefaultResourceCalculator(types);
  if (simple == "DominantResourceCalculator") return makeDominantResourceCalculator(types);
  return invalidArgument(
      "unknown resource calculator '{}': expected "
      "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator or "
      "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator",
      className);
}

Resource normalizeRequest(const ResourceCalculator& rc, const Resource& ask,
                          const AllocationBounds& bounds) {
  return rc.normalize(ask, bounds.minimum, bounds.maximum, bounds.increment);
}

}  // namespace spindle
