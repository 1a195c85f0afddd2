#include <fstream>
#include <sstream>

#include "base/json_parse.h"
#include "resource/resource_config.h"
#include "scenario/json_reader.h"
#include "scenario/scenario.h"
#include "scenario/scenario_internal.h"

namespace spindle {

using nlohmann::json;

Result<Resource> parseResource(const json& j, std::string_view path, const ResourceTypes& types) {
  if (!j.is_object())
    return invalidArgument(
        "{}: expected a resource object like "
        "{{\"memory-mb\": 1024, \"vcores\": 1}}",
        path);
  Resource r;
  for (const auto& [name, v] : j.items()) {
    auto idx = types.indexOf(name);
    if (!idx) {
      return invalidArgument("{}.{}: unknown resource type (declare it in yarn.resource-types)",
                             path, name);
    }
    if (!v.is_number_integer() || v.get<int64_t>() < 0) {
      return invalidArgument("{}.{}: expected a non-negative integer, got {}", path, name,
                             briefJson(v));
    }
    r.set(*idx, v.get<int64_t>());
  }
  return r;
}

namespace {

// Files of the `configuration` object, in merge order.
constexpr std::string_view kConfMembers[] = {"yarn-site", "capacity-scheduler", "fair-scheduler",
                                             "sls-runner", "resource-types"};

// One member of a `configuration` object. In a refreshConfig step (`removed` non-null) a
// property given as null is removed from the configuration in force.
Result<Configuration> parseConfigMember(const JsonReader& r, std::string_view member,
                                        std::vector<std::string>* removed) {
  const json& j = r.json();
  if (j.is_string()) {
    if (member == "fair-scheduler") {
      // The allocation file is not a Hadoop configuration; the Fair Scheduler parses it.
      Configuration c;
      c.set("spindle.fair.allocation-xml", j.get<std::string>(), {r.path(), 0});
      return c;
    }
    return Configuration::parseString(j.get<std::string>(), r.path());
  }
  if (!j.is_object()) return r.error("expected a property map or XML text");
  Configuration c;
  for (const auto& [k, v] : j.items()) {
    std::string value;
    if (v.is_string()) {
      value = v.get<std::string>();
    } else if (v.is_number() || v.is_boolean()) {
      value = v.dump();
    } else if (v.is_null() && removed) {
      removed->push_back(k);
      continue;
    } else {
      return invalidArgument("{}.{}: expected a string, number or boolean{}", r.path(), k,
                             removed ? " (or null to remove the property)" : "");
    }
    c.set(k, value, {r.pathOf(k), 0});
  }
  return c;
}

}  // namespace

Status parseConfigurationObject(const JsonReader& conf, Configuration& out,
                                std::optional<Status>& configError,
                                std::vector<std::string>* removed) {
  SPINDLE_RETURN_IF_ERROR(conf.expectObject());
  for (const auto& [k, v] : conf.json().items()) {
    bool known = false;
    for (auto m : kConfMembers) known |= (k == m);
    if (!known) return conf.error("unknown configuration member '{}'", k);
  }
  for (auto member : kConfMembers) {
    if (!conf.has(member)) continue;
    SPINDLE_ASSIGN_OR_RETURN(JsonReader m, conf.child(member));
    auto c = parseConfigMember(m, member, removed);
    if (!c) {
      // Kept for `expectError`; without one the caller reports it as bad input.
      configError = c.status();
      return Status::ok();
    }
    out.merge(*c);
  }
  return Status::ok();
}

namespace {

Status parseConfiguration(const JsonReader& root, Scenario& sc) {
  if (!root.has("configuration")) return Status::ok();
  SPINDLE_ASSIGN_OR_RETURN(JsonReader conf, root.child("configuration"));
  return parseConfigurationObject(conf, sc.conf, sc.configError, nullptr);
}

Result<NodeSpec> parseNode(const JsonReader& r, const ResourceTypes& types) {
  SPINDLE_RETURN_IF_ERROR(
      r.onlyKeys({"name", "rack", "resource", "labels", "attributes", "count"}));
  NodeSpec n;
  SPINDLE_ASSIGN_OR_RETURN(n.name, r.getString("name"));
  SPINDLE_ASSIGN_OR_RETURN(n.rack, r.getString("rack", "/default-rack"));
  SPINDLE_ASSIGN_OR_RETURN(JsonReader res, r.child("resource"));
  SPINDLE_ASSIGN_OR_RETURN(n.resource, parseResource(res.json(), res.path(), types));
  SPINDLE_ASSIGN_OR_RETURN(n.labels, r.getStrings("labels"));
  if (r.has("attributes")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader a, r.child("attributes"));
    SPINDLE_RETURN_IF_ERROR(a.expectObject());
    for (const auto& [k, v] : a.json().items()) {
      if (!v.is_string()) return invalidArgument("{}.{}: expected a string", a.path(), k);
      n.attributes[k] = v.get<std::string>();
    }
  }
  return n;
}

Status parseNodes(const JsonReader& r, const ResourceTypes& types,
                  const std::set<std::string>& labels, std::vector<NodeSpec>& out) {
  SPINDLE_RETURN_IF_ERROR(r.expectArray());
  for (size_t i = 0; i < r.json().size(); ++i) {
    SPINDLE_RETURN_IF_ERROR(parseNodeEntry(r.at(i), types, labels, out));
  }
  return Status::ok();
}

// cluster.nodeLabels: each "x" or {"name": "x", "exclusive": false} (rmadmin
// -addToClusterNodeLabels "x(exclusive=false)"); exclusive by default.
Status parseNodeLabels(const JsonReader& r, std::vector<NodeLabel>& out,
                       std::set<std::string>& names) {
  SPINDLE_RETURN_IF_ERROR(r.expectArray());
  for (size_t i = 0; i < r.json().size(); ++i) {
    JsonReader e = r.at(i);
    NodeLabel label;
    if (e.json().is_string()) {
      label.name = e.json().get<std::string>();
    } else {
      SPINDLE_RETURN_IF_ERROR(e.onlyKeys({"name", "exclusive"}));
      SPINDLE_ASSIGN_OR_RETURN(label.name, e.getString("name"));
      SPINDLE_ASSIGN_OR_RETURN(label.exclusive, e.getBool("exclusive", true));
    }
    if (label.name.empty()) return e.error("a node label needs a non-empty name");
    if (!names.insert(label.name).second)
      return e.error("label '{}' is declared twice", label.name);
    out.push_back(label);
  }
  return Status::ok();
}

}  // namespace

Status parseNodeEntry(const JsonReader& n, const ResourceTypes& types,
                      const std::set<std::string>& labels, std::vector<NodeSpec>& out) {
  SPINDLE_ASSIGN_OR_RETURN(NodeSpec spec, parseNode(n, types));
  SPINDLE_RETURN_IF_ERROR(checkNodeLabels(n, spec.labels, labels));
  SPINDLE_ASSIGN_OR_RETURN(int64_t count, n.getInt("count", 1));
  if (count < 1) return n.error("count must be at least 1");
  if (count > kMaxNodesPerEntry) {
    return n.error("count must be at most {}", kMaxNodesPerEntry);
  }
  if (count == 1 && !n.has("count")) {
    out.push_back(spec);
    return Status::ok();
  }
  for (int64_t k = 0; k < count; ++k) {
    NodeSpec copy = spec;
    copy.name = fmt::format("{}-{}", spec.name, k);
    out.push_back(copy);
  }
  return Status::ok();
}

Status checkNodeLabels(const JsonReader& node, const std::vector<std::string>& nodeLabels,
                       const std::set<std::string>& declared) {
  if (nodeLabels.size() > 1) {
    return node.error("a node belongs to one partition; 'labels' names {}", nodeLabels.size());
  }
  for (size_t i = 0; i < nodeLabels.size(); ++i) {
    if (!declared.count(nodeLabels[i])) {
      return invalidArgument("{}.labels[{}]: label '{}' is not declared in cluster.nodeLabels",
                             node.path(), i, nodeLabels[i]);
    }
  }
  return Status::ok();
}

Result<Scenario> parseScenario(const json& doc, std::string file) {
  JsonReader root(doc, "");
  SPINDLE_RETURN_IF_ERROR(
      root.onlyKeys({"spindleScenario", "name", "description", "source", "seed", "startTime",
                     "scheduler", "configuration", "cluster", "expectError", "steps"}));
  Scenario sc;
  sc.file = std::move(file);
  SPINDLE_ASSIGN_OR_RETURN(int64_t version, root.getInt("spindleScenario"));
  if (version != kScenarioVersion) {
    return invalidArgument("spindleScenario: version {} is not supported (this build reads {})",
                           version, kScenarioVersion);
  }
  SPINDLE_ASSIGN_OR_RETURN(sc.name, root.getString("name", sc.file));
  SPINDLE_ASSIGN_OR_RETURN(int64_t seed, root.getInt("seed", 1));
  sc.seed = static_cast<uint64_t>(seed);
  SPINDLE_ASSIGN_OR_RETURN(sc.startTime, root.getInt("startTime", 0));
  SPINDLE_RETURN_IF_ERROR(parseConfiguration(root, sc));
  if (root.has("scheduler")) {
    SPINDLE_ASSIGN_OR_RETURN(std::string s, root.getString("scheduler"));
    sc.conf.set("yarn.resourcemanager.scheduler.class", s, {"scheduler", 0});
  }
  if (root.has("expectError")) {
    SPINDLE_ASSIGN_OR_RETURN(sc.expectError, root.getString("expectError"));
  }
  ResourceTypes types;
  if (!sc.configError) {
    auto t = resourceTypesFromConfig(sc.conf);
    if (!t) {
      sc.configError = t.status();
    } else {
      types = *t;
    }
  }
  if (sc.configError && !sc.expectError) return *sc.configError;
  std::set<std::string> labelNames;
  if (root.has("cluster")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader cluster, root.child("cluster"));
    SPINDLE_RETURN_IF_ERROR(cluster.onlyKeys({"nodeLabels", "nodes"}));
    if (cluster.has("nodeLabels")) {
      SPINDLE_ASSIGN_OR_RETURN(JsonReader labels, cluster.child("nodeLabels"));
      SPINDLE_RETURN_IF_ERROR(parseNodeLabels(labels, sc.nodeLabels, labelNames));
    }
    if (cluster.has("nodes")) {
      SPINDLE_ASSIGN_OR_RETURN(JsonReader nodes, cluster.child("nodes"));
      SPINDLE_RETURN_IF_ERROR(parseNodes(nodes, types, labelNames, sc.nodes));
    }
  }
  if (root.has("steps")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader steps, root.child("steps"));
    SPINDLE_RETURN_IF_ERROR(steps.expectArray());
    for (size_t i = 0; i < steps.json().size(); ++i) {
      SPINDLE_ASSIGN_OR_RETURN(Step s,
                               parseStep(steps.at(i), static_cast<int>(i), types, labelNames));
      sc.steps.push_back(std::move(s));
    }
  }
  return sc;
}

Result<Scenario> loadScenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) return invalidArgument("{}: cannot open the scenario file", path);
  std::stringstream buf;
  buf << in.rdbuf();
  return parseScenarioText(buf.str(), path);
}

Result<Scenario> parseScenarioText(std::string_view text, const std::string& file) {
  json doc;
  if (std::optional<JsonParseError> e = parseJson(text, doc)) {
    const TextPosition p = positionOf(text, e->offset);
    return invalidArgument("{}:{}:{}: malformed JSON at byte {}: {}", file, p.line, p.column,
                           e->offset, e->message);
  }
  auto sc = parseScenario(doc, file);
  if (!sc) return sc.status().withContext(file);
  return sc;
}

}  // namespace spindle
