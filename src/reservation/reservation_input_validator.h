// Checks a client's reservation request before any agent sees it.
//
//   ReservationInputValidator v(clock, [&](std::string_view q) { return system.planFor(q); });
//   PlanResult<InMemoryPlan*> plan = v.validateSubmission(queue, id, &definition);
//   if (!plan) return plan.status().toStatus();   // HTTP 400 with YARN's message
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationInputValidator.
// Each failure is a YarnException (PlanErrorKind::kYarn) whose message starts with YARN's text
// and ends naming the reservation and the field: "... (reservation <id>, field deadline)".
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "base/clock.h"
#include "reservation/in_memory_plan.h"
#include "reservation/reservation_definition.h"

namespace spindle::reservation {

class ReservationInputValidator {
 public:
  // The plan of a reservable queue, or nullptr when the queue is not one.
  using PlanLookup = std::function<InMemoryPlan*(std::string_view queue)>;
  ReservationInputValidator(const Clock& clock, PlanLookup plans)
      : clock_(clock), plans_(std::move(plans)) {}

  // Submit: an id, a reservable queue, and a valid definition (see validateDefinition).
  PlanResult<InMemoryPlan*> validateSubmission(std::string_view queue,
                                               std::optional<ReservationId> id,
                                               const ReservationDefinition* def) const;
  // Update: a known id (its plan is found through `planOfReservation`) and a valid definition.
  PlanResult<InMemoryPlan*> validateUpdate(std::optional<ReservationId> id,
                                           const ReservationDefinition* def,
                                           InMemoryPlan* planOfReservation) const;
  // Delete: a known id.
  PlanResult<InMemoryPlan*> validateDelete(std::optional<ReservationId> id,
                                           InMemoryPlan* planOfReservation) const;

  // The definition against `plan`:
  //  1. present, deadline after now, at least one stage;
  //  2. except for R_ANY: deadline - arrival >= the minimum duration (the longest stage for
  //     R_ALL, the sum for the ordered interpreters), and the largest gang fits the plan;
  //  3. the recurrence parses as a non-negative long; when positive, deadline - arrival <= it
  //     and it divides the plan's max-periodicity.
  PlanStatus validateDefinition(const ReservationId& id, const ReservationDefinition* def,
                                const InMemoryPlan& plan) const;

 private:
  const Clock& clock_;
  PlanLookup plans_;
};

}  // namespace spindle::reservation
