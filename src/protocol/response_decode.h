// The RM's two most frequent answers, NodeHeartbeatResponse (to every NM heartbeat) and
// AllocateResponse (to every AM allocate call), read straight from their JSON text with
// simdjson's On-Demand reader, without the document decode<T>() builds first: the client-side
// mirror of heartbeat_decode.h. decode<NodeHeartbeatResponse>() and decode<AllocateResponse>() try
// these first.
//
//   if (auto r = decodeHeartbeatResponseDirect(body)) use(*r);  // the shape the RM writes
//   else { auto r = decodeJson<...>(...); }                      // anything else, with its error
//
// They take only the shape json_text.h writes (in any member order, with any blanks): the
// known members with their plain types (strings, integers in range, booleans), each at most
// once, empty rejectedSchedulingRequests and updatedNodes, and records that pass the checks
// read() makes (required members present, a non-empty containerId and a known state, an exit
// status for a COMPLETE container, non-negative resources, a positive heartbeat interval). For
// anything else (another member, a member twice, null, a float, a number written as text, a
// one-element list written as its element, an escape in a member name, a rejected request or
// an updated node, text after the root object, a body over 1 MiB, a malformed body) they
// answer nullopt, and decode<T>() takes the general path, which accepts or refuses it with the
// usual error. So both paths give the same record for every body the direct one takes
// (response_decode_test, on mutated bodies too). `capacity`: as in heartbeat_decode.h (the bytes
// from body.data() that may be read; with simdjson's padding after the text it is read in place,
// else copied).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "protocol/records.h"

namespace spindle::protocol {

std::optional<NodeHeartbeatResponse> decodeHeartbeatResponseDirect(std::string_view body,
                                                                   size_t capacity = 0);
std::optional<AllocateResponse> decodeAllocateResponseDirect(std::string_view body,
                                                             size_t capacity = 0);

}  // namespace spindle::protocol
