#include "scheduler/capacity/preemption/resource_calculator.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace spindle::preemption {
namespace {

double share(int64_t value, int64_t total) {
  if (total <= 0) return value > 0 ? 1.0 : (value < 0 ? -1.0 : 0.0);
  return static_cast<double>(value) / static_cast<double>(total);
}

}  // namespace

int ResourceCalculator::compare(const Resource& cluster, const Resource& lhs,
                                const Resource& rhs) const {
  if (kind_ == CalculatorKind::kDefault) {
    return lhs.memoryMb() < rhs.memoryMb() ? -1 : (lhs.memoryMb() > rhs.memoryMb() ? 1 : 0);
  }
  bool equal = true;
  for (int i = 0; i < types_; ++i) equal = equal && lhs.get(i) == rhs.get(i);
  if (equal) return 0;
  // DominantResourceCalculator.compare: per-type shares of the cluster, sorted, compared from
  // the largest down. A type whose total is 0 cannot be shared; it counts as a full share (the
  // sign of the amount), close to YARN's compareWithInvalidDivisor which orders such amounts
  // by their raw values.
  std::vector<double> a(types_), b(types_);
  for (int i = 0; i < types_; ++i) {
    a[i] = share(lhs.get(i), cluster.get(i));
    b[i] = share(rhs.get(i), cluster.get(i));
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  for (int i = types_ - 1; i >= 0; --i) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

bool ResourceCalculator::fitsIn(const Resource& smaller, const Resource& bigger) const {
  if (kind_ == CalculatorKind::kDefault) return smaller.memoryMb() <= bigger.memoryMb();
  for (int i = 0; i < types_; ++i) {
    if (smaller.get(i) > bigger.get(i)) return false;
  }
  return true;
}

bool ResourceCalculator::anyAboveZero(const Resource& r) const {
  if (kind_ == CalculatorKind::kDefault) return r.memoryMb() > 0;
  for (int i = 0; i < types_; ++i) {
    if (r.get(i) > 0) return true;
  }
  return false;
}

bool ResourceCalculator::anyZeroOrNegative(const Resource& r) const {
  if (kind_ == CalculatorKind::kDefault) return r.memoryMb() <= 0;
  for (int i = 0; i < types_; ++i) {
    if (r.get(i) <= 0) return true;
  }
  return false;
}

double ResourceCalculator::divide(const Resource& cluster, const Resource& num,
                                  const Resource& den) const {
  if (kind_ == CalculatorKind::kDefault) {
    return static_cast<double>(num.memoryMb()) / static_cast<double>(den.memoryMb());
  }
  double n = 0, d = 0;
  for (int i = 0; i < types_; ++i) {
    n = std::max(n, share(num.get(i), cluster.get(i)));
    d = std::max(d, share(den.get(i), cluster.get(i)));
  }
  return n / d;
}

double ResourceCalculator::ratio(const Resource& num, const Resource& den) const {
  if (kind_ == CalculatorKind::kDefault) {
    return static_cast<double>(num.memoryMb()) / static_cast<double>(den.memoryMb());
  }
  double r = 0;
  for (int i = 0; i < types_; ++i) {
    if (den.get(i) == 0) continue;
    r = std::max(r, static_cast<double>(num.get(i)) / static_cast<double>(den.get(i)));
  }
  return r;
}

Resource ResourceCalculator::multiplyAndNormalizeUp(const Resource& r,
                                                    const TypeWeights& by) const {
  Resource out;
  for (int i = 0; i < types_; ++i) {
    double x = static_cast<double>(r.get(i)) * by[i];
    out.set(i, kind_ == CalculatorKind::kDefault ? static_cast<int64_t>(x + 0.5)
                                                 : static_cast<int64_t>(std::ceil(x)));
  }
  return out;
}

Resource ResourceCalculator::multiplyAndNormalizeUp(const Resource& r, double by) const {
  TypeWeights w;
  w.fill(by);
  return multiplyAndNormalizeUp(r, w);
}

Resource ResourceCalculator::multiplyTruncate(const Resource& r, double by) const {
  Resource out;
  for (int i = 0; i < types_; ++i) {
    out.set(i, static_cast<int64_t>(static_cast<double>(r.get(i)) * by));
  }
  return out;
}

}  // namespace spindle::preemption
