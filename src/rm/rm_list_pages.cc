// The web UI's list pages over the live RM (GET /ws/v1/cluster/spindle/apps and /spindle/nodes).
// With 10,000 apps, building every app's full REST entry to show 50 of them cost about a second
// on a loaded 2-core machine; here each app gets a light row of the fields its table sorts and
// searches on, and only the page's entries are built in full.
#include "dao/rest_views.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"
#include "webui/list_page.h"

namespace spindle::rm {

using nlohmann::json;

json RmCore::appField(const Application& a, std::string_view f) const {
  // The values appJson gives these fields, so a sort or search reads what the page shows.
  const bool final = isFinal(a.state());
  if (f == "id") return sched().appIdString(a.id());
  if (f == "name") return a.submission().name;
  if (f == "user") return a.user();
  if (f == "queue") return a.queue();
  if (f == "state") return toString(a.state());
  if (f == "finalStatus") return appFinalStatus(a);
  if (f == "applicationType") return a.submission().applicationType;
  if (f == "applicationTags") {
    std::string tags;
    if (const RmApp* app = findApp(a.id())) {
      for (const std::string& t : app->ctx.applicationTags) tags += (tags.empty() ? "" : ",") + t;
    }
    return tags;
  }
  if (f == "priority") return a.priority();
  if (f == "allocatedMB") return final ? -1 : a.used().memoryMb();
  if (f == "allocatedVCores") return final ? -1 : a.used().vcores();
  if (f == "runningContainers") return final ? -1 : static_cast<int64_t>(a.liveContainers().size());
  if (f == "startedTime") return a.submitTime();
  if (f == "launchTime") return a.launchTime();
  if (f == "finishedTime") return a.finishTime();
  if (f == "elapsedTime") {
    const bool ended = final || a.finishTime() > 0;
    return (ended ? a.finishTime() : sched().clock().nowMs()) - a.submitTime();
  }
  return nullptr;
}

json RmCore::appRow(const Application& a, const std::vector<std::string>& fields) const {
  json row = json::object();
  for (const std::string& f : fields) row[f] = appField(a, f);
  return row;
}

json RmCore::nodeRow(const RmNode& n, const std::vector<std::string>& fields) const {
  // nodeJson's values of these fields.
  const Node* node = inScheduler(n.state) ? &sched().cluster().node(n.sched) : nullptr;
  const Resource used = node ? node->allocated() : Resource();
  const Resource avail = node ? node->unallocated() : Resource();
  json row = json::object();
  for (const std::string& f : fields) {
    json& v = row[f];
    if (f == "id") v = n.nodeId;
    if (f == "rack") v = node ? node->rack() : n.rack;
    if (f == "state") v = toString(n.state);
    if (f == "nodeHostName") v = n.host;
    if (f == "nodeHTTPAddress") v = n.httpAddress;
    if (f == "healthStatus") {
      v = n.state == RmNodeState::UNHEALTHY || n.state == RmNodeState::LOST ? "Unhealthy"
                                                                            : "Healthy";
    }
    if (f == "healthReport") v = n.healthReport;
    if (f == "nodeLabels") v = node ? json(node->labels()) : json(n.labels);
    if (f == "nodeAttributesInfo") v = nodeAttributesInfo(n);
    if (f == "numContainers") v = node ? node->containers().size() : 0;
    if (f == "usedMemoryMB") v = used.memoryMb();
    if (f == "availMemoryMB") v = avail.memoryMb();
    if (f == "usedVirtualCores") v = used.vcores();
    if (f == "availableVirtualCores") v = avail.vcores();
    if (f == "lastHealthUpdate") v = n.lastHealthUpdate;
  }
  return row;
}

namespace {

// Without a search, a row needs only the field the page is sorted on.
std::vector<std::string> rowFields(const std::map<std::string, std::string>& q,
                                   const std::vector<std::string>& all) {
  if (q.contains("q") && !q.at("q").empty()) return all;
  auto sort = q.find("sort");
  if (sort == q.end() || sort->second.empty()) return {};
  return {sort->second};
}

}  // namespace

Result<json> RmCore::appsPage(const std::map<std::string, std::string>& q) {
  const auto filters = webui::withoutPageParams(q);
  SPINDLE_ASSIGN_OR_RETURN(std::vector<const Application*> apps, matchingApps(filters));
  const std::vector<std::string> fields = rowFields(q, webui::kAppRowFields);
  json rows = json::array();
  for (const Application* a : apps) rows.push_back(appRow(*a, fields));
  SPINDLE_ASSIGN_OR_RETURN(json page, webui::listPage(rows, q, webui::kAppRowFields, [&](size_t i) {
                             return appJson(*apps[i], filters);
                           }));
  return json{{"appsPage", std::move(page)}};
}

Result<json> RmCore::nodesPage(const std::map<std::string, std::string>& q) {
  SPINDLE_ASSIGN_OR_RETURN(std::vector<const RmNode*> nodes,
                           matchingNodes(webui::withoutPageParams(q)));
  const std::vector<std::string> fields = rowFields(q, webui::kNodeRowFields);
  json rows = json::array();
  for (const RmNode* n : nodes) rows.push_back(nodeRow(*n, fields));
  SPINDLE_ASSIGN_OR_RETURN(json page,
                           webui::listPage(rows, q, webui::kNodeRowFields,
                                           [&](size_t i) { return nodeJson(*nodes[i]); }));
  return json{{"nodesPage", std::move(page)}};
}

json RmCore::nodeSummary() {
  // Counted from the nodes themselves (webui::nodeSummary's shape), no entry built.
  driver_->settle();
  std::map<std::string, int64_t> byState, byPartition, byAttribute;
  for (const auto& [id, n] : nodes_) {
    ++byState[toString(n->state)];
    const Node* node = inScheduler(n->state) ? &sched().cluster().node(n->sched) : nullptr;
    const std::string label = node ? (node->labels().empty() ? "" : *node->labels().begin())
                                   : (n->labels.empty() ? "" : n->labels.front());
    ++byPartition[label.empty() ? "DEFAULT" : label];
    // nodeAttributesInfo's merge: the admin's (centralised) attributes, the NM's over them.
    std::map<std::string, std::string> attrs;
    if (auto it = centralized_.find(n->host); it != centralized_.end()) {
      for (const auto& [key, a] : it->second) attrs[key] = a.value;
    }
    for (const protocol::NodeAttributeRecord& r : n->distributed) {
      attrs[r.attributePrefix + "/" + r.attributeName] = r.attributeValue;
    }
    for (const auto& [key, value] : attrs) ++byAttribute[key + "=" + value];
  }
  return {{"nodeSummary",
           {{"total", nodes_.size()},
            {"byState", byState},
            {"byPartition", byPartition},
            {"byAttribute", byAttribute}}}};
}

}  // namespace spindle::rm
