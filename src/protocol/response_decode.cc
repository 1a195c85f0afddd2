#include "protocol/response_decode.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/ondemand_reader.h"

namespace spindle::protocol {
namespace {

namespace od = simdjson::ondemand;
using namespace std::string_view_literals;

// Each reader takes one object of the common shape and answers false for anything else
// (ondemand_reader.h), then makes the checks read() makes. Members read are bits.
// NodeHeartbeatResponse: responseId 1, nodeAction 2, containersToCleanup 4,
// applicationsToCleanup 8, nextHeartBeatInterval 16, diagnosticsMessage 32,
// areNodeAttributesAcceptedByRM 64, areNodeLabelsAcceptedByRM 128. AllocateResponse: amCommand
// 1, responseId 2, allocatedContainers 4, completedContainerStatuses 8, limit 16,
// numClusterNodes 32, preempt 64, rejectedSchedulingRequests 128, updatedNodes 256.

bool readAction(od::value& v, NodeAction& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  for (NodeAction a : {NodeAction::NORMAL, NodeAction::RESYNC, NodeAction::SHUTDOWN}) {
    if (s == toString(a)) {
      out = a;
      return true;
    }
  }
  return false;
}

bool readCommand(od::value& v, std::optional<AMCommand>& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  for (AMCommand c : {AMCommand::AM_RESYNC, AMCommand::AM_SHUTDOWN}) {
    if (s == toString(c)) {
      out = c;
      return true;
    }
  }
  return false;
}

// Container: id 1, nodeId 2, nodeHttpAddress 4, resource 8, priority 16,
// allocationRequestId 32; id, nodeId and resource are required.
bool readContainer(od::value& v, Container& c) {
  uint32_t seen = 0;
  const bool ok = forEachMember(v, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("id"sv)) return take(seen, 1) && readString(m, c.id);
    if (k.unsafe_is_equal("nodeId"sv)) return take(seen, 2) && readString(m, c.nodeId);
    if (k.unsafe_is_equal("nodeHttpAddress"sv)) {
      return take(seen, 4) && readString(m, c.nodeHttpAddress);
    }
    if (k.unsafe_is_equal("resource"sv)) return take(seen, 8) && readResource(m, c.resource);
    if (k.unsafe_is_equal("priority"sv)) return take(seen, 16) && readInt32(m, c.priority);
    if (k.unsafe_is_equal("allocationRequestId"sv)) {
      return take(seen, 32) && readInt64(m, c.allocationRequestId);
    }
    return false;
  });
  return ok && (seen & (1 | 2 | 8)) == (1 | 2 | 8);
}

// preempt: {"strictContract": {"container": [ids]}}, each member at most once.
bool readPreempt(od::value& v, std::vector<std::string>& ids) {
  bool sawContract = false;
  return forEachMember(v, [&](od::raw_json_string k, od::value& m) {
    if (!k.unsafe_is_equal("strictContract"sv) || std::exchange(sawContract, true)) return false;
    bool sawContainer = false;
    return forEachMember(m, [&](od::raw_json_string k2, od::value& list) {
      return k2.unsafe_is_equal("container"sv) && !std::exchange(sawContainer, true) &&
             readStrings(list, ids);
    });
  });
}

bool emptyList(od::value& v) {
  return forEachElement(v, [](od::value&) { return false; });
}

}  // namespace

std::optional<NodeHeartbeatResponse> decodeHeartbeatResponseDirect(std::string_view body,
                                                                   size_t capacity) {
  od::document doc;
  od::object root;
  if (!openRootObject(body, capacity, doc, root)) return std::nullopt;
  NodeHeartbeatResponse out;
  uint32_t seen = 0;
  const bool ok = forEachMember(root, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("responseId"sv)) return take(seen, 1) && readInt32(m, out.responseId);
    if (k.unsafe_is_equal("nodeAction"sv)) return take(seen, 2) && readAction(m, out.nodeAction);
    if (k.unsafe_is_equal("containersToCleanup"sv)) {
      return take(seen, 4) && readStrings(m, out.containersToCleanup);
    }
    if (k.unsafe_is_equal("applicationsToCleanup"sv)) {
      return take(seen, 8) && readStrings(m, out.applicationsToCleanup);
    }
    if (k.unsafe_is_equal("nextHeartBeatInterval"sv)) {
      return take(seen, 16) && readInt64(m, out.nextHeartBeatInterval) &&
             out.nextHeartBeatInterval > 0;
    }
    if (k.unsafe_is_equal("diagnosticsMessage"sv)) {
      return take(seen, 32) && readString(m, out.diagnosticsMessage);
    }
    if (k.unsafe_is_equal("areNodeAttributesAcceptedByRM"sv)) {
      return take(seen, 64) && readBool(m, out.areNodeAttributesAcceptedByRM);
    }
    if (k.unsafe_is_equal("areNodeLabelsAcceptedByRM"sv)) {
      return take(seen, 128) && readBool(m, out.areNodeLabelsAcceptedByRM);
    }
    return false;
  });
  if (!ok || (seen & 3) != 3 || !atEnd(doc)) return std::nullopt;
  return out;
}

std::optional<AllocateResponse> decodeAllocateResponseDirect(std::string_view body,
                                                             size_t capacity) {
  od::document doc;
  od::object root;
  if (!openRootObject(body, capacity, doc, root)) return std::nullopt;
  AllocateResponse out;
  uint32_t seen = 0;
  const bool ok = forEachMember(root, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("allocatedContainers"sv)) {
      return take(seen, 4) && forEachElement(m, [&out](od::value& e) {
               return readContainer(e, out.allocatedContainers.emplace_back());
             });
    }
    if (k.unsafe_is_equal("completedContainerStatuses"sv)) {
      return take(seen, 8) && forEachElement(m, [&out](od::value& e) {
               return readContainerStatus(e, out.completedContainerStatuses.emplace_back());
             });
    }
    if (k.unsafe_is_equal("responseId"sv)) return take(seen, 2) && readInt32(m, out.responseId);
    if (k.unsafe_is_equal("amCommand"sv)) return take(seen, 1) && readCommand(m, out.amCommand);
    if (k.unsafe_is_equal("limit"sv)) return take(seen, 16) && readResource(m, out.limit);
    if (k.unsafe_is_equal("numClusterNodes"sv)) {
      return take(seen, 32) && readInt32(m, out.numClusterNodes);
    }
    if (k.unsafe_is_equal("preempt"sv)) {
      return take(seen, 64) && readPreempt(m, out.preemptContainers);
    }
    if (k.unsafe_is_equal("rejectedSchedulingRequests"sv)) return take(seen, 128) && emptyList(m);
    if (k.unsafe_is_equal("updatedNodes"sv)) return take(seen, 256) && emptyList(m);
    return false;
  });
  if (!ok || (seen & 2) == 0 || !atEnd(doc)) return std::nullopt;
  return out;
}

}  // namespace spindle::protocol
