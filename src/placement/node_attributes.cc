#include "placement/node_attributes.h"

#include <algorithm>
#include <cctype>

#include "base/strings.h"

namespace spindle::placement {

namespace {

bool sameIdentity(const NodeAttribute& a, const NodeAttribute& b) {
  return a.prefix == b.prefix && a.name == b.name;
}

bool byIdentity(const NodeAttribute& a, const NodeAttribute& b) {
  return a.prefix != b.prefix ? a.prefix < b.prefix : a.name < b.name;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "attr", "attr=v", "attr(STRING)=v", "rm.yarn.io/attr=v".
Result<NodeAttribute> parseOneAttribute(std::string_view text, std::string_view host,
                                        bool withValues) {
  NodeAttribute a;
  a.prefix = std::string(kCentralizedPrefix);
  std::string_view head = text;
  const size_t eq = text.find('=');
  if (eq != std::string_view::npos) {
    if (!withValues)
      return invalidArgument("node {}: attribute '{}' must not have a value", host, text);
    a.value = std::string(text.substr(eq + 1));
    head = text.substr(0, eq);
  }
  const size_t open = head.find('(');
  if (open != std::string_view::npos) {
    if (!withValues)
      return invalidArgument("node {}: attribute '{}' must not have a type", host, text);
    if (!head.ends_with(')')) {
      return invalidArgument("node {}: attribute '{}': expecting name(type)", host, text);
    }
    Result<NodeAttributeType> type =
        parseNodeAttributeType(head.substr(open + 1, head.size() - open - 2));
    if (!type) return type.status().withContext(fmt::format("node {}", host));
    a.type = *type;
    head = head.substr(0, open);
  }
  const size_t slash = head.rfind('/');
  if (slash != std::string_view::npos) {
    a.prefix = std::string(head.substr(0, slash));
    head = head.substr(slash + 1);
  }
  a.name = std::string(head);
  return a;
}

}  // namespace

std::string_view nodeAttributeTypeName(NodeAttributeType) { return "STRING"; }

Result<NodeAttributeType> parseNodeAttributeType(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "STRING") return NodeAttributeType::kString;
  return invalidArgument("unsupported node attribute type '{}': only STRING is supported", text);
}

Result<std::vector<NodeAttributeMapping>> parseNodeAttributeMappings(std::string_view text,
                                                                     bool withValues) {
  std::vector<NodeAttributeMapping> out;
  for (std::string_view nodePart : splitNonEmpty(text, ' ')) {
    nodePart = trim(nodePart);
    if (nodePart.empty()) continue;
    const size_t colon = nodePart.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return invalidArgument("'{}': expecting host:attribute[(type)][=value],...", nodePart);
    }
    NodeAttributeMapping m;
    m.host = std::string(nodePart.substr(0, colon));
    for (std::string_view attr : splitNonEmpty(nodePart.substr(colon + 1), ',')) {
      Result<NodeAttribute> a = parseOneAttribute(trim(attr), m.host, withValues);
      if (!a) return a.status();
      m.attributes.push_back(std::move(*a));
    }
    if (m.attributes.empty()) return invalidArgument("node {}: no attribute given", m.host);
    out.push_back(std::move(m));
  }
  if (out.empty()) return invalidArgument("no node attribute mapping given");
  return out;
}

Status validateNodeAttribute(const NodeAttribute& a, std::string_view prefix) {
  auto word = [](std::string_view s, std::string_view extra) {
    if (s.empty() || !std::isalnum(static_cast<unsigned char>(s.front()))) return false;
    return std::all_of(s.begin(), s.end(), [&](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string::npos;
    });
  };
  if (a.prefix != prefix) {
    return invalidArgument("attribute {}: the prefix must be {}", a.key(), prefix);
  }
  if (a.name.size() > 255 || !word(a.name, "-_")) {
    return invalidArgument(
        "attribute {}: the name must be 1 to 255 of {{0-9, a-z, A-Z, -, _}} and must not start "
        "with - or _",
        a.key());
  }
  if (!a.value.empty() && (a.value.size() > 255 || !word(a.value, "-_."))) {
    return invalidArgument(
        "attribute {}: the value '{}' must be up to 255 of {{0-9, a-z, A-Z, -, _, .}} and must "
        "not start with -, _ or .",
        a.key(), a.value);
  }
  return Status::ok();
}

Status NodeAttributes::validate(const std::vector<NodeAttribute>& attributes,
                                std::string_view prefix) const {
  for (const NodeAttribute& a : attributes) {
    if (a.prefix != prefix) {
      return invalidArgument("attribute {}: prefix must be {}", a.key(), prefix);
    }
    if (a.name.empty() || a.name.find_first_of("/= \t,") != std::string::npos) {
      return invalidArgument("attribute '{}': invalid name", a.key());
    }
  }
  return Status::ok();
}

std::vector<NodeAttribute>& NodeAttributes::slot(NodeId node) {
  if (node.value() >= nodes_.size()) nodes_.resize(node.value() + 1);
  return nodes_[node.value()];
}

void NodeAttributes::replacePrefix(NodeId node, std::string_view prefix,
                                   std::vector<NodeAttribute> attributes) {
  std::vector<NodeAttribute>& s = slot(node);
  std::erase_if(s, [&](const NodeAttribute& a) { return a.prefix == prefix; });
  for (NodeAttribute& a : attributes) {
    std::erase_if(s, [&](const NodeAttribute& b) { return sameIdentity(a, b); });
    s.push_back(std::move(a));
  }
  std::sort(s.begin(), s.end(), byIdentity);
}

Status NodeAttributes::addCentralized(NodeId node, std::vector<NodeAttribute> attributes) {
  if (!node.valid()) return invalidArgument("invalid node id");
  SPINDLE_RETURN_IF_ERROR(validate(attributes, kCentralizedPrefix));
  std::vector<NodeAttribute>& s = slot(node);
  for (NodeAttribute& a : attributes) {
    std::erase_if(s, [&](const NodeAttribute& b) { return sameIdentity(a, b); });
    s.push_back(std::move(a));
  }
  std::sort(s.begin(), s.end(), byIdentity);
  return Status::ok();
}

Status NodeAttributes::replaceCentralized(NodeId node, std::vector<NodeAttribute> attributes) {
  if (!node.valid()) return invalidArgument("invalid node id");
  SPINDLE_RETURN_IF_ERROR(validate(attributes, kCentralizedPrefix));
  replacePrefix(node, kCentralizedPrefix, std::move(attributes));
  return Status::ok();
}

Status NodeAttributes::removeCentralized(NodeId node,
                                         const std::vector<NodeAttribute>& attributes) {
  SPINDLE_RETURN_IF_ERROR(validate(attributes, kCentralizedPrefix));
  for (const NodeAttribute& a : attributes) {
    if (find(node, a.prefix, a.name) == nullptr) {
      return notFound("node {} has no attribute {}", node.value(), a.key());
    }
  }
  std::vector<NodeAttribute>& s = slot(node);
  for (const NodeAttribute& a : attributes) {
    std::erase_if(s, [&](const NodeAttribute& b) { return sameIdentity(a, b); });
  }
  return Status::ok();
}

Status NodeAttributes::replaceDistributed(NodeId node, std::vector<NodeAttribute> attributes) {
  if (!node.valid()) return invalidArgument("invalid node id");
  SPINDLE_RETURN_IF_ERROR(validate(attributes, kDistributedPrefix));
  replacePrefix(node, kDistributedPrefix, std::move(attributes));
  return Status::ok();
}

void NodeAttributes::removeNode(NodeId node) {
  if (node.valid() && node.value() < nodes_.size()) nodes_[node.value()].clear();
}

const NodeAttribute* NodeAttributes::find(NodeId node, std::string_view prefix,
                                          std::string_view name) const {
  if (!node.valid() || node.value() >= nodes_.size()) return nullptr;
  for (const NodeAttribute& a : nodes_[node.value()]) {
    if (a.name == name && a.prefix == prefix) return &a;
  }
  return nullptr;
}

std::optional<std::string_view> NodeAttributes::value(NodeId node, std::string_view prefix,
                                                      std::string_view name) const {
  const NodeAttribute* a = find(node, prefix, name);
  if (a == nullptr) return std::nullopt;
  return std::string_view(a->value);
}

std::vector<NodeAttribute> NodeAttributes::attributesOf(NodeId node) const {
  if (!node.valid() || node.value() >= nodes_.size()) return {};
  return nodes_[node.value()];
}

bool NodeAttributes::hasAny(NodeId node) const {
  return node.valid() && node.value() < nodes_.size() && !nodes_[node.value()].empty();
}

}  // namespace spindle::placement
