// A scheduler node: capacity, what is allocated and reserved on it, labels and attributes.
//
//   Node& n = cluster.node(id);
//   if (rc.fitsIn(ask, n.unallocated())) ...
//
// Mirrors YARN's SchedulerNode. Invariants (checked by Cluster::checkInvariants):
//  1. allocated == sum of the resources of `containers`;
//  2. allocated and reserved are non-negative; allocated fits in total unless the node's total
//     shrank under running containers (YARN lets a node go over-allocated after a resource
//     update; unallocated() is then negative in that type);
//  3. at most one reservation per node (YARN's reservedContainer).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "base/container_id_set.h"
#include "base/ids.h"
#include "resource/resource.h"

namespace spindle {

struct NodeReservation {
  ContainerId container;
  Resource resource;
};

class Node {
 public:
  Node(NodeId id, std::string name, std::string rack, Resource total)
      : id_(id), name_(std::move(name)), rack_(std::move(rack)), total_(total) {}

  NodeId id() const { return id_; }
  // The node name as the scheduler sees it: the host name that asks refer to.
  const std::string& name() const { return name_; }
  const std::string& rack() const { return rack_; }
  const Resource& total() const { return total_; }
  const Resource& allocated() const { return allocated_; }
  Resource unallocated() const { return total_ - allocated_; }
  const std::optional<NodeReservation>& reservation() const { return reservation_; }
  // Ascending by id, as a std::set<ContainerId> would iterate (a flat set: no allocation per
  // container once warm).
  const ContainerIdSet& containers() const { return containers_; }
  const std::set<std::string>& labels() const { return labels_; }
  // The node's partition: its single node label, or "" (the default partition).
  const std::string& partition() const;
  const std::map<std::string, std::string>& attributes() const { return attributes_; }

  void setTotal(const Resource& total) { total_ = total; }
  void setLabels(std::set<std::string> labels) { labels_ = std::move(labels); }
  void setAttributes(std::map<std::string, std::string> a) { attributes_ = std::move(a); }
  void addContainer(ContainerId id, const Resource& r);
  // Returns false when the container is not on this node.
  bool removeContainer(ContainerId id, const Resource& r);
  void reserve(ContainerId id, const Resource& r) { reservation_ = NodeReservation{id, r}; }
  void unreserve() { reservation_.reset(); }

 private:
  NodeId id_;
  std::string name_;
  std::string rack_;
  Resource total_;
  Resource allocated_;
  std::optional<NodeReservation> reservation_;
  ContainerIdSet containers_;
  std::set<std::string> labels_;
  std::map<std::string, std::string> attributes_;
};

}  // namespace spindle
