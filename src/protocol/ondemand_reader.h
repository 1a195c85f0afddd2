// What the protocol's simdjson On-Demand readers (heartbeat_decode.cc, response_decode.cc)
// share: the calling thread's parser, the padding simdjson reads past a text's end, and the
// reads of one value of the common shape. Internal to the protocol library: only its .cc files
// include it (simdjson's header stays out of the rest of the build).
//
//   simdjson::ondemand::document doc;
//   simdjson::ondemand::object root;
//   if (!openRootObject(body, capacity, doc, root)) return {};
//   int32_t id = 0;
//   uint32_t seen = 0;
//   bool ok = forEachMember(root, [&](simdjson::ondemand::raw_json_string k,
//                                     simdjson::ondemand::value& v) {
//     return k.unsafe_is_equal("responseId"sv) && take(seen, 1) && readInt32(v, id);
//   });
//   if (!ok || !atEnd(doc)) return {};   // a body left to the document path
//
// Every function answers false for anything the common shape does not have: a simdjson error
// (malformed text, a value of another type, a float, null, an integer beyond int64) or, in the
// caller's member function, a member it does not know. Keys are compared as written
// (raw_json_string::unsafe_is_equal against a name without quotes or backslashes), so a key
// with an escape matches no member. Thread-safety: each thread has its own parser and buffer.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "protocol/records.h"

namespace spindle::protocol {

// The largest text read here. The thread's parser keeps buffers of about six bytes per byte of
// the largest text it read; a longer body (an NM with over ten thousand containers) is left to
// the document path.
inline constexpr size_t kLargestOnDemandText = 1 << 20;

// A document over `body`, whose bytes up to body.data() + `capacity` may be read (a
// std::string's capacity(); 0 when unknown). With SIMDJSON_PADDING bytes after the text it is
// read in place, else copied into the calling thread's buffer first. The document is valid
// until this thread's next call. Error CAPACITY for a body over kLargestOnDemandText.
simdjson::simdjson_result<simdjson::ondemand::document> iterateOnThisThread(std::string_view body,
                                                                            size_t capacity);

// The body's root object, iterated on this thread's parser; false for a body whose root is not
// an object (or that simdjson cannot start on).
inline bool openRootObject(std::string_view body, size_t capacity,
                           simdjson::ondemand::document& doc, simdjson::ondemand::object& root) {
  return !iterateOnThisThread(body, capacity).get(doc) && !doc.get_object().get(root);
}

// Whether the whole text was read: nothing follows the root value (simdjson 3.0.1's document
// says so by having no current location).
inline bool atEnd(simdjson::ondemand::document& doc) {
  return doc.current_location().error() == simdjson::OUT_OF_BOUNDS;
}

// Marks member `bit` of an object as read; false when it was read before.
inline bool take(uint32_t& seen, uint32_t bit) {
  if (seen & bit) return false;
  seen |= bit;
  return true;
}

inline bool readString(simdjson::ondemand::value& v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out.assign(s.data(), s.size());
  return true;
}

inline bool readInt64(simdjson::ondemand::value& v, int64_t& out) {
  return !v.get_int64().get(out);
}

inline bool readInt32(simdjson::ondemand::value& v, int32_t& out) {
  int64_t x = 0;
  if (v.get_int64().get(x) || x < std::numeric_limits<int32_t>::min() ||
      x > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  out = static_cast<int32_t>(x);
  return true;
}

inline bool readBool(simdjson::ondemand::value& v, bool& out) { return !v.get_bool().get(out); }

// Calls onMember(key, value) for each member of `o`, in the text's order; false at the first
// error or the first false it answers.
template <typename OnMember>
bool forEachMember(simdjson::ondemand::object o, OnMember&& onMember) {
  for (auto member : o) {
    if (member.error()) return false;
    simdjson::ondemand::field& f = member.value_unsafe();
    if (!onMember(f.key(), f.value())) return false;
  }
  return true;
}

template <typename OnMember>
bool forEachMember(simdjson::ondemand::value& v, OnMember&& onMember) {
  simdjson::ondemand::object o;
  return !v.get_object().get(o) && forEachMember(o, onMember);
}

// Calls onElement(value) for each element of the list `v`; false when `v` is not a list, at
// the first error or the first false onElement answers.
template <typename OnElement>
bool forEachElement(simdjson::ondemand::value& v, OnElement&& onElement) {
  simdjson::ondemand::array a;
  if (v.get_array().get(a)) return false;
  for (auto element : a) {
    if (element.error() || !onElement(element.value_unsafe())) return false;
  }
  return true;
}

// Reads a list of strings into `out` (appending).
template <typename Strings>
bool readStrings(simdjson::ondemand::value& v, Strings& out) {
  return forEachElement(
      v, [&out](simdjson::ondemand::value& e) { return readString(e, out.emplace_back()); });
}

// A resource with both memory and vCores, neither negative (read()'s checks).
bool readResource(simdjson::ondemand::value& v, ResourceRecord& r);

// A ContainerStatus (containerId, state, diagnostics, exitStatus, allocatedResource) with
// read()'s checks: a non-empty containerId, a known state, an exit status when COMPLETE.
bool readContainerStatus(simdjson::ondemand::value& v, ContainerStatus& s);

}  // namespace spindle::protocol
