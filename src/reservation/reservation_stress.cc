// The planner stress run of YARN's TestGreedyReservationAgent.testStress, for every agent:
// a 500 x 100 one-GB-container plan (500 * 32 vcores), one-second steps, CapacityOverTimePolicy
// with a 1,000,000 ms window and 100 % instantaneous / average limits, and random single-stage
// reservations as ReservationSystemTestUtil.generateRandomRR draws them (seeded with the job
// index): arrival now + U[0, 12 h), deadline arrival + U[0, 24 h), gang 1 + U[0, 9),
// parallelism (U[0, 1000) + 1) * gang, duration U[0, 2 h), <1024, 1> containers, a random
// interpreter; users "u" + i % 100. Prints reservations planned per second and how many were
// accepted. Not a test: run it by hand.
//
//   spindle_reservation_stress [jobs] [periodic-every]   (default 1000 jobs, none periodic)
//
// With periodic-every = n > 0, every n-th reservation recurs daily (recurrence-expression
// 86400000; its window is under a day, as the validator requires): the run then also shows
// the cost of planning against periodic load, and checks the plan's invariants at the end.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>

#include "base/clock.h"
#include "base/rng.h"
#include "reservation/in_memory_plan.h"
#include "reservation/reservation_agent.h"
#include "reservation/sharing_policy.h"

namespace spindle::reservation {
namespace {

constexpr int64_t kHour = 3600 * 1000;

ReservationDefinition randomDefinition(int64_t i, int64_t now, int64_t periodicEvery) {
  Rng rng(static_cast<uint64_t>(i));
  ReservationDefinition d;
  int64_t arrival = rng.uniformInt(0, 12 * kHour - 1);
  int64_t deadline = arrival + rng.uniformInt(0, 24 * kHour - 1);
  d.arrival = now + arrival;
  d.deadline = now + deadline;
  int64_t gang = 1 + rng.uniformInt(0, 8);
  int64_t par = (rng.uniformInt(0, 999) + 1) * gang;
  int64_t dur = rng.uniformInt(0, 2 * kHour - 1);
  d.stages.push_back(ReservationRequest::of(Resource::of(1024, 1), par, gang, dur));
  d.interpreter = static_cast<Interpreter>(rng.uniformInt(0, 3));
  if (periodicEvery > 0 && i % periodicEvery == 0) d.recurrenceExpression = "86400000";
  return d;
}

struct Run {
  const char* label;
  const char* agentClass;
  bool favorEarly;
};

void stress(const Run& run, int64_t jobs, int64_t periodicEvery) {
  auto calc = makeDefaultResourceCalculator(ResourceTypes());
  SimulatedClock clock(1'700'000'000'000);
  InMemoryPlan plan(
      PlanSettings{.queueName = "dedicated",
                   .totalCapacity = Resource::of(500LL * 100 * 1024, 500LL * 32),
                   .stepMs = 1000,
                   .minimumAllocation = Resource::of(1024, 1),
                   .maximumAllocation = Resource::of(1024 * 100, 100)},
      *calc,
      std::make_unique<CapacityOverTimePolicy>(CapacityOverTimePolicy::Settings{
          .validWindowMs = 1000000, .instantaneousMaxPercent = 100, .averagePercent = 100}),
      clock);
  auto agent =
      makeReservationAgent(run.agentClass, AgentSettings{.favorEarlyAllocation = run.favorEarly})
          .value();
  int64_t accepted = 0, periodic = 0;
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  for (int64_t i = 0; i < jobs; ++i) {
    ReservationDefinition def = randomDefinition(i, clock.nowMs(), periodicEvery);
    PlanStatus s = agent->createReservation(ReservationId::of(1, i + 1),
                                            fmt::format("u{}", i % 100), plan, def);
    accepted += s.isOk() ? 1 : 0;
    periodic += s.isOk() && def.recurrenceExpression != "0" ? 1 : 0;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  // Wall time is what the targets name; CPU time shows what a shared machine hides.
  std::printf("%-24s jobs %6lld  accepted %6lld  wall %7.3f s (%8.0f/s)  cpu %7.3f s (%8.0f/s)",
              run.label, static_cast<long long>(jobs), static_cast<long long>(accepted), secs,
              static_cast<double>(jobs) / secs, cpu, static_cast<double>(jobs) / cpu);
  if (periodicEvery > 0) {
    spindle::Status ok = plan.checkInvariants();
    std::printf("  periodic %lld  invariants %s", static_cast<long long>(periodic),
                ok.isOk() ? "ok" : ok.message().c_str());
  }
  std::printf("\n");
}

}  // namespace
}  // namespace spindle::reservation

int main(int argc, char** argv) {
  using namespace spindle::reservation;
  int64_t jobs = argc > 1 ? std::atoll(argv[1]) : 1000;
  int64_t periodicEvery = argc > 2 ? std::atoll(argv[2]) : 0;
  if (jobs <= 0 || periodicEvery < 0) {
    std::fprintf(stderr, "usage: spindle_reservation_stress [jobs > 0] [periodic-every >= 0]\n");
    return 2;
  }
  const Run runs[] = {
      {"greedy (early / left)", kGreedyReservationAgentClass, true},
      {"greedy (late / right)", kGreedyReservationAgentClass, false},
      {"aligned (early / left)", kAlignedPlannerWithGreedyClass, true},
      {"aligned (late / right)", kAlignedPlannerWithGreedyClass, false},
  };
  for (const Run& run : runs) stress(run, jobs, periodicEvery);
  return 0;
}
