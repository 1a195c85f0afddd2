// The cluster: nodes by id and by name, racks, and cluster-wide totals.
//
//   Cluster cluster(types);
//   NodeId id = cluster.addNode("host1", "/rack1", Resource::of(8192, 8)).value();
//   cluster.node(id).addContainer(...);      // via the scheduler, which keeps totals in step
//   const Resource& total = cluster.total();
//
// Owns the NodeId interning table (STYLE rule 3). Ids are never reused: a node that leaves and
// comes back gets a new id, as a reconnecting NM gets a new SchedulerNode in YARN.
// Invariants: total == sum of live nodes' totals; allocated == sum of their allocated;
// reserved == sum of their reservations. Not thread-safe; owned by the scheduler core.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/ids.h"
#include "base/status.h"
#include "cluster/node.h"
#include "resource/resource.h"

namespace spindle {

// A cluster node label (partition), as added with `rmadmin -addToClusterNodeLabels
// "x(exclusive=false)"`: exclusive by default.
struct NodeLabel {
  std::string name;
  bool exclusive = true;
};

class Cluster {
 public:
  explicit Cluster(ResourceTypes types = ResourceTypes()) : types_(std::move(types)) {}

  const ResourceTypes& types() const { return types_; }

  // Errors: empty or duplicate name, negative resources.
  Result<NodeId> addNode(std::string name, std::string rack, const Resource& total);
  Status removeNode(NodeId id);
  // Changes a node's capacity (YARN's NodeResourceUpdateEvent).
  Status updateNodeTotal(NodeId id, const Resource& total);

  bool contains(NodeId id) const;
  Node& node(NodeId id) { return *nodes_[id.value()]; }
  const Node& node(NodeId id) const { return *nodes_[id.value()]; }
  // Live node by name; the name may be "host" or "host:port".
  std::optional<NodeId> findNode(std::string_view name) const;
  // Name of a node, live or removed ("" for an id never issued).
  const std::string& nodeName(NodeId id) const;

  int numNodes() const { return static_cast<int>(byName_.size()); }
  // Nodes that left (YARN counts them as lost).
  int removedNodes() const { return static_cast<int>(nodes_.size() - byName_.size()); }
  // Live node ids in id order.
  std::vector<NodeId> nodeIds() const;
  const std::set<NodeId>& nodesOnRack(const std::string& rack) const;
  bool hasRack(const std::string& rack) const { return racks_.count(rack) != 0; }

  const Resource& total() const { return total_; }
  const Resource& allocated() const { return allocated_; }
  const Resource& reserved() const { return reserved_; }
  Resource unallocated() const { return total_ - allocated_; }

  // Keep cluster totals in step with node changes; the scheduler calls these.
  void allocate(NodeId id, ContainerId c, const Resource& r);
  bool release(NodeId id, ContainerId c, const Resource& r);
  void reserve(NodeId id, ContainerId c, const Resource& r);
  void unreserve(NodeId id);

  // Cluster node labels (YARN's CommonNodeLabelsManager). Adding an existing label with the same
  // exclusivity is a no-op; a different exclusivity, an empty or malformed name is an error.
  Status addNodeLabels(const std::vector<NodeLabel>& labels);
  // Removes labels (each must exist; the scheduler checks that none is in use).
  Status removeNodeLabels(const std::vector<std::string>& names);
  const std::map<std::string, NodeLabel>& nodeLabels() const { return labels_; }
  bool hasNodeLabel(const std::string& name) const { return labels_.count(name) != 0; }
  // Exclusivity of a partition; "" (the default partition) and unknown labels are exclusive.
  bool isExclusive(const std::string& label) const;

  Status checkInvariants() const;

 private:
  std::map<std::string, NodeLabel> labels_;
  ResourceTypes types_;
  std::vector<std::unique_ptr<Node>> nodes_;  // index = NodeId; null once removed
  std::vector<std::string> names_;            // index = NodeId, kept after removal
  // Transparent hash and equality: findNode looks names up by string_view, copying nothing.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, NodeId, NameHash, std::equal_to<>> byName_;
  std::map<std::string, std::set<NodeId>> racks_;
  Resource total_;
  Resource allocated_;
  Resource reserved_;
};

}  // namespace spindle
