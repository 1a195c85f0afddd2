// The REST API's request bodies and error envelope (YARN's ResourceManager REST API:
// ApplicationSubmissionContextInfo, NewApplication, AppState, RemoteExceptionData).
//
//   auto ctx = decodeSubmissionContext(body);          // POST /ws/v1/cluster/apps
//   if (!ctx) return badRequest(ctx.status());
//   std::string err = remoteException(notFound("app x")).dump();
//
// Field names are the hyphenated ones of the REST API ("application-id", "am-container-spec").
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "protocol/records.h"

namespace spindle::protocol {

// ApplicationSubmissionContextInfo, the parts Spindle uses.
struct SubmissionContext {
  std::string applicationId;
  std::string applicationName = "N/A";
  std::string queue = "default";
  int32_t priority = 0;
  std::string applicationType = "YARN";
  ResourceRecord resource;  // the AM container's resource
  // am-container-spec: the AM's launch command and environment.
  ContainerLaunchContext amContainerSpec;
  int32_t maxAppAttempts = 0;  // 0: the cluster default (yarn.resourcemanager.am.max-attempts)
  bool unmanagedAm = false;
  std::vector<std::string> applicationTags;
  // reservation-id: the reservation the app runs in ("" for none).
  std::string reservationId;
  // keep-containers-across-application-attempts: a new attempt keeps the running containers
  // of the failed one and its AM gets them at registration.
  bool keepContainersAcrossApplicationAttempts = false;
};

Result<SubmissionContext> decodeSubmissionContext(std::string_view body);
nlohmann::json toJson(const SubmissionContext& c);

// PUT apps/{id}/state: {"state": "KILLED"}; any other target is refused as YARN does.
Result<std::string> decodeAppStateTarget(std::string_view body);

// PUT apps/{id}/queue: {"queue": "name"}; the queue must not be empty.
Result<std::string> decodeAppQueueTarget(std::string_view body);

// The REST error envelope: {"RemoteException": {"exception", "message", "javaClassName"}},
// with YARN's exception names per status code (BadRequestException, NotFoundException,
// ForbiddenException, WebApplicationException).
nlohmann::json remoteException(const Status& s);
// The HTTP status YARN's web services answer for a Status code.
int httpStatusFor(const Status& s);
// The message of a RemoteException body; the body itself when it is not one.
std::string remoteExceptionMessage(std::string_view body);

}  // namespace spindle::protocol
