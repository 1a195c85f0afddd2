// A small SVG chart writer: line, area and scatter charts of named series, with axes, ticks,
// grid, axis labels and a legend. Generic on purpose: a chart is a title, two axis labels and a
// list of Series, so a new experiment adds a chart by listing its series (no drawing code).
//
//   ChartSpec c;
//   c.id = "cluster-memory";
//   c.title = "Cluster memory";
//   c.yLabel = "GB";
//   c.series = {{"allocated", allocPts}, {"available", availPts}};
//   RenderedChart r = renderSvgChart(c);
//   page += r.svg;   // "<svg ...>...</svg>", self-contained, no script, no external reference
//
// Rendering steps:
// 1. Line and area series first drop the interior points of flat runs (dropFlatInteriorPoints,
//    lossless for the drawn line). Line, area and scatter series are then downsampled with
//    downsampleMinMax (deterministic) to pointsPerSeries(series count, maxPointsPerSeries,
//    maxPointsPerChart) points. Segment series are drawn as given.
// 2. The x range spans all points; time axes pick a unit (s, min or h) from the span. The y
//    range starts at min(0, smallest y) and ends at a "nice" step multiple >= the largest y.
// 3. Ticks are multiples of a 1-2-5 step giving about 5-6 ticks; labels use a fixed number of
//    decimals derived from the step, so equal inputs give byte-identical SVG.
// 4. Series i gets its own colour if set, else palette colour i mod 10; beyond ten series lines
//    get dash patterns and scatter markers change shape, so every series stays distinguishable.
// 5. The legend flows below the plot in series order; long names are shortened with "…" and
//    the full name is kept in a <title> tooltip. All text is HTML-escaped.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/downsample.h"
#include "report/series.h"

namespace spindle::report {

enum class ChartKind {
  kLine,      // polyline per series, x ascending
  kArea,      // polyline with a translucent fill down to y = 0 (not stacked)
  kScatter,   // one marker per point
  kSegments,  // points taken in pairs: a horizontal bar from (x0, y) to (x1, y) per pair, bar
              // thickness from the row spacing (timelines); never downsampled
};

struct ChartSpec {
  std::string id;     // unique in the page; used for the element id "chart-<id>"
  std::string title;  // drawn above the plot
  std::string xLabel = "simulated time";
  std::string yLabel;
  bool xIsTime = true;  // x in seconds; the axis shows s, min or h with the unit in its label
  ChartKind kind = ChartKind::kLine;
  std::vector<Series> series;
  // The x axis always covers [xInclude.first, xInclude.second] when set (e.g. the run's time
  // span, so job charts line up with the time series); data outside widens it further.
  std::optional<std::pair<double, double>> xInclude;
  // The y axis always reaches this value when set (e.g. 100 for a percentage).
  std::optional<double> yInclude;
  // An exact y range instead of the nice-number one (ticks inside it are kept), e.g. the rows
  // 0..n+1 of a timeline so bars neither touch the frame nor leave empty rows.
  std::optional<std::pair<double, double>> yFixed;
  bool yTickLabels = true;  // false for row indices that mean nothing to a reader
  // Text drawn left of the plot at a y value (a timeline's job ids), shortened to fit the
  // margin; the full text is kept in a <title> tooltip.
  std::vector<std::pair<double, std::string>> rowLabels;
  size_t maxPointsPerSeries = kDefaultMaxPoints;
  size_t maxPointsPerChart = kDefaultMaxChartPoints;  // see pointsPerSeries()
};

struct RenderedChart {
  std::string svg;
  size_t limitPerSeries = 0;  // the downsampling limit applied to each series
  size_t pointsIn = 0;        // total points over all series before downsampling
  size_t pointsDrawn = 0;     // after dropping flat runs and downsampling
  bool downsampled = false;   // some series had more points than the limit
};

RenderedChart renderSvgChart(const ChartSpec& spec);

// Palette colour i mod 10 ("#4e79a7", ...), for charts that pin a colour to a name (a queue
// keeps its colour across the job charts).
std::string paletteColour(size_t i);

// Axis ticks: a 1-2-5 step and the tick values from lo to hi inclusive (exposed for tests).
struct Ticks {
  double lo = 0;
  double hi = 1;
  double step = 1;
  int decimals = 0;
  std::vector<double> values;
};
Ticks niceTicks(double min, double max, int target = 5);

}  // namespace spindle::report
