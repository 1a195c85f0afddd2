#include "cluster/cluster.h"

#include <cctype>

namespace spindle {

Result<NodeId> Cluster::addNode(std::string name, std::string rack, const Resource& total) {
  if (name.empty()) return invalidArgument("node name is empty");
  if (byName_.count(name))
    return Status(StatusCode::kAlreadyExists, fmt::format("node '{}' already exists", name));
  if (!total.isNonNegative()) {
    return invalidArgument("node '{}': negative resource {}", name, total.toString());
  }
  if (rack.empty()) rack = "/default-rack";
  NodeId id(static_cast<uint32_t>(nodes_.size()));
  nodes_.push_back(std::make_unique<Node>(id, name, rack, total));
  names_.push_back(name);
  byName_.emplace(name, id);
  racks_[rack].insert(id);
  total_ += total;
  return id;
}

Status Cluster::removeNode(NodeId id) {
  if (!contains(id)) return notFound("node id {} is not in the cluster", id.value());
  Node& n = node(id);
  total_ -= n.total();
  allocated_ -= n.allocated();
  if (n.reservation()) reserved_ -= n.reservation()->resource;
  auto& rackNodes = racks_[n.rack()];
  rackNodes.erase(id);
  if (rackNodes.empty()) racks_.erase(n.rack());
  byName_.erase(n.name());
  nodes_[id.value()].reset();
  return Status::ok();
}

Status Cluster::updateNodeTotal(NodeId id, const Resource& total) {
  if (!contains(id)) return notFound("node id {} is not in the cluster", id.value());
  if (!total.isNonNegative()) {
    return invalidArgument("node '{}': negative resource {}", nodeName(id), total.toString());
  }
  Node& n = node(id);
  total_ -= n.total();
  total_ += total;
  n.setTotal(total);
  return Status::ok();
}

bool Cluster::contains(NodeId id) const {
  return id.valid() && id.value() < nodes_.size() && nodes_[id.value()] != nullptr;
}

std::optional<NodeId> Cluster::findNode(std::string_view name) const {
  auto it = byName_.find(name);
  if (it != byName_.end()) return it->second;
  // "host:port" finds a node registered as "host" and vice versa.
  auto colon = name.find(':');
  if (colon != std::string_view::npos) {
    it = byName_.find(name.substr(0, colon));
    if (it != byName_.end()) return it->second;
  }
  return std::nullopt;
}

const std::string& Cluster::nodeName(NodeId id) const {
  static const std::string kNone;
  return id.valid() && id.value() < names_.size() ? names_[id.value()] : kNone;
}

std::vector<NodeId> Cluster::nodeIds() const {
  std::vector<NodeId> ids;
  ids.reserve(byName_.size());
  for (const auto& n : nodes_) {
    if (n) ids.push_back(n->id());
  }
  return ids;
}

const std::set<NodeId>& Cluster::nodesOnRack(const std::string& rack) const {
  static const std::set<NodeId> kEmpty;
  auto it = racks_.find(rack);
  return it == racks_.end() ? kEmpty : it->second;
}

void Cluster::allocate(NodeId id, ContainerId c, const Resource& r) {
  node(id).addContainer(c, r);
  allocated_ += r;
}

bool Cluster::release(NodeId id, ContainerId c, const Resource& r) {
  if (!contains(id) || !node(id).removeContainer(c, r)) return false;
  allocated_ -= r;
  return true;
}

void Cluster::reserve(NodeId id, ContainerId c, const Resource& r) {
  Node& n = node(id);
  if (n.reservation()) reserved_ -= n.reservation()->resource;
  n.reserve(c, r);
  reserved_ += r;
}

void Cluster::unreserve(NodeId id) {
  Node& n = node(id);
  if (!n.reservation()) return;
  reserved_ -= n.reservation()->resource;
  n.unreserve();
}

Status Cluster::checkInvariants() const {
  Resource total, allocated, reserved;
  for (const auto& n : nodes_) {
    if (!n) continue;
    if (!n->allocated().isNonNegative()) {
      return internalError("node {}: negative allocation {}", n->name(), n->allocated().toString());
    }
    total += n->total();
    allocated += n->allocated();
    if (n->reservation()) reserved += n->reservation()->resource;
  }
  if (total != total_) {
    return internalError("cluster total {} != sum of nodes {}", total_.toString(),
                         total.toString());
  }
  if (allocated != allocated_) {
    return internalError("cluster allocated {} != sum of nodes {}", allocated_.toString(),
                         allocated.toString());
  }
  if (reserved != reserved_) {
    return internalError("cluster reserved {} != sum of nodes {}", reserved_.toString(),
                         reserved.toString());
  }
  return Status::ok();
}

Status Cluster::addNodeLabels(const std::vector<NodeLabel>& labels) {
  for (const NodeLabel& l : labels) {
    // YARN's label name rule: letters, digits, '-', '_' and '.', starting with a letter or digit.
    bool valid = !l.name.empty() && std::isalnum(static_cast<unsigned char>(l.name[0]));
    for (char ch : l.name) {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' && ch != '.') {
        valid = false;
      }
    }
    if (!valid) return invalidArgument("invalid node label name '{}'", l.name);
    auto it = labels_.find(l.name);
    if (it != labels_.end() && it->second.exclusive != l.exclusive) {
      return invalidArgument("node label '{}' already exists with exclusivity={}", l.name,
                             it->second.exclusive);
    }
  }
  for (const NodeLabel& l : labels) labels_.emplace(l.name, l);
  return Status::ok();
}

Status Cluster::removeNodeLabels(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (!labels_.contains(n)) return invalidArgument("node label '{}' does not exist", n);
  }
  for (const std::string& n : names) labels_.erase(n);
  return Status::ok();
}

bool Cluster::isExclusive(const std::string& label) const {
  auto it = labels_.find(label);
  return it == labels_.end() || it->second.exclusive;
}

}  // namespace spindle
