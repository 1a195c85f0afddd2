#include "scheduler/capacity/preemption/preemption_snapshot.h"

#include <unordered_set>

namespace spindle::preemption {

QueueId PreemptionSnapshot::addQueue(std::string path, QueueId parent) {
  QueueId id(static_cast<uint32_t>(queues.size()));
  QueueSnapshot q;
  q.path = std::move(path);
  q.parent = parent;
  queues.push_back(std::move(q));
  if (parent.valid()) queues[parent.value()].children.push_back(id);
  return id;
}

const PartitionInfo* PreemptionSnapshot::partition(const std::string& name) const {
  for (const PartitionInfo& p : partitions) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const NodeSnapshot* PreemptionSnapshot::node(NodeId id) const {
  if (!id.valid() || id.value() >= nodes.size()) return nullptr;
  return &nodes[id.value()];
}

Status validateSnapshot(const PreemptionSnapshot& s) {
  if (s.resourceTypeCount < 1 || s.resourceTypeCount > kMaxResourceTypes) {
    return invalidArgument("snapshot: resource type count {} outside [1, {}]", s.resourceTypeCount,
                           kMaxResourceTypes);
  }
  if (s.partition("") == nullptr) {
    return invalidArgument("snapshot: the default partition \"\" is missing");
  }
  if (s.queues.empty() || s.queues[0].parent.valid()) {
    return invalidArgument("snapshot: queues[0] must be the root (no parent)");
  }
  for (size_t i = 1; i < s.queues.size(); ++i) {
    const QueueSnapshot& q = s.queues[i];
    if (!q.parent.valid() || q.parent.value() >= i) {
      return invalidArgument("snapshot: queue '{}' (index {}) must follow its parent", q.path, i);
    }
  }
  for (size_t i = 0; i < s.queues.size(); ++i) {
    for (const auto& [name, amounts] : s.queues[i].partitions) {
      if (s.partition(name) == nullptr) {
        return invalidArgument("snapshot: queue '{}' has amounts for unknown partition '{}'",
                               s.queues[i].path, name);
      }
    }
  }
  for (size_t i = 0; i < s.nodes.size(); ++i) {
    if (s.nodes[i].id.value() != i) {
      return invalidArgument("snapshot: node '{}' has id {} but sits at index {}", s.nodes[i].name,
                             s.nodes[i].id.value(), i);
    }
    if (s.partition(s.nodes[i].partition) == nullptr) {
      return invalidArgument("snapshot: node '{}' is in unknown partition '{}'", s.nodes[i].name,
                             s.nodes[i].partition);
    }
  }
  struct AttemptHash {
    size_t operator()(const AttemptId& a) const noexcept {
      return std::hash<uint64_t>()((uint64_t{a.app.value()} << 32) | a.attempt);
    }
  };
  std::unordered_set<AttemptId, AttemptHash> seen;
  seen.reserve(s.apps.size());
  for (const AppSnapshot& app : s.apps) {
    if (!seen.insert(app.attempt).second) {
      return invalidArgument("snapshot: app '{}' is listed twice", app.name);
    }
    if (!app.queue.valid() || app.queue.value() >= s.queues.size() ||
        !s.queue(app.queue).isLeaf()) {
      return invalidArgument("snapshot: app '{}' does not belong to a leaf queue", app.name);
    }
    for (const ContainerSnapshot& c : app.containers) {
      if (c.id.attempt != app.attempt) {
        return invalidArgument("snapshot: container {} of app '{}' has another attempt id",
                               c.id.seq, app.name);
      }
      if (s.node(c.node) == nullptr) {
        return invalidArgument("snapshot: container {} of app '{}' is on unknown node {}", c.id.seq,
                               app.name, c.node.value());
      }
    }
  }
  for (const QueueSnapshot& q : s.queues) {
    for (const AttemptId& a : q.appsInPreemptionOrder) {
      if (!seen.contains(a)) {
        return invalidArgument("snapshot: queue '{}' lists unknown app attempt {}_{}", q.path,
                               a.app.value(), a.attempt);
      }
    }
  }
  return Status::ok();
}

}  // namespace spindle::preemption
