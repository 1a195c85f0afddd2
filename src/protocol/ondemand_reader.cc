#include "protocol/ondemand_reader.h"

#include <string>

#include "protocol/http_server.h"

namespace spindle::protocol {

namespace od = simdjson::ondemand;
using namespace std::string_view_literals;

// The HTTP server reserves this much past each body of known length (http_server.h).
static_assert(kBodyReadPadding >= simdjson::SIMDJSON_PADDING);

simdjson::simdjson_result<simdjson::ondemand::document> iterateOnThisThread(std::string_view body,
                                                                            size_t capacity) {
  // One parser per thread: its buffers (structural indexes, unescaped strings) grow to the
  // largest body read and are reused.
  thread_local simdjson::ondemand::parser parser;
  if (body.size() > kLargestOnDemandText) return simdjson::CAPACITY;
  if (capacity >= body.size() + simdjson::SIMDJSON_PADDING) {
    return parser.iterate(simdjson::padded_string_view(body.data(), body.size(), capacity));
  }
  thread_local std::string copy;
  copy.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  copy.assign(body.data(), body.size());
  return parser.iterate(simdjson::padded_string_view(copy.data(), copy.size(), copy.capacity()));
}

// Members read are bits: containerId 1, state 2, diagnostics 4, exitStatus 8,
// allocatedResource 16 (a status); memory 1, vCores 2 (a resource).
bool readResource(od::value& v, ResourceRecord& r) {
  uint32_t seen = 0;
  const bool ok = forEachMember(v, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("memory"sv)) return take(seen, 1) && readInt64(m, r.memory);
    if (k.unsafe_is_equal("vCores"sv)) return take(seen, 2) && readInt64(m, r.vCores);
    return false;
  });
  return ok && seen == 3 && r.memory >= 0 && r.vCores >= 0;
}

namespace {

bool readState(od::value& v, ContainerState& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  if (s == "RUNNING") {
    out = ContainerState::RUNNING;
  } else if (s == "COMPLETE") {
    out = ContainerState::COMPLETE;
  } else if (s == "NEW") {
    out = ContainerState::NEW;
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool readContainerStatus(od::value& v, ContainerStatus& s) {
  uint32_t seen = 0;
  const bool ok = forEachMember(v, [&](od::raw_json_string k, od::value& m) {
    if (k.unsafe_is_equal("containerId"sv)) return take(seen, 1) && readString(m, s.containerId);
    if (k.unsafe_is_equal("state"sv)) return take(seen, 2) && readState(m, s.state);
    if (k.unsafe_is_equal("exitStatus"sv)) return take(seen, 8) && readInt32(m, s.exitStatus);
    if (k.unsafe_is_equal("diagnostics"sv)) return take(seen, 4) && readString(m, s.diagnostics);
    if (k.unsafe_is_equal("allocatedResource"sv)) {
      return take(seen, 16) && readResource(m, s.allocatedResource.emplace());
    }
    return false;
  });
  return ok && (seen & 3) == 3 && !s.containerId.empty() &&
         !(s.state == ContainerState::COMPLETE && s.exitStatus == kInvalidExitStatus);
}

}  // namespace spindle::protocol
