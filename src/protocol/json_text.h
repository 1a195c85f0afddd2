// The protocol messages sent most written straight to JSON text: the RM's answers
// (AllocateResponse, NodeHeartbeatResponse) and the NMs' and AMs' requests (NodeHeartbeatRequest,
// AllocateRequest, and a ContainerStatus alone for a sender that keeps it between heartbeats), byte
// for byte what `toJson(r).dump()` gives (nlohmann's compact form: each object's members in key
// order, its string escaping), without building the document first: nlohmann's objects are
// std::maps, so the document costs an allocation per member.
//
//   std::string body = jsonText(allocateResponse);   // == toJson(allocateResponse).dump()
//   // A heartbeat whose statuses were written before (jsonText(status) each, kept):
//   std::string hb = jsonText(heartbeatWithoutStatuses, [&](std::string& out) {
//     for (size_t i = 0; i < kept.size(); ++i) out += (i ? "," : ""), out += kept[i];
//   });
//
// Strings with only printable ASCII are written here; any other string, and the records that
// are rare in these messages (rejected scheduling requests, updated nodes, node attributes,
// scheduling requests), and every floating-point number, go through nlohmann so that the
// escaping, the number format and the error on invalid UTF-8 stay exactly its own.
#pragma once

#include <string>

#include "protocol/records.h"

namespace spindle::protocol {

std::string jsonText(const AllocateResponse& r);
std::string jsonText(const NodeHeartbeatResponse& r);
std::string jsonText(const NodeHeartbeatRequest& r);
std::string jsonText(const AllocateRequest& r);
std::string jsonText(const ContainerStatus& s);

// The heartbeat's two parts around its container statuses: everything before the first status
// ({"nodeStatus":{"containersStatuses":[ after the node's attributes and labels, when given) and
// everything after the last (]... to the end).
void appendHeartbeatHead(std::string& out, const NodeHeartbeatRequest& r);
void appendHeartbeatTail(std::string& out, const NodeHeartbeatRequest& r);

// As jsonText(r) with `statuses(out)` writing the container statuses in place of
// r.nodeStatus.containersStatuses: the texts of each (jsonText(status)), comma-separated.
template <typename WriteStatuses>
std::string jsonText(const NodeHeartbeatRequest& r, WriteStatuses&& statuses,
                     size_t sizeHint = 512) {
  std::string out;
  out.reserve(sizeHint);
  appendHeartbeatHead(out, r);
  statuses(out);
  appendHeartbeatTail(out, r);
  return out;
}

}  // namespace spindle::protocol
