#include "report/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "report/format.h"

namespace spindle::report {

namespace {

constexpr double kWidth = 720;
constexpr double kLeft = 68;
constexpr double kRight = 16;
constexpr double kPlotTop = 34;
constexpr double kPlotHeight = 220;
constexpr double kPlotBottom = kPlotTop + kPlotHeight;
constexpr double kLegendTop = kPlotBottom + 58;
constexpr double kLegendRow = 18;
constexpr double kCharWidth = 6.6;  // estimate for 11px sans-serif, for legend layout only
constexpr size_t kLegendMaxChars = 40;
constexpr size_t kRowLabelMaxChars = 10;  // fits the left margin at the row labels' size

constexpr std::array<const char*, 10> kPalette = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                                  "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                                  "#9c755f", "#79706e"};
constexpr std::array<const char*, 4> kDashes = {"", "6 3", "2 3", "8 3 2 3"};

std::string num(double v) { return fixed(v, 1); }

// Maps data coordinates to SVG pixels.
struct Frame {
  double xLo, xHi, yLo, yHi;
  double px(double x) const { return kLeft + (x - xLo) / (xHi - xLo) * (kWidth - kLeft - kRight); }
  double py(double y) const { return kPlotBottom - (y - yLo) / (yHi - yLo) * kPlotHeight; }
};

struct TimeUnit {
  double seconds;
  const char* name;
};

TimeUnit timeUnitFor(double spanSeconds) {
  if (spanSeconds <= 600) return {1, "s"};
  if (spanSeconds <= 36'000) return {60, "min"};
  return {3600, "h"};
}

// Tick label with a k/M suffix for large magnitudes.
std::string tickLabel(double v, const Ticks& t) {
  double mag = std::max(std::fabs(t.lo), std::fabs(t.hi));
  double div = 1;
  const char* suffix = "";
  if (mag >= 1e6) {
    div = 1e6;
    suffix = "M";
  } else if (mag >= 1e4) {
    div = 1e3;
    suffix = "k";
  }
  int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(t.step / div) + 1e-9)));
  return fixed(v / div, decimals) + suffix;
}

std::string colourOf(const Series& s, size_t i) {
  return s.colour.empty() ? std::string(kPalette[i % kPalette.size()]) : s.colour;
}

std::string seriesStyle(const Series& s, size_t i) {
  std::string style = fmt::format("stroke=\"{}\"", colourOf(s, i));
  const char* dash =
      s.dash.empty() ? kDashes[(i / kPalette.size()) % kDashes.size()] : s.dash.c_str();
  if (*dash) style += fmt::format(" stroke-dasharray=\"{}\"", dash);
  return style;
}

// Scatter markers of series i at the given pixel positions, as one <path>: a zero-length
// segment per point drawn with a round (circle) or square cap, or a small "+" from the
// twenty-first series on. One path instead of one element per point keeps a 20,000-job
// chart small.
std::string markers(const Series& s, size_t i, const std::vector<std::pair<double, double>>& at) {
  std::string colour = colourOf(s, i);
  size_t shape = (i / kPalette.size()) % 3;
  std::string d;
  for (const auto& [x, y] : at) {
    if (shape < 2) {
      d += fmt::format("M{} {}h0", num(x), num(y));
    } else {
      d += fmt::format("M{} {}h6M{} {}v6", num(x - 3), num(y), num(x), num(y - 3));
    }
  }
  const char* cap = shape == 0 ? "round" : shape == 1 ? "square" : "butt";
  const char* width = shape == 2 ? "1.5" : shape == 1 ? "4.5" : "5";
  return fmt::format(
      "<path class=\"points\" data-series=\"{}\" fill=\"none\" stroke=\"{}\" "
      "stroke-width=\"{}\" stroke-linecap=\"{}\" d=\"{}\"/>",
      i, colour, width, cap, d);
}

void drawAxes(std::string& out, const Frame& f, const Ticks& xt, const Ticks& yt, double xScale,
              const std::string& xLabel, const std::string& yLabel, bool yTickLabels) {
  for (double v : yt.values) {
    double y = f.py(v);
    out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", num(kLeft),
                       num(y), num(kWidth - kRight), num(y));
    if (!yTickLabels) continue;
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                       num(kLeft - 6), num(y + 4), tickLabel(v, yt));
  }
  for (double v : xt.values) {
    double x = f.px(v * xScale);
    out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", num(x),
                       num(kPlotBottom), num(x), num(kPlotBottom + 5));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                       num(x), num(kPlotBottom + 18), tickLabel(v, xt));
  }
  out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", num(kLeft),
                     num(kPlotTop), num(kLeft), num(kPlotBottom));
  out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", num(kLeft),
                     num(kPlotBottom), num(kWidth - kRight), num(kPlotBottom));
  out += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                     num((kLeft + kWidth - kRight) / 2), num(kPlotBottom + 36), escapeHtml(xLabel));
  out += fmt::format(
      "<text class=\"label\" transform=\"translate(14,{}) rotate(-90)\" "
      "text-anchor=\"middle\">{}</text>",
      num((kPlotTop + kPlotBottom) / 2), escapeHtml(yLabel));
}

// Bar thickness for segment charts: 70% of the row spacing, between 1 and 10 px.
double barWidth(const Frame& f) {
  double rowPx = kPlotHeight / std::max(1.0, f.yHi - f.yLo);
  return std::clamp(rowPx * 0.7, 1.0, 10.0);
}

void drawSeries(std::string& out, const Frame& f, ChartKind kind, const Series& s, size_t i,
                const std::vector<Point>& pts) {
  if (pts.empty()) return;
  if (kind == ChartKind::kScatter) {
    std::vector<std::pair<double, double>> at;
    for (const Point& p : pts) at.emplace_back(f.px(p.x), f.py(p.y));
    out += markers(s, i, at);
    return;
  }
  if (kind == ChartKind::kSegments) {
    std::string d;
    for (size_t k = 0; k + 1 < pts.size(); k += 2) {
      d += fmt::format("M{} {}H{}", num(f.px(pts[k].x)), num(f.py(pts[k].y)),
                       num(f.px(pts[k + 1].x)));
    }
    out += fmt::format(
        "<path class=\"bars\" data-series=\"{}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"{}\" d=\"{}\"/>",
        i, colourOf(s, i), num(barWidth(f)), d);
    return;
  }
  std::string coords;
  for (const Point& p : pts) {
    if (!coords.empty()) coords += ' ';
    coords += num(f.px(p.x)) + "," + num(f.py(p.y));
  }
  if (kind == ChartKind::kArea) {
    double base = f.py(0);
    out += fmt::format("<polygon class=\"area\" fill=\"{}\" points=\"{},{} {} {},{}\"/>",
                       colourOf(s, i), num(f.px(pts.front().x)), num(base), coords,
                       num(f.px(pts.back().x)), num(base));
  }
  out += fmt::format("<polyline class=\"line\" data-series=\"{}\" fill=\"none\" {} points=\"{}\"/>",
                     i, seriesStyle(s, i), coords);
}

// Legend items flow left to right and wrap; returns the number of rows used.
size_t drawLegend(std::string& out, const ChartSpec& spec) {
  double x = kLeft;
  size_t row = 0;
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const std::string& name = spec.series[i].name;
    std::string shown = truncateUtf8(name, kLegendMaxChars);
    double w = 20 + kCharWidth * static_cast<double>(utf8Length(shown)) + 18;
    if (x > kLeft && x + w > kWidth - kRight) {
      x = kLeft;
      ++row;
    }
    double y = kLegendTop + kLegendRow * static_cast<double>(row);
    out += "<g class=\"legend-item\">";
    out += fmt::format("<title>{}</title>", escapeHtml(name));
    if (spec.kind == ChartKind::kScatter) {
      out += markers(spec.series[i], i, {{x + 7, y - 4}});
    } else if (spec.kind == ChartKind::kSegments) {
      out += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-width=\"6\" stroke=\"{}\"/>",
          num(x), num(y - 4), num(x + 14), num(y - 4), colourOf(spec.series[i], i));
    } else {
      out +=
          fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-width=\"3\" {}/>",
                      num(x), num(y - 4), num(x + 14), num(y - 4), seriesStyle(spec.series[i], i));
    }
    out += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>", num(x + 20), num(y),
                       escapeHtml(shown));
    out += "</g>";
    x += w;
  }
  return spec.series.empty() ? 0 : row + 1;
}

}  // namespace

std::string paletteColour(size_t i) { return kPalette[i % kPalette.size()]; }

Ticks niceTicks(double min, double max, int target) {
  Ticks t;
  if (!(max > min)) {
    double pad = min == 0 ? 1 : std::fabs(min) * 0.1;
    min -= min == 0 ? 0 : pad;
    max += pad;
  }
  double raw = (max - min) / std::max(target, 1);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double r = raw / mag;
  double m = r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10;
  t.step = m * mag;
  // The 1e-9 slack keeps values that are exact multiples (up to rounding) on their own tick.
  double loN = std::floor(min / t.step + 1e-9);
  double hiN = std::ceil(max / t.step - 1e-9);
  t.lo = loN * t.step;
  t.hi = hiN * t.step;
  t.decimals = std::max(0, static_cast<int>(-std::floor(std::log10(t.step) + 1e-9)));
  for (double n = loN; n <= hiN + 0.5; n += 1) t.values.push_back(n * t.step);
  return t;
}

namespace {

struct Extent {
  bool any = false;  // some series has a point
  double xMin = 0, xMax = 0, yMin = 0, yMax = 0;
};

Extent extentOf(const ChartSpec& spec) {
  Extent e;
  for (const Series& s : spec.series) {
    for (const Point& p : s.points) {
      if (!e.any) {
        e.xMin = e.xMax = p.x;
        e.yMin = e.yMax = p.y;
        e.any = true;
      }
      e.xMin = std::min(e.xMin, p.x);
      e.xMax = std::max(e.xMax, p.x);
      e.yMin = std::min(e.yMin, p.y);
      e.yMax = std::max(e.yMax, p.y);
    }
  }
  if (spec.xInclude) {
    e.xMin = e.any ? std::min(e.xMin, spec.xInclude->first) : spec.xInclude->first;
    e.xMax = e.any ? std::max(e.xMax, spec.xInclude->second) : spec.xInclude->second;
  }
  if (spec.yInclude) e.yMax = std::max(e.yMax, *spec.yInclude);
  return e;
}

struct Axes {
  TimeUnit unit{1, ""};
  Ticks x, y;
};

// Steps 2 and 3 of the algorithm: ranges, time unit and ticks.
Axes axesFor(const ChartSpec& spec, const Extent& e) {
  Axes a;
  if (spec.xIsTime) a.unit = timeUnitFor(e.xMax - e.xMin);
  a.x = niceTicks(e.xMin / a.unit.seconds, e.xMax / a.unit.seconds, 6);
  a.y = niceTicks(std::min(0.0, e.yMin), std::max(0.0, e.yMax), 5);
  if (spec.yFixed && spec.yFixed->second > spec.yFixed->first) {
    a.y = niceTicks(spec.yFixed->first, spec.yFixed->second, 5);
    a.y.lo = spec.yFixed->first;
    a.y.hi = spec.yFixed->second;
    std::erase_if(a.y.values, [&](double v) { return v < a.y.lo || v > a.y.hi; });
  }
  return a;
}

}  // namespace

RenderedChart renderSvgChart(const ChartSpec& spec) {
  RenderedChart r;
  r.limitPerSeries =
      pointsPerSeries(spec.series.size(), spec.maxPointsPerSeries, spec.maxPointsPerChart);
  std::vector<std::vector<Point>> drawn;
  for (const Series& s : spec.series) {
    r.pointsIn += s.points.size();
    if (spec.kind == ChartKind::kSegments) {
      drawn.push_back(s.points);
    } else if (spec.kind == ChartKind::kScatter) {
      drawn.push_back(downsampleMinMax(s.points, r.limitPerSeries));
    } else {
      std::vector<Point> kept = dropFlatInteriorPoints(s.points);
      drawn.push_back(downsampleMinMax(kept, r.limitPerSeries));
      r.downsampled |= kept.size() > r.limitPerSeries;
    }
    if (spec.kind == ChartKind::kScatter) r.downsampled |= s.points.size() > r.limitPerSeries;
    r.pointsDrawn += drawn.back().size();
  }
  Extent e = extentOf(spec);
  Axes a = axesFor(spec, e);
  Frame f{a.x.lo * a.unit.seconds, a.x.hi * a.unit.seconds, a.y.lo, a.y.hi};
  std::string xLabel = spec.xLabel;
  if (spec.xIsTime) xLabel += fmt::format(" ({})", a.unit.name);

  std::string body;
  body += fmt::format("<text class=\"title\" x=\"{}\" y=\"20\">{}</text>", num(kLeft),
                      escapeHtml(spec.title));
  drawAxes(body, f, a.x, a.y, a.unit.seconds, xLabel, spec.yLabel, spec.yTickLabels);
  if (!e.any) {
    body += fmt::format(
        "<text class=\"nodata\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">no data</text>",
        num((kLeft + kWidth - kRight) / 2), num((kPlotTop + kPlotBottom) / 2));
  }
  for (size_t i = 0; i < drawn.size(); ++i) {
    drawSeries(body, f, spec.kind, spec.series[i], i, drawn[i]);
  }
  for (const auto& [y, text] : spec.rowLabels) {
    body += fmt::format(
        "<text class=\"row-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\"><title>{}</title>{}"
        "</text>",
        num(kLeft - 4), num(f.py(y) + 3), escapeHtml(text),
        escapeHtml(truncateUtf8(text, kRowLabelMaxChars)));
  }
  size_t rows = drawLegend(body, spec);
  double height = kLegendTop + kLegendRow * static_cast<double>(rows) - (rows ? 6 : 14);

  r.svg = fmt::format(
      "<svg id=\"chart-{}\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
      "viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">",
      escapeHtml(spec.id), num(kWidth), num(height), num(kWidth), num(height),
      escapeHtml(spec.title));
  r.svg += body;
  r.svg += "</svg>\n";
  return r;
}

}  // namespace spindle::report
