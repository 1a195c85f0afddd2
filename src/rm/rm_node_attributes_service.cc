// RmService: the node-attribute endpoints, Spindle's REST form of YARN's RPC calls
// (docs/rest-api.md, "Node attributes"):
//   GET  /ws/v1/cluster/node-attributes                 GetClusterNodeAttributes
//   GET  /ws/v1/cluster/attributes-to-nodes[?attributes=]  GetAttributesToNodes
//   GET  /ws/v1/cluster/nodes-to-attributes[?nodes=]       GetNodesToAttributes
//   POST /ws/v1/cluster/node-attributes/mapping          NodesToAttributesMappingRequest
//        (admin only: yarn.admin.acl)
#include "protocol/codec.h"
#include "rm/rest_answers.h"
#include "rm/rm_service.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::HttpResponse;

bool RmService::handleNodeAttributes(std::string_view rest, protocol::HttpRequest& req,
                                     protocol::Respond& respond, const std::string& user) {
  RmCore& core = core_;
  auto onLoop = [this, &respond](auto fn) {
    loop_.post([fn = std::move(fn), respond = std::move(respond)] { respond(fn()); });
  };
  const bool get = req.method == "GET";
  if (rest == "/node-attributes") {
    if (!get)
      respond(wrongMethod(req));
    else
      onLoop([&core] { return answerJson(core.clusterNodeAttributes()); });
    return true;
  }
  if (rest == "/attributes-to-nodes" || rest == "/nodes-to-attributes") {
    if (!get) {
      respond(wrongMethod(req));
    } else if (rest == "/attributes-to-nodes") {
      onLoop([&core, q = req.query] { return answerJson(core.attributesToNodes(q)); });
    } else {
      onLoop([&core, q = req.query] { return answerJson(core.nodesToAttributes(q)); });
    }
    return true;
  }
  if (rest == "/node-attributes/mapping") {
    if (req.method != "POST") {
      respond(wrongMethod(req));
      return true;
    }
    auto mapping = protocol::decode<protocol::NodesToAttributesMappingRequest>(req.body);
    if (!mapping) {
      respond(answerJson(mapping.status()));
      return true;
    }
    onLoop([&core, m = std::move(*mapping), user] {
      if (auto denied = core.denyAdmin(user, "mapAttributesToNodes")) return forbidden(*denied);
      return answerJson(core.mapAttributesToNodes(m));
    });
    return true;
  }
  return false;
}

}  // namespace spindle::rm
