// Scheduler: node attributes changed at run time (the NodesToAttributesMappingRequest of YARN's
// AdminService and the distributed attributes a NodeManager reports, both handled by YARN's
// NodeAttributesManagerImpl). events.h describes the event.
#include <map>
#include <set>

#include "scheduler/scheduler.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {

const char* toString(NodeAttributeOp op) {
  switch (op) {
    case NodeAttributeOp::kAdd: return "ADD";
    case NodeAttributeOp::kReplace: return "REPLACE";
    case NodeAttributeOp::kRemove: return "REMOVE";
  }
  return "?";
}

namespace {

// The node's attributes keyed "prefix/name" (a key without a prefix is rm.yarn.io's).
std::map<std::string, std::string> prefixedAttributes(const Node& n) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : n.attributes()) {
    if (key.find('/') == std::string::npos) {
      out[std::string(placement::kCentralizedPrefix) + "/" + key] = value;
    } else {
      out[key] = value;
    }
  }
  return out;
}

}  // namespace

Status Scheduler::onNodeAttributesUpdate(const NodeAttributesUpdate& e) {
  const std::string_view prefix =
      e.distributed ? placement::kDistributedPrefix : placement::kCentralizedPrefix;
  if (e.distributed && e.op != NodeAttributeOp::kReplace) {
    return invalidArgument(
        "distributed node attributes are only replaced (a node reports its whole set), not {}",
        toString(e.op));
  }
  // 1. Validate every entry against a working copy of its node's attributes.
  std::map<NodeId, std::map<std::string, std::string>> updated;
  for (const NodeAttributesUpdate::Entry& entry : e.nodes) {
    SPINDLE_ASSIGN_OR_RETURN(NodeId id, nodeByName(entry.node));
    auto [it, fresh] = updated.try_emplace(id);
    if (fresh) it->second = prefixedAttributes(cluster_.node(id));
    std::map<std::string, std::string>& attrs = it->second;
    std::set<std::string> named;
    for (const placement::NodeAttribute& a : entry.attributes) {
      Status valid = placement::validateNodeAttribute(a, prefix);
      if (!valid.isOk()) return valid.withContext(fmt::format("node '{}'", entry.node));
      if (!named.insert(a.name).second) {
        return invalidArgument("node '{}': attribute {} is named more than once", entry.node,
                               a.key());
      }
      if (e.op == NodeAttributeOp::kRemove && !attrs.contains(a.key())) {
        return notFound("node '{}' has no attribute {} to remove", entry.node, a.key());
      }
    }
    // 2. The operation, on the copy.
    if (e.op == NodeAttributeOp::kReplace) {
      std::erase_if(attrs, [&](const auto& kv) {
        return std::string_view(kv.first).substr(0, kv.first.find('/')) == prefix;
      });
    }
    for (const placement::NodeAttribute& a : entry.attributes) {
      if (e.op == NodeAttributeOp::kRemove) {
        attrs.erase(a.key());
      } else {
        attrs[a.key()] = a.value;
      }
    }
  }
  // 3. Apply: the node and, when placement is in use, its attribute store.
  for (auto& [id, attrs] : updated) {
    Node& n = cluster_.node(id);
    n.setAttributes(std::move(attrs));
    if (placement_) placement_->nodeAttributesChanged(n);
  }
  return Status::ok();
}

}  // namespace spindle
