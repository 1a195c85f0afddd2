#include "sim/heartbeat_sweep.h"

#include <algorithm>
#include <numeric>

namespace spindle::sim {

HeartbeatSweep::HeartbeatSweep(TimeMs interval, Rng& rng, uint32_t numNodes)
    : interval_(interval),
      offset_(numNodes),
      order_(numNodes),
      rank_(numNodes),
      sortedOffset_(numNodes) {
  for (uint32_t i = 0; i < numNodes; ++i) offset_[i] = rng.uniformInt(0, interval - 1);
  std::iota(order_.begin(), order_.end(), 0u);
  std::sort(order_.begin(), order_.end(), [this](uint32_t a, uint32_t b) {
    return offset_[a] != offset_[b] ? offset_[a] < offset_[b] : a < b;
  });
  for (uint32_t r = 0; r < numNodes; ++r) {
    rank_[order_[r]] = r;
    sortedOffset_[r] = offset_[order_[r]];
  }
}

TimeMs HeartbeatSweep::timeOf(Position p) const {
  if (p == kNoPosition || order_.empty()) return std::numeric_limits<TimeMs>::max();
  const int64_t n = numNodes();
  return (p / n) * interval_ + sortedOffset_[static_cast<size_t>(p % n)];
}

Position HeartbeatSweep::firstAtOrAfter(TimeMs t) const {
  if (order_.empty()) return kNoPosition;
  if (t < 0) t = 0;
  const int64_t n = numNodes();
  const int64_t cycle = t / interval_;
  const TimeMs within = t - cycle * interval_;
  auto it = std::lower_bound(sortedOffset_.begin(), sortedOffset_.end(), within);
  if (it == sortedOffset_.end()) return (cycle + 1) * n;
  return cycle * n + (it - sortedOffset_.begin());
}

Position HeartbeatSweep::nextOfNode(uint32_t node, TimeMs t) const {
  const int64_t n = numNodes();
  const TimeMs off = offset_[node];
  int64_t cycle = t <= off ? 0 : (t - off + interval_ - 1) / interval_;
  return cycle * n + rank_[node];
}

}  // namespace spindle::sim
