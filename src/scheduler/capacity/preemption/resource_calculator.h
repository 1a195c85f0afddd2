// The two YARN resource calculators as the preemption policy uses them: every comparison,
// min/max, ratio and scaled share goes through one of these (reference §0, §4.2, §5).
//
//   ResourceCalculator rc(CalculatorKind::kDominant, /*typeCount=*/2);
//   if (rc.greaterThan(clusterTotal, used, guaranteed)) { ... }
//   Resource share = rc.multiplyAndNormalizeUp(unassigned, weights);
//
// kDefault mirrors DefaultResourceCalculator: only memory is compared; scaled shares round
// half-up ((long)(x + 0.5)). kDominant mirrors DominantResourceCalculator: resources compare by
// their sorted per-type shares of a reference total (the "cluster" argument); scaled shares are
// ceil-ed. Arithmetic on the other types is kept componentwise so that a Default-rc plan still
// carries sensible vcores, but Default-rc decisions never look at them.
// Fractions arrive as double; YARN multiplies by float in some places (the caller converts
// with asYarnFloat where YARN's field is a float).
#pragma once

#include <array>

#include "resource/resource.h"

namespace spindle::preemption {

enum class CalculatorKind { kDefault, kDominant };

// A per-type multiplier (normalizedGuarantee in YARN).
using TypeWeights = std::array<double, kMaxResourceTypes>;

// YARN stores some fractions as float; multiplying by the float value reproduces its
// truncations exactly (0.1f * 100 and 0.1 * 100 differ in the last bit).
inline double asYarnFloat(double v) { return static_cast<double>(static_cast<float>(v)); }

class ResourceCalculator {
 public:
  ResourceCalculator(CalculatorKind kind, int typeCount) : kind_(kind), types_(typeCount) {}

  CalculatorKind kind() const { return kind_; }
  int typeCount() const { return types_; }

  // <0, 0, >0 as lhs is smaller, equal, larger (Resources.compare / rc.compare).
  int compare(const Resource& cluster, const Resource& lhs, const Resource& rhs) const;
  bool lessThan(const Resource& c, const Resource& a, const Resource& b) const {
    return compare(c, a, b) < 0;
  }
  bool lessThanOrEqual(const Resource& c, const Resource& a, const Resource& b) const {
    return compare(c, a, b) <= 0;
  }
  bool greaterThan(const Resource& c, const Resource& a, const Resource& b) const {
    return compare(c, a, b) > 0;
  }
  bool greaterThanOrEqual(const Resource& c, const Resource& a, const Resource& b) const {
    return compare(c, a, b) >= 0;
  }
  Resource min(const Resource& c, const Resource& a, const Resource& b) const {
    return compare(c, a, b) <= 0 ? a : b;
  }
  Resource max(const Resource& c, const Resource& a, const Resource& b) const {
    return compare(c, a, b) >= 0 ? a : b;
  }
  // rc.fitsIn: Default compares memory only; Dominant every type.
  bool fitsIn(const Resource& smaller, const Resource& bigger) const;
  // isAnyMajorResourceAboveZero / isAnyMajorResourceZeroOrNegative.
  bool anyAboveZero(const Resource& r) const;
  bool anyZeroOrNegative(const Resource& r) const;
  // Resources.divide: memory ratio (Default) or ratio of dominant shares (Dominant).
  double divide(const Resource& cluster, const Resource& num, const Resource& den) const;
  // Resources.ratio (used as a node cost by the reserved selector): like divide, but the
  // Dominant form takes the largest per-type ratio num_i / den_i.
  double ratio(const Resource& num, const Resource& den) const;
  // Resources.multiplyAndNormalizeUp with step factor 1: half-up (Default) or ceil (Dominant).
  Resource multiplyAndNormalizeUp(const Resource& r, const TypeWeights& by) const;
  Resource multiplyAndNormalizeUp(const Resource& r, double by) const;
  // Resources.multiply(r, double): every type truncated toward zero.
  Resource multiplyTruncate(const Resource& r, double by) const;

 private:
  CalculatorKind kind_;
  int types_;
};

}  // namespace spindle::preemption
