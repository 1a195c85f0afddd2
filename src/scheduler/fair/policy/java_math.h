// Java numeric semantics the Fair Scheduler's float/double code relies on, so that Spindle rounds
// where YARN rounds (STYLE rule 1: where YARN uses floats, keep its rules).
//
//   int64_t share = fair::javaLongCast(weight * ratio);    // (long) d: truncates, saturates,
//   NaN->0 int c = fair::javaDoubleCompare(a, b);                 // Double.compare: NaN greatest
//   int s = fair::signum(t1 - t2);                         // (int) Math.signum(long diff)
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

namespace spindle::fair {

// Java's (long) cast of a double: truncation toward zero, saturating at the long range, NaN -> 0.
inline int64_t javaLongCast(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// Java's Double.compare: a total order with -0.0 < 0.0 and NaN above +infinity (equal to itself).
inline int javaDoubleCompare(double a, double b) {
  if (a < b) return -1;
  if (a > b) return 1;
  const bool aNan = std::isnan(a);
  const bool bNan = std::isnan(b);
  if (aNan || bNan) return aNan == bNan ? 0 : (aNan ? 1 : -1);
  const bool aNeg = std::signbit(a);
  const bool bNeg = std::signbit(b);
  return aNeg == bNeg ? 0 : (aNeg ? -1 : 1);
}

// (int) Math.signum(a - b) for longs, without overflow.
inline int signum(int64_t a, int64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

// String.compareTo reduced to its sign (names are ASCII, so UTF-16 and byte order agree).
inline int compareNames(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace spindle::fair
