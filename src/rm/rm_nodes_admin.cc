// RmCore's node administration: the include and exclude files and -refreshNodes (YARN's
// NodesListManager and AdminService.refreshNodes), graceful decommissioning
// (DecommissioningNodesWatcher), the health transitions of RMNodeImpl (RUNNING <-> UNHEALTHY)
// and the nodes' utilisation in the REST view.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/log.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;

namespace {

// HostsFileReader: names separated by blanks or line ends; '#' starts a comment.
Result<std::vector<std::string>> readHostsFile(const Configuration& conf, const char* key) {
  const std::string path = conf.get(key, "");
  std::vector<std::string> out;
  if (path.empty()) return out;
  std::ifstream in(path);
  if (!in) return invalidArgument("{}: cannot read {}", key, path);
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    for (std::string w; words >> w;) out.push_back(w);
  }
  return out;
}

bool listed(const std::vector<std::string>& list, const std::string& nodeId) {
  const std::string host = nodeId.substr(0, nodeId.rfind(':'));
  return std::find(list.begin(), list.end(), host) != list.end() ||
         std::find(list.begin(), list.end(), nodeId) != list.end();
}

}  // namespace

Status RmCore::loadHostLists() {
  SPINDLE_ASSIGN_OR_RETURN(auto includes,
                           readHostsFile(conf_, "yarn.resourcemanager.nodes.include-path"));
  SPINDLE_ASSIGN_OR_RETURN(auto excludes,
                           readHostsFile(conf_, "yarn.resourcemanager.nodes.exclude-path"));
  includes_ = std::move(includes);
  excludes_ = std::move(excludes);
  return Status::ok();
}

// NodesListManager.isValidNode: in the include list (when there is one) and not excluded.
bool RmCore::hostAllowed(const std::string& nodeId) const {
  return (includes_.empty() || listed(includes_, nodeId)) && !listed(excludes_, nodeId);
}

void RmCore::updateHealth(RmNode& n, const protocol::NodeHealthStatus& h) {
  if (n.state == RmNodeState::RUNNING && !h.isNodeHealthy) {
    // StatusUpdateWhenHealthyTransition: the scheduler drops the node; its containers end
    // ABORTED and their AMs are told.
    SPINDLE_LOG_WARN("node {} is UNHEALTHY: {}", n.nodeId, h.healthReport);
    n.state = RmNodeState::UNHEALTHY;
    reportNodeUpdate(n, "NODE_UNUSABLE");
    auto out = driver_->handle(NodeRemoved{n.nodeId});
    if (out) apply(*out);
    return;
  }
  if (n.state == RmNodeState::UNHEALTHY && h.isNodeHealthy) {
    // StatusUpdateWhenUnHealthyTransition: back in the scheduler with its labels and attributes.
    NodeAdded added{n.nodeId, n.rack, Resource::of(n.total.memory, n.total.vCores), n.labels,
                    registrationAttributes(n.host, n.distributed)};
    auto out = driver_->handle(added);
    if (!out) {
      SPINDLE_LOG_WARN("node {} stays UNHEALTHY: {}", n.nodeId, out.status().message());
      return;
    }
    const Outcome copy = *out;
    n.sched = *sched().cluster().findNode(n.nodeId);
    n.state = RmNodeState::RUNNING;
    reportNodeUpdate(n, "NODE_USABLE");
    apply(copy);
    SPINDLE_LOG_INFO("node {} is healthy again: RUNNING", n.nodeId);
  }
}

void RmCore::decommissionNode(RmNode& n, const std::string& why) {
  const bool held = inScheduler(n.state);
  SPINDLE_LOG_INFO("node {} DECOMMISSIONED: {}", n.nodeId, why);
  n.state = RmNodeState::DECOMMISSIONED;
  n.shutdownMessage = why;
  n.toCleanup.clear();
  n.decommissionApps.clear();
  reportNodeUpdate(n, "NODE_UNUSABLE");
  if (!held) return;
  auto out = driver_->handle(NodeRemoved{n.nodeId});
  if (out) apply(*out);
}

std::optional<std::string> RmCore::afterDecommissioningHeartbeat(RmNode& n) {
  const Node& node = sched().cluster().node(n.sched);
  for (const ContainerId& c : node.containers()) n.decommissionApps.insert(c.app());
  std::erase_if(n.decommissionApps, [this](AppId a) { return !appLive(a); });
  if (node.containers().empty() && n.decommissionApps.empty()) {
    const std::string why = "DECOMMISSIONING " + n.nodeId + " is ready to be decommissioned";
    decommissionNode(n, why);
    return why;
  }
  // AbstractYarnScheduler.nodeUpdate: a DECOMMISSIONING node's total follows what is in use,
  // so nothing new is placed on it.
  if (node.total() != node.allocated()) {
    auto out = driver_->handle(NodeResourceUpdate{n.nodeId, node.allocated()});
    if (out) apply(*out);
  }
  return std::nullopt;
}

void RmCore::tickDecommissioning(TimeMs now) {
  for (auto& [id, n] : nodes_) {
    if (n->state == RmNodeState::DECOMMISSIONING && n->decommissionDeadline >= 0 &&
        now >= n->decommissionDeadline) {
      // DecommissioningNodesWatcher: past the timeout the node is decommissioned anyway.
      decommissionNode(*n, "DECOMMISSIONING " + n->nodeId + " timeout");
    }
  }
}

Result<json> RmCore::refreshNodes(const RefreshNodesRequest& r) {
  json decommissioned = json::array(), decommissioning = json::array(),
       recommissioned = json::array();
  if (r.type == DecommissionType::FORCEFUL) {
    // NodesListManager.refreshNodesForcefully.
    for (auto& [id, n] : nodes_) {
      if (n->state != RmNodeState::DECOMMISSIONING) continue;
      decommissionNode(*n, "Disallowed NodeManager nodeId: " + id + " hostname: " + n->host);
      decommissioned.push_back(id);
    }
  } else {
    SPINDLE_RETURN_IF_ERROR(loadHostLists());
    int64_t timeoutS = 0;
    if (r.type == DecommissionType::GRACEFUL) {
      SPINDLE_ASSIGN_OR_RETURN(
          int64_t def,
          conf_.getLong("yarn.resourcemanager.nodemanager-graceful-decommission-timeout-secs",
                        3600));
      timeoutS = r.timeoutS.value_or(def);
    }
    const TimeMs now = clock_.nowMs();
    for (auto& [id, n] : nodes_) {
      const bool allowed = hostAllowed(id);
      if (allowed && n->state == RmNodeState::DECOMMISSIONING) {
        // RECOMMISSION: back to RUNNING with its whole resource.
        n->state = RmNodeState::RUNNING;
        n->decommissionDeadline = -1;
        n->decommissionApps.clear();
        auto out =
            driver_->handle(NodeResourceUpdate{id, Resource::of(n->total.memory, n->total.vCores)});
        if (out) apply(*out);
        reportNodeUpdate(*n, "NODE_USABLE");
        SPINDLE_LOG_INFO("node {} recommissioned: RUNNING", id);
        recommissioned.push_back(id);
        continue;
      }
      if (allowed || !isActive(n->state)) continue;
      if (r.type == DecommissionType::GRACEFUL && n->state != RmNodeState::UNHEALTHY) {
        // GRACEFUL_DECOMMISSION; a node already DECOMMISSIONING takes the new timeout.
        n->decommissionDeadline = timeoutS < 0 ? -1 : now + timeoutS * 1000;
        if (n->state != RmNodeState::DECOMMISSIONING) {
          n->state = RmNodeState::DECOMMISSIONING;
          SPINDLE_LOG_INFO("node {} DECOMMISSIONING (timeout {} s)", id, timeoutS);
        }
        reportNodeUpdate(*n, "NODE_DECOMMISSIONING");
        decommissioning.push_back(id);
      } else {
        decommissionNode(*n, "Disallowed NodeManager nodeId: " + id + " hostname: " + n->host);
        decommissioned.push_back(id);
      }
    }
  }
  return json{{"refreshNodes",
               {{"decommissioned", decommissioned},
                {"decommissioning", decommissioning},
                {"recommissioned", recommissioned}}}};
}

json RmCore::utilizationJson(const RmNode& n) const {
  // YARN's ResourceUtilizationInfo.
  const protocol::ResourceUtilization node =
      n.nodeUtilization.value_or(protocol::ResourceUtilization{});
  const protocol::ResourceUtilization c =
      n.containersUtilization.value_or(protocol::ResourceUtilization{});
  return {{"nodePhysicalMemoryMB", node.pmem},
          {"nodeVirtualMemoryMB", node.vmem},
          {"nodeCPUUsage", node.cpu},
          {"aggregatedContainersPhysicalMemoryMB", c.pmem},
          {"aggregatedContainersVirtualMemoryMB", c.vmem},
          {"containersCPUUsage", c.cpu}};
}

}  // namespace spindle::rm
