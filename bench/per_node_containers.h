// A decision sink for benchmarks: remembers which containers each node received, so the node's
// next heartbeat can report them completed and the cluster stays in a steady state.
//
//   PerNodeContainers sink;
//   scheduler.setDecisionSink(&sink);
//   scheduler.heartbeat(node, sink.take(node));
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scheduler/decision.h"
#include "scheduler/scheduler.h"

namespace spindle {

class PerNodeContainers final : public DecisionSink {
 public:
  void record(const Decision& d) override {
    if (d.kind == DecisionKind::kAllocate) {
      byNode_[d.node].push_back({d.container, 0});
      ++allocations_;
    }
  }
  std::vector<CompletedContainer> take(NodeId n) { return std::exchange(byNode_[n], {}); }
  int64_t allocations() const { return allocations_; }

 private:
  std::unordered_map<NodeId, std::vector<CompletedContainer>> byNode_;
  int64_t allocations_ = 0;
};

}  // namespace spindle
