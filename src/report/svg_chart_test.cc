// The SVG chart module: ticks, legends, escaping, downsampling bounds and determinism.
#include "report/svg_chart.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace spindle::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

ChartSpec twoLines() {
  ChartSpec c;
  c.id = "mem";
  c.title = "Cluster memory";
  c.yLabel = "GB";
  c.series = {{"allocated", {{0, 0}, {10, 4}, {20, 8}}}, {"available", {{0, 8}, {10, 4}, {20, 0}}}};
  return c;
}

TEST(NiceTicks, OneTwoFiveSteps) {
  Ticks t = niceTicks(0, 8, 5);
  EXPECT_EQ(t.step, 2);
  EXPECT_EQ(t.values, (std::vector<double>{0, 2, 4, 6, 8}));
  Ticks u = niceTicks(0, 0.37, 5);
  EXPECT_DOUBLE_EQ(u.step, 0.1);
  EXPECT_EQ(u.decimals, 1);
  EXPECT_DOUBLE_EQ(u.hi, 0.4);
  Ticks flat = niceTicks(0, 0, 5);  // all-zero data still gets an axis
  EXPECT_GT(flat.hi, flat.lo);
  Ticks big = niceTicks(0, 86400, 6);
  EXPECT_EQ(big.step, 20000);
  EXPECT_EQ(big.hi, 100000);
}

TEST(SvgChart, LinesLegendAxesAndTitle) {
  RenderedChart r = renderSvgChart(twoLines());
  const std::string& s = r.svg;
  EXPECT_THAT(s, HasSubstr("<svg id=\"chart-mem\""));
  EXPECT_THAT(s, HasSubstr(">Cluster memory</text>"));
  EXPECT_THAT(s, HasSubstr(">GB</text>"));
  EXPECT_THAT(s, HasSubstr(">simulated time (s)</text>"));
  EXPECT_THAT(s, HasSubstr("<text class=\"legend\" x=\"88.0\" y=\"312.0\">allocated</text>"));
  EXPECT_THAT(s, HasSubstr(">available</text>"));
  EXPECT_EQ(count(s, "<polyline class=\"line\""), 2u);
  EXPECT_THAT(s, HasSubstr("stroke=\"#4e79a7\""));  // series 0 colour
  EXPECT_THAT(s, HasSubstr("stroke=\"#f28e2b\""));  // series 1 colour
  // y ticks 0..8 step 2 (labels) and x ticks every 5 s.
  for (const char* label :
       {">0</text>", ">2</text>", ">4</text>", ">6</text>", ">8</text>", ">20</text>"}) {
    EXPECT_THAT(s, HasSubstr(label));
  }
  EXPECT_EQ(r.pointsIn, 6u);
  EXPECT_EQ(r.pointsDrawn, 6u);
  EXPECT_FALSE(r.downsampled);
  EXPECT_THAT(s, Not(HasSubstr("<script")));
}

TEST(SvgChart, TimeAxisUnitFollowsSpan) {
  ChartSpec c = twoLines();
  c.series[0].points.push_back({7200, 1});
  EXPECT_THAT(renderSvgChart(c).svg, HasSubstr(">simulated time (min)</text>"));
  c.series[0].points.push_back({86400, 1});
  EXPECT_THAT(renderSvgChart(c).svg, HasSubstr(">simulated time (h)</text>"));
}

TEST(SvgChart, EscapesNamesTitlesAndKeepsFullNameInTooltip) {
  ChartSpec c = twoLines();
  c.title = "<b>&";
  c.series[0].name = "root.<script>alert(1)</script>";
  c.series[1].name = std::string(60, 'q');
  std::string s = renderSvgChart(c).svg;
  EXPECT_THAT(s, Not(HasSubstr("<script>")));
  EXPECT_THAT(s, HasSubstr("root.&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(s, HasSubstr(">&lt;b&gt;&amp;</text>"));
  EXPECT_THAT(s, HasSubstr(fmt::format("<title>{}</title>", std::string(60, 'q'))));
  EXPECT_THAT(s, HasSubstr(fmt::format(">{}\u2026</text>", std::string(39, 'q'))));
}

TEST(SvgChart, LongSeriesAreDownsampledToTheBound) {
  ChartSpec c;
  c.id = "long";
  c.title = "day";
  for (int k = 0; k < 3; ++k) {
    Series s{fmt::format("s{}", k), {}};
    for (int i = 0; i < 86400; ++i) s.points.push_back({double(i), double((i * (k + 3)) % 97)});
    c.series.push_back(std::move(s));
  }
  RenderedChart r = renderSvgChart(c);
  EXPECT_EQ(r.pointsIn, 3u * 86400u);
  EXPECT_TRUE(r.downsampled);
  EXPECT_LE(r.pointsDrawn, 3u * kDefaultMaxPoints);
  // Each polyline holds at most 1000 coordinate pairs.
  size_t pos = 0;
  int lines = 0;
  while ((pos = r.svg.find("points=\"", pos)) != std::string::npos) {
    size_t end = r.svg.find('"', pos + 8);
    std::string pts = r.svg.substr(pos + 8, end - pos - 8);
    EXPECT_LE(count(pts, " ") + 1, kDefaultMaxPoints);
    pos = end;
    ++lines;
  }
  EXPECT_EQ(lines, 3);
  EXPECT_LT(r.svg.size(), 100'000u);
  c.maxPointsPerSeries = 100;
  EXPECT_LE(renderSvgChart(c).pointsDrawn, 300u);
}

TEST(SvgChart, ManySeriesShareTheChartBudget) {
  ChartSpec c;
  c.id = "queues";
  c.title = "ten queues";
  for (int k = 0; k < 10; ++k) {
    Series s{fmt::format("root.q{}", k), {}};
    for (int i = 0; i < 86400; ++i) s.points.push_back({double(i), double((i / 97 + k) % 50)});
    c.series.push_back(std::move(s));
  }
  RenderedChart r = renderSvgChart(c);
  EXPECT_EQ(r.limitPerSeries, 400u);  // 4000 / 10
  EXPECT_LE(r.pointsDrawn, 4000u);
  EXPECT_GE(r.pointsDrawn, 3000u);
  EXPECT_LT(r.svg.size(), 60'000u);
}

TEST(SvgChart, StepSeriesKeepEveryChangeWithoutDownsampling) {
  ChartSpec c;
  c.id = "steps";
  c.title = "allocation";
  Series s{"root.a", {}};
  // 10 steps of 8,640 s each.
  for (int i = 0; i < 86400; ++i) s.points.push_back({double(i), std::floor(i / 8640.0)});
  c.series.push_back(std::move(s));
  RenderedChart r = renderSvgChart(c);
  EXPECT_FALSE(r.downsampled);
  EXPECT_EQ(r.pointsDrawn, 20u);  // both ends of each of the 10 flat runs
  size_t a = r.svg.find("points=\"") + 8;
  EXPECT_EQ(count(r.svg.substr(a, r.svg.find('"', a) - a), ","), 20u);
}

TEST(SvgChart, ScatterMarkersAndManySeriesStayDistinct) {
  ChartSpec c;
  c.id = "jobs";
  c.title = "jobs";
  c.kind = ChartKind::kScatter;
  for (int k = 0; k < 12; ++k) c.series.push_back({fmt::format("q{}", k), {{double(k), 1.0}}});
  std::string s = renderSvgChart(c).svg;
  // 10 series x (marker path + legend swatch) with round caps (dots), then squares.
  EXPECT_EQ(count(s, "stroke-linecap=\"round\""), 20u);
  EXPECT_EQ(count(s, "stroke-linecap=\"square\""), 4u);  // series 10 and 11
  EXPECT_EQ(count(s, "h0\""), 24u);                      // one point each
  EXPECT_EQ(count(s, "<polyline"), 0u);
}

TEST(SvgChart, AreaFillsDownToZero) {
  ChartSpec c = twoLines();
  c.kind = ChartKind::kArea;
  std::string s = renderSvgChart(c).svg;
  EXPECT_EQ(count(s, "<polygon class=\"area\""), 2u);
}

TEST(SvgChart, NoDataStillDrawsAFrame) {
  ChartSpec c;
  c.id = "empty";
  c.title = "nothing";
  c.series = {{"a", {}}};
  std::string s = renderSvgChart(c).svg;
  EXPECT_THAT(s, HasSubstr(">no data</text>"));
  EXPECT_THAT(s, HasSubstr(">a</text>"));
}

TEST(SvgChart, IncludedRangesWidenTheAxes) {
  ChartSpec c = twoLines();  // x 0..20 s, y 0..8
  c.xInclude = std::make_pair(0.0, 100.0);
  c.yInclude = 100;
  std::string s = renderSvgChart(c).svg;
  EXPECT_THAT(s, HasSubstr(">100</text>"));  // both axes now end at 100
  EXPECT_THAT(s, Not(HasSubstr(">8</text>")));
}

TEST(SvgChart, Deterministic) {
  EXPECT_EQ(renderSvgChart(twoLines()).svg, renderSvgChart(twoLines()).svg);
}

}  // namespace
}  // namespace spindle::report
