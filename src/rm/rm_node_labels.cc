// RmCore: node labels at run time (YARN's RMNodeLabelsManager through AdminService and
// RMWebServices): the cluster's labels, which node carries which, adding, removing and
// replacing them. Every change goes through the Driver, so the scheduler sees it at once.
#include <set>

#include <fmt/ranges.h>

#include "base/log.h"
#include "base/strings.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;

namespace {

json labelInfo(const NodeLabel& l) { return {{"name", l.name}, {"exclusivity", l.exclusive}}; }

}  // namespace

// NodeLabelsInfo.
json RmCore::clusterNodeLabels() const {
  json list = json::array();
  for (const auto& [name, l] : sched().cluster().nodeLabels()) list.push_back(labelInfo(l));
  return {{"nodeLabelsInfo", {{"nodeLabelInfo", list}}}};
}

Result<json> RmCore::addClusterNodeLabels(const std::vector<NodeLabel>& labels) {
  if (labels.empty()) return invalidArgument("add-node-labels: no label given");
  auto out = driver_->handle(AddNodeLabels{labels});
  if (!out) return out.status();
  apply(*out);
  return clusterNodeLabels();
}

Result<json> RmCore::removeClusterNodeLabels(const std::vector<std::string>& labels) {
  if (labels.empty()) return invalidArgument("remove-node-labels: no label given (labels=)");
  auto out = driver_->removeNodeLabels(labels);
  if (!out) return out.status();
  apply(*out);
  return clusterNodeLabels();
}

// NodeToLabelsInfo: YARN's map rendering, entry[{key, value}], for nodes that carry a label.
json RmCore::nodeToLabels() const {
  json entries = json::array();
  const Cluster& c = sched().cluster();
  for (const auto& [id, n] : nodes_) {
    if (n->labels.empty()) continue;
    json infos = json::array();
    for (const std::string& l : n->labels) {
      auto it = c.nodeLabels().find(l);
      infos.push_back(labelInfo(it == c.nodeLabels().end() ? NodeLabel{l, true} : it->second));
    }
    entries.push_back({{"key", id}, {"value", {{"nodeLabelInfo", infos}}}});
  }
  return {{"nodeToLabels", {{"nodeToLabels", {{"entry", entries}}}}}};
}

// LabelsToNodesInfo for `labels` (comma list; default every label).
Result<json> RmCore::labelsToNodes(const std::map<std::string, std::string>& q) const {
  const Cluster& c = sched().cluster();
  std::set<std::string> wanted;
  if (auto it = q.find("labels"); it != q.end()) {
    for (const std::string& l : splitTrimmed(it->second, ",", " ")) wanted.insert(l);
  }
  json entries = json::array();
  for (const auto& [name, label] : c.nodeLabels()) {
    if (!wanted.empty() && !wanted.contains(name)) continue;
    json ids = json::array();
    for (const auto& [id, n] : nodes_) {
      for (const std::string& l : n->labels) {
        if (l == name) ids.push_back(id);
      }
    }
    if (ids.empty()) continue;
    entries.push_back({{"key", labelInfo(label)}, {"value", {{"nodes", ids}}}});
  }
  return json{{"labelsToNodesInfo", {{"labelsToNodes", {{"entry", entries}}}}}};
}

// ReplaceLabelsOnNode: a node id names one NodeManager, a host every NodeManager on it
// (YARN's "host" form). Every node is checked first; nothing changes on an error.
Result<json> RmCore::replaceLabelsOnNodes(
    const std::vector<std::pair<std::string, std::vector<std::string>>>& mapping) {
  if (mapping.empty()) return invalidArgument("replace labels: no node given");
  std::vector<std::pair<RmNode*, std::vector<std::string>>> targets;
  for (const auto& [name, labels] : mapping) {
    bool found = false;
    for (auto& [id, n] : nodes_) {
      if (id != name && n->host != name) continue;
      if (n->state != RmNodeState::RUNNING) continue;
      found = true;
      SPINDLE_RETURN_IF_ERROR(checkNodeLabels(*n, name, labels));
      targets.emplace_back(n.get(), labels);
    }
    if (!found) {
      return invalidArgument("Failed to replace labels: node {} is not a running NodeManager",
                             name);
    }
  }
  for (auto& [n, labels] : targets) SPINDLE_RETURN_IF_ERROR(relabelNode(*n, labels));
  return nodeToLabels();
}

Status RmCore::checkNodeLabels(const RmNode& n, std::string_view name,
                               const std::vector<std::string>& labels) const {
  if (labels.size() > 1) {
    return invalidArgument("node {}: {} labels given; a node belongs to one partition", name,
                           labels.size());
  }
  for (const std::string& l : labels) {
    if (!sched().cluster().hasNodeLabel(l)) {
      return invalidArgument(
          "Label {} of node {} is not a cluster node label (rmadmin -addToClusterNodeLabels)", l,
          name);
    }
  }
  const Node& node = sched().cluster().node(n.sched);
  const bool busy = !node.containers().empty() || node.reservation().has_value();
  if (busy && std::set<std::string>(labels.begin(), labels.end()) != node.labels()) {
    return failedPrecondition(
        "node {} runs {} container(s); its labels change only while it is empty", n.nodeId,
        node.containers().size());
  }
  return Status::ok();
}

Status RmCore::relabelNode(RmNode& n, const std::vector<std::string>& labels) {
  auto out = driver_->replaceNodeLabels(n.nodeId, labels);
  if (!out) return out.status();
  apply(*out);
  n.labels = labels;
  return Status::ok();
}

std::string RmCore::nodeReportedLabelsRefusal() const {
  // ResourceTrackerService: NodeManager labels count only with isDistributedNodeLabelsConf.
  if (settings_.distributedNodeLabels) return "";
  return "node labels not accepted: the ResourceManager takes node labels from NodeManagers only "
         "with yarn.node-labels.configuration-type=distributed";
}

std::string RmCore::applyReportedLabels(RmNode& n, const std::vector<std::string>& labels) {
  // ResourceTrackerService.updateNodeLabelsFromNMReport: the node's labels are replaced as
  // rmadmin -replaceLabelsOnNode replaces them; a refusal leaves the previous ones.
  if (std::string why = nodeReportedLabelsRefusal(); !why.empty()) return why;
  if (labels == n.labels) return "";
  Status st = checkNodeLabels(n, n.nodeId, labels);
  if (st.isOk()) st = relabelNode(n, labels);
  if (!st.isOk()) return "node labels not accepted: " + st.message();
  SPINDLE_LOG_INFO("node {}: labels [{}] reported by its NodeManager", n.nodeId,
                   fmt::join(labels, ","));
  return "";
}

Result<json> RmCore::nodeLabelsOf(std::string_view nodeId) const {
  auto it = nodes_.find(nodeId);
  if (it == nodes_.end()) return notFound("nodeId, {}, is not found", nodeId);
  json list = json::array();
  for (const std::string& l : it->second->labels) {
    auto label = sched().cluster().nodeLabels().find(l);
    list.push_back(labelInfo(label == sched().cluster().nodeLabels().end() ? NodeLabel{l, true}
                                                                           : label->second));
  }
  return json{{"nodeLabelsInfo", {{"nodeLabelInfo", list}}}};
}

}  // namespace spindle::rm
