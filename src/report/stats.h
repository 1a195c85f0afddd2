// Summary statistics for the report: count, mean and the nearest-rank 95th percentile.
//
//   std::vector<int64_t> waitsMs = {400, 100, 300, 200};
//   Distribution d = summarize(waitsMs);
//   d.count;   // 4
//   *d.mean;   // 250.0
//   *d.p95;    // 400 (nearest rank: ceil(0.95 * 4) = 4th smallest)
//   summarize({}).mean;  // std::nullopt: an empty set has no mean and no percentile
//
// Percentiles use the nearest-rank definition so that a reported p95 is always a value that
// occurred: sort ascending x_1 <= ... <= x_n; the p-th percentile (0 < p <= 100) is x_k with
// k = ceil(p * n / 100), computed in integers. Means are the arithmetic mean in double.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace spindle::report {

// Nearest-rank percentile of `values` (unsorted; copied and sorted here); nullopt when empty.
// `percent` must be in (0, 100].
std::optional<int64_t> nearestRankPercentile(std::vector<int64_t> values, int percent);

// The 1-based rank nearest-rank uses: ceil(percent * n / 100); 0 when n == 0.
int64_t nearestRank(int64_t n, int percent);

struct Distribution {
  int64_t count = 0;
  std::optional<double> mean;  // absent when count == 0
  std::optional<int64_t> p95;  // nearest rank; absent when count == 0
  std::optional<int64_t> max;  // absent when count == 0
};

Distribution summarize(const std::vector<int64_t>& values);

// Arithmetic mean of doubles; nullopt when empty.
std::optional<double> mean(const std::vector<double>& values);

}  // namespace spindle::report
