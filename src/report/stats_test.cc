#include "report/stats.h"

#include <gtest/gtest.h>

#include "report/downsample.h"
#include "report/format.h"
#include "report/summary.h"

namespace spindle::report {
namespace {

TEST(NearestRank, RankIsCeilingOfPercentTimesCount) {
  EXPECT_EQ(nearestRank(0, 95), 0);
  EXPECT_EQ(nearestRank(1, 95), 1);
  EXPECT_EQ(nearestRank(19, 95), 19);  // 18.05 -> 19
  EXPECT_EQ(nearestRank(20, 95), 19);  // exactly 19
  EXPECT_EQ(nearestRank(21, 95), 20);  // 19.95 -> 20
  EXPECT_EQ(nearestRank(100, 95), 95);
  EXPECT_EQ(nearestRank(101, 95), 96);  // 95.95 -> 96
  EXPECT_EQ(nearestRank(10, 100), 10);
}

TEST(NearestRank, P95IsAnObservedValue) {
  // 20 values 1..20 unsorted: rank 19 -> 19, not an interpolated 19.05.
  std::vector<int64_t> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  EXPECT_EQ(nearestRankPercentile(v, 95), 19);
  // 4 values: ceil(3.8) = 4 -> the maximum.
  EXPECT_EQ(nearestRankPercentile({400, 100, 300, 200}, 95), 400);
  EXPECT_EQ(nearestRankPercentile({7}, 95), 7);
  EXPECT_EQ(nearestRankPercentile({5, 1, 3}, 50), 3);  // ceil(1.5) = 2nd smallest
}

TEST(Summarize, EmptySetHasNoMeanNoPercentile) {
  Distribution d = summarize({});
  EXPECT_EQ(d.count, 0);
  EXPECT_FALSE(d.mean.has_value());
  EXPECT_FALSE(d.p95.has_value());
  EXPECT_FALSE(d.max.has_value());
  EXPECT_FALSE(mean(std::vector<double>{}).has_value());
  EXPECT_FALSE(nearestRankPercentile({}, 95).has_value());
}

TEST(Summarize, MeanP95AndMax) {
  Distribution d = summarize({1000, 3000, 2000, 10000});
  EXPECT_EQ(d.count, 4);
  EXPECT_DOUBLE_EQ(*d.mean, 4000.0);
  EXPECT_EQ(*d.p95, 10000);
  EXPECT_EQ(*d.max, 10000);
}

TEST(Summarize, LargeMillisecondTotalsStayExact) {
  // 86,400,000 ms a day times many jobs: the mean must not drift.
  std::vector<int64_t> v(100000, 86'400'001);
  EXPECT_DOUBLE_EQ(*summarize(v).mean, 86'400'001.0);
}

TEST(Downsample, ShortSeriesUnchanged) {
  std::vector<Point> p = {{0, 1}, {1, 2}, {2, 3}};
  EXPECT_EQ(downsampleMinMax(p, 1000), p);
}

TEST(Downsample, BoundedSubsequenceKeepingEndsAndExtremes) {
  std::vector<Point> p;
  for (int i = 0; i < 86400; ++i) p.push_back({double(i), double((i * 7919) % 1000)});
  p[12345].y = 5000;   // a spike
  p[54321].y = -5000;  // a dip
  std::vector<Point> d = downsampleMinMax(p, 1000);
  EXPECT_LE(d.size(), 1000u);
  EXPECT_GE(d.size(), 900u);
  EXPECT_EQ(d.front(), p.front());
  EXPECT_EQ(d.back(), p.back());
  bool spike = false, dip = false;
  for (const Point& q : d) {
    spike |= q.y == 5000;
    dip |= q.y == -5000;
  }
  EXPECT_TRUE(spike);
  EXPECT_TRUE(dip);
  // A subsequence: x strictly increasing and every point is an input point.
  for (size_t i = 1; i < d.size(); ++i) {
    ASSERT_LT(d[i - 1].x, d[i].x);
    ASSERT_EQ(p[static_cast<size_t>(d[i].x)], d[i]);
  }
  EXPECT_EQ(downsampleMinMax(p, 1000), d);  // deterministic
}

TEST(Downsample, ChartBudgetIsSharedWithAFloor) {
  EXPECT_EQ(pointsPerSeries(1, 1000, 4000), 1000u);
  EXPECT_EQ(pointsPerSeries(4, 1000, 4000), 1000u);
  EXPECT_EQ(pointsPerSeries(10, 1000, 4000), 400u);
  EXPECT_EQ(pointsPerSeries(100, 1000, 4000), 200u);  // floor
  EXPECT_EQ(pointsPerSeries(0, 1000, 4000), 1000u);
}

TEST(Downsample, FlatRunsKeepOnlyTheirEnds) {
  std::vector<Point> p = {{0, 1}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 0}};
  EXPECT_EQ(dropFlatInteriorPoints(p),
            (std::vector<Point>{{0, 1}, {2, 1}, {3, 2}, {6, 2}, {7, 0}}));
  std::vector<Point> flat = {{0, 5}, {1, 5}, {2, 5}};
  EXPECT_EQ(dropFlatInteriorPoints(flat), (std::vector<Point>{{0, 5}, {2, 5}}));
  EXPECT_EQ(dropFlatInteriorPoints({{0, 5}}), (std::vector<Point>{{0, 5}}));
  EXPECT_TRUE(dropFlatInteriorPoints({}).empty());
}

TEST(Downsample, TinyLimitIsClampedToFour) {
  std::vector<Point> p;
  for (int i = 0; i < 10; ++i) p.push_back({double(i), double(i % 3)});
  EXPECT_LE(downsampleMinMax(p, 1).size(), 4u);
}

TEST(Utilisation, MatchesSamplesByTimeAndSkipsEmptyCapacity) {
  std::vector<Point> alloc = {{0, 0}, {1, 4}, {2, 8}, {3, 0}, {5, 1}};
  std::vector<Point> avail = {{0, 8}, {1, 4}, {2, 0}, {3, 0}, {4, 3}, {5, 3}};
  // t=3 has no capacity; t=4 has no allocated sample.
  std::vector<Point> u = utilisationSeries(alloc, avail);
  EXPECT_EQ(u, (std::vector<Point>{{0, 0}, {1, 0.5}, {2, 1}, {5, 0.25}}));
  EXPECT_TRUE(utilisationSeries({}, avail).empty());
}

TEST(Format, FixedNeverPrintsNegativeZero) {
  EXPECT_EQ(fixed(-0.001, 2), "0.00");
  EXPECT_EQ(fixed(-0.0, 0), "0");
  EXPECT_EQ(fixed(-1.5, 1), "-1.5");
  EXPECT_EQ(fixed(2.0 / 3.0, 2), "0.67");
}

TEST(Format, DurationsAndPercent) {
  EXPECT_EQ(formatSeconds(90500), "90.500 s");
  EXPECT_EQ(formatDuration(59999), "59.999 s");
  EXPECT_EQ(formatDuration(3723000), "1h 02m 03s");
  EXPECT_EQ(formatDuration(125000), "2m 05s");
  EXPECT_EQ(formatPercent(0.45671), "45.67%");
}

TEST(Format, EscapeAndTruncate) {
  EXPECT_EQ(escapeHtml("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(truncateUtf8("abcdef", 4), "abc\u2026");
  EXPECT_EQ(truncateUtf8("abc", 4), "abc");
  EXPECT_EQ(truncateUtf8("\u00e9\u00e9\u00e9\u00e9\u00e9", 3), "\u00e9\u00e9\u2026");
  EXPECT_EQ(utf8Length("\u00e9t\u00e9"), 3u);
}

}  // namespace
}  // namespace spindle::report
