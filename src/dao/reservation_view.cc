#include "dao/reservation_view.h"

namespace spindle {

using nlohmann::json;
using reservation::ReservationAllocation;
using reservation::ReservationDefinition;

namespace {

json resourceInfo(const Resource& r) { return {{"memory", r.memoryMb()}, {"vCores", r.vcores()}}; }

}  // namespace

json reservationDefinitionView(const ReservationDefinition& def) {
  json requests = json::array();
  for (const auto& st : def.stages) {
    requests.push_back({{"capability", resourceInfo(st.capability)},
                        {"num-containers", st.numContainers},
                        {"min-concurrency", st.concurrency},
                        {"duration", st.durationMs}});
  }
  json out = {{"arrival", def.arrival},
              {"deadline", def.deadline},
              {"reservation-requests",
               {{"reservation-request-interpreter", static_cast<int>(def.interpreter)},
                {"reservation-request", requests}}},
              {"reservation-name", def.name},
              {"recurrence-expression", def.recurrenceExpression}};
  if (def.priority) out["priority"] = *def.priority;
  return out;
}

json reservationInfoView(const ReservationAllocation& r, bool includeResourceAllocations) {
  json out = {{"acceptance-time", r.acceptanceTime()},
              {"user", r.user()},
              {"reservation-id", r.id().toString()},
              {"reservation-definition", reservationDefinitionView(r.definition())}};
  if (includeResourceAllocations) {
    json allocs = json::array();
    for (const auto& [interval, res] : r.resourcesOverTime().toIntervalMap()) {
      allocs.push_back({{"resource", resourceInfo(res)},
                        {"startTime", interval.start},
                        {"endTime", interval.end}});
    }
    out["resource-allocations"] = allocs;
  }
  return out;
}

json reservationListView(const reservation::InMemoryPlan& plan, const ReservationListQuery& q) {
  json list = json::array();
  std::optional<reservation::ReservationInterval> interval;
  if (!q.id) interval = reservation::ReservationInterval{q.startTime, q.endTime};
  for (const ReservationAllocation* r : plan.reservations(q.id, interval)) {
    list.push_back(reservationInfoView(*r, q.includeResourceAllocations));
  }
  return {{"reservations", list}};
}

}  // namespace spindle
