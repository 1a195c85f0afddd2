// The protocol answers the RM sends most (AllocateResponse, NodeHeartbeatResponse) written
// straight to JSON text, byte for byte what `toJson(r).dump()` gives (nlohmann's compact form:
// each object's members in key order, its string escaping), without building the document
// first: nlohmann's objects are std::maps, so the document costs an allocation per member.
//
//   std::string body = jsonText(allocateResponse);   // == toJson(allocateResponse).dump()
//
// Strings with only printable ASCII are written here; any other string, and the records that
// are rare in these answers (rejected scheduling requests, updated nodes), go through nlohmann
// so that the escaping and the error on invalid UTF-8 stay exactly its own.
#pragma once

#include <string>

#include "protocol/records.h"

namespace spindle::protocol {

std::string jsonText(const AllocateResponse& r);
std::string jsonText(const NodeHeartbeatResponse& r);

}  // namespace spindle::protocol
