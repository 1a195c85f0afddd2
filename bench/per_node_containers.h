// A decision sink for benchmarks: remembers which containers each node received, so the node's
// next heartbeat can report them completed and the cluster stays in a steady state.
//
//   PerNodeContainers sink;
//   scheduler.setDecisionSink(&sink);
//   scheduler.heartbeat(node, sink.take(node));
//
// The sink is benchmark harness, not scheduler work, so it is kept out of the measurement as far
// as it can be (branch core-perf2; it was ~1-2 % of a Fair heartbeat): lists are indexed by the
// dense node id instead of an unordered_map, take() hands out a reused buffer instead of a fresh
// vector (no allocation per heartbeat once warm), and it never renders a record's reason
// (DecisionRecord's queue and reason are views and a deferred format: unread, they cost nothing).
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler/decision.h"
#include "scheduler/scheduler.h"

namespace spindle {

class PerNodeContainers final : public DecisionSink {
 public:
  void record(const DecisionRecord& d) override {
    if (d.kind == DecisionKind::kAllocate) {
      listFor(d.node).push_back({d.container, 0});
      ++allocations_;
    }
  }
  // The containers node n received since the last take(n). The reference stays valid until the
  // next take() (the scheduler may record new allocations for n while it reads the list).
  const std::vector<CompletedContainer>& take(NodeId n) {
    std::vector<CompletedContainer>& list = listFor(n);
    taken_.swap(list);  // n keeps the previous buffer, and so its capacity
    list.clear();
    return taken_;
  }
  int64_t allocations() const { return allocations_; }

 private:
  std::vector<CompletedContainer>& listFor(NodeId n) {
    if (n.value() >= byNode_.size()) byNode_.resize(n.value() + 1);
    return byNode_[n.value()];
  }

  std::vector<std::vector<CompletedContainer>> byNode_;  // index = NodeId value
  std::vector<CompletedContainer> taken_;
  int64_t allocations_ = 0;
};

}  // namespace spindle
