// JSON codec of the protocol records (records.h): toJson() for each record and decode<T>() from
// a message body with validation. A malformed message is an InvalidArgument error naming the
// record and the field path ("NodeHeartbeatRequest.nodeStatus.responseId: required field is
// missing"); semantic checks (negative resources, unknown enum names) are made here too, so a
// daemon only ever sees well-formed records.
//
//   std::string body = toJson(request).dump();
//   Result<AllocateRequest> r = decode<AllocateRequest>(body);
//   if (!r) return badRequest(r.status());
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "protocol/heartbeat_decode.h"
#include "protocol/json_fields.h"
#include "protocol/records.h"
#include "protocol/response_decode.h"

namespace spindle::protocol {

nlohmann::json toJson(const ResourceRecord& r);
nlohmann::json toJson(const ContainerStatus& s);
nlohmann::json toJson(const Container& c);
nlohmann::json toJson(const ResourceRequest& r);
nlohmann::json toJson(const FailedContainer& c);
nlohmann::json toJson(const NodeAttributeRecord& a);
nlohmann::json toJson(const PlacementConstraintEntry& e);
nlohmann::json toJson(const SchedulingRequestRecord& r);
nlohmann::json toJson(const RejectedSchedulingRequestRecord& r);
nlohmann::json toJson(const RegisterNodeManagerRequest& r);
nlohmann::json toJson(const RegisterNodeManagerResponse& r);
nlohmann::json toJson(const NodeHeartbeatRequest& r);
nlohmann::json toJson(const NodeHeartbeatResponse& r);
nlohmann::json toJson(const RegisterApplicationMasterRequest& r);
nlohmann::json toJson(const RegisterApplicationMasterResponse& r);
nlohmann::json toJson(const AllocateRequest& r);
nlohmann::json toJson(const AllocateResponse& r);
nlohmann::json toJson(const NodeReport& n);
nlohmann::json toJson(const FinishApplicationMasterRequest& r);
nlohmann::json toJson(const FinishApplicationMasterResponse& r);
nlohmann::json toJson(const NodeToAttributes& n);
nlohmann::json toJson(const NodesToAttributesMappingRequest& r);
nlohmann::json toJson(const StartContainersRequest& r);
nlohmann::json toJson(const StartContainersResponse& r);
nlohmann::json toJson(const StopContainersRequest& r);
nlohmann::json toJson(const StopContainersResponse& r);

// Reads a record from a located object; errors go to `f` (JsonFields keeps the first).
void read(JsonFields& f, ResourceRecord& r);
void read(JsonFields& f, ContainerStatus& s);
void read(JsonFields& f, Container& c);
void read(JsonFields& f, ResourceRequest& r);
void read(JsonFields& f, FailedContainer& c);
void read(JsonFields& f, NodeAttributeRecord& a);
void read(JsonFields& f, PlacementConstraintEntry& e);
void read(JsonFields& f, SchedulingRequestRecord& r);
void read(JsonFields& f, RejectedSchedulingRequestRecord& r);
void read(JsonFields& f, RegisterNodeManagerRequest& r);
void read(JsonFields& f, RegisterNodeManagerResponse& r);
void read(JsonFields& f, NodeHeartbeatRequest& r);
void read(JsonFields& f, NodeHeartbeatResponse& r);
void read(JsonFields& f, RegisterApplicationMasterRequest& r);
void read(JsonFields& f, RegisterApplicationMasterResponse& r);
void read(JsonFields& f, AllocateRequest& r);
void read(JsonFields& f, AllocateResponse& r);
void read(JsonFields& f, NodeReport& n);
void read(JsonFields& f, FinishApplicationMasterRequest& r);
void read(JsonFields& f, FinishApplicationMasterResponse& r);
void read(JsonFields& f, NodeToAttributes& n);
void read(JsonFields& f, NodesToAttributesMappingRequest& r);
void read(JsonFields& f, StartContainersRequest& r);
void read(JsonFields& f, StartContainersResponse& r);
void read(JsonFields& f, StopContainersRequest& r);
void read(JsonFields& f, StopContainersResponse& r);

// The record's name as error messages print it.
template <typename T>
constexpr std::string_view recordName();

template <typename T>
Result<T> decodeJson(const nlohmann::json& j) {
  JsonFields f(j, std::string(recordName<T>()));
  T out;
  if (f.ok()) read(f, out);
  if (!f.ok()) return f.status();
  return out;
}

// decode<T>() of a body whose bytes up to body.data() + `capacity` may be read (the readers
// that read past the text's end, simdjson's, then read it in place; heartbeat_decode.h).
template <typename T>
Result<T> decodeReadable(std::string_view body, size_t capacity) {
  if constexpr (std::is_same_v<T, NodeHeartbeatRequest>) {
    // The RM's most frequent message: read without a document when it has the usual shape.
    if (auto direct = decodeHeartbeatDirect(body, capacity)) return std::move(*direct);
  } else if constexpr (std::is_same_v<T, NodeHeartbeatResponse>) {
    // The answers NMs and AMs read most (response_decode.h): the same.
    if (auto direct = decodeHeartbeatResponseDirect(body, capacity)) return std::move(*direct);
  } else if constexpr (std::is_same_v<T, AllocateResponse>) {
    if (auto direct = decodeAllocateResponseDirect(body, capacity)) return std::move(*direct);
  }
  auto j = parseJsonBody(body, recordName<T>());
  if (!j) return j.status();
  return decodeJson<T>(*j);
}

template <typename T>
Result<T> decode(std::string_view body) {
  return decodeReadable<T>(body, 0);
}
// A body in a std::string (the HTTP server's, the clients'): its spare capacity may be read.
template <typename T>
Result<T> decode(const std::string& body) {
  return decodeReadable<T>(body, body.capacity());
}
template <typename T>
Result<T> decode(const char* body) {
  return decodeReadable<T>(body, 0);
}

#define SPINDLE_PROTOCOL_RECORD(T)             \
  template <>                                  \
  constexpr std::string_view recordName<T>() { \
    return #T;                                 \
  }
SPINDLE_PROTOCOL_RECORD(RegisterNodeManagerRequest)
SPINDLE_PROTOCOL_RECORD(RegisterNodeManagerResponse)
SPINDLE_PROTOCOL_RECORD(NodeHeartbeatRequest)
SPINDLE_PROTOCOL_RECORD(NodeHeartbeatResponse)
SPINDLE_PROTOCOL_RECORD(RegisterApplicationMasterRequest)
SPINDLE_PROTOCOL_RECORD(RegisterApplicationMasterResponse)
SPINDLE_PROTOCOL_RECORD(AllocateRequest)
SPINDLE_PROTOCOL_RECORD(AllocateResponse)
SPINDLE_PROTOCOL_RECORD(FinishApplicationMasterRequest)
SPINDLE_PROTOCOL_RECORD(FinishApplicationMasterResponse)
SPINDLE_PROTOCOL_RECORD(NodesToAttributesMappingRequest)
SPINDLE_PROTOCOL_RECORD(StartContainersRequest)
SPINDLE_PROTOCOL_RECORD(StartContainersResponse)
SPINDLE_PROTOCOL_RECORD(StopContainersRequest)
SPINDLE_PROTOCOL_RECORD(StopContainersResponse)
#undef SPINDLE_PROTOCOL_RECORD

}  // namespace spindle::protocol
