// Deterministic, extreme-preserving downsampling so a day-long run (86,400 samples per series)
// draws as at most a few hundred KB of SVG.
//
//   std::vector<Point> small = downsampleMinMax(points, 1000);
//   small.size() <= 1000;  // and it keeps the first, last, minimum and maximum points
//
// Algorithm (min/max buckets; points must be in x order):
// 1. If n <= maxPoints, return the points unchanged.
// 2. Keep the first and last points. Split the n - 2 interior points into
//    B = (maxPoints - 2) / 2 buckets of near-equal count: bucket i covers interior indices
//    [i * m / B, (i + 1) * m / B) with m = n - 2 (integer division).
// 3. From each bucket keep the point with the smallest y and the one with the largest y (the
//    first such on ties), in their original order; one point when they coincide.
// The result is a subsequence of the input, so every drawn point was a real sample, and every
// peak and trough survives. maxPoints below 4 is treated as 4.
#pragma once

#include <cstddef>
#include <vector>

#include "report/series.h"

namespace spindle::report {

inline constexpr size_t kDefaultMaxPoints = 1000;       // per series
inline constexpr size_t kDefaultMaxChartPoints = 4000;  // per chart, shared by its series
inline constexpr size_t kMinPointsPerSeries = 200;      // floor of the per-chart share

// The per-series limit in a chart of `seriesCount` series: the chart budget split evenly,
// but never below kMinPointsPerSeries nor above `maxPerSeries`. A plot is about 640 px wide,
// so 200 points (100 min/max pairs) still draw every visible peak of a many-queue chart.
size_t pointsPerSeries(size_t seriesCount, size_t maxPerSeries, size_t maxPerChart);

std::vector<Point> downsampleMinMax(const std::vector<Point>& points, size_t maxPoints);

// Drops the interior points of every horizontal run (a point whose neighbours both have its
// y), which a polyline draws identically without them. Step-like series (allocation between
// container events) shrink to their change points. First and last points are always kept.
//
//   dropFlatInteriorPoints({{0,1},{1,1},{2,1},{3,2}})  // {{0,1},{2,1},{3,2}}
std::vector<Point> dropFlatInteriorPoints(const std::vector<Point>& points);

}  // namespace spindle::report
