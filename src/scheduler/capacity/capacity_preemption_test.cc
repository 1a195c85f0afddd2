// Capacity preemption in the live Capacity Scheduler: the monitor keys, a round per MonitorTick,
// mark -> wait -> kill on the injected clock, stale marks, observe_only, refresh, error
// survival, reservation kills, the AM's preemption message and determinism.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/capacity_test_fixture.h"
#include "scheduler/capacity/preemption/preemption_policy.h"

namespace spindle {
namespace {

using testing::CsConf;
using ::testing::HasSubstr;

constexpr const char* P = "yarn.resourcemanager.monitor.capacity.preemption.";

std::string knob(const char* suffix) { return std::string(P) + suffix; }

// root.a and root.b at 50 % each (max 100 %); the monitor on, every round may take the whole
// surplus (natural termination 1, budget 100 %), kill after 15 s, a round every 3 s.
CsConf preemptingConf() {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
  c.maxCap("root.a", "100").maxCap("root.b", "100");
  c.raw("yarn.resourcemanager.scheduler.monitor.enable", "true")
      .raw(knob("natural_termination_factor"), "1.0")
      .raw(knob("total_preemption_per_round"), "1.0")
      .raw(knob("max_wait_before_kill"), "15000")
      .raw(knob("monitoring_interval"), "3000");
  return c;
}

// The two-queue over-capacity state: b's app holds the whole 20 GB node (AM + 19 x 1 GB);
// a's app asks for 10 x 1 GB (its guarantee). The policy wants 10 GB back from b.
struct OverCapacity {
  explicit OverCapacity(CsConf conf) : cs(std::move(conf)) {
    cs.node("h1", "/r1", 20 * GB, 20);
    appB = cs.submit("b", "bob");
    place(appB, 0, true);
    for (int i = 0; i < 19; ++i) place(appB, 1, false);
    appA = cs.submit("a", "alice");
    cs.ask(appA, 1, "*", GB, 10);
  }
  void place(AppId app, int prio, bool am, const std::string& node = "h1") {
    Status s = cs.sched().handle(PlaceContainer{app, node, Resource::of(GB, 1), prio, am, false});
    EXPECT_TRUE(s.isOk()) << s.message();
  }
  void tickAt(TimeMs t) {
    cs.clock().setMs(t);
    cs.tick();
    Status inv = cs.sched().checkInvariants();
    EXPECT_TRUE(inv.isOk()) << inv.message();
  }
  std::vector<Decision> decisions(DecisionKind k) const {
    std::vector<Decision> out;
    for (const Decision& d : cs.log().decisions()) {
      if (d.kind == k) out.push_back(d);
    }
    return out;
  }
  std::vector<ContainerId> containersOf(DecisionKind k) const {
    std::vector<ContainerId> out;
    for (const Decision& d : decisions(k)) out.push_back(d.container);
    return out;
  }
  Cs cs;
  AppId appA, appB;
};

std::vector<ContainerId> seqs(AppId app, const Scheduler& s, std::initializer_list<int> list) {
  std::vector<ContainerId> out;
  for (int q : list) out.push_back(ContainerId{s.findApp(app)->attemptId(), uint64_t(q)});
  return out;
}

TEST(CapacityPreemptionMonitor, OffByDefault) {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50").maxCap("root.b", "100");
  Cs cs(c);
  EXPECT_EQ(cs.sched().monitorIntervalMs(), 0) << "no ticks needed";
  EXPECT_FALSE(cs.sched().monitorConfig().preemptionActive());
  cs.node("h1", "/r1", 20 * GB, 20);
  AppId b = cs.submit("b", "bob");
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(cs.sched().handle(PlaceContainer{b, "h1", Resource::of(GB, 1), 1, i == 0}).isOk());
  }
  AppId a = cs.submit("a", "alice");
  cs.ask(a, 1, "*", GB, 10);
  cs.tick();
  EXPECT_EQ(cs.sched().lastPreemptionRound(), nullptr);
  EXPECT_EQ(cs.count(DecisionKind::kPreemptMark, b), 0);
}

TEST(CapacityPreemptionMonitor, PolicyNamesAndInterval) {
  for (const char* name : {"org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity."
                           "ProportionalCapacityPreemptionPolicy",
                           "ProportionalCapacityPreemptionPolicy"}) {
    CsConf c = preemptingConf();
    c.raw("yarn.resourcemanager.scheduler.monitor.policies", name);
    Cs cs(c);
    EXPECT_EQ(cs.sched().monitorIntervalMs(), 3000) << name;
  }
  CsConf bad = preemptingConf();
  bad.raw("yarn.resourcemanager.scheduler.monitor.policies",
          "ProportionalCapacityPreemptionPolicy, org.example.MyPolicy");
  SimulatedClock clock;
  Rng rng(1);
  auto s = CapacityScheduler::create(bad.conf(), clock, rng);
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.status().message(), HasSubstr("yarn.resourcemanager.scheduler.monitor.policies"));
  EXPECT_THAT(s.status().message(), HasSubstr("'org.example.MyPolicy'"));
}

TEST(CapacityPreemption, MarksTheNewestContainersOfTheOverCapacityQueueAndTellsTheAm) {
  OverCapacity t(preemptingConf());
  t.tickAt(0);
  // FIFO selector: b's only app, lowest request priority first, newest first, AM spared.
  const std::vector<ContainerId> marked = t.containersOf(DecisionKind::kPreemptMark);
  EXPECT_EQ(marked, seqs(t.appB, t.cs.sched(), {20, 19, 18, 17, 16, 15, 14, 13, 12, 11}));
  for (const Decision& d : t.decisions(DecisionKind::kPreemptMark)) {
    EXPECT_EQ(d.queue, "root.b");
    EXPECT_THAT(d.reason, HasSubstr("fifo selector"));
    EXPECT_THAT(d.reason, HasSubstr("serves root.a"));
    EXPECT_THAT(d.reason, HasSubstr("guaranteed <memory:10240, vCores:10>"));
    ASSERT_FALSE(d.numbers.empty());
    EXPECT_EQ(d.numbers[0], (std::pair<std::string, double>{"guaranteedMb", 10240}));
  }
  const PreemptionMessage m = t.cs.sched().preemptionMessage(t.appB);
  EXPECT_TRUE(m.containers.empty()) << "the Capacity Scheduler sends no strict contract";
  EXPECT_EQ(m.negotiable.size(), 10u);
  EXPECT_EQ(m.negotiableResource, Resource::of(10 * GB, 10)) << "ceil(10 GB / 1 GB) x minAlloc";
  EXPECT_TRUE(t.cs.sched().preemptionMessage(t.appA).empty());

  const PreemptionRoundReport* r = t.cs.sched().lastPreemptionRound();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->containersMarked, 10);
  EXPECT_EQ(r->containersKilled, 0);
  bool sawB = false;
  for (const QueuePreemptionFigures& q : r->queues) {
    if (q.queue != "root.b" || !q.partition.empty()) continue;
    sawB = true;
    EXPECT_EQ(q.guaranteed.memoryMb(), 10 * GB);
    EXPECT_EQ(q.used.memoryMb(), 20 * GB);
    EXPECT_EQ(q.idealAssigned.memoryMb(), 10 * GB);
    EXPECT_EQ(q.selected.memoryMb(), 10 * GB);
  }
  EXPECT_TRUE(sawB);
}

TEST(CapacityPreemption, KillsAfterMaxWaitWithPreemptedStatusAndMarksOnlyOnce) {
  OverCapacity t(preemptingConf());
  t.tickAt(0);
  for (TimeMs at = 3000; at < 15000; at += 3000) {
    t.tickAt(at);
    EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 10u) << "no repeated marks at " << at;
    EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty()) << "still waiting at " << at;
  }
  t.tickAt(15000);
  const std::vector<Decision> kills = t.decisions(DecisionKind::kKill);
  ASSERT_EQ(kills.size(), 10u);
  for (const Decision& d : kills) {
    EXPECT_EQ(d.exitStatus, ContainerExitStatus::PREEMPTED);
    EXPECT_THAT(d.reason, HasSubstr("root.b"));
    EXPECT_THAT(d.reason, HasSubstr("serves root.a"));
  }
  EXPECT_EQ(t.containersOf(DecisionKind::kKill), t.containersOf(DecisionKind::kPreemptMark));
  EXPECT_EQ(t.cs.usedMb(t.appB), 10 * GB);
  EXPECT_EQ(t.cs.sched().findApp(t.appB)->accounting().numNonAmPreempted, 10);
  EXPECT_TRUE(t.cs.sched().preemptionMessage(t.appB).empty());
  EXPECT_EQ(t.cs.sched().lastPreemptionRound()->containersKilled, 10);
  // The room goes to a (one off-switch container per heartbeat).
  for (int i = 0; i < 10; ++i) EXPECT_EQ(t.cs.heartbeat("h1"), 1);
  EXPECT_EQ(t.cs.usedMb(t.appA), 10 * GB);
  t.tickAt(18000);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 10u) << "balanced: nothing more";
}

TEST(CapacityPreemption, InAsynchronousModeTheTickThenAllocatesWhatTheRoundFreed) {
  CsConf c = preemptingConf();
  c.set("schedule-asynchronously.enable", "true");
  OverCapacity t(c);
  EXPECT_EQ(t.cs.sched().monitorIntervalMs(), 3000);
  t.tickAt(0);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 10u);
  EXPECT_EQ(t.cs.usedMb(t.appA), 0);
  t.tickAt(15000);
  EXPECT_EQ(t.decisions(DecisionKind::kKill).size(), 10u);
  // The same tick's global pass visits h1 once: one off-switch container per visit.
  EXPECT_EQ(t.cs.usedMb(t.appA), GB);
}

TEST(CapacityPreemption, AContainerThatEndsOnItsOwnIsForgotten) {
  OverCapacity t(preemptingConf());
  t.tickAt(0);
  const ContainerId newest = seqs(t.appB, t.cs.sched(), {20})[0];
  t.cs.complete(newest);
  EXPECT_EQ(t.cs.sched().preemptionExecutor().marks().count(newest), 0u);
  EXPECT_EQ(t.cs.sched().preemptionMessage(t.appB).negotiable.size(), 9u);
  t.tickAt(15000);
  // b now holds 19 GB: 9 GB more is still needed and those are the 9 marked containers.
  EXPECT_EQ(t.decisions(DecisionKind::kKill).size(), 9u);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 10u);
}

TEST(CapacityPreemption, MarksNotReselectedAreDroppedAfterTwiceTheWait) {
  OverCapacity t(preemptingConf());
  t.tickAt(0);
  t.cs.finish(t.appA);  // the demand goes away: nothing is selected any more
  t.tickAt(15000);
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty()) << "not re-selected: not killed";
  EXPECT_EQ(t.cs.sched().preemptionMessage(t.appB).negotiable.size(), 10u);
  t.tickAt(30000);
  EXPECT_EQ(t.cs.sched().preemptionExecutor().marks().size(), 10u) << "0 + 2 x 15000 is not < now";
  t.tickAt(30001);
  EXPECT_TRUE(t.cs.sched().preemptionExecutor().marks().empty());
  EXPECT_TRUE(t.cs.sched().preemptionMessage(t.appB).empty());
  // Demand again: the containers are marked anew and wait a full period again.
  AppId again = t.cs.submit("a", "alice");
  t.cs.ask(again, 1, "*", GB, 10);
  t.tickAt(33000);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 20u);
  t.tickAt(47999);
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty());
  t.tickAt(48000);
  EXPECT_EQ(t.decisions(DecisionKind::kKill).size(), 10u);
}

TEST(CapacityPreemption, ObserveOnlyActsOnNothingButReports) {
  CsConf c = preemptingConf();
  c.raw(knob("observe_only"), "true");
  OverCapacity t(c);
  t.tickAt(0);
  t.tickAt(15000);
  t.tickAt(30000);
  EXPECT_TRUE(t.decisions(DecisionKind::kPreemptMark).empty());
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty());
  EXPECT_TRUE(t.cs.sched().preemptionMessage(t.appB).empty());
  const PreemptionRoundReport* r = t.cs.sched().lastPreemptionRound();
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->observeOnly);
  EXPECT_EQ(r->containersMarked, 0);
  for (const QueuePreemptionFigures& q : r->queues) {
    if (q.queue == "root.b") {
      EXPECT_EQ(q.selected.memoryMb(), 10 * GB) << "what it would take";
    }
  }
}

TEST(CapacityPreemption, RefreshRereadsTheKnobsAndRejectsInvalidOnesWholly) {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
  Cs cs(c);
  EXPECT_EQ(cs.sched().monitorIntervalMs(), 0);
  Configuration on;
  on.set("yarn.resourcemanager.scheduler.monitor.enable", "true");
  on.set(knob("monitoring_interval"), "1000");
  on.set(knob("observe_only"), "true");
  ASSERT_TRUE(cs.sched().refreshConfiguration(on).isOk());
  EXPECT_EQ(cs.sched().monitorIntervalMs(), 1000);
  EXPECT_TRUE(cs.sched().monitorConfig().policy.observeOnly);

  Configuration bad;
  bad.set(knob("total_preemption_per_round"), "1.5");
  bad.set(knob("monitoring_interval"), "500");
  bad.set("yarn.scheduler.capacity.root.a.capacity", "30");
  bad.set("yarn.scheduler.capacity.root.b.capacity", "70");
  Status s = cs.sched().refreshConfiguration(bad);
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("total_preemption_per_round"));
  EXPECT_THAT(s.message(), HasSubstr("1.5"));
  EXPECT_EQ(cs.sched().monitorIntervalMs(), 1000) << "nothing changed";
  EXPECT_FLOAT_EQ(static_cast<float>(cs.queue("root.a").cap("").capacity), 0.5f);

  Configuration badPolicy;
  badPolicy.set("yarn.resourcemanager.scheduler.monitor.policies", "FairSharePolicy");
  s = cs.sched().refreshConfiguration(badPolicy);
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("'FairSharePolicy'"));

  Configuration off;
  off.set("yarn.resourcemanager.scheduler.monitor.enable", "false");
  ASSERT_TRUE(cs.sched().refreshConfiguration(off).isOk());
  EXPECT_EQ(cs.sched().monitorIntervalMs(), 0);
}

TEST(CapacityPreemption, SwitchingTheMonitorOffDropsPendingMarks) {
  OverCapacity t(preemptingConf());
  t.tickAt(0);
  EXPECT_EQ(t.cs.sched().preemptionMessage(t.appB).negotiable.size(), 10u);
  Configuration off;
  off.set("yarn.resourcemanager.scheduler.monitor.enable", "false");
  ASSERT_TRUE(t.cs.sched().refreshConfiguration(off).isOk());
  EXPECT_TRUE(t.cs.sched().preemptionMessage(t.appB).empty());
  t.tickAt(15000);
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty());
}

TEST(CapacityPreemption, ARefreshedWaitAppliesFromTheNextRound) {
  OverCapacity t(preemptingConf());
  t.tickAt(0);
  Configuration shorter;
  shorter.set(knob("max_wait_before_kill"), "3000");
  ASSERT_TRUE(t.cs.sched().refreshConfiguration(shorter).isOk());
  t.tickAt(3000);
  EXPECT_EQ(t.decisions(DecisionKind::kKill).size(), 10u);
}

TEST(CapacityPreemption, AFailedRoundChangesNothingAndTheNextOneRuns) {
  OverCapacity t(preemptingConf());
  // A crafted bad snapshot (no default partition): the planner's validation refuses it.
  t.cs.sched().setPreemptionSnapshotHook([](preemption::PreemptionSnapshot& s) {
    s.partitions.clear();
    return Status::ok();
  });
  t.tickAt(0);
  EXPECT_TRUE(t.decisions(DecisionKind::kPreemptMark).empty());
  EXPECT_EQ(t.cs.sched().lastPreemptionRound(), nullptr);
  // A failing step before planning is survived the same way.
  t.cs.sched().setPreemptionSnapshotHook(
      [](preemption::PreemptionSnapshot&) { return internalError("injected failure"); });
  t.tickAt(3000);
  EXPECT_TRUE(t.decisions(DecisionKind::kPreemptMark).empty());
  t.cs.sched().setPreemptionSnapshotHook(nullptr);
  t.tickAt(6000);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 10u);
  // A failure while containers wait neither kills nor forgets them.
  t.cs.sched().setPreemptionSnapshotHook(
      [](preemption::PreemptionSnapshot&) { return internalError("injected failure"); });
  t.tickAt(21000);
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty());
  EXPECT_EQ(t.cs.sched().preemptionExecutor().marks().size(), 10u);
  t.cs.sched().setPreemptionSnapshotHook(nullptr);
  t.tickAt(24000);
  EXPECT_EQ(t.decisions(DecisionKind::kKill).size(), 10u);
}

TEST(CapacityPreemption, ReservationsOfTheVictimAreUnreservedAtOnce) {
  CsConf c = preemptingConf();
  OverCapacity t(c);
  t.cs.node("h2", "/r1", 2 * GB, 2);
  t.place(t.appB, 1, false, "h2");
  t.place(t.appB, 1, false, "h2");
  // b also reserves 2 GB on h1: the FIFO selector visits the app's reservations first.
  ASSERT_TRUE(t.cs.sched()
                  .handle(PlaceContainer{t.appB, "h1", Resource::of(2 * GB, 1), 1, false, true})
                  .isOk());
  const auto& r = t.cs.sched().cluster().node(*t.cs.sched().cluster().findNode("h1")).reservation();
  ASSERT_TRUE(r.has_value());
  const ContainerId reservation = r->container;
  EXPECT_EQ(reservation.seq, 23u) << "reservations take ids from the app's container sequence";
  t.tickAt(0);
  const std::vector<Decision> unreserved = t.decisions(DecisionKind::kUnreserve);
  ASSERT_EQ(unreserved.size(), 1u);
  EXPECT_THAT(unreserved[0].reason, HasSubstr("reserved container killed by capacity preemption"));
  EXPECT_FALSE(t.cs.sched().cluster().node(*t.cs.sched().cluster().findNode("h1")).reservation());
  EXPECT_EQ(t.cs.sched().csApp(t.appB)->reservations.size(), 0u);
  // The reservation is never "marked" (it is not a live container).
  for (ContainerId m : t.containersOf(DecisionKind::kPreemptMark)) EXPECT_NE(m, reservation);
  EXPECT_TRUE(t.cs.sched().checkInvariants().isOk());
}

TEST(CapacityPreemption, PlaceReservationRules) {
  OverCapacity t(preemptingConf());
  ASSERT_TRUE(t.cs.sched()
                  .handle(PlaceContainer{t.appA, "h1", Resource::of(2 * GB, 1), 1, false, true})
                  .isOk());
  EXPECT_EQ(t.cs.queue("root.a").usage("").reserved.memoryMb(), 2 * GB);
  Status again =
      t.cs.sched().handle(PlaceContainer{t.appB, "h1", Resource::of(GB, 1), 1, false, true});
  ASSERT_FALSE(again.isOk());
  EXPECT_THAT(again.message(), HasSubstr("already holds reservation"));
  t.cs.node("h3", "/r1", 4 * GB, 4);
  Status tooBig =
      t.cs.sched().handle(PlaceContainer{t.appB, "h3", Resource::of(8 * GB, 1), 1, false, true});
  ASSERT_FALSE(tooBig.isOk());
  EXPECT_THAT(tooBig.message(), HasSubstr("does not fit node h3"));
  EXPECT_TRUE(t.cs.sched().checkInvariants().isOk());
}

// A round plans first on the queues' amounts alone; containers are copied only when some leaf
// has something to obtain. The queues-only plan has the full plan's figures when nothing is to
// be taken, and asks for the detail otherwise.
TEST(CapacityPreemption, AQueuesOnlyPlanMatchesTheFullOneOrAsksForDetail) {
  CsConf c = preemptingConf();
  auto plan = [&](Cs& cs, bool queuesOnly) {
    auto snap = cs.sched().buildPreemptionSnapshot(queuesOnly);
    EXPECT_TRUE(snap.isOk());
    EXPECT_EQ(snap->apps.empty() && snap->nodes.empty(), queuesOnly);
    auto p = preemption::planPreemptionRound(*snap, cs.sched().calculator(),
                                             cs.sched().monitorConfig().policy);
    EXPECT_TRUE(p.isOk());
    return *p;
  };
  // b over its guarantee, a asking: the queues-only plan needs the containers.
  OverCapacity over(c);
  EXPECT_TRUE(plan(over.cs, true).needsDetail);
  const preemption::PreemptionPlan full = plan(over.cs, false);
  EXPECT_FALSE(full.needsDetail);
  EXPECT_EQ(full.candidates.size(), 10u);
  // a asks nothing: nothing to obtain, and both plans agree on every figure.
  Cs idle(c);
  idle.node("h1", "/r1", 20 * GB, 20);
  const AppId b = idle.submit("b", "bob");
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        idle.sched().handle(PlaceContainer{b, "h1", Resource::of(GB, 1), 1, i == 0, false}).isOk());
  }
  const preemption::PreemptionPlan light = plan(idle, true);
  const preemption::PreemptionPlan heavy = plan(idle, false);
  EXPECT_FALSE(light.needsDetail);
  EXPECT_TRUE(light.candidates.empty());
  EXPECT_TRUE(heavy.candidates.empty());
  ASSERT_EQ(light.figures.size(), heavy.figures.size());
  for (size_t i = 0; i < light.figures.size(); ++i) {
    EXPECT_EQ(light.figures[i].path, heavy.figures[i].path);
    EXPECT_EQ(light.figures[i].ideal, heavy.figures[i].ideal);
    EXPECT_EQ(light.figures[i].toBePreempted, heavy.figures[i].toBePreempted);
    EXPECT_EQ(light.figures[i].used, heavy.figures[i].used);
  }
  EXPECT_EQ(light.budgetLeft, heavy.budgetLeft);
  // A selector that always looks at containers: detail whatever the queues say.
  CsConf reserved = preemptingConf();
  reserved.raw(knob("select_based_on_reserved_containers"), "true");
  Cs withReserved(reserved);
  withReserved.node("h1", "/r1", 20 * GB, 20);
  EXPECT_TRUE(plan(withReserved, true).needsDetail);
}

TEST(CapacityPreemption, LazyPreemptionMakesContainersKillableAndTheAllocatorTakesThem) {
  CsConf c = preemptingConf();
  c.raw("yarn.scheduler.capacity.lazy-preemption-enabled", "true");
  OverCapacity t(c);
  t.tickAt(0);
  t.tickAt(15000);
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty()) << "killable, not killed";
  EXPECT_EQ(t.cs.sched().preemptionExecutor().killable().size(), 10u);
  EXPECT_EQ(t.cs.sched().preemptionMessage(t.appB).negotiable.size(), 10u);
  // Killable resources count as gone for the next rounds: nothing more is marked.
  t.tickAt(18000);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 10u);
  auto snap = t.cs.sched().buildPreemptionSnapshot();
  ASSERT_TRUE(snap.isOk());
  EXPECT_EQ(snap->queues[2].partitions.at("").killable.memoryMb(), 10 * GB);
  EXPECT_EQ(snap->queues[0].partitions.at("").killable.memoryMb(), 10 * GB);
  EXPECT_EQ(snap->nodes[0].killable.memoryMb(), 10 * GB);
  // a (under its guarantee) needs room on h1: one killable container per 1 GB container.
  for (int i = 0; i < 10; ++i) EXPECT_EQ(t.cs.heartbeat("h1"), 1);
  EXPECT_EQ(t.cs.usedMb(t.appA), 10 * GB);
  EXPECT_EQ(t.cs.usedMb(t.appB), 10 * GB);
  const std::vector<Decision> kills = t.decisions(DecisionKind::kKill);
  ASSERT_EQ(kills.size(), 10u);
  for (const Decision& d : kills) {
    EXPECT_EQ(d.exitStatus, ContainerExitStatus::PREEMPTED);
    EXPECT_THAT(d.reason, HasSubstr("preempted (lazy)"));
  }
  EXPECT_TRUE(t.cs.sched().preemptionExecutor().killable().empty());
  EXPECT_EQ(t.cs.heartbeat("h1"), 0) << "a has what it asked for; nothing else is killed";
}

TEST(CapacityPreemption, IntraQueuePreemptionTakesFromTheLowPriorityAppForTheHighOne) {
  // a (10 GB guarantee) is full with lo's priority-1 app; hi's priority-5 app asks 4 GB there.
  // b holds the other 10 GB and still asks: no inter-queue preemption. Intra-queue preemption
  // frees max-allowable-limit (0.2) x 10 GB = 2 GB of the low-priority app for the high one.
  CsConf c = preemptingConf();
  c.raw(knob("intra-queue-preemption.enabled"), "true")
      .raw(knob("intra-queue-preemption.preemption-order-policy"), "priority_first")
      .raw("yarn.cluster.max-application-priority", "10");
  Cs cs(c);
  cs.node("h1", "/r1", 20 * GB, 20);
  AppId low = cs.submit("a", "lo", 0, 1);
  AppId b = cs.submit("b", "bob");
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(cs.sched().handle(PlaceContainer{low, "h1", Resource::of(GB, 1), 1, false}).isOk());
    ASSERT_TRUE(cs.sched().handle(PlaceContainer{b, "h1", Resource::of(GB, 1), 1, false}).isOk());
  }
  cs.ask(b, 1, "*", GB, 5);
  AppId high = cs.submit("a", "hi", 0, 5);
  cs.ask(high, 1, "*", GB, 4);
  cs.tick();
  int marked = 0;
  for (const Decision& d : cs.log().decisions()) {
    if (d.kind != DecisionKind::kPreemptMark) continue;
    ++marked;
    EXPECT_EQ(d.app, low);
    EXPECT_THAT(d.reason, HasSubstr("intra-queue selector"));
  }
  EXPECT_EQ(marked, 2);
  EXPECT_EQ(cs.count(DecisionKind::kPreemptMark, b), 0);
}

TEST(CapacityPreemption, DisabledQueueIsNotAVictim) {
  CsConf c = preemptingConf();
  c.set("root.b.disable_preemption", "true");
  OverCapacity t(c);
  t.tickAt(0);
  t.tickAt(15000);
  EXPECT_TRUE(t.decisions(DecisionKind::kPreemptMark).empty());
  EXPECT_TRUE(t.decisions(DecisionKind::kKill).empty());
}

TEST(CapacityPreemption, PendingIsCappedByTheUserLimit) {
  // a's user limit is 50 % of a's 10 GB guarantee (user-limit-factor 0.5): a can use only 5 GB,
  // so only 5 GB is taken from b although a asks for 10.
  CsConf c = preemptingConf();
  c.set("root.a.user-limit-factor", "0.5");
  OverCapacity t(c);
  t.tickAt(0);
  EXPECT_EQ(t.decisions(DecisionKind::kPreemptMark).size(), 5u);
  auto snap = t.cs.sched().buildPreemptionSnapshot();
  ASSERT_TRUE(snap.isOk()) << snap.status().message();
  const preemption::QueueSnapshot& a = snap->queues[1];
  ASSERT_EQ(a.path, "root.a");
  EXPECT_EQ(a.partitions.at("").pending.memoryMb(), 5 * GB);
  EXPECT_EQ(a.partitions.at("").userLimits.at("alice").memoryMb(), 5 * GB);
}

TEST(CapacityPreemption, SnapshotFollowsTheContract) {
  OverCapacity t(preemptingConf());
  AppId b2 = t.cs.submit("b", "bob", 0, 0);
  t.cs.node("h2", "/r1", 4 * GB, 4);
  t.place(b2, 3, false, "h2");
  auto snap = t.cs.sched().buildPreemptionSnapshot();
  ASSERT_TRUE(snap.isOk()) << snap.status().message();
  ASSERT_EQ(snap->queues.size(), 3u);
  EXPECT_EQ(snap->queues[0].path, "root");
  const preemption::QueueSnapshot& b = snap->queues[2];
  EXPECT_EQ(b.path, "root.b");
  // FIFO preemption order: newest app first at equal priority.
  ASSERT_EQ(b.appsInPreemptionOrder.size(), 2u);
  EXPECT_EQ(b.appsInPreemptionOrder[0].app, b2);
  EXPECT_EQ(b.appsInPreemptionOrder[1].app, t.appB);
  EXPECT_EQ(b.partitions.at("").used.memoryMb(), 21 * GB);
  EXPECT_EQ(b.partitions.at("").guaranteed.memoryMb(), 12 * GB);
  EXPECT_EQ(b.partitions.at("").max.memoryMb(), 24 * GB);
  // maxAMCapacityForThisQueue = 24 GB x 0.5 x 0.1 (truncated).
  EXPECT_EQ(b.amPreemptionAllowance.memoryMb(), 1228);
  EXPECT_EQ(snap->nodes.size(), 2u);
  EXPECT_EQ(snap->nodes[1].unallocated.memoryMb(), 3 * GB);
  int ams = 0;
  for (const preemption::AppSnapshot& app : snap->apps) {
    for (const preemption::ContainerSnapshot& c : app.containers) ams += c.isAm;
  }
  EXPECT_EQ(ams, 1);
}

TEST(CapacityPreemption, SnapshotPartitionsAndIgnoreExclusivityContainers) {
  // x is non-exclusive; a may use it (100 %), b may not but borrows it after N missed
  // opportunities (IGNORE_PARTITION_EXCLUSIVITY).
  CsConf c = preemptingConf();
  c.set("root.a.accessible-node-labels", "x")
      .set("root.a.accessible-node-labels.x.capacity", "100");
  c.set("root.b.accessible-node-labels", " ");
  Cs cs(c);
  cs.labels({{"x", false}});
  cs.node("h1", "/r1", 8 * GB, 8, {"x"}).node("h2", "/r1", 8 * GB, 8);
  AppId b = cs.submit("b", "bob");
  cs.ask(b, 1, "*", GB, 1);
  cs.heartbeat("h1");
  ASSERT_EQ(cs.heartbeat("h1"), 1);
  auto snap = cs.sched().buildPreemptionSnapshot();
  ASSERT_TRUE(snap.isOk()) << snap.status().message();
  ASSERT_EQ(snap->partitions.size(), 2u);
  const preemption::PartitionInfo* x = snap->partition("x");
  ASSERT_NE(x, nullptr);
  EXPECT_FALSE(x->exclusive);
  EXPECT_EQ(x->total.memoryMb(), 8 * GB);
  EXPECT_EQ(snap->nodes[0].partition, "x");
  const preemption::QueueSnapshot& qa = snap->queues[1];
  const preemption::QueueSnapshot& qb = snap->queues[2];
  EXPECT_EQ(qa.partitions.at("x").guaranteed.memoryMb(), 8 * GB);
  EXPECT_EQ(qb.partitions.at("x").guaranteed.memoryMb(), 0);
  EXPECT_EQ(qb.partitions.at("x").max.memoryMb(), 8 * GB) << "forced to 100 % on non-exclusive x";
  EXPECT_EQ(qb.partitions.at("x").used.memoryMb(), GB);
  ASSERT_EQ(snap->apps.size(), 1u);
  ASSERT_EQ(snap->apps[0].containers.size(), 1u);
  EXPECT_TRUE(snap->apps[0].containers[0].ignoresExclusivity);
}

TEST(CapacityPreemption, SameInputsSameDecisions) {
  auto run = [] {
    OverCapacity t(preemptingConf());
    for (TimeMs at = 0; at <= 30000; at += 3000) {
      t.tickAt(at);
      if (at == 6000) t.cs.complete(seqs(t.appB, t.cs.sched(), {15})[0]);
    }
    std::vector<std::string> out;
    for (const Decision& d : t.cs.log().decisions()) {
      out.push_back(fmt::format("{} {} {} {} {}", toString(d.kind), d.time, d.container.seq,
                                d.exitStatus, d.reason));
    }
    return out;
  };
  const auto first = run();
  EXPECT_EQ(first, run());
  EXPECT_GT(first.size(), 40u);
}

}  // namespace
}  // namespace spindle
