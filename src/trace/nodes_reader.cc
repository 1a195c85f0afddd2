#include "trace/nodes_reader.h"

#include <algorithm>
#include <unordered_set>

#include "trace/json_fields.h"
#include "trace/json_stream.h"

namespace spindle {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string rackPath(std::string_view rack) {
  if (rack.starts_with('/')) return std::string(rack);
  std::string out = "/";
  out += rack;
  return out;
}

Result<TraceNode> parseNodeEntry(const JsonFields& f, const std::string& rack,
                                 const ResourceTypes& types, const Resource& defaultResource) {
  TraceNode node;
  SPINDLE_RETURN_IF_ERROR(copyString(f.requiredString("node"), node.name));
  if (trim(node.name).empty()) return f.error("node", "empty host name");
  node.rack = rack;
  node.resource = defaultResource;
  for (int i = 0; i < types.count(); ++i) {
    const std::string& name = types.info(i).name;
    SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> v, f.optInt(name));
    if (!v) continue;
    bool required = i == kMemoryIndex || i == kVcoresIndex;
    if (*v < 0 || (required && *v == 0)) {
      return f.error(name, "must be {}, got {}", required ? "positive" : "non-negative", *v);
    }
    node.resource.set(i, *v);
  }
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> labels, f.optString("labels"));
  if (labels) {
    Result<std::vector<NodeLabelSpec>> parsed = parseNodeLabels(*labels);
    if (!parsed) return f.error("labels", "{}", parsed.status().message());
    // YARN's CommonNodeLabelsManager: a node belongs to one partition, so at most one label.
    if (parsed->size() > 1) {
      return f.error("labels", "'{}' names {} labels; a node has at most one (its partition)",
                     *labels, parsed->size());
    }
    node.labels = *parsed;
  }
  // Spindle's key: {"rm.yarn.io/java": "1.8", ...}, string values (NodeAttributeType STRING).
  if (f.has("attributes")) {
    const nlohmann::json& attrs = f.at("attributes");
    if (!attrs.is_object()) {
      return f.error("attributes", "expected an object of name: value strings, got {}",
                     briefJson(attrs));
    }
    for (const auto& [name, value] : attrs.items()) {
      if (trim(name).empty()) return f.error("attributes", "empty attribute name");
      if (!value.is_string()) {
        return f.error("attributes", "attribute '{}': expected a string value, got {}", name,
                       briefJson(value));
      }
      node.attributes[name] = value.get<std::string>();
    }
  }
  return node;
}

}  // namespace

HostPath splitHostPath(std::string_view path) {
  path = trim(path);
  if (path.empty()) return {};
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {std::string(kDefaultRack), std::string(path)};
  std::string_view rack = path.substr(0, slash);
  std::string_view host = path.substr(slash + 1);
  if (rack.empty()) return {std::string(kDefaultRack), std::string(host)};
  return {rackPath(rack), std::string(host)};
}

Result<std::vector<NodeLabelSpec>> parseNodeLabels(std::string_view text) {
  std::vector<NodeLabelSpec> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view item = trim(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    start = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
    if (item.empty()) continue;
    NodeLabelSpec label;
    size_t paren = item.find('(');
    if (paren == std::string_view::npos) {
      label.name = std::string(item);
    } else {
      if (!item.ends_with(')')) {
        return invalidArgument("label '{}': expected name(exclusive=true|false)", item);
      }
      label.name = std::string(trim(item.substr(0, paren)));
      std::string_view attr = trim(item.substr(paren + 1, item.size() - paren - 2));
      std::string lower;
      for (char c : attr) {
        if (!std::isspace(static_cast<unsigned char>(c))) {
          lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
      }
      if (lower == "exclusive=true") {
        label.exclusive = true;
      } else if (lower == "exclusive=false") {
        label.exclusive = false;
      } else {
        return invalidArgument("label '{}': expected name(exclusive=true|false)", item);
      }
    }
    if (label.name.empty()) return invalidArgument("label '{}': empty label name", item);
    out.push_back(label);
  }
  return out;
}

Result<std::vector<TraceNode>> parseNodesFile(std::string_view text, std::string_view source,
                                              const ResourceTypes& types,
                                              const Resource& defaultResource) {
  SPINDLE_ASSIGN_OR_RETURN(std::vector<JsonObject> objects, parseJsonObjects(text, source));
  std::vector<TraceNode> nodes;
  std::unordered_set<std::string> seen;
  for (size_t r = 0; r < objects.size(); ++r) {
    const std::string where =
        fmt::format("{}: rack entry #{} (line {})", source, r + 1, objects[r].line);
    JsonFields rackFields(objects[r].value, "");
    Result<std::string> rackName = rackFields.requiredString("rack");
    if (!rackName) return rackName.status().withContext(where);
    if (trim(*rackName).empty()) return rackFields.error("rack", "empty").withContext(where);
    const std::string rack = rackPath(trim(*rackName));
    if (!rackFields.has("nodes") || !rackFields.at("nodes").is_array()) {
      return rackFields.error("nodes", "expected an array of {{\"node\": ...}} objects")
          .withContext(where);
    }
    const nlohmann::json& list = rackFields.at("nodes");
    for (size_t i = 0; i < list.size(); ++i) {
      const nlohmann::json& entry = list[i];
      if (!entry.is_object()) {
        return rackFields
            .error(fmt::format("nodes[{}]", i), "expected an object, got {}", briefJson(entry))
            .withContext(where);
      }
      if (entry.empty()) continue;  // rule 2
      JsonFields f(entry, fmt::format("nodes[{}].", i));
      Result<TraceNode> node = parseNodeEntry(f, rack, types, defaultResource);
      if (!node) return node.status().withContext(where);
      if (!seen.insert(node->name).second) {
        return f.error("node", "host '{}' is listed twice", node->name).withContext(where);
      }
      nodes.push_back(*node);
    }
  }
  if (nodes.empty()) return invalidArgument("{}: the nodes file lists no nodes", source);
  return nodes;
}

Result<std::vector<TraceNode>> readNodesFile(const std::string& path, const ResourceTypes& types,
                                             const Resource& defaultResource) {
  Result<std::string> text = readTextFile(path);
  if (!text) return text.status();
  return parseNodesFile(*text, path, types, defaultResource);
}

std::vector<TraceNode> nodesFromTaskHosts(const std::vector<TraceJob>& jobs,
                                          const Resource& defaultResource) {
  std::vector<TraceNode> nodes;
  std::unordered_set<std::string> seen;
  for (const TraceJob& job : jobs) {
    for (const TraceTask& task : job.tasks) {
      auto add = [&](const std::string& host, const std::string& rack) {
        if (host.empty() || !seen.insert(host).second) return;
        TraceNode n;
        n.name = host;
        n.rack = rack.empty() ? std::string(kDefaultRack) : rack;
        n.resource = defaultResource;
        nodes.push_back(n);
      };
      add(task.host, task.rack);
      for (const TraceHost& h : task.otherHosts) add(h.host, h.rack);
    }
  }
  return nodes;
}

std::vector<TraceNode> generateNodes(int64_t numNodes, int64_t numRacks,
                                     const Resource& defaultResource) {
  std::vector<TraceNode> nodes;
  numRacks = std::clamp<int64_t>(numRacks, 1, std::max<int64_t>(numNodes, 1));
  for (int64_t i = 0; i < numNodes; ++i) {
    TraceNode n;
    n.name = fmt::format("node{}", i);
    n.rack = fmt::format("/rack{}", i % numRacks);
    n.resource = defaultResource;
    nodes.push_back(n);
  }
  return nodes;
}

}  // namespace spindle
