// Views are pure: for FIFO, Capacity and Fair, every read a REST request makes between events
// (the dao views, lastSkip, headroom, appsInQueue, fairShare, preemptionMessage, the invariant
// checker), after the front end's settle(), changes nothing. Each case runs the same events twice,
// once with every view read twice in the middle and once without: the two reads agree, they record
// no decision, and the whole decision log and the final views are the same in both runs.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "dao/decision_json.h"
#include "dao/rest_views.h"
#include "scheduler/scheduler_factory.h"

namespace spindle {
namespace {

Configuration configFor(const std::string& scheduler) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.class", scheduler);
  if (scheduler == "capacity") {
    const std::string cs = "yarn.scheduler.capacity.";
    conf.set(cs + "root.queues", "a,b");
    conf.set(cs + "root.a.capacity", "50");
    conf.set(cs + "root.b.capacity", "50");
    // A user's second 1 GB AM waits on the user AM limit.
    conf.set(cs + "maximum-am-resource-percent", "0.2");
  }
  if (scheduler == "fair") {
    conf.set("spindle.fair.allocation-xml",
             "<allocations><queue name=\"a\"/><queue name=\"b\"><weight>2</weight></queue>"
             "</allocations>");
  }
  return conf;
}

// Every view a REST read or a front end takes between events, as one string. The per-app and
// per-queue reads come first, so that a view that brought derived state up to date on its
// first use would show in the second pass.
std::string readEveryView(const Scheduler& s) {
  nlohmann::json out;
  std::vector<AppId> ids;
  for (const auto& [id, a] : s.apps()) ids.push_back(id);
  for (AppId id : s.finishedAppIds()) ids.push_back(id);
  for (AppId id : ids) {
    nlohmann::json app;
    const Decision* skip = s.lastSkip(id);
    app["lastSkip"] = skip == nullptr ? nlohmann::json() : decisionToJson(s, *skip, 0);
    std::optional<Resource> headroom = s.headroom(id);
    app["headroom"] = headroom ? headroom->toString() : "none";
    const PreemptionMessage m = s.preemptionMessage(id);
    app["preemptionContainers"] = m.containers.size();
    app["preemptionNegotiable"] = m.negotiable.size();
    app["preemptionResource"] = m.negotiableResource.toString();
    out["apps"][s.appIdString(id)] = app;
  }
  for (const char* q : {"a", "b", "root.a", "root.b", "default", "root", "missing"}) {
    nlohmann::json queue;
    if (auto apps = s.appsInQueue(q)) {
      for (AppId id : *apps) queue["apps"].push_back(s.appIdString(id));
    }
    std::optional<Resource> share = s.fairShare(q);
    queue["fairShare"] = share ? share->toString() : "none";
    out["queues"][q] = queue;
  }
  out["hasPendingDemand"] = s.hasPendingDemand();
  for (NodeId n : s.cluster().nodeIds()) {
    out["emptyHeartbeatIsNoop"].push_back(s.emptyHeartbeatIsNoop(n));
  }
  out["monitorIntervalMs"] = s.monitorIntervalMs();
  out["invariants"] = s.checkInvariants().toString();
  out["scheduler"] = schedulerView(s);
  out["metrics"] = metricsView(s);
  out["apps"]["rest"] = appsView(s);
  out["nodes"] = nodesView(s);
  return out.dump();
}

struct Scripted {
  SimulatedClock clock;
  Rng rng{7};
  std::unique_ptr<Scheduler> sched;
  DecisionLog log;
  std::vector<AppId> apps;

  explicit Scripted(const std::string& scheduler) {
    sched = createScheduler(configFor(scheduler), clock, rng).value();
    sched->setDecisionSink(&log);
  }
  void ok(const SchedulerEvent& e) {
    Status s = sched->handle(e);
    ASSERT_TRUE(s.isOk()) << s.toString();
    clock.advanceMs(1000);
  }
  void submit(const std::string& queue, const std::string& user) {
    AppSubmission sub;
    sub.queue = queue;
    sub.user = user;
    sub.amResource = Resource::of(1024, 1);
    Result<AppId> id = sched->submit(sub);
    ASSERT_TRUE(id.isOk()) << id.status().toString();
    apps.push_back(*id);
    clock.advanceMs(1000);
  }
  void ask(size_t app, int32_t priority, int32_t count) {
    ok(AppAllocate{
        apps.at(app), {{{priority, 0}, "*", Resource::of(1024, 1), count, true, ""}}, {}, {}, {}});
  }
  // Nodes, apps (some waiting on an AM limit), allocations, a monitor tick, and last a node
  // that raises the cluster's resources, so that derived state changes in the last event.
  void before(const std::string& queueA, const std::string& queueB) {
    ok(NodeAdded{"h1", "/r1", Resource::of(8192, 8), {}, {}});
    submit(queueA, "alice");
    submit(queueA, "alice");
    submit(queueA, "carol");
    submit(queueB, "bob");
    ok(NodeHeartbeat{"h1", {}});
    ask(0, 1, 4);
    ok(NodeHeartbeat{"h1", {}});
    ok(MonitorTick{});
    ok(NodeAdded{"h2", "/r2", Resource::of(8192, 8), {}, {}});
    // A front end settles what node events defer before it reads views.
    sched->settle();
  }
  void after() {
    ok(NodeHeartbeat{"h2", {}});
    ask(1, 1, 2);
    ok(NodeHeartbeat{"h1", {}});
    ok(NodeHeartbeat{"h2", {}});
    for (const Decision& d : log.decisions()) {
      if (d.kind == DecisionKind::kAllocate && !d.am) {
        ok(ContainerFinished{d.container, 0});
        break;
      }
    }
    ok(MonitorTick{});
    ok(NodeResourceUpdate{"h1", Resource::of(4096, 4)});
    ok(NodeHeartbeat{"h2", {}});
    sched->settle();
  }
  std::vector<std::string> logLines() const {
    std::vector<std::string> lines;
    for (const Decision& d : log.decisions()) {
      lines.push_back(decisionToJson(*sched, d, lines.size()).dump());
    }
    return lines;
  }
};

void expectPureViews(const std::string& scheduler, const std::string& queueA,
                     const std::string& queueB) {
  Scripted reader(scheduler);
  Scripted plain(scheduler);
  reader.before(queueA, queueB);
  plain.before(queueA, queueB);
  if (testing::Test::HasFatalFailure()) return;

  const size_t recorded = reader.log.decisions().size();
  const std::string first = readEveryView(*reader.sched);
  const std::string second = readEveryView(*reader.sched);
  EXPECT_EQ(first, second) << scheduler << ": a second read differs from the first";
  EXPECT_EQ(reader.log.decisions().size(), recorded) << scheduler << ": a view recorded decisions";
  EXPECT_EQ(readEveryView(*plain.sched), first) << scheduler;

  reader.after();
  plain.after();
  // Right after a node event, before settle(): the views show the state as it was last
  // resolved, and still change nothing.
  reader.ok(NodeAdded{"h3", "/r3", Resource::of(8192, 8), {}, {}});
  plain.ok(NodeAdded{"h3", "/r3", Resource::of(8192, 8), {}, {}});
  const size_t unsettled = reader.log.decisions().size();
  EXPECT_EQ(readEveryView(*reader.sched), readEveryView(*reader.sched)) << scheduler;
  EXPECT_EQ(reader.log.decisions().size(), unsettled) << scheduler << ": a view recorded decisions";
  for (Scripted* run : {&reader, &plain}) {
    run->ask(3, 2, 3);
    run->ok(NodeHeartbeat{"h3", {}});
    run->sched->settle();
  }
  EXPECT_EQ(reader.logLines(), plain.logLines()) << scheduler << ": the reads changed decisions";
  EXPECT_EQ(readEveryView(*reader.sched), readEveryView(*plain.sched)) << scheduler;
  // The scenario waits on the AM limit, allocates and completes containers: a run that did
  // nothing would pass the comparisons above trivially.
  EXPECT_GT(plain.log.decisions().size(), 10u) << scheduler;
}

TEST(PureViews, Fifo) { expectPureViews("fifo", "default", "default"); }

TEST(PureViews, Capacity) {
  expectPureViews("capacity", "a", "b");
  // alice's second app waits on her AM limit: its skip is among the views read.
  Scripted run("capacity");
  run.before("a", "b");
  ASSERT_NE(run.sched->lastSkip(run.apps[1]), nullptr);
  EXPECT_EQ(run.sched->lastSkip(run.apps[1])->skip, SkipReason::kAmLimit);
}

TEST(PureViews, Fair) { expectPureViews("fair", "root.a", "root.b"); }

}  // namespace
}  // namespace spindle
