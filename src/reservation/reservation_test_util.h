// Builders shared by the reservation tests: plans, definitions and fixed reservations that
// read like the YARN tests they come from.
//
//   TestPlan p = TestPlan::make(Resource::of(102400, 100), 1000,
//                               std::make_unique<NoOverCommitPolicy>());
//   p.addFixed("u1", /*start=*/0, /*step=*/1000, {10, 10, 20});   // containers of <1024, 1>
//   ReservationDefinition d = Def(5000, 20000).all().stage(Resource::of(2048, 2), 10, 5, 10000);
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "reservation/in_memory_plan.h"
#include "reservation/reservation_definition.h"
#include "reservation/sharing_policy.h"
#include "resource/resource_calculator.h"

namespace spindle {
// gtest prints Resources as YARN does.
inline void PrintTo(const Resource& r, std::ostream* os) { *os << r.toString(); }
}  // namespace spindle

namespace spindle::reservation::testing {

inline Resource containers(int64_t n) { return Resource::of(1024 * n, n); }

// A clock tests may move backwards (the replanner vector sets it to 0 after acceptances).
class SettableClock final : public Clock {
 public:
  TimeMs nowMs() const override { return now_; }
  void set(TimeMs t) { now_ = t; }

 private:
  TimeMs now_ = 0;
};

struct Def {
  ReservationDefinition d;
  Def(int64_t arrival, int64_t deadline) {
    d.arrival = arrival;
    d.deadline = deadline;
  }
  Def& interpreter(Interpreter i) {
    d.interpreter = i;
    return *this;
  }
  Def& stage(const Resource& capability, int64_t containers, int64_t concurrency,
             int64_t durationMs) {
    d.stages.push_back(ReservationRequest::of(capability, containers, concurrency, durationMs));
    return *this;
  }
  operator ReservationDefinition() const { return d; }  // NOLINT
};

struct TestPlan {
  std::unique_ptr<ResourceCalculator> calc;
  std::unique_ptr<SettableClock> clock;
  std::unique_ptr<InMemoryPlan> plan;
  int64_t nextSeq = 1;

  static TestPlan make(const Resource& capacity, int64_t step,
                       std::unique_ptr<SharingPolicy> policy,
                       Resource maxAlloc = Resource::of(8192, 8),
                       int64_t maxPeriodicity = 86400000) {
    TestPlan p;
    p.calc = makeDefaultResourceCalculator(ResourceTypes());
    p.clock = std::make_unique<SettableClock>();
    p.plan = std::make_unique<InMemoryPlan>(PlanSettings{.queueName = "dedicated",
                                                         .totalCapacity = capacity,
                                                         .stepMs = step,
                                                         .minimumAllocation = Resource::of(1024, 1),
                                                         .maximumAllocation = maxAlloc,
                                                         .maxPeriodicity = maxPeriodicity},
                                            *p.calc, std::move(policy), *p.clock);
    return p;
  }

  ReservationId newId() { return ReservationId::of(1404198295326, nextSeq++); }

  // A reservation holding containers[i] containers of <1024, 1> on [start + i*step, ...).
  ReservationAllocation fixed(const ReservationId& id, const std::string& user, int64_t start,
                              int64_t step, const std::vector<int64_t>& perStep) const {
    IntervalAllocations a;
    for (size_t i = 0; i < perStep.size(); ++i) {
      int64_t s = start + static_cast<int64_t>(i) * step;
      a.push_back({{s, s + step}, containers(perStep[i])});
    }
    int64_t end = start + static_cast<int64_t>(perStep.size()) * step;
    ReservationDefinition def;
    def.arrival = start;
    def.deadline = end;
    def.stages.push_back(ReservationRequest::of(containers(1), 1, 1, step));
    return ReservationAllocation(id, def, user, "dedicated", start, end, a);
  }

  // `containers` containers of <1024, 1> on [start, end), repeating every `period`.
  ReservationAllocation periodic(const ReservationId& id, const std::string& user, int64_t start,
                                 int64_t end, int64_t count, int64_t period) const {
    ReservationDefinition def;
    def.arrival = start;
    def.deadline = end;
    def.recurrenceExpression = std::to_string(period);
    def.stages.push_back(ReservationRequest::of(containers(1), count, 1, end - start));
    return ReservationAllocation(id, def, user, "dedicated", start, end,
                                 {{{start, end}, containers(count)}}, period);
  }

  PlanStatus addFixed(const std::string& user, int64_t start, int64_t step,
                      const std::vector<int64_t>& perStep) {
    return plan->addReservation(fixed(newId(), user, start, step, perStep));
  }
};

}  // namespace spindle::reservation::testing
