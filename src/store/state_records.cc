#include "store/state_store.h"

namespace spindle::store {

const char* toString(StoreCode c) {
  switch (c) {
    case StoreCode::kOk: return "OK";
    case StoreCode::kFenced: return "Fenced";
    case StoreCode::kFailed: return "StoreFailed";
    case StoreCode::kCorrupt: return "Corrupt";
    case StoreCode::kIncompatible: return "Incompatible";
  }
  return "?";
}

Status StoreStatus::toStatus() const {
  switch (code_) {
    case StoreCode::kOk: return Status::ok();
    case StoreCode::kFenced:
    case StoreCode::kFailed: return Status(StatusCode::kFailedPrecondition, message_);
    case StoreCode::kCorrupt:
    case StoreCode::kIncompatible: return Status(StatusCode::kInvalidArgument, message_);
  }
  return Status(StatusCode::kInternal, message_);
}

const char* toString(RecordKind k) {
  switch (k) {
    case RecordKind::kApp: return "app";
    case RecordKind::kAttempt: return "attempt";
    case RecordKind::kReservation: return "reservation";
    case RecordKind::kNodeAttributes: return "node-attributes";
  }
  return "?";
}

const std::map<std::string, nlohmann::json>& StoreSnapshot::of(RecordKind k) const {
  static const std::map<std::string, nlohmann::json> kEmpty;
  auto it = records.find(k);
  return it == records.end() ? kEmpty : it->second;
}

namespace {

template <typename T>
Status read(const nlohmann::json& j, const char* field, T& out, const char* what) {
  auto it = j.find(field);
  if (it == j.end()) return Status::ok();  // absent: the default (an additive change)
  try {
    out = it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return invalidArgument("stored {}: field '{}' has the wrong type ({})", what, field,
                           it->type_name());
  }
  return Status::ok();
}

}  // namespace

nlohmann::json toJson(const StoredApp& a) {
  return {{"appId", a.appId},
          {"user", a.user},
          {"queue", a.queue},
          {"name", a.name},
          {"type", a.type},
          {"submitTime", a.submitTime},
          {"startTime", a.startTime},
          {"finishTime", a.finishTime},
          {"state", a.state},
          {"finalStatus", a.finalStatus},
          {"diagnostics", a.diagnostics},
          {"submissionContext", a.submissionContext},
          {"currentAttempt", a.currentAttempt}};
}

Result<StoredApp> storedAppFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return invalidArgument("stored app: not a JSON object");
  StoredApp a;
  const char* w = "app";
  SPINDLE_RETURN_IF_ERROR(read(j, "appId", a.appId, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "user", a.user, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "queue", a.queue, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "name", a.name, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "type", a.type, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "submitTime", a.submitTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "startTime", a.startTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "finishTime", a.finishTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "state", a.state, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "finalStatus", a.finalStatus, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "diagnostics", a.diagnostics, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "currentAttempt", a.currentAttempt, w));
  if (auto it = j.find("submissionContext"); it != j.end()) a.submissionContext = *it;
  if (a.appId.empty()) return invalidArgument("stored app: no appId");
  return a;
}

nlohmann::json toJson(const StoredAttempt& a) {
  return {{"attemptId", a.attemptId},
          {"appId", a.appId},
          {"attempt", a.attempt},
          {"startTime", a.startTime},
          {"finishTime", a.finishTime},
          {"amContainerId", a.amContainerId},
          {"nodeId", a.nodeId},
          {"nodeHttpAddress", a.nodeHttpAddress},
          {"state", a.state},
          {"finalStatus", a.finalStatus},
          {"diagnostics", a.diagnostics},
          {"trackingUrl", a.trackingUrl},
          {"amContainerExitStatus", a.amContainerExitStatus}};
}

Result<StoredAttempt> storedAttemptFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return invalidArgument("stored attempt: not a JSON object");
  StoredAttempt a;
  const char* w = "attempt";
  SPINDLE_RETURN_IF_ERROR(read(j, "attemptId", a.attemptId, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "appId", a.appId, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "attempt", a.attempt, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "startTime", a.startTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "finishTime", a.finishTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "amContainerId", a.amContainerId, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "nodeId", a.nodeId, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "nodeHttpAddress", a.nodeHttpAddress, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "state", a.state, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "finalStatus", a.finalStatus, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "diagnostics", a.diagnostics, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "trackingUrl", a.trackingUrl, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "amContainerExitStatus", a.amContainerExitStatus, w));
  if (a.appId.empty() || a.attempt == 0) {
    return invalidArgument("stored attempt '{}': no appId or attempt number", a.attemptId);
  }
  return a;
}

nlohmann::json toJson(const StoredReservation& r) {
  nlohmann::json allocations = nlohmann::json::array();
  for (const auto& i : r.allocations) {
    allocations.push_back(
        {{"start", i.start}, {"end", i.end}, {"memory", i.memoryMb}, {"vCores", i.vcores}});
  }
  return {{"reservationId", r.reservationId},
          {"planQueue", r.planQueue},
          {"user", r.user},
          {"acceptanceTime", r.acceptanceTime},
          {"startTime", r.startTime},
          {"endTime", r.endTime},
          {"periodicity", r.periodicity},
          {"definition", r.definition},
          {"allocations", std::move(allocations)}};
}

Result<StoredReservation> storedReservationFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return invalidArgument("stored reservation: not a JSON object");
  StoredReservation r;
  const char* w = "reservation";
  SPINDLE_RETURN_IF_ERROR(read(j, "reservationId", r.reservationId, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "planQueue", r.planQueue, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "user", r.user, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "acceptanceTime", r.acceptanceTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "startTime", r.startTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "endTime", r.endTime, w));
  SPINDLE_RETURN_IF_ERROR(read(j, "periodicity", r.periodicity, w));
  if (auto it = j.find("definition"); it != j.end()) r.definition = *it;
  if (r.reservationId.empty() || r.planQueue.empty() || !r.definition.is_object()) {
    return invalidArgument("stored reservation '{}': no reservationId, planQueue or definition",
                           r.reservationId);
  }
  auto list = j.find("allocations");
  if (list == j.end() || !list->is_array()) {
    return invalidArgument("stored reservation '{}': 'allocations' is not a list", r.reservationId);
  }
  for (const nlohmann::json& e : *list) {
    StoredReservation::Interval i;
    if (!e.is_object()) {
      return invalidArgument("stored reservation '{}': an allocation is not an object",
                             r.reservationId);
    }
    SPINDLE_RETURN_IF_ERROR(read(e, "start", i.start, w));
    SPINDLE_RETURN_IF_ERROR(read(e, "end", i.end, w));
    SPINDLE_RETURN_IF_ERROR(read(e, "memory", i.memoryMb, w));
    SPINDLE_RETURN_IF_ERROR(read(e, "vCores", i.vcores, w));
    r.allocations.push_back(i);
  }
  return r;
}

}  // namespace spindle::store
