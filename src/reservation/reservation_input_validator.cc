#include "reservation/reservation_input_validator.h"

#include <algorithm>

namespace spindle::reservation {

namespace {

PlanStatus yarnError(const std::string& yarnMessage, std::string_view id, std::string_view field) {
  return PlanStatus(PlanErrorKind::kYarn,
                    fmt::format("{} (reservation {}, field {})", yarnMessage, id, field));
}

PlanStatus missingId() {
  return yarnError("Missing reservation id. Please try again by specifying a reservation id.",
                   "<none>", "reservation-id");
}

}  // namespace

PlanResult<InMemoryPlan*> ReservationInputValidator::validateSubmission(
    std::string_view queue, std::optional<ReservationId> id,
    const ReservationDefinition* def) const {
  if (!id) return missingId();
  if (queue.empty()) {
    return yarnError("The queue is not specified. Please try again with a valid reservable queue.",
                     id->toString(), "queue");
  }
  InMemoryPlan* plan = plans_(queue);
  if (plan == nullptr) {
    return yarnError(fmt::format("The specified queue: {} is not managed by reservation system. "
                                 "Please try again with a valid reservable queue.",
                                 queue),
                     id->toString(), "queue");
  }
  SPINDLE_PLAN_RETURN_IF_ERROR(validateDefinition(*id, def, *plan));
  return plan;
}

PlanResult<InMemoryPlan*> ReservationInputValidator::validateUpdate(
    std::optional<ReservationId> id, const ReservationDefinition* def,
    InMemoryPlan* planOfReservation) const {
  SPINDLE_PLAN_ASSIGN_OR_RETURN(InMemoryPlan * plan, validateDelete(id, planOfReservation));
  SPINDLE_PLAN_RETURN_IF_ERROR(validateDefinition(*id, def, *plan));
  return plan;
}

PlanResult<InMemoryPlan*> ReservationInputValidator::validateDelete(
    std::optional<ReservationId> id, InMemoryPlan* planOfReservation) const {
  if (!id) return missingId();
  if (planOfReservation == nullptr || planOfReservation->reservationById(*id) == nullptr) {
    return yarnError(fmt::format("The specified reservation with ID: {} is unknown. Please try "
                                 "again with a valid reservation.",
                                 id->toString()),
                     id->toString(), "reservation-id");
  }
  return planOfReservation;
}

PlanStatus ReservationInputValidator::validateDefinition(const ReservationId& rid,
                                                         const ReservationDefinition* def,
                                                         const InMemoryPlan& plan) const {
  const std::string id = rid.toString();
  if (def == nullptr) {
    return yarnError(
        "Missing reservation definition. Please try again by specifying a "
        "reservation definition.",
        id, "reservation-definition");
  }
  if (def->deadline <= clock_.nowMs()) {
    return yarnError(fmt::format("The specified deadline: {} is the past. Please try again with "
                                 "deadline in the future.",
                                 def->deadline),
                     id, "deadline");
  }
  if (def->stages.empty()) {
    return yarnError(
        "No resources have been specified to reserve. Please try again by "
        "specifying the resources to reserve.",
        id, "reservation-requests");
  }
  if (def->interpreter != Interpreter::kAny) {
    int64_t minDuration = 0;
    Resource largestGang;
    for (const ReservationRequest& r : def->stages) {
      if (def->interpreter == Interpreter::kAll) {
        minDuration = std::max(minDuration, r.durationMs);
      } else {
        minDuration += r.durationMs;
      }
      largestGang = plan.calculator().max(plan.totalCapacity(), largestGang, r.gang());
    }
    const int64_t span = def->deadline - def->arrival;
    if (span < minDuration) {
      return yarnError(fmt::format("The time difference ({}) between arrival ({}) and deadline "
                                   "({}) must  be greater or equal to the minimum resource "
                                   "duration ({})",
                                   span, def->arrival, def->deadline, minDuration),
                       id, "deadline");
    }
    if (plan.calculator().greaterThan(plan.totalCapacity(), largestGang, plan.totalCapacity())) {
      return yarnError(fmt::format("The size of the largest gang in the reservation definition "
                                   "({}) exceed the capacity available ({} )",
                                   largestGang.toString(), plan.totalCapacity().toString()),
                       id, "reservation-requests");
    }
  }
  Result<int64_t> period = def->period();
  if (!period) return yarnError(period.status().message(), id, "recurrence-expression");
  if (*period > 0) {
    const int64_t span = def->deadline - def->arrival;
    if (span > *period) {
      return yarnError(fmt::format("The time difference ({}) between arrival ({}) and deadline "
                                   "({}) must be less than or equal to the periodicity ({})",
                                   span, def->arrival, def->deadline, *period),
                       id, "recurrence-expression");
    }
    if (plan.maxPeriodicity() % *period != 0) {
      return yarnError(fmt::format("The maximum periodicity: {} must be divisible by the "
                                   "recurrence expression provided: {}. Please try again with a "
                                   "recurrence expression that satisfies this requirement.",
                                   plan.maxPeriodicity(), def->recurrenceExpression),
                       id, "recurrence-expression");
    }
  }
  return PlanStatus::ok();
}

}  // namespace spindle::reservation
