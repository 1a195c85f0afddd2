#include "report/stats.h"

#include <algorithm>
#include <cassert>

namespace spindle::report {

int64_t nearestRank(int64_t n, int percent) {
  assert(percent > 0 && percent <= 100);
  if (n <= 0) return 0;
  return (static_cast<int64_t>(percent) * n + 99) / 100;  // ceil(percent * n / 100)
}

std::optional<int64_t> nearestRankPercentile(std::vector<int64_t> values, int percent) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  int64_t k = nearestRank(static_cast<int64_t>(values.size()), percent);
  return values[static_cast<size_t>(k - 1)];
}

Distribution summarize(const std::vector<int64_t>& values) {
  Distribution d;
  d.count = static_cast<int64_t>(values.size());
  if (values.empty()) return d;
  // Summing in long double keeps day-long millisecond totals exact well beyond 2^53.
  long double sum = 0;
  for (int64_t v : values) sum += static_cast<long double>(v);
  d.mean = static_cast<double>(sum / static_cast<long double>(values.size()));
  d.p95 = nearestRankPercentile(values, 95);
  d.max = *std::max_element(values.begin(), values.end());
  return d;
}

std::optional<double> mean(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  long double sum = 0;
  for (double v : values) sum += v;
  return static_cast<double>(sum / static_cast<long double>(values.size()));
}

}  // namespace spindle::report
