#include "report/downsample.h"

#include <algorithm>

namespace spindle::report {

size_t pointsPerSeries(size_t seriesCount, size_t maxPerSeries, size_t maxPerChart) {
  if (seriesCount == 0) return maxPerSeries;
  size_t share = std::max(kMinPointsPerSeries, maxPerChart / seriesCount);
  return std::min(maxPerSeries, share);
}

std::vector<Point> downsampleMinMax(const std::vector<Point>& points, size_t maxPoints) {
  maxPoints = std::max<size_t>(maxPoints, 4);
  const size_t n = points.size();
  if (n <= maxPoints) return points;
  const size_t m = n - 2;  // interior points 1 .. n-2
  const size_t buckets = (maxPoints - 2) / 2;
  std::vector<Point> out;
  out.reserve(maxPoints);
  out.push_back(points.front());
  for (size_t b = 0; b < buckets; ++b) {
    size_t lo = 1 + b * m / buckets;
    size_t hi = 1 + (b + 1) * m / buckets;
    if (lo >= hi) continue;
    size_t iMin = lo;
    size_t iMax = lo;
    for (size_t i = lo + 1; i < hi; ++i) {
      if (points[i].y < points[iMin].y) iMin = i;
      if (points[i].y > points[iMax].y) iMax = i;
    }
    out.push_back(points[std::min(iMin, iMax)]);
    if (iMin != iMax) out.push_back(points[std::max(iMin, iMax)]);
  }
  out.push_back(points.back());
  return out;
}

std::vector<Point> dropFlatInteriorPoints(const std::vector<Point>& points) {
  std::vector<Point> out;
  out.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    bool interior = i > 0 && i + 1 < points.size();
    if (interior && points[i - 1].y == points[i].y && points[i + 1].y == points[i].y) continue;
    out.push_back(points[i]);
  }
  return out;
}

}  // namespace spindle::report
