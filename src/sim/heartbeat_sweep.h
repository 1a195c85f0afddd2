// When each simulated node manager heartbeats, without one heap event per heartbeat.
//
//   HeartbeatSweep sweep(1000, rng, numNodes);   // seeded first-beat offsets in [0, 1000)
//   Position p = sweep.firstAtOrAfter(now);      // the next heartbeat slot at or after `now`
//   TimeMs t = sweep.timeOf(p);  uint32_t node = sweep.nodeOf(p);
//
// Every node beats every `interval` ms at its own phase offset (SLS's NMSimulator: the first
// beat is randomly offset within one interval). Sorting nodes by (offset, index) turns the
// schedule into one totally ordered sequence of positions P = cycle x numNodes + rank, whose
// times never decrease as P grows. The engine walks this sequence (a cyclic sweep) merged with
// its event heap, and jumps over stretches that provably change nothing (engine.h). Positions
// are 64-bit: 50,000 nodes x 10^9 cycles still fit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/clock.h"
#include "base/rng.h"

namespace spindle::sim {

using Position = int64_t;
inline constexpr Position kNoPosition = std::numeric_limits<Position>::max();

class HeartbeatSweep {
 public:
  // Offsets are drawn in node-index order, one uniformInt(0, interval - 1) each.
  HeartbeatSweep(TimeMs interval, Rng& rng, uint32_t numNodes);

  TimeMs interval() const { return interval_; }
  uint32_t numNodes() const { return static_cast<uint32_t>(order_.size()); }
  TimeMs offsetOf(uint32_t node) const { return offset_[node]; }

  TimeMs timeOf(Position p) const;
  uint32_t nodeOf(Position p) const { return order_[static_cast<size_t>(p % numNodes())]; }
  // The first position whose time is >= t.
  Position firstAtOrAfter(TimeMs t) const;
  // The first position of `node` whose time is >= t: when it next reports.
  Position nextOfNode(uint32_t node, TimeMs t) const;

 private:
  TimeMs interval_;
  std::vector<TimeMs> offset_;        // by node index
  std::vector<uint32_t> order_;       // node indexes sorted by (offset, index)
  std::vector<uint32_t> rank_;        // inverse of order_
  std::vector<TimeMs> sortedOffset_;  // offset_[order_[r]]
};

}  // namespace spindle::sim
