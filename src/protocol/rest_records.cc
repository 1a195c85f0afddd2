#include "protocol/rest_records.h"

#include "protocol/codec.h"
#include "protocol/json_fields.h"

namespace spindle::protocol {

using nlohmann::json;

Result<SubmissionContext> decodeSubmissionContext(std::string_view body) {
  auto j = parseJsonBody(body, "application-submission-context");
  if (!j) return j.status();
  // Clients send the context bare or wrapped in its XML root name.
  const json& root =
      j->contains("application-submission-context") ? (*j)["application-submission-context"] : *j;
  JsonFields f(root, "application-submission-context");
  SubmissionContext c;
  c.applicationId = f.str("application-id");
  c.applicationName = f.str("application-name", "N/A");
  c.queue = f.str("queue", "default");
  c.priority = f.int32("priority", 0);
  c.applicationType = f.str("application-type", "YARN");
  c.unmanagedAm = f.boolean("unmanaged-AM", false);
  c.maxAppAttempts = f.int32("max-app-attempts", 0);
  c.reservationId = f.str("reservation-id", "");
  c.keepContainersAcrossApplicationAttempts =
      f.boolean("keep-containers-across-application-attempts", false);
  if (f.ok() && c.maxAppAttempts < 0) f.fail("max-app-attempts", "must not be negative");
  if (auto tags = f.optObject("application-tags")) c.applicationTags = tags->strings("tag");
  if (auto r = f.optObject("resource")) read(*r, c.resource);
  if (auto spec = f.optObject("am-container-spec")) {
    if (auto cmds = spec->optObject("commands")) {
      c.amContainerSpec.commands = cmds->strings("command");
    }
    if (auto env = spec->optObject("environment")) {
      for (JsonFields& e : env->objects("entry")) {
        std::string key = e.str("key");
        c.amContainerSpec.environment[key] = e.str("value", "");
      }
    }
  }
  if (f.ok() && !c.unmanagedAm && c.amContainerSpec.commands.empty()) {
    f.fail("am-container-spec.commands.command", "a managed AM needs its launch command");
  }
  if (f.ok() && !c.unmanagedAm && c.resource.memory == 0 && c.resource.vCores == 0) {
    f.fail("resource", "a managed AM needs a non-zero resource");
  }
  if (!f.ok()) return f.status();
  return c;
}

json toJson(const SubmissionContext& c) {
  json env = json::array();
  for (const auto& [k, v] : c.amContainerSpec.environment) {
    env.push_back({{"key", k}, {"value", v}});
  }
  json cmd = json::array();
  for (const std::string& s : c.amContainerSpec.commands) cmd.push_back(s);
  json j = {
      {"application-id", c.applicationId},
      {"application-name", c.applicationName},
      {"queue", c.queue},
      {"priority", c.priority},
      {"application-type", c.applicationType},
      {"unmanaged-AM", c.unmanagedAm},
      {"max-app-attempts", c.maxAppAttempts},
      {"keep-containers-across-application-attempts", c.keepContainersAcrossApplicationAttempts},
      {"application-tags", {{"tag", c.applicationTags}}},
      {"resource", toJson(c.resource)},
      {"am-container-spec", {{"commands", {{"command", cmd}}}, {"environment", {{"entry", env}}}}}};
  if (!c.reservationId.empty()) j["reservation-id"] = c.reservationId;
  return j;
}

Result<std::string> decodeAppStateTarget(std::string_view body) {
  auto j = parseJsonBody(body, "appstate");
  if (!j) return j.status();
  JsonFields f(j->contains("appstate") ? (*j)["appstate"] : *j, "appstate");
  std::string state = f.str("state");
  if (!f.ok()) return f.status();
  if (state != "KILLED") {
    return invalidArgument("Only 'KILLED' is allowed as a target state.");
  }
  return state;
}

Result<std::string> decodeAppQueueTarget(std::string_view body) {
  auto j = parseJsonBody(body, "appqueue");
  if (!j) return j.status();
  JsonFields f(j->contains("appqueue") ? (*j)["appqueue"] : *j, "appqueue");
  std::string queue = f.str("queue");
  if (f.ok() && queue.empty()) f.fail("queue", "must not be empty");
  if (!f.ok()) return f.status();
  return queue;
}

int httpStatusFor(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk: return 200;
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kFailedPrecondition: return 400;
    case StatusCode::kAlreadyExists: return 400;
    case StatusCode::kResourceExhausted: return 503;
    case StatusCode::kInternal: return 500;
  }
  return 500;
}

json remoteException(const Status& s) {
  const int code = httpStatusFor(s);
  const char* name = code == 400   ? "BadRequestException"
                     : code == 404 ? "NotFoundException"
                     : code == 403 ? "ForbiddenException"
                                   : "WebApplicationException";
  const std::string cls = code == 400 || code == 404 || code == 403
                              ? std::string("org.apache.hadoop.yarn.webapp.") + name
                              : "javax.ws.rs.WebApplicationException";
  return {
      {"RemoteException", {{"exception", name}, {"message", s.message()}, {"javaClassName", cls}}}};
}

std::string remoteExceptionMessage(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("RemoteException") && j["RemoteException"].is_object()) {
    const json& e = j["RemoteException"];
    if (e.contains("message") && e["message"].is_string()) return e["message"].get<std::string>();
  }
  return std::string(body);
}

}  // namespace spindle::protocol
