// The reservation REST bodies the ResourceManager takes (RMWebServices' ReservationSubmission-
// RequestInfo, ReservationUpdateRequestInfo, ReservationDeleteRequestInfo and the list query),
// decoded and checked on the I/O thread before they reach the scheduler thread.
//
//   auto sub = decodeReservationSubmission(R"({"queue": "dedicated",
//       "reservation-id": "reservation_1404198295326_0003",
//       "reservation-definition": {"arrival": 1765541532000, "deadline": 1765542252000,
//         "reservation-requests": {"reservation-request-interpreter": 1,
//           "reservation-request": [{"capability": {"memory": 1024, "vCores": 1},
//                                    "num-containers": 10, "duration": 60000}]}}})");
//   sub->definition->stages.size();   // 1
//
// Numbers may be quoted ("memory": "1024"), and a one-element reservation-request list may be
// the element itself, as Jersey writes them. A malformed body is InvalidArgument naming the
// field; the messages of RMWebServices' own checks are kept ("Input ReservationDefinition
// should not be null", "The ReservationDefinition should contain at least one
// ReservationRequest", "Update operations must specify an existing ReservaitonId" [sic]).
// An id that is absent is left unset: the reservation system refuses it with YARN's message.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "dao/reservation_view.h"
#include "reservation/reservation_definition.h"

namespace spindle::rm {

// POST reservation/submit.
struct ReservationSubmission {
  std::string queue;
  std::optional<reservation::ReservationId> id;
  reservation::ReservationDefinition definition;
};
// POST reservation/update.
struct ReservationUpdate {
  reservation::ReservationId id;
  reservation::ReservationDefinition definition;
};
// GET reservation/list: queue (default "default"), reservation-id, start-time (negative: 0),
// end-time (negative: no end), include-resource-allocations (default false).
struct ReservationListRequest {
  std::string queue = "default";
  ReservationListQuery query;
};

Result<ReservationSubmission> decodeReservationSubmission(std::string_view body);
Result<ReservationUpdate> decodeReservationUpdate(std::string_view body);
// POST reservation/delete: {"reservation-id"}; nullopt when absent.
Result<std::optional<reservation::ReservationId>> decodeReservationDelete(std::string_view body);
// "The specified end time must be greater than the specified start time." when end < start.
Result<ReservationListRequest> decodeReservationList(
    const std::map<std::string, std::string>& query);

}  // namespace spindle::rm
