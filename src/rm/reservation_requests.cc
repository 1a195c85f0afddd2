#include "rm/reservation_requests.h"

#include <algorithm>
#include <limits>

#include "protocol/json_fields.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::JsonFields;
using reservation::ReservationDefinition;
using reservation::ReservationId;
using reservation::ReservationRequest;

namespace {

// The body's object, bare or wrapped in its XML root name.
Result<json> bodyObject(std::string_view body, std::string_view root,
                        std::string_view nullMessage) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return invalidArgument("{}", nullMessage);
  }
  auto j = protocol::parseJsonBody(body, root);
  if (!j) return j.status();
  if (!j->is_object()) return invalidArgument("{}: expected a JSON object", root);
  const std::string key(root);
  if (j->contains(key) && (*j)[key].is_object()) return json((*j)[key]);
  return std::move(*j);
}

// "reservation-id": absent or null is nullopt; a malformed id is an error naming the field.
Result<std::optional<ReservationId>> idField(JsonFields& f) {
  std::string text = f.str("reservation-id", "");
  if (!f.ok()) return f.status();
  if (text.empty()) return std::optional<ReservationId>();
  auto id = ReservationId::parse(text);
  if (!id) return invalidArgument("{}.reservation-id: {}", f.path(), id.status().message());
  return std::optional<ReservationId>(*id);
}

ReservationRequest requestFrom(JsonFields& r) {
  ReservationRequest rr;
  JsonFields cap = r.object("capability");
  rr.capability = Resource::of(cap.int64("memory"), cap.int64("vCores", 1));
  // Proto defaults: num-containers 1, min-concurrency 1, duration -1.
  rr.numContainers = r.int64("num-containers", 1);
  rr.concurrency = r.int64("min-concurrency", 1);
  rr.durationMs = r.int64("duration", -1);
  return rr;
}

// ReservationDefinitionInfo under `key` of `parent`.
Result<ReservationDefinition> definitionFrom(const json& parent, JsonFields& f) {
  if (!f.has("reservation-definition")) {
    return invalidArgument("Input ReservationDefinition should not be null");
  }
  JsonFields d = f.object("reservation-definition");
  ReservationDefinition def;
  def.arrival = d.int64("arrival");
  def.deadline = d.int64("deadline");
  def.name = d.str("reservation-name", "");
  if (d.has("priority")) def.priority = d.int32("priority");
  if (!f.ok()) return f.status();
  // recurrence-expression is a string holding a long; a bare number is taken as well.
  const json& raw = parent["reservation-definition"];
  if (auto it = raw.find("recurrence-expression"); it != raw.end() && !it->is_null()) {
    if (it->is_string()) {
      def.recurrenceExpression = it->get<std::string>();
    } else if (it->is_number_integer()) {
      def.recurrenceExpression = it->dump();
    } else {
      return invalidArgument("{}.recurrence-expression: expected a string, got {}", d.path(),
                             it->dump());
    }
  }
  if (!d.has("reservation-requests")) {
    return invalidArgument(
        "The ReservationDefinition should contain at least one "
        "ReservationRequest");
  }
  JsonFields reqs = d.object("reservation-requests");
  const int64_t interp = reqs.int64("reservation-request-interpreter", 1);
  std::vector<JsonFields> list = reqs.objects("reservation-request");
  if (!f.ok()) return f.status();
  auto interpreter = reservation::interpreterFromInt(interp);
  if (!interpreter) {
    return invalidArgument("{}.reservation-request-interpreter: {}", reqs.path(),
                           interpreter.status().message());
  }
  def.interpreter = *interpreter;
  if (list.empty()) {
    return invalidArgument(
        "The ReservationDefinition should contain at least one "
        "ReservationRequest");
  }
  for (JsonFields& r : list) def.stages.push_back(requestFrom(r));
  if (!f.ok()) return f.status();
  return def;
}

}  // namespace

Result<ReservationSubmission> decodeReservationSubmission(std::string_view body) {
  SPINDLE_ASSIGN_OR_RETURN(json j, bodyObject(body, "reservation-submission-context",
                                              "Input ReservationSubmissionContext should not "
                                              "be null"));
  JsonFields f(j, "reservation-submission-context");
  ReservationSubmission s;
  s.queue = f.str("queue", "");
  SPINDLE_ASSIGN_OR_RETURN(s.id, idField(f));
  SPINDLE_ASSIGN_OR_RETURN(s.definition, definitionFrom(j, f));
  return s;
}

Result<ReservationUpdate> decodeReservationUpdate(std::string_view body) {
  SPINDLE_ASSIGN_OR_RETURN(json j, bodyObject(body, "reservation-update-context",
                                              "Input ReservationUpdateContext should not be "
                                              "null"));
  JsonFields f(j, "reservation-update-context");
  SPINDLE_ASSIGN_OR_RETURN(std::optional<ReservationId> id, idField(f));
  if (!id) return invalidArgument("Update operations must specify an existing ReservaitonId");
  SPINDLE_ASSIGN_OR_RETURN(ReservationDefinition def, definitionFrom(j, f));
  return ReservationUpdate{*id, std::move(def)};
}

Result<std::optional<ReservationId>> decodeReservationDelete(std::string_view body) {
  SPINDLE_ASSIGN_OR_RETURN(json j, bodyObject(body, "reservation-delete-context",
                                              "Input ReservationDeleteContext should not be "
                                              "null"));
  JsonFields f(j, "reservation-delete-context");
  return idField(f);
}

Result<ReservationListRequest> decodeReservationList(
    const std::map<std::string, std::string>& query) {
  ReservationListRequest out;
  auto text = [&](const char* key) -> const std::string* {
    auto it = query.find(key);
    return it == query.end() ? nullptr : &it->second;
  };
  auto number = [&](const char* key, int64_t def) -> Result<int64_t> {
    const std::string* v = text(key);
    if (v == nullptr) return def;
    int64_t n = 0;
    size_t used = 0;
    try {
      n = std::stoll(*v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != v->size()) {
      return invalidArgument("reservation list: {}: expected an integer, got '{}'", key, *v);
    }
    return n;
  };
  if (const std::string* q = text("queue"); q != nullptr && !q->empty()) out.queue = *q;
  if (const std::string* id = text("reservation-id"); id != nullptr && !id->empty()) {
    auto parsed = ReservationId::parse(*id);
    if (!parsed)
      return invalidArgument("reservation list: reservation-id: {}", parsed.status().message());
    out.query.id = *parsed;
  }
  SPINDLE_ASSIGN_OR_RETURN(int64_t start, number("start-time", 0));
  SPINDLE_ASSIGN_OR_RETURN(int64_t end, number("end-time", -1));
  // ClientRMService.listReservations: a negative start is 0, a negative end is no end.
  out.query.startTime = std::max<int64_t>(start, 0);
  out.query.endTime = end > -1 ? end : std::numeric_limits<int64_t>::max();
  if (out.query.startTime > out.query.endTime) {
    return invalidArgument(
        "The specified end time must be greater than the specified start "
        "time.");
  }
  if (const std::string* inc = text("include-resource-allocations"); inc != nullptr) {
    if (*inc == "true") {
      out.query.includeResourceAllocations = true;
    } else if (*inc != "false" && !inc->empty()) {
      return invalidArgument(
          "reservation list: include-resource-allocations: expected true or "
          "false, got '{}'",
          *inc);
    }
  }
  return out;
}

}  // namespace spindle::rm
