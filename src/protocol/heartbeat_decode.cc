#include "protocol/heartbeat_decode.h"

#include <cstdint>
#include <string_view>
#include <utility>

#include "protocol/ondemand_reader.h"

namespace spindle::protocol {
namespace {

namespace od = simdjson::ondemand;
using namespace std::string_view_literals;

// Each reader takes one object of the common shape and answers false for anything else
// (ondemand_reader.h), then makes the checks read() makes. Members read are bits: nodeStatus 1
// (root); nodeId 1, responseId 2, containersStatuses 4, nodeHealthStatus 8,
// keepAliveApplications 16 (nodeStatus); isNodeHealthy 1, healthReport 2, lastHealthReportTime 4
// (health). A container status is ondemand_reader.h's readContainerStatus.

bool readHealth(od::value& v, NodeHealthStatus& h) {
  uint32_t seen = 0;
  return forEachMember(v, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("isNodeHealthy"sv)) return take(seen, 1) && readBool(m, h.isNodeHealthy);
    if (k.unsafe_is_equal("healthReport"sv)) return take(seen, 2) && readString(m, h.healthReport);
    if (k.unsafe_is_equal("lastHealthReportTime"sv)) {
      return take(seen, 4) && readInt64(m, h.lastHealthReportTime);
    }
    return false;
  });
}

bool readNodeStatus(od::value& v, NodeStatus& n) {
  uint32_t seen = 0;
  const bool ok = forEachMember(v, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("containersStatuses"sv)) {
      return take(seen, 4) && forEachElement(m, [&n](od::value& e) {
               return readContainerStatus(e, n.containersStatuses.emplace_back());
             });
    }
    if (k.unsafe_is_equal("nodeId"sv)) return take(seen, 1) && readString(m, n.nodeId);
    if (k.unsafe_is_equal("responseId"sv)) return take(seen, 2) && readInt32(m, n.responseId);
    if (k.unsafe_is_equal("nodeHealthStatus"sv)) {
      return take(seen, 8) && readHealth(m, n.nodeHealthStatus);
    }
    if (k.unsafe_is_equal("keepAliveApplications"sv)) {
      return take(seen, 16) && readStrings(m, n.keepAliveApplications);
    }
    return false;
  });
  return ok && (seen & 3) == 3 && !n.nodeId.empty();
}

}  // namespace

std::optional<NodeHeartbeatRequest> decodeHeartbeatDirect(std::string_view body, size_t capacity) {
  od::document doc;
  od::object root;
  if (!openRootObject(body, capacity, doc, root)) return std::nullopt;
  NodeHeartbeatRequest out;
  bool sawNodeStatus = false;
  const bool ok = forEachMember(root, [&](od::raw_json_string k, od::value& m) {
    return k.unsafe_is_equal("nodeStatus"sv) && !std::exchange(sawNodeStatus, true) &&
           readNodeStatus(m, out.nodeStatus);
  });
  // at_end: nothing after the root object (a second value, a stray bracket).
  if (!ok || !sawNodeStatus || !atEnd(doc)) return std::nullopt;
  return out;
}

}  // namespace spindle::protocol
