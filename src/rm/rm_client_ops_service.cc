// RmService: application priority, attempts and containers, node labels, activities and
// refreshQueues (docs/rest-api.md):
//   GET, PUT  /apps/{id}/priority                          AppPriority {"priority": N}
//   GET       /apps/{id}/appattempts/{attemptId}[/containers[/{containerId}]]
//   GET       /get-node-labels, /get-node-to-labels, /label-mappings[?labels=],
//             /nodes/{id}/get-labels
//   POST      /add-node-labels, /remove-node-labels?labels=, /replace-node-to-labels
//             (also /replace-node-labels), /nodes/{id}/replace-labels?labels=   (admin)
//   GET       /scheduler/activities[?nodeId=], /scheduler/app-activities/{appId}
//   POST      /admin/refresh-queues  (Spindle's form of `rmadmin -refreshQueues`; admin)
#include "base/strings.h"
#include "rm/rest_answers.h"
#include "rm/rm_service.h"
#include "rm/rm_settings.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;

namespace {

Result<json> parseBody(std::string_view body, std::string_view what) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return invalidArgument("{}: the body is not a JSON object", what);
  }
  return j;
}

// A member of `j`, or of its one wrapping object ({"nodeLabelsInfo": {...}}).
const json* member(const json& j, const char* key) {
  if (j.contains(key)) return &j[key];
  if (j.size() == 1 && j.begin()->is_object() && j.begin()->contains(key)) {
    return &(*j.begin())[key];
  }
  return nullptr;
}

// AppPriority: {"priority": N}.
Result<int32_t> decodePriority(std::string_view body) {
  SPINDLE_ASSIGN_OR_RETURN(json j, parseBody(body, "priority"));
  const json* p = member(j, "priority");
  if (p == nullptr || p->is_null()) return invalidArgument("Target Priority cannot be null");
  if (p->is_string()) {
    try {
      size_t used = 0;
      const int v = std::stoi(p->get<std::string>(), &used);
      if (used == p->get<std::string>().size()) return static_cast<int32_t>(v);
    } catch (const std::exception&) {
    }
  }
  if (!p->is_number_integer()) {
    return invalidArgument("priority: '{}' is not an integer", p->dump());
  }
  return p->get<int32_t>();
}

// NodeLabelsInfo: {"nodeLabelsInfo": {"nodeLabelInfo": [{"name", "exclusivity"}]}} (the wrapper
// optional, one object for a one-element list).
Result<std::vector<NodeLabel>> decodeNodeLabels(std::string_view body) {
  SPINDLE_ASSIGN_OR_RETURN(json j, parseBody(body, "add-node-labels"));
  const json* list = member(j, "nodeLabelInfo");
  if (list == nullptr) return invalidArgument("add-node-labels: no nodeLabelInfo in the body");
  const json items = list->is_array() ? *list : json::array({*list});
  std::vector<NodeLabel> out;
  for (const json& i : items) {
    if (!i.is_object() || !i.contains("name") || !i["name"].is_string()) {
      return invalidArgument("add-node-labels: nodeLabelInfo {} has no name", i.dump());
    }
    NodeLabel l{i["name"].get<std::string>(), true};
    if (i.contains("exclusivity")) {
      const json& e = i["exclusivity"];
      if (e.is_boolean()) {
        l.exclusive = e.get<bool>();
      } else if (e.is_string() && (e == "true" || e == "false")) {
        l.exclusive = e == "true";
      } else {
        return invalidArgument("add-node-labels: exclusivity of {} must be true or false", l.name);
      }
    }
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<std::string> labelsParam(const HttpRequest& r) {
  auto it = r.query.find("labels");
  return it == r.query.end() ? std::vector<std::string>{} : splitTrimmed(it->second, ",", " ");
}

using NodeMapping = std::vector<std::pair<std::string, std::vector<std::string>>>;

// NodeToLabelsEntryList: {"nodeToLabels": [{"nodeId": "h:p", "nodeLabels": ["x"]}]} (wrapper
// optional; "labels" also accepted for "nodeLabels", a string for a one-label list).
Result<NodeMapping> decodeNodeToLabels(std::string_view body) {
  SPINDLE_ASSIGN_OR_RETURN(json j, parseBody(body, "replace-node-to-labels"));
  const json* list = member(j, "nodeToLabels");
  if (list == nullptr)
    return invalidArgument("replace-node-to-labels: no nodeToLabels in the body");
  const json items = list->is_array() ? *list : json::array({*list});
  NodeMapping out;
  for (const json& i : items) {
    if (!i.is_object() || !i.contains("nodeId") || !i["nodeId"].is_string()) {
      return invalidArgument("replace-node-to-labels: entry {} has no nodeId", i.dump());
    }
    std::vector<std::string> labels;
    const char* key = i.contains("nodeLabels") ? "nodeLabels" : "labels";
    if (i.contains(key)) {
      const json& l = i[key];
      for (const json& x : l.is_array() ? l : json::array({l})) {
        if (!x.is_string()) {
          return invalidArgument("replace-node-to-labels: label {} of {} is not a string", x.dump(),
                                 i["nodeId"].get<std::string>());
        }
        if (!x.get<std::string>().empty()) labels.push_back(x.get<std::string>());
      }
    }
    out.emplace_back(i["nodeId"].get<std::string>(), std::move(labels));
  }
  return out;
}

}  // namespace

bool RmService::handleClientOps(std::string_view rest, HttpRequest& req, protocol::Respond& respond,
                                const std::string& user) {
  RmCore& core = core_;
  auto onLoop = [this, &respond](auto fn) {
    loop_.post([fn = std::move(fn), respond = std::move(respond)] { respond(fn()); });
  };
  const bool get = req.method == "GET";
  const bool post = req.method == "POST";
  auto refuse = [&] {
    respond(wrongMethod(req));
    return true;
  };
  // An admin write: yarn.admin.acl (AdminService.checkAcls) on the scheduler thread.
  auto admin = [&](const char* method, auto fn) {
    onLoop([&core, user, method, fn = std::move(fn)]() -> HttpResponse {
      if (auto denied = core.denyAdmin(user, method)) return forbidden(*denied);
      return fn();
    });
  };

  // --- Activities ---
  if (rest == "/scheduler/activities") {
    if (!get) return refuse();
    onLoop([&core, q = req.query] { return answerJson(core.activities(q)); });
    return true;
  }
  if (rest.starts_with("/scheduler/app-activities/")) {
    if (!get) return refuse();
    onLoop([&core, id = std::string(rest.substr(26)), q = req.query] {
      return answerJson(core.appActivities(id, q));
    });
    return true;
  }

  // --- Node labels ---
  if (rest == "/get-node-labels") {
    if (!get) return refuse();
    onLoop([&core] { return ok(core.clusterNodeLabels()); });
    return true;
  }
  if (rest == "/get-node-to-labels") {
    if (!get) return refuse();
    onLoop([&core] { return ok(core.nodeToLabels()); });
    return true;
  }
  if (rest == "/label-mappings") {
    if (!get) return refuse();
    onLoop([&core, q = req.query] { return answerJson(core.labelsToNodes(q)); });
    return true;
  }
  if (rest == "/add-node-labels") {
    if (!post) return refuse();
    auto labels = decodeNodeLabels(req.body);
    if (!labels) {
      respond(error(labels.status()));
      return true;
    }
    admin("addToClusterNodeLabels",
          [&core, l = std::move(*labels)] { return answerJson(core.addClusterNodeLabels(l)); });
    return true;
  }
  if (rest == "/remove-node-labels") {
    if (!post) return refuse();
    admin("removeFromClusterNodeLabels",
          [&core, l = labelsParam(req)] { return answerJson(core.removeClusterNodeLabels(l)); });
    return true;
  }
  if (rest == "/replace-node-to-labels" || rest == "/replace-node-labels") {
    if (!post) return refuse();
    auto mapping = decodeNodeToLabels(req.body);
    if (!mapping) {
      respond(error(mapping.status()));
      return true;
    }
    admin("replaceLabelsOnNode",
          [&core, m = std::move(*mapping)] { return answerJson(core.replaceLabelsOnNodes(m)); });
    return true;
  }
  if (rest.starts_with("/nodes/") &&
      (rest.ends_with("/get-labels") || rest.ends_with("/replace-labels"))) {
    const std::string_view tail = rest.substr(7);
    const std::string node(tail.substr(0, tail.rfind('/')));
    if (rest.ends_with("/get-labels")) {
      if (!get) return refuse();
      onLoop([&core, node] { return answerJson(core.nodeLabelsOf(node)); });
      return true;
    }
    if (!post) return refuse();
    admin("replaceLabelsOnNode", [&core, node, l = labelsParam(req)] {
      return answerJson(core.replaceLabelsOnNodes({{node, l}}));
    });
    return true;
  }

  // --- refreshQueues: the configuration is read here, on the I/O thread ---
  if (rest == "/admin/refresh-queues") {
    if (!post) return refuse();
    if (core.confDir().empty()) {
      respond(error(failedPrecondition(
          "refreshQueues: the ResourceManager was started without --conf; nothing to re-read")));
      return true;
    }
    auto conf = loadConfigurationDir(core.confDir());
    if (!conf) {
      respond(
          error(invalidArgument("the configuration cannot be read: {}", conf.status().message())));
      return true;
    }
    admin("refreshQueues",
          [&core, c = std::move(*conf)] { return answerJson(core.refreshQueues(c)); });
    return true;
  }

  // --- Apps: priority, one attempt, containers ---
  if (!rest.starts_with("/apps/")) return false;
  const std::string_view tail = rest.substr(6);
  const size_t slash = tail.find('/');
  if (slash == std::string_view::npos) return false;
  const std::string id(tail.substr(0, slash));
  const std::string_view sub = tail.substr(slash);
  if (sub == "/priority") {
    if (get) {
      onLoop([&core, id] { return answerJson(core.appPriority(id)); });
      return true;
    }
    if (req.method != "PUT") return refuse();
    auto p = decodePriority(req.body);
    if (!p) {
      respond(error(p.status()));
      return true;
    }
    onLoop([&core, id, p = *p, user] {
      if (auto denied = core.denyModify(id, user)) return forbidden(*denied);
      return answerJson(core.updateAppPriority(id, p));
    });
    return true;
  }
  if (!sub.starts_with("/appattempts/")) return false;
  if (!get) return refuse();
  std::string_view parts = sub.substr(13);
  const size_t s1 = parts.find('/');
  const std::string attempt(parts.substr(0, s1));
  if (s1 == std::string_view::npos) {
    onLoop([&core, id, attempt] { return answerJson(core.appAttempt(id, attempt)); });
    return true;
  }
  const std::string_view more = parts.substr(s1);
  if (more == "/containers") {
    onLoop([&core, id, attempt] { return answerJson(core.attemptContainers(id, attempt)); });
    return true;
  }
  if (more.starts_with("/containers/")) {
    onLoop([&core, id, attempt, cid = std::string(more.substr(12))] {
      return answerJson(core.attemptContainer(id, attempt, cid));
    });
    return true;
  }
  return false;
}

}  // namespace spindle::rm
