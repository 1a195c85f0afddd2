// The plan follower's step at 1,000 active reservations (target: under 5 ms), through the
// Driver on a Capacity Scheduler: a plan queue (80 % of 20 nodes x 100 GB) holding staggered
// reservations of one 1 GB container for 1,000 plan steps each, the i-th arriving at step i, so
// that every step one reservation's queue is created and one's removed (in place, under the plan
// queue) while 1,000 are current. BM_PlanFollowerStepPure times the arithmetic alone
// (planFollowerStep on the same plan); BM_FollowerRunUnchanged a run whose entitlements are
// those in force (the scheduler is left alone).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "check_at_end.h"
#include "config/configuration.h"
#include "reservation/plan_follower_step.h"
#include "scheduler/driver.h"

namespace spindle {
namespace {

constexpr int64_t kStepMs = 1000;
constexpr int64_t kActive = 1000;
constexpr int64_t kSteps = 400;  // follower runs measured (the loop's iteration count)

struct FollowerFixture {
  SimulatedClock clock{0};
  Rng rng{1};
  std::unique_ptr<Driver> driver;

  FollowerFixture() {
    Configuration c;
    c.set("yarn.resourcemanager.scheduler.class", "capacity");
    c.set("yarn.resourcemanager.reservation-system.enable", "true");
    c.set("yarn.scheduler.capacity.root.queues", "a,dedicated");
    c.set("yarn.scheduler.capacity.root.a.capacity", "20");
    c.set("yarn.scheduler.capacity.root.dedicated.capacity", "80");
    c.set("yarn.scheduler.capacity.root.dedicated.reservable", "true");
    c.set("yarn.scheduler.capacity.root.dedicated.reservation-agent", "GreedyReservationAgent");
    c.set("yarn.scheduler.capacity.root.dedicated.reservation-policy", "NoOverCommitPolicy");
    c.set("yarn.scheduler.capacity.root.dedicated.maximum-applications", "100000");
    driver = Driver::create(c, clock, rng).value();
    for (int n = 0; n < 20; ++n) {
      (void)driver->handle(
          NodeAdded{"node" + std::to_string(n), "/r1", Resource::of(102400, 100), {}, {}});
    }
    driver->settle();
    ReservationSystem& rs = *driver->reservationSystem();
    for (int64_t i = 1; i <= kActive + kSteps + 1; ++i) {
      reservation::ReservationDefinition def;
      def.arrival = i * kStepMs;
      def.deadline = (i + kActive) * kStepMs;
      def.stages.push_back(
          reservation::ReservationRequest::of(Resource::of(1024, 1), 1, 1, kActive * kStepMs));
      auto s = rs.submit("dedicated", rs.newReservationId(), &def, "u");
      if (!s.isOk()) std::abort();
    }
    // Warm up to 1,000 current reservations (queues created one run at a time would take
    // 1,000 runs; one run at step kActive creates them all).
    clock.setMs(kActive * kStepMs);
    (void)driver->monitorTick();
  }
};

void BM_FollowerRunCreatesAndRemovesQueues(benchmark::State& state) {
  FollowerFixture f;
  for (auto _ : state) {
    f.clock.advanceMs(kStepMs);
    auto out = f.driver->monitorTick();
    if (!out.isOk() || out->queues.size() < 2) {
      state.SkipWithError("the run changed no queue");
      break;
    }
  }
  state.counters["reservationQueues"] = static_cast<double>(
      f.driver->scheduler().planQueueState("dedicated")->reservationQueues.size());
  checkInvariantsAtEnd(state, f.driver->scheduler());
}
BENCHMARK(BM_FollowerRunCreatesAndRemovesQueues)->Iterations(kSteps)->Unit(benchmark::kMillisecond);

void BM_FollowerRunUnchanged(benchmark::State& state) {
  FollowerFixture f;
  for (auto _ : state) {
    auto out = f.driver->monitorTick();  // the same instant: nothing to change
    if (!out.isOk() || !out->queues.empty()) {
      state.SkipWithError("the run changed a queue");
      break;
    }
  }
  checkInvariantsAtEnd(state, f.driver->scheduler());
}
BENCHMARK(BM_FollowerRunUnchanged)->Unit(benchmark::kMillisecond);

void BM_PlanFollowerStepPure(benchmark::State& state) {
  FollowerFixture f;
  const reservation::InMemoryPlan& plan = *f.driver->reservationSystem()->plan("dedicated");
  const PlanQueueState st = *f.driver->scheduler().planQueueState("dedicated");
  reservation::PlanFollowerInput in{.clockNowMs = f.clock.nowMs(),
                                    .clusterResource = f.driver->scheduler().cluster().total(),
                                    .planResources = st.planResources,
                                    .existingQueues = st.reservationQueues};
  for (auto _ : state) {
    benchmark::DoNotOptimize(reservation::planFollowerStep(plan, in));
  }
  state.counters["current"] = static_cast<double>(plan.reservationsAtTime(in.clockNowMs).size());
}
BENCHMARK(BM_PlanFollowerStepPure)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spindle
