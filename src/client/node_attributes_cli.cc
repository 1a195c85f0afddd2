// `spindle nodeattributes` and `spindle cluster --list-node-attributes`, printing what YARN's
// NodeAttributesCLI and ClusterCLI print, over the RM's node-attribute endpoints
// (docs/rest-api.md, "Node attributes").
#include <ostream>

#include <fmt/format.h>

#include "client/commands.h"
#include "client/rm_client.h"
#include "placement/node_attributes.h"
#include "protocol/codec.h"

namespace spindle::client {

using nlohmann::json;

namespace {

// NodeAttributesCLI's patterns.
constexpr const char* kNodeAttribute = "{:>40}\t{:>10}\t{:>20}\n";  // NODEATTRIBUTE
constexpr const char* kAttributeInfo = "{:>40}\t{:>15}\n";  // NODEATTRIBUTEINFO, HOSTNAMEVAL

std::string keyOf(const json& key) {
  return key.value("attributePrefix", "") + "/" + key.value("attributeName", "");
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

// -add / -replace / -remove: the mapping as a NodesToAttributesMappingRequest.
int map(RmRestClient& rm, const std::string& operation, const std::string& text, bool failUnknown,
        std::ostream& err) {
  auto mappings = placement::parseNodeAttributeMappings(text, operation != "REMOVE");
  if (!mappings) {
    err << "Invalid Node to attribute mapping : " << mappings.status().message() << "\n";
    return 2;
  }
  protocol::NodesToAttributesMappingRequest req;
  req.operation = operation;
  req.failOnUnknownNodes = failUnknown;
  for (const placement::NodeAttributeMapping& m : *mappings) {
    protocol::NodeToAttributes n;
    n.node = m.host;
    for (const placement::NodeAttribute& a : m.attributes) {
      n.nodeAttributes.push_back(
          {a.prefix, a.name, std::string(placement::nodeAttributeTypeName(a.type)), a.value});
    }
    req.nodesToAttributes.push_back(std::move(n));
  }
  auto r = rm.post("/ws/v1/cluster/node-attributes/mapping", protocol::toJson(req));
  if (!r) {
    err << r.status().message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int runNodeAttributes(const NodeAttributesArgs& a, std::ostream& out, std::ostream& err) {
  const int ops = !a.add.empty() + !a.replace.empty() + !a.remove.empty() + a.list +
                  a.attributesToNodes + a.nodesToAttributes;
  if (ops != 1) {
    err << "Invalid Command Usage : one of -add, -replace, -remove, -list, -attributestonodes, "
           "-nodestoattributes is needed\n";
    return 2;
  }
  auto hp = resolveRmAddress(a.conn.rm, a.conn.confDir);
  if (!hp) {
    err << hp.status().message() << "\n";
    return 2;
  }
  RmRestClient rm(*hp);
  if (!a.add.empty()) return map(rm, "ADD", a.add, a.failOnUnknownNodes, err);
  if (!a.replace.empty()) return map(rm, "REPLACE", a.replace, a.failOnUnknownNodes, err);
  if (!a.remove.empty()) return map(rm, "REMOVE", a.remove, a.failOnUnknownNodes, err);
  std::string path = a.list                ? "/ws/v1/cluster/node-attributes"
                     : a.attributesToNodes ? "/ws/v1/cluster/attributes-to-nodes"
                                           : "/ws/v1/cluster/nodes-to-attributes";
  if (a.attributesToNodes && !a.attributes.empty()) path += "?attributes=" + joined(a.attributes);
  if (a.nodesToAttributes && !a.nodes.empty()) path += "?nodes=" + joined(a.nodes);
  auto r = rm.get(path);
  if (!r) {
    err << r.status().message() << "\n";
    return 1;
  }
  if (a.list) {
    out << fmt::format(kAttributeInfo, "Attribute", "Type");
    for (const json& i : (*r)["nodeAttributes"]) {
      out << fmt::format(kAttributeInfo, keyOf(i["attributeKey"]), i.value("attributeType", ""));
    }
  } else if (a.attributesToNodes) {
    out << fmt::format(kAttributeInfo, "Hostname", "Attribute-value");
    for (const json& e : (*r)["attributesToNodes"]) {
      out << keyOf(e["attributeKey"]) << " :\n";
      for (const json& v : e["nodeToAttributeValues"]) {
        out << fmt::format(kAttributeInfo, v.value("hostname", ""), v.value("attributeValue", ""));
      }
    }
  } else {
    out << fmt::format(kNodeAttribute, "Attribute", "Type", "Value");
    for (const json& e : (*r)["nodesToAttributes"]) {
      out << e.value("node", "") << ":\n";
      for (const json& attr : e["nodeAttributes"]) {
        out << fmt::format(kNodeAttribute, keyOf(attr["attributeKey"]),
                           attr.value("attributeType", ""), attr.value("attributeValue", ""));
      }
    }
  }
  out << "\n";  // the CLI's println of its buffer
  return 0;
}

int runCluster(const ClusterArgs& a, std::ostream& out, std::ostream& err) {
  if (!a.listNodeAttributes) {
    err << "cluster: -lna (--list-node-attributes) is needed\n";
    return 2;
  }
  auto hp = resolveRmAddress(a.conn.rm, a.conn.confDir);
  if (!hp) {
    err << hp.status().message() << "\n";
    return 2;
  }
  RmRestClient rm(*hp);
  auto r = rm.get("/ws/v1/cluster/node-attributes");
  if (!r) {
    err << r.status().message() << "\n";
    return 1;
  }
  // ClusterCLI prints one NodeAttributeInfo per line.
  for (const json& i : (*r)["nodeAttributes"]) {
    out << keyOf(i["attributeKey"]) << "(" << i.value("attributeType", "") << ")\n";
  }
  return 0;
}

}  // namespace spindle::client
