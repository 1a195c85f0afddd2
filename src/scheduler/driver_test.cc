#include "scheduler/driver.h"

#include <gtest/gtest.h>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/config/test_builder.h"
#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {
namespace {

constexpr int64_t GB = 1024;

// A sink that keeps the rendered text of every record it sees.
class TextSink final : public DecisionSink {
 public:
  void record(const DecisionRecord& d) override {
    kinds.push_back(d.kind);
    queues.emplace_back(d.queue);
    reasons.push_back(d.reason.text());
  }
  std::vector<DecisionKind> kinds;
  std::vector<std::string> queues, reasons;
};

struct Capacity {
  explicit Capacity(testing::CsConf conf, DriverOptions options = {}) {
    conf.raw("yarn.scheduler.minimum-allocation-mb", "1024");
    auto s = CapacityScheduler::create(conf.conf(), clock, rng);
    EXPECT_TRUE(s.isOk()) << s.status().message();
    driver = std::make_unique<Driver>(std::move(s).value(), options);
  }
  SimulatedClock clock{0};
  Rng rng{1};
  std::unique_ptr<Driver> driver;
};

testing::CsConf twoQueues() {
  testing::CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
  c.maxCap("root.a", "100").maxCap("root.b", "100");
  return c;
}

AppSubmission submission(const std::string& queue, int64_t amMb = 0,
                         const std::string& user = "user") {
  AppSubmission sub;
  sub.name = "app";
  sub.queue = queue;
  sub.user = user;
  sub.amResource = amMb != 0 ? Resource::of(amMb, 1) : Resource();
  return sub;
}

std::string knob(const std::string& k) {
  return "yarn.resourcemanager.monitor.capacity.preemption." + k;
}

TEST(Driver, HeartbeatOutcomeListsTheAllocatedAmContainer) {
  Capacity cs(twoQueues());
  Driver& d = *cs.driver;
  ASSERT_TRUE(d.handle(NodeAdded{"h1", "/r1", Resource::of(8 * GB, 8), {}, {}}).isOk());
  auto sub = d.submit(submission("a", GB));
  ASSERT_TRUE(sub.isOk()) << sub.status().message();
  ASSERT_NE(sub->admission(), nullptr);
  EXPECT_EQ(sub->admission()->action, AppAction::kAccepted);
  const AppId app = sub->admission()->app;
  const NodeId h1 = *d.scheduler().cluster().findNode("h1");
  auto out = d.heartbeat(h1, {});
  ASSERT_TRUE(out.isOk());
  ASSERT_EQ(out->containers.size(), 1u);
  const ContainerChange& c = out->containers[0];
  EXPECT_EQ(c.action, ContainerAction::kAllocated);
  EXPECT_EQ(c.app(), app);
  EXPECT_EQ(c.node, h1);
  EXPECT_TRUE(c.am);
  EXPECT_EQ(c.resource, Resource::of(GB, 1));
  // The next event starts from an empty outcome.
  auto again = d.heartbeat(h1, {});
  ASSERT_TRUE(again.isOk());
  EXPECT_TRUE(again->empty());
  // The AM container finishes; the app ends: completion, then the app change.
  auto done = d.heartbeat(h1, {{c.id, 0}});
  ASSERT_TRUE(done.isOk());
  ASSERT_EQ(done->containers.size(), 1u);
  EXPECT_EQ(done->containers[0].action, ContainerAction::kCompleted);
  EXPECT_EQ(d.events(), 5);
}

TEST(Driver, KillsComeBeforeTheAppFinishes) {
  Capacity cs(twoQueues());
  Driver& d = *cs.driver;
  ASSERT_TRUE(d.handle(NodeAdded{"h1", "/r1", Resource::of(8 * GB, 8), {}, {}}).isOk());
  const AppId app = d.submit(submission("a", GB))->admission()->app;
  ASSERT_TRUE(d.handle(NodeHeartbeat{"h1", {}}).isOk());
  auto out = d.handle(AppRemoved{app, AppState::KILLED});
  ASSERT_TRUE(out.isOk());
  ASSERT_EQ(out->containers.size(), 1u);
  EXPECT_EQ(out->containers[0].action, ContainerAction::kKilled);
  ASSERT_EQ(out->apps.size(), 1u);
  EXPECT_EQ(out->apps[0].action, AppAction::kFinished);
  EXPECT_EQ(out->apps[0].finalState, AppState::KILLED);
}

TEST(Driver, RejectionIsAValueAndBadInputAnError) {
  Capacity cs(twoQueues());
  Driver& d = *cs.driver;
  auto rejected = d.submit(submission("nosuch"));
  ASSERT_TRUE(rejected.isOk()) << rejected.status().message();
  ASSERT_NE(rejected->admission(), nullptr);
  EXPECT_EQ(rejected->admission()->action, AppAction::kRejected);
  EXPECT_NE(rejected->admission()->reason.find("nosuch"), std::string::npos)
      << rejected->admission()->reason;
  EXPECT_NE(d.scheduler().findApp(rejected->admission()->app), nullptr);
  // Through handle() as well.
  auto viaHandle = d.handle(AppAdded{submission("nosuch")});
  ASSERT_TRUE(viaHandle.isOk());
  EXPECT_EQ(viaHandle->admission()->action, AppAction::kRejected);
  // A negative AM resource is bad input: an error, no app.
  auto bad = d.submit(submission("a", -1));
  EXPECT_FALSE(bad.isOk());
}

TEST(Driver, MonitorTicksFollowTheInterval) {
  testing::CsConf conf = twoQueues();
  conf.raw("yarn.resourcemanager.scheduler.monitor.enable", "true")
      .raw(knob("monitoring_interval"), "3000");
  Capacity cs(conf);
  Driver& d = *cs.driver;
  ASSERT_EQ(d.nextMonitorTick(), std::optional<TimeMs>(3000));
  cs.clock.setMs(2999);
  auto early = d.runDueMonitorTick();
  ASSERT_TRUE(early.isOk());
  EXPECT_FALSE(early->monitorRan);
  cs.clock.setMs(3500);
  auto due = d.runDueMonitorTick();
  ASSERT_TRUE(due.isOk());
  EXPECT_TRUE(due->monitorRan);
  EXPECT_EQ(d.nextMonitorTick(), std::optional<TimeMs>(6500)) << "interval after the tick";
  // An explicit tick (a scenario's `monitor` step) re-arms from its own time.
  cs.clock.setMs(4000);
  ASSERT_TRUE(d.handle(MonitorTick{}).isOk());
  EXPECT_EQ(d.nextMonitorTick(), std::optional<TimeMs>(7000));
}

TEST(Driver, NoTicksWithoutMonitors) {
  Capacity cs(twoQueues());
  EXPECT_FALSE(cs.driver->nextMonitorTick().has_value());
}

TEST(Driver, PreemptionMarksNameTheAppsToWake) {
  testing::CsConf conf = twoQueues();
  conf.raw("yarn.resourcemanager.scheduler.monitor.enable", "true")
      .raw(knob("natural_termination_factor"), "1.0")
      .raw(knob("total_preemption_per_round"), "1.0")
      .raw(knob("max_wait_before_kill"), "15000")
      .raw(knob("monitoring_interval"), "3000");
  Capacity cs(conf);
  Driver& d = *cs.driver;
  ASSERT_TRUE(d.handle(NodeAdded{"h1", "/r1", Resource::of(20 * GB, 20), {}, {}}).isOk());
  const AppId b = d.submit(submission("b", 0, "bob"))->admission()->app;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        d.handle(PlaceContainer{b, "h1", Resource::of(GB, 1), i == 0 ? 0 : 1, i == 0}).isOk());
  }
  const AppId a = d.submit(submission("a", 0, "alice"))->admission()->app;
  ResourceRequest rr{{1, 0}, "*", Resource::of(GB, 1), 10, true, ""};
  ASSERT_TRUE(d.handle(AppAllocate{a, {rr}, {}, {}, {}}).isOk());
  auto out = d.monitorTick();
  ASSERT_TRUE(out.isOk()) << out.status().message();
  EXPECT_EQ(out->preemptionMessageGrew, std::vector<AppId>{b});
  int marked = 0;
  for (const ContainerChange& c : out->containers) {
    EXPECT_EQ(c.action, ContainerAction::kPreemptionMarked);
    EXPECT_EQ(c.app(), b);
    ++marked;
  }
  EXPECT_EQ(marked, 10);
  EXPECT_FALSE(d.scheduler().preemptionMessage(b).empty());
}

TEST(Driver, ChecksInvariantsEveryNEvents) {
  Capacity cs(twoQueues(), DriverOptions{.checkInvariantsEvery = 1});
  Driver& d = *cs.driver;
  ASSERT_TRUE(d.handle(NodeAdded{"h1", "/r1", Resource::of(8 * GB, 8), {}, {}}).isOk());
  ASSERT_TRUE(d.submit(submission("a", GB)).isOk());
  EXPECT_TRUE(d.handle(NodeHeartbeat{"h1", {}}).isOk());
  // An event's own error is returned as it is.
  auto bad = d.handle(NodeHeartbeat{"nosuch", {}});
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("nosuch"), std::string::npos);
}

TEST(DecisionRecords, AreCompleteWithoutAnyoneAskingForText) {
  Capacity cs(twoQueues());
  Driver& d = *cs.driver;
  TextSink sink;
  d.setDecisionSink(&sink);
  ASSERT_TRUE(d.handle(NodeAdded{"h1", "/r1", Resource::of(8 * GB, 8), {}, {}}).isOk());
  const AppId app = d.submit(submission("a", GB))->admission()->app;
  auto out = d.handle(NodeHeartbeat{"h1", {}});
  ASSERT_TRUE(out.isOk());
  ASSERT_EQ(sink.kinds.back(), DecisionKind::kAllocate);
  EXPECT_EQ(sink.queues.back(), "root.a");
  EXPECT_EQ(sink.reasons.back(), "OFF_SWITCH at priority 0 on h1");
  ASSERT_TRUE(d.handle(AppRemoved{app, AppState::FINISHED}).isOk());
  EXPECT_EQ(sink.kinds[sink.kinds.size() - 2], DecisionKind::kKill);
  EXPECT_EQ(sink.queues[sink.queues.size() - 2], "root.a");
  EXPECT_EQ(sink.reasons[sink.reasons.size() - 2], "application finished");
}

TEST(DecisionRecords, CounterRendersNothingAndCountsEverything) {
  SimulatedClock clock{0};
  Rng rng{1};
  Driver d(FifoScheduler::create(Configuration(), clock, rng).value());
  DecisionCounter counter;
  d.setDecisionSink(&counter);
  ASSERT_TRUE(d.handle(NodeAdded{"h1", "/r1", Resource::of(8 * GB, 8), {}, {}}).isOk());
  ASSERT_TRUE(d.submit(submission("default", GB)).isOk());
  ASSERT_TRUE(d.handle(NodeHeartbeat{"h1", {}}).isOk());
  EXPECT_EQ(counter.count(DecisionKind::kAllocate), 1);
  EXPECT_EQ(counter.total(), d.scheduler().decisionCount());
}

TEST(Reason, RendersLikeFmt) {
  const Resource r = Resource::of(2048, 2);
  const std::string host = "h1";
  const Reason deferred = Reason::format("{} ask at priority {} on {} ({}, {}, {})", "NODE_LOCAL",
                                         3, host, r, uint64_t{7}, 0.5);
  EXPECT_EQ(deferred.text(),
            fmt::format("NODE_LOCAL ask at priority 3 on h1 ({}, 7, 0.5)", r.toString()));
  EXPECT_EQ(Reason("plain {} text").text(), "plain {} text");
  EXPECT_EQ(Reason::format("{}{}", "a", true).text(), "atrue");
  EXPECT_TRUE(Reason().empty());
  EXPECT_FALSE(Reason::format("x").empty());
}

}  // namespace
}  // namespace spindle
