// Asynchronous scheduling (schedule-asynchronously.enable): the global pass and its node index.
// The model is described in capacity_scheduler.h.
#include <vector>

#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {

namespace {
constexpr int kMaxIdleVisits = 32;
}  // namespace

void CapacityScheduler::indexNode(NodeId node) {
  if (node == visitingNode_) return;  // the pass re-indexes it when it ends
  const int64_t key = -cluster().node(node).unallocated().memoryMb();
  if (node.value() >= nodeKey_.size()) nodeKey_.resize(node.value() + 1, kNotIndexed);
  int64_t& current = nodeKey_[node.value()];
  if (current == key) return;  // already at its place
  if (current != kNotIndexed) {
    // Moves the entry, reusing its tree node (no free and malloc per re-index).
    auto entry = nodeIndex_.extract({current, node});
    entry.value().first = key;
    nodeIndex_.insert(std::move(entry));
  } else {
    nodeIndex_.emplace(key, node);
  }
  current = key;
}

void CapacityScheduler::unindexNode(NodeId node) {
  if (node.value() >= nodeKey_.size() || nodeKey_[node.value()] == kNotIndexed) return;
  nodeIndex_.erase({nodeKey_[node.value()], node});
  nodeKey_[node.value()] = kNotIndexed;
}

void CapacityScheduler::rebuildNodeIndex() {
  nodeIndex_.clear();
  nodeKey_.clear();
  for (NodeId id : cluster().nodeIds()) indexNode(id);
}

// One global pass: visit nodes by most unallocated memory; each node at most once; stop after
// min(#nodes, kMaxIdleVisits) consecutive visits that assigned nothing, or when the node with
// the most free memory has less than the minimum allocation.
void CapacityScheduler::globalPass() {
  sync();
  const int idleLimit = std::min<int>(cluster().numNodes(), kMaxIdleVisits);
  std::vector<NodeId> visited;
  int idle = 0;
  const int64_t minMemory = settings().bounds.minimum.memoryMb();
  while (idle < idleLimit && !nodeIndex_.empty()) {
    // The index is ordered by free memory: once the best node cannot hold the minimum
    // allocation, no node can take (or fulfil a reservation of) anything.
    if (-nodeIndex_.begin()->first < minMemory) break;
    const NodeId node = nodeIndex_.begin()->second;
    unindexNode(node);  // visited this pass; re-indexed below
    visited.push_back(node);
    visitingNode_ = node;
    const int assigned = allocateOnNode(node);
    visitingNode_ = NodeId();
    if (assigned > 0) {
      idle = 0;
    } else {
      ++idle;
    }
  }
  for (NodeId node : visited) {
    if (cluster().contains(node)) indexNode(node);
  }
}

// A MonitorTick: one capacity-preemption round when the policy is enabled, then (async mode)
// one global pass, which may use what the round freed.
void CapacityScheduler::runMonitors() {
  if (preemption_.config.preemptionActive()) runPreemptionRound();
  if (config_.scheduleAsynchronously) globalPass();
}

}  // namespace spindle
