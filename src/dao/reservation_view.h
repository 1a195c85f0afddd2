// The reservation REST shapes (GET /ws/v1/cluster/reservation/list: ReservationListInfo,
// ReservationInfo, ReservationDefinitionInfo, ResourceAllocationInfo) of a plan, shared by
// scenario snapshots and state paths and the coming daemon.
//
//   json list = reservationListView(*plan, {.includeResourceAllocations = true});
//   list["reservations"][0]["reservation-id"];   // "reservation_1404198295326_0003"
//
// Field names as YARN's webapp dao classes write them (hyphenated; resources as
// {"memory", "vCores"}).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "reservation/in_memory_plan.h"

namespace spindle {

// The list query (RMWebServices.listReservation's parameters and defaults).
struct ReservationListQuery {
  std::optional<reservation::ReservationId> id{};  // when set, start and end are ignored
  int64_t startTime = 0;
  int64_t endTime = std::numeric_limits<int64_t>::max();
  bool includeResourceAllocations = false;
};

nlohmann::json reservationDefinitionView(const reservation::ReservationDefinition& def);
// ReservationInfo: acceptance-time, user, reservation-id, reservation-definition and, when
// asked, resource-allocations.
nlohmann::json reservationInfoView(const reservation::ReservationAllocation& r,
                                   bool includeResourceAllocations);
// ReservationListInfo: {"reservations": [...]}, ordered by (start, end, id).
nlohmann::json reservationListView(const reservation::InMemoryPlan& plan,
                                   const ReservationListQuery& query);

}  // namespace spindle
