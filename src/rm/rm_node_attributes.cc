// RmCore: node attributes (YARN-3409). Centralised attributes are the administrator's, kept per
// host as YARN's NodeAttributesManagerImpl keeps them (every NodeManager on the host has them,
// also one that registers later); distributed attributes are each NodeManager's own report.
// Both reach the scheduler as NodeAttributesUpdate events (or with the node's registration).
// The views answer YARN's ApplicationClientProtocol calls GetClusterNodeAttributes,
// GetAttributesToNodes and GetNodesToAttributes, and AdminService.mapAttributesToNodes, as
// REST (docs/rest-api.md).
#include <set>

#include <fmt/ranges.h>

#include "base/strings.h"
#include "protocol/codec.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;
using placement::NodeAttribute;

namespace {

NodeAttribute fromRecord(const protocol::NodeAttributeRecord& r) {
  return {r.attributePrefix, r.attributeName, placement::NodeAttributeType::kString,
          r.attributeValue};
}

protocol::NodeAttributeRecord toRecord(const NodeAttribute& a) {
  return {a.prefix, a.name, std::string(placement::nodeAttributeTypeName(a.type)), a.value};
}

json keyJson(std::string_view prefix, std::string_view name) {
  return {{"attributePrefix", prefix}, {"attributeName", name}};
}

Result<NodeAttributeOp> opOf(const std::string& operation) {
  if (operation == "ADD") return NodeAttributeOp::kAdd;
  if (operation == "REPLACE") return NodeAttributeOp::kReplace;
  if (operation == "REMOVE") return NodeAttributeOp::kRemove;
  return invalidArgument("unknown operation '{}' (one of ADD, REPLACE, REMOVE)", operation);
}

// Applies `op` to a host's centralised set (by "prefix/name"), with the checks the scheduler
// makes for a node; the error names the host and the attribute.
Status applyOp(std::map<std::string, NodeAttribute>& set, NodeAttributeOp op,
               const std::string& host, const std::vector<NodeAttribute>& attrs) {
  std::set<std::string> named;
  for (const NodeAttribute& a : attrs) {
    Status valid = placement::validateNodeAttribute(a, placement::kCentralizedPrefix);
    if (!valid.isOk()) return valid.withContext(fmt::format("node '{}'", host));
    if (!named.insert(a.name).second) {
      return invalidArgument("node '{}': attribute {} is named more than once", host, a.key());
    }
    if (op == NodeAttributeOp::kRemove && !set.contains(a.key())) {
      return notFound("node '{}' has no attribute {} to remove", host, a.key());
    }
  }
  if (op == NodeAttributeOp::kReplace) set.clear();
  for (const NodeAttribute& a : attrs) {
    if (op == NodeAttributeOp::kRemove) {
      set.erase(a.key());
    } else {
      set[a.key()] = a;
    }
  }
  return Status::ok();
}

}  // namespace

Status RmCore::checkDistributed(const std::vector<protocol::NodeAttributeRecord>& attrs) const {
  std::set<std::string> named;
  for (const protocol::NodeAttributeRecord& r : attrs) {
    SPINDLE_RETURN_IF_ERROR(
        placement::validateNodeAttribute(fromRecord(r), placement::kDistributedPrefix));
    if (!named.insert(r.attributeName).second) {
      return invalidArgument("attribute {}/{} is reported more than once", r.attributePrefix,
                             r.attributeName);
    }
  }
  return Status::ok();
}

std::map<std::string, std::string> RmCore::registrationAttributes(
    const std::string& host, const std::vector<protocol::NodeAttributeRecord>& distributed) const {
  std::map<std::string, std::string> out;
  if (auto it = centralized_.find(host); it != centralized_.end()) {
    for (const auto& [key, a] : it->second) out[key] = a.value;
  }
  for (const protocol::NodeAttributeRecord& r : distributed) {
    out[r.attributePrefix + "/" + r.attributeName] = r.attributeValue;
  }
  return out;
}

std::optional<std::string> RmCore::denyAdmin(const std::string& user,
                                             std::string_view method) const {
  // AdminService.checkAcls (RMServerUtils.verifyAdminAccess): yarn.admin.acl, checked whether
  // or not yarn.acl.enable is set.
  if (isAdmin(user)) return std::nullopt;
  return fmt::format("User {} doesn't have permission to call '{}'", user, method);
}

Result<json> RmCore::mapAttributesToNodes(const protocol::NodesToAttributesMappingRequest& r) {
  SPINDLE_ASSIGN_OR_RETURN(NodeAttributeOp op, opOf(r.operation));
  // 1. Which hosts have running NodeManagers.
  std::map<std::string, std::vector<std::string>> nodesOfHost;
  for (const auto& [id, n] : nodes_) {
    if (inScheduler(n->state)) nodesOfHost[n->host].push_back(id);
  }
  std::vector<std::string> unknown;
  for (const protocol::NodeToAttributes& m : r.nodesToAttributes) {
    if (!nodesOfHost.contains(m.node)) unknown.push_back(m.node);
  }
  if (r.failOnUnknownNodes && !unknown.empty()) {
    return invalidArgument("Following nodes does not exist : [{}]", fmt::join(unknown, ", "));
  }
  // 2. Validate everything on copies of the hosts' sets.
  std::map<std::string, std::map<std::string, NodeAttribute>> updated;
  NodeAttributesUpdate event;
  event.op = op;
  for (const protocol::NodeToAttributes& m : r.nodesToAttributes) {
    auto [it, fresh] = updated.try_emplace(m.node);
    if (fresh) {
      if (auto c = centralized_.find(m.node); c != centralized_.end()) it->second = c->second;
    }
    std::vector<NodeAttribute> attrs;
    for (const protocol::NodeAttributeRecord& a : m.nodeAttributes) attrs.push_back(fromRecord(a));
    if (op != NodeAttributeOp::kReplace && attrs.empty()) {
      return invalidArgument("Attributes cannot be null or empty for Operation [{}] on the node {}",
                             r.operation, m.node);
    }
    SPINDLE_RETURN_IF_ERROR(applyOp(it->second, op, m.node, attrs));
    for (const std::string& nodeId : nodesOfHost[m.node]) event.nodes.push_back({nodeId, attrs});
  }
  // 3. The store (the admin's mapping survives a restart), the scheduler's nodes, then the
  // hosts' sets.
  if (store_) {
    store::StoreBatch batch;
    for (const auto& [host, set] : updated) {
      if (set.empty()) {
        batch.erase(store::RecordKind::kNodeAttributes, host);
        continue;
      }
      json value = json::object();
      for (const auto& [key, a] : set) value[key] = a.value;
      batch.put(store::RecordKind::kNodeAttributes, host, std::move(value));
    }
    if (store::StoreStatus st = store_->apply(batch); !st.isOk()) {
      if (onStoreFailure_) onStoreFailure_(st);
      return st.toStatus();
    }
  }
  if (!event.nodes.empty()) {
    auto out = driver_->updateNodeAttributes(event);
    if (!out) return out.status();
  }
  for (auto& [host, set] : updated) {
    if (set.empty()) {
      centralized_.erase(host);
    } else {
      centralized_[host] = std::move(set);
    }
  }
  return json::object();
}

// Every host with attributes and its attributes by key: the centralised set and the
// distributed sets of its running NodeManagers (a key two NMs of a host report: the first's).
// One pass over the hosts and the nodes.
std::map<std::string, std::map<std::string, NodeAttribute>> RmCore::hostAttributes() const {
  std::map<std::string, std::map<std::string, NodeAttribute>> out;
  for (const auto& [host, set] : centralized_) out[host] = set;
  for (const auto& [id, n] : nodes_) {
    if (!isActive(n->state) || n->distributed.empty()) continue;
    std::map<std::string, NodeAttribute>& attrs = out[n->host];
    for (const protocol::NodeAttributeRecord& r : n->distributed) {
      attrs.try_emplace(r.attributePrefix + "/" + r.attributeName, fromRecord(r));
    }
  }
  return out;
}

json RmCore::clusterNodeAttributes() const {
  std::map<std::string, NodeAttribute> keys;
  for (const auto& [host, attrs] : hostAttributes()) {
    for (const auto& [key, a] : attrs) keys.try_emplace(key, a);
  }
  json list = json::array();
  for (const auto& [key, a] : keys) {
    list.push_back({{"attributeKey", keyJson(a.prefix, a.name)},
                    {"attributeType", placement::nodeAttributeTypeName(a.type)}});
  }
  return {{"nodeAttributes", list}};
}

Result<json> RmCore::attributesToNodes(const std::map<std::string, std::string>& q) const {
  // NodeAttributesCLI: "prefix/name", or a name (prefix rm.yarn.io, NodeAttributeKey's default).
  std::set<std::string> wanted;
  if (auto it = q.find("attributes"); it != q.end()) {
    for (std::string_view k : splitNonEmpty(it->second, ',')) {
      const size_t slash = k.find('/');
      if (slash != k.rfind('/')) {
        return invalidArgument("Attribute format not correct. Should be <[prefix]/[name]> : {}", k);
      }
      wanted.insert(slash == std::string_view::npos
                        ? std::string(placement::kCentralizedPrefix) + "/" + std::string(k)
                        : std::string(k));
    }
  }
  std::map<std::string, std::pair<NodeAttribute, json>> byKey;
  for (const auto& [host, attrs] : hostAttributes()) {
    for (const auto& [key, a] : attrs) {
      if (!wanted.empty() && !wanted.contains(key)) continue;
      auto [it, fresh] = byKey.try_emplace(key, a, json::array());
      it->second.second.push_back({{"hostname", host}, {"attributeValue", a.value}});
    }
  }
  json list = json::array();
  for (const auto& [key, entry] : byKey) {
    list.push_back({{"attributeKey", keyJson(entry.first.prefix, entry.first.name)},
                    {"nodeToAttributeValues", entry.second}});
  }
  return json{{"attributesToNodes", list}};
}

Result<json> RmCore::nodesToAttributes(const std::map<std::string, std::string>& q) const {
  const auto all = hostAttributes();
  std::set<std::string> hosts;
  if (auto it = q.find("nodes"); it != q.end()) {
    for (std::string_view h : splitNonEmpty(it->second, ',')) hosts.insert(std::string(h));
  } else {
    for (const auto& [host, attrs] : all) hosts.insert(host);
  }
  json list = json::array();
  for (const std::string& host : hosts) {
    json attrs = json::array();
    if (auto it = all.find(host); it != all.end()) {
      for (const auto& [key, a] : it->second) attrs.push_back(protocol::toJson(toRecord(a)));
    }
    list.push_back({{"node", host}, {"nodeAttributes", attrs}});
  }
  return json{{"nodesToAttributes", list}};
}

json RmCore::nodeAttributesInfo(const RmNode& n) const {
  // YARN's NodeAttributesInfo / NodeAttributeInfo in the node's REST view.
  std::map<std::string, NodeAttribute> attrs;
  if (auto it = centralized_.find(n.host); it != centralized_.end()) attrs = it->second;
  for (const protocol::NodeAttributeRecord& r : n.distributed) {
    attrs[r.attributePrefix + "/" + r.attributeName] = fromRecord(r);
  }
  json list = json::array();
  for (const auto& [key, a] : attrs) {
    list.push_back({{"prefix", a.prefix},
                    {"name", a.name},
                    {"type", placement::nodeAttributeTypeName(a.type)},
                    {"value", a.value}});
  }
  return {{"nodeAttributeInfo", list}};
}

}  // namespace spindle::rm
