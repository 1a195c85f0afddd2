// A histogram of durations in microseconds that any thread may record into without a lock, in
// log-linear buckets: one bucket per microsecond below 64 us, then 32 buckets per power of two
// (so a bucket's width is at most 1/32 of its value, about 3 %), up to 2^36 us (19 hours; longer
// durations count in the last bucket). For the RM's RPC timings (rpc_timings.h), recorded on the
// I/O and scheduler threads and read by a REST call.
//
//   LatencyHistogram h;
//   h.record(elapsedUs);                         // any thread
//   LatencyHistogram::Counts c = h.counts();     // any thread; a snapshot, not atomic as a whole
//   double p99 = percentileUs(c, 0.99);
//
// Thread-safe: record() and counts() from any thread (relaxed atomic counters; a snapshot taken
// while others record may see one record's count but not its sum, or the reverse).
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <vector>

namespace spindle {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 5;                   // 32 buckets per power of two
  static constexpr int64_t kLinearUs = 2 << kSubBits;  // 64: one bucket per us below this
  static constexpr int kMaxBit = 36;                   // the last power of two with buckets
  static constexpr int kBuckets =
      static_cast<int>(kLinearUs) + (kMaxBit - kSubBits) * (1 << kSubBits);

  struct Counts {
    std::vector<uint64_t> buckets = std::vector<uint64_t>(kBuckets, 0);
    uint64_t count = 0;
    uint64_t sumUs = 0;
    int64_t maxUs = 0;
  };

  static int bucketOf(int64_t us) {
    if (us < kLinearUs) return us < 0 ? 0 : static_cast<int>(us);
    const int msb = std::bit_width(static_cast<uint64_t>(us)) - 1;  // >= kSubBits + 1
    if (msb > kMaxBit) return kBuckets - 1;
    const int shift = msb - kSubBits;
    const int sub = static_cast<int>((us >> shift) & ((1 << kSubBits) - 1));
    return static_cast<int>(kLinearUs) + (msb - kSubBits - 1) * (1 << kSubBits) + sub;
  }
  // The smallest duration counted in bucket i.
  static int64_t bucketLowUs(int i) {
    if (i < kLinearUs) return i;
    const int j = i - static_cast<int>(kLinearUs);
    const int msb = j / (1 << kSubBits) + kSubBits + 1;
    const int64_t sub = j % (1 << kSubBits);
    return (int64_t{1} << msb) + (sub << (msb - kSubBits));
  }
  // One past the largest duration counted in bucket i.
  static int64_t bucketHighUs(int i) {
    return i + 1 < kBuckets ? bucketLowUs(i + 1) : int64_t{1} << (kMaxBit + 1);
  }

  void record(int64_t us) {
    if (us < 0) us = 0;
    buckets_[bucketOf(us)].fetch_add(1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
    sumUs_.fetch_add(static_cast<uint64_t>(us), std::memory_order_relaxed);
    int64_t seen = maxUs_.load(std::memory_order_relaxed);
    while (us > seen && !maxUs_.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
    }
  }

  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  Counts counts() const {
    Counts c;
    for (int i = 0; i < kBuckets; ++i) c.buckets[i] = buckets_[i].load(std::memory_order_relaxed);
    c.count = count_.load(std::memory_order_relaxed);
    c.sumUs = sumUs_.load(std::memory_order_relaxed);
    c.maxUs = maxUs_.load(std::memory_order_relaxed);
    return c;
  }

 private:
  std::array<std::atomic<uint64_t>, kBuckets> buckets_{};
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sumUs_{0};
  std::atomic<int64_t> maxUs_{0};
};

// Microseconds on the steady clock: the time base for what a LatencyHistogram counts.
inline int64_t steadyNowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The duration below which a fraction p (0..1) of the counted ones fall: the upper end of the
// bucket holding the p-th one (an over-estimate by at most the bucket's width, 3 %), capped by
// `maxUs` when it is given. 0 when nothing was counted.
double percentileUs(const std::vector<uint64_t>& buckets, double p, int64_t maxUs = -1);

}  // namespace spindle
