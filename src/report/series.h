// A named data series: the unit every report chart draws and every extractor produces.
//
//   Series s{"root.a", {{0, 1.5}, {1, 2.0}}};
//   s.points.push_back({2, 2.5});  // x ascending for line charts
//
// x is simulated time in seconds for every time series in the report; y is in the chart's unit.
#pragma once

#include <string>
#include <vector>

namespace spindle::report {

struct Point {
  double x = 0;
  double y = 0;
  bool operator==(const Point&) const = default;
};

struct Series {
  std::string name;  // shown in the legend; raw text (escaped when rendered)
  std::vector<Point> points;
  std::string colour = {};  // "#rrggbb"; empty: the chart palette colour for its position
  std::string dash = {};    // stroke-dasharray of a line ("6 3"); empty: by position
};

}  // namespace spindle::report
