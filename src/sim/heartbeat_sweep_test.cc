#include "sim/heartbeat_sweep.h"

#include <gtest/gtest.h>

namespace spindle::sim {
namespace {

TEST(HeartbeatSweep, OffsetsAreSeededAndWithinOneInterval) {
  Rng a(7), b(7), c(8);
  HeartbeatSweep s1(1000, a, 50), s2(1000, b, 50), s3(1000, c, 50);
  bool differs = false;
  for (uint32_t n = 0; n < 50; ++n) {
    EXPECT_GE(s1.offsetOf(n), 0);
    EXPECT_LT(s1.offsetOf(n), 1000);
    EXPECT_EQ(s1.offsetOf(n), s2.offsetOf(n));
    differs |= s1.offsetOf(n) != s3.offsetOf(n);
  }
  EXPECT_TRUE(differs) << "another seed gives other offsets";
}

TEST(HeartbeatSweep, PositionsVisitEveryNodeOncePerIntervalInTimeOrder) {
  Rng rng(3);
  HeartbeatSweep s(500, rng, 20);
  std::vector<int> beats(20, 0);
  TimeMs last = -1;
  for (Position p = 0; p < 20 * 4; ++p) {
    const TimeMs t = s.timeOf(p);
    EXPECT_GE(t, last);
    last = t;
    const uint32_t n = s.nodeOf(p);
    EXPECT_EQ(t % 500, s.offsetOf(n));
    ++beats[n];
  }
  for (int b : beats) EXPECT_EQ(b, 4);
}

TEST(HeartbeatSweep, FirstAtOrAfterAndNextOfNode) {
  Rng rng(11);
  HeartbeatSweep s(1000, rng, 10);
  for (TimeMs t : {0, 1, 499, 999, 1000, 12345}) {
    const Position p = s.firstAtOrAfter(t);
    EXPECT_GE(s.timeOf(p), t);
    if (p > 0) {
      EXPECT_LT(s.timeOf(p - 1), t);
    }
    for (uint32_t n = 0; n < 10; ++n) {
      const Position q = s.nextOfNode(n, t);
      EXPECT_EQ(s.nodeOf(q), n);
      EXPECT_GE(s.timeOf(q), t);
      EXPECT_LT(s.timeOf(q) - t, 1000);
    }
  }
}

}  // namespace
}  // namespace spindle::sim
