#include "base/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace spindle {

double percentileUs(const std::vector<uint64_t>& buckets, double p, int64_t maxUs) {
  uint64_t total = 0;
  for (uint64_t n : buckets) total += n;
  if (total == 0) return 0;
  // The rank of the p-th duration, 1-based: the 99th percentile of 100 is the 99th.
  const auto rank = static_cast<uint64_t>(
      std::max(1.0, std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(total))));
  uint64_t seen = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    seen += buckets[i];
    if (seen >= rank) {
      // Bucket i holds durations in [low, high): its largest is high - 1.
      double us = static_cast<double>(LatencyHistogram::bucketHighUs(static_cast<int>(i)) - 1);
      if (maxUs >= 0) us = std::min(us, static_cast<double>(maxUs));
      return us;
    }
  }
  return maxUs >= 0 ? static_cast<double>(maxUs) : 0;
}

}  // namespace spindle
