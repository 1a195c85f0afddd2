// Node attributes (YARN-3409): typed key/value pairs on nodes that placement constraints can
// test with `=` / `!=`. Mirrors the RM's NodeAttributesManager and the NodeAttribute record.
//
//   NodeAttributes attrs;
//   attrs.replaceCentralized(NodeId{0}, {{"rm.yarn.io", "java", NodeAttributeType::kString,
//   "1.8"}}); attrs.replaceDistributed(NodeId{0}, {{"nm.yarn.io", "os", NodeAttributeType::kString,
//   "linux"}}); attrs.value(NodeId{0}, "rm.yarn.io", "java");  // "1.8"
//
//   // The admin CLI form: yarn nodeattributes -add "host1:java(STRING)=1.8,gpu host2:gpu"
//   Result<std::vector<NodeAttributeMapping>> m = parseNodeAttributeMappings("host1:java=1.8");
//
// Identity is prefix + name (value and type are not part of it), so a centralised and a
// distributed attribute of the same name coexist on one node.
//  - Centralised attributes (prefix `rm.yarn.io`) are set by the administrator: add, remove,
//    replace. An attribute given without a prefix gets `rm.yarn.io`.
//  - Distributed attributes (prefix `nm.yarn.io`) are reported by the node's attribute provider;
//    each report replaces the node's previous distributed set.
//  - Only the STRING type exists; a value may be empty.
// Attributes carry no capacity and need no cluster-level declaration.
//
// Lookups are per node (a short vector per node, indexed by NodeId): O(attributes on the node).
// Not thread-safe: the scheduler core is single-threaded.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/status.h"

namespace spindle::placement {

inline constexpr std::string_view kCentralizedPrefix = "rm.yarn.io";
inline constexpr std::string_view kDistributedPrefix = "nm.yarn.io";

enum class NodeAttributeType { kString };
std::string_view nodeAttributeTypeName(NodeAttributeType type);  // "STRING"
// "STRING" in any case; InvalidArgument naming the type otherwise.
Result<NodeAttributeType> parseNodeAttributeType(std::string_view text);

struct NodeAttribute {
  std::string prefix;
  std::string name;
  NodeAttributeType type = NodeAttributeType::kString;
  std::string value;

  // "prefix/name".
  std::string key() const { return prefix + "/" + name; }
  bool operator==(const NodeAttribute&) const = default;
};

// One node's part of an admin command: host and attributes.
struct NodeAttributeMapping {
  std::string host;
  std::vector<NodeAttribute> attributes;
};

// The `yarn nodeattributes -add/-replace/-remove` argument: nodes separated by spaces, each
// `host:attr[(type)][=value],attr2...`; the prefix defaults to rm.yarn.io. With
// `withValues == false` (-remove) a value or type is an error.
Result<std::vector<NodeAttributeMapping>> parseNodeAttributeMappings(std::string_view text,
                                                                     bool withValues = true);

// YARN's NodeLabelUtil.validateNodeAttributes for attributes changed at run time (the admin's
// mappings, a node's provider): the prefix must be `prefix`; the name 1-255 characters of
// [0-9a-zA-Z-_] not starting with '-' or '_'; the value empty or of [0-9a-zA-Z-_.] not starting
// with '-', '_' or '.'. InvalidArgument naming the attribute and the rule it breaks.
Status validateNodeAttribute(const NodeAttribute& attribute, std::string_view prefix);

class NodeAttributes {
 public:
  // Admin operations on centralised attributes. InvalidArgument for a prefix other than
  // rm.yarn.io, an empty name or a name with '/', '=' or blanks; nothing changes then.
  Status addCentralized(NodeId node, std::vector<NodeAttribute> attributes);
  Status replaceCentralized(NodeId node, std::vector<NodeAttribute> attributes);
  // Removes by prefix + name; NotFound naming the first attribute the node does not have.
  Status removeCentralized(NodeId node, const std::vector<NodeAttribute>& attributes);
  // The node's distributed set, as its provider reported it (prefix nm.yarn.io).
  Status replaceDistributed(NodeId node, std::vector<NodeAttribute> attributes);
  void removeNode(NodeId node);

  // The attribute with this prefix and name on the node, or null.
  const NodeAttribute* find(NodeId node, std::string_view prefix, std::string_view name) const;
  std::optional<std::string_view> value(NodeId node, std::string_view prefix,
                                        std::string_view name) const;
  // Every attribute of the node, sorted by prefix then name.
  std::vector<NodeAttribute> attributesOf(NodeId node) const;
  bool hasAny(NodeId node) const;

 private:
  Status validate(const std::vector<NodeAttribute>& attributes, std::string_view prefix) const;
  std::vector<NodeAttribute>& slot(NodeId node);
  void replacePrefix(NodeId node, std::string_view prefix, std::vector<NodeAttribute> attributes);

  std::vector<std::vector<NodeAttribute>> nodes_;  // by NodeId
};

}  // namespace spindle::placement
