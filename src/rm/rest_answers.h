// The HTTP answers the RM's REST handlers share (rm_service.cc and the reservation and
// node-attribute handlers): a JSON body, an error as Hadoop's RemoteException, a refused write.
//
//   return respond(answerJson(core.reservationList(...)));      // 200, or the error's status
//   if (denied) return respond(forbidden("User carol cannot ..."));  // 403
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "protocol/http_server.h"
#include "protocol/rest_records.h"

namespace spindle::rm {

inline protocol::HttpResponse ok(const nlohmann::json& j, int status = 200) {
  return {status, j.dump()};
}

// The status's HTTP code with Hadoop's RemoteException body.
inline protocol::HttpResponse error(const Status& s) {
  return {protocol::httpStatusFor(s), protocol::remoteException(s).dump()};
}

// A RemoteException body naming `exception` of the Java package `package`.
inline protocol::HttpResponse remoteExceptionOf(int status, std::string_view package,
                                                std::string_view exception,
                                                const std::string& message) {
  nlohmann::json j = {{"RemoteException",
                       {{"exception", exception},
                        {"message", message},
                        {"javaClassName", std::string(package) + "." + std::string(exception)}}}};
  return {status, j.dump()};
}

// A RemoteException of one of YARN's web exceptions (org.apache.hadoop.yarn.webapp.*).
inline protocol::HttpResponse errorWith(int status, std::string_view exception,
                                        const std::string& message) {
  return remoteExceptionOf(status, "org.apache.hadoop.yarn.webapp", exception, message);
}

// Hadoop's AccessControlException, as YARN's web services and AdminService answer a refused call.
inline protocol::HttpResponse forbidden(const std::string& message) {
  return remoteExceptionOf(403, "org.apache.hadoop.security", "AccessControlException", message);
}

// YARN's StandbyException (org.apache.hadoop.ipc.StandbyException), 503: clients fail over to
// another RM (protocol/failover_http_client.h).
inline protocol::HttpResponse standbyException(const std::string& message) {
  return remoteExceptionOf(503, "org.apache.hadoop.ipc", "StandbyException", message);
}

inline protocol::HttpResponse wrongMethod(const protocol::HttpRequest& r) {
  return errorWith(405, "WebApplicationException",
                   "method " + r.method + " is not allowed on " + r.path);
}

// 200 (or `status`) with the JSON, or the error.
inline protocol::HttpResponse answerJson(const Result<nlohmann::json>& r, int status = 200) {
  if (!r) return error(r.status());
  return ok(*r, status);
}

}  // namespace spindle::rm
