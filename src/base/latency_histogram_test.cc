#include "base/latency_histogram.h"

#include <thread>

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(LatencyHistogram, BucketsCoverEveryDurationOnceAndInOrder) {
  // Every bucket's range starts where the previous one ends, and bucketOf agrees with it.
  EXPECT_EQ(LatencyHistogram::bucketLowUs(0), 0);
  for (int i = 1; i < LatencyHistogram::kBuckets; ++i) {
    const int64_t low = LatencyHistogram::bucketLowUs(i);
    ASSERT_EQ(low, LatencyHistogram::bucketHighUs(i - 1)) << i;
    ASSERT_EQ(LatencyHistogram::bucketOf(low), i) << low;
    ASSERT_EQ(LatencyHistogram::bucketOf(low - 1), i - 1) << low;
  }
  EXPECT_EQ(LatencyHistogram::bucketOf(-5), 0);
  EXPECT_EQ(LatencyHistogram::bucketOf(int64_t{1} << 50), LatencyHistogram::kBuckets - 1);
}

TEST(LatencyHistogram, BucketWidthIsAtMostAThirtySecondOfItsValue) {
  for (int i = static_cast<int>(LatencyHistogram::kLinearUs); i < LatencyHistogram::kBuckets; ++i) {
    const int64_t low = LatencyHistogram::bucketLowUs(i);
    const int64_t width = LatencyHistogram::bucketHighUs(i) - low;
    ASSERT_LE(width * 32, low) << i;
  }
  EXPECT_EQ(LatencyHistogram::bucketHighUs(63) - LatencyHistogram::bucketLowUs(63), 1);
}

TEST(LatencyHistogram, PercentilesOfKnownDurations) {
  LatencyHistogram h;
  for (int us = 1; us <= 100; ++us) h.record(us);  // 1..100 us
  h.record(10'000);                                // one slow one
  const LatencyHistogram::Counts c = h.counts();
  EXPECT_EQ(c.count, 101u);
  EXPECT_EQ(c.sumUs, 5050u + 10'000u);
  EXPECT_EQ(c.maxUs, 10'000);
  // The median of 101 is the 51st, 51 us (a one-microsecond bucket). The 99th percentile is
  // the 100th, 100 us, counted in the bucket [100, 102): reported as that bucket's largest.
  EXPECT_EQ(percentileUs(c.buckets, 0.5), 51.0);
  EXPECT_EQ(percentileUs(c.buckets, 0.99, c.maxUs), 101.0);
  // The largest is the slow one, capped by the recorded maximum.
  EXPECT_EQ(percentileUs(c.buckets, 1.0, c.maxUs), 10'000.0);
  EXPECT_EQ(percentileUs(LatencyHistogram().counts().buckets, 0.99), 0.0);
}

TEST(LatencyHistogram, ThreadsRecordWithoutLosingCounts) {
  LatencyHistogram h;
  constexpr int kPerThread = 20'000;
  std::thread a([&] {
    for (int i = 0; i < kPerThread; ++i) h.record(i % 500);
  });
  std::thread b([&] {
    for (int i = 0; i < kPerThread; ++i) h.record(1000 + i % 7);
  });
  a.join();
  b.join();
  const LatencyHistogram::Counts c = h.counts();
  EXPECT_EQ(c.count, 2u * kPerThread);
  uint64_t inBuckets = 0;
  for (uint64_t n : c.buckets) inBuckets += n;
  EXPECT_EQ(inBuckets, 2u * kPerThread);
  EXPECT_EQ(c.maxUs, 1006);
}

}  // namespace
}  // namespace spindle
