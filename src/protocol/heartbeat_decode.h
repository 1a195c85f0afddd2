// A NodeHeartbeatRequest read straight from its JSON text with simdjson's On-Demand reader,
// without the document decode<NodeHeartbeatRequest>() builds first (a std::map per object, a
// string per member name): the RM reads ten thousand of these a second.
//
//   if (auto hb = decodeHeartbeatDirect(body)) use(*hb);        // the common shape
//   else { auto r = decodeJson<...>(...); }                      // anything else, with its error
//
// It takes only the shape the NodeManagers send: the known members with their plain types
// (strings, integers in range, booleans), each at most once, and records that pass the
// checks read() makes (a non-empty nodeId and containerId, a known state, an exit status for a
// COMPLETE container, non-negative resources). For anything else (another member, a member
// twice, a number written as text or as a float, an escape in a member name, utilisation or
// attributes, null, text after the root object, a body over 1 MiB, a malformed or invalid
// body) it answers nullopt, and decode<NodeHeartbeatRequest>() takes the general path, which
// accepts or refuses it with the usual error. So the two paths give the same record for every
// body the direct one takes (heartbeat_decode_test checks that, on mutated bodies too).
//
// simdjson reads up to 64 bytes past the text's end (SIMDJSON_PADDING): `capacity` says how
// many bytes from body.data() may be read (a std::string's capacity(); decode() passes it, and
// the HTTP server's bodies leave the room, kBodyReadPadding). With the room the text is read in
// place; without it (capacity 0) it is first copied into a buffer of the calling thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "protocol/records.h"

namespace spindle::protocol {

std::optional<NodeHeartbeatRequest> decodeHeartbeatDirect(std::string_view body,
                                                          size_t capacity = 0);

}  // namespace spindle::protocol
