// Test-only fluent builder for small flat snapshots (STYLE rule 14):
//
//   PreemptionSnapshot s = SnapshotBuilder(100)
//       .leaf("a", /*guaranteed=*/20, /*used=*/40, /*pending=*/10)
//       .leaf("b", 30, 50, 10)
//       .build();
//   planPreemptionRound(s, defaultCalculator(), settings);  // or dominantCalculator()
//
// Every leaf gets one app whose live containers are all of size 1 (memory = vcores) on one
// node of the partition; `partition("x", 100)` adds a second partition and `on("x")` makes the
// following leaves' amounts and containers belong to it.
#pragma once

#include <fmt/format.h>

#include <string>

#include "resource/resource_calculator.h"
#include "scheduler/capacity/preemption/preemption_snapshot.h"

namespace spindle::preemption::testing {

// The resource library's calculators over memory and vcores, as a scheduler would pass them.
inline const ResourceCalculator& defaultCalculator() {
  static const std::unique_ptr<ResourceCalculator> rc =
      makeDefaultResourceCalculator(ResourceTypes());
  return *rc;
}
inline const ResourceCalculator& dominantCalculator() {
  static const std::unique_ptr<ResourceCalculator> rc =
      makeDominantResourceCalculator(ResourceTypes());
  return *rc;
}

class SnapshotBuilder {
 public:
  explicit SnapshotBuilder(int64_t defaultPartitionTotal) {
    s_.partitions.push_back({"", Resource::of(defaultPartitionTotal, defaultPartitionTotal), true});
    s_.clusterTotal = Resource::of(defaultPartitionTotal, defaultPartitionTotal);
    s_.addQueue("root", QueueId());
    addNode("");
  }

  SnapshotBuilder& partition(const std::string& name, int64_t total) {
    s_.partitions.push_back({name, Resource::of(total, total), true});
    s_.clusterTotal += Resource::of(total, total);
    addNode(name);
    return *this;
  }
  SnapshotBuilder& on(const std::string& partition) {
    current_ = partition;
    return *this;
  }
  // A leaf under root (or an existing leaf amount for another partition, when it exists).
  SnapshotBuilder& leaf(const std::string& name, int64_t guaranteed, int64_t used, int64_t pending,
                        int64_t max = -1) {
    QueueId id;
    for (size_t i = 0; i < s_.queues.size(); ++i) {
      if (s_.queues[i].path == "root." + name) id = QueueId(static_cast<uint32_t>(i));
    }
    if (!id.valid()) id = s_.addQueue("root." + name, QueueId(0));
    const PartitionInfo* p = s_.partition(current_);
    QueuePartitionAmounts a;
    a.guaranteed = Resource::of(guaranteed, guaranteed);
    a.max = max < 0 ? p->total : Resource::of(max, max);
    a.used = Resource::of(used, used);
    a.pending = Resource::of(pending, pending);
    a.pendingDeductReserved = a.pending;
    s_.queues[id.value()].partitions[current_] = a;
    QueuePartitionAmounts& root = s_.queues[0].partitions[current_];
    root.guaranteed = p->total;
    root.max = p->total;
    root.used += a.used;
    AppSnapshot app;
    app.attempt = AttemptId{AppId(static_cast<uint32_t>(s_.apps.size() + 1)), 1};
    app.name = fmt::format("app_{}_{}", name, current_);
    app.queue = id;
    for (int64_t k = 0; k < used; ++k) {
      app.containers.push_back(ContainerSnapshot{.id = {app.attempt, static_cast<uint64_t>(k + 1)},
                                                 .node = nodeOf(current_),
                                                 .size = Resource::of(1, 1),
                                                 .requestPriority = 1});
    }
    s_.queues[id.value()].appsInPreemptionOrder.insert(
        s_.queues[id.value()].appsInPreemptionOrder.begin(), app.attempt);
    s_.apps.push_back(std::move(app));
    return *this;
  }
  SnapshotBuilder& disablePreemption(const std::string& name) {
    for (QueueSnapshot& q : s_.queues) {
      if (q.path == "root." + name) q.disablePreemption = true;
    }
    return *this;
  }
  PreemptionSnapshot build() const { return s_; }

 private:
  void addNode(const std::string& partition) {
    s_.nodes.push_back(NodeSnapshot{.id = NodeId(static_cast<uint32_t>(s_.nodes.size())),
                                    .name = "node-" + partition,
                                    .partition = partition,
                                    .unallocated = Resource(),
                                    .killable = Resource(),
                                    .reservedContainer = std::nullopt});
  }
  NodeId nodeOf(const std::string& partition) const {
    for (const NodeSnapshot& n : s_.nodes) {
      if (n.partition == partition) return n.id;
    }
    return NodeId();
  }

  PreemptionSnapshot s_;
  std::string current_;
};

}  // namespace spindle::preemption::testing
