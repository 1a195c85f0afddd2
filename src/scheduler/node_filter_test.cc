// The node filter's answers (blacklist, partition, relaxLocality, the constraint hook), and the
// constraint hook as each scheduler records it.
#include "scheduler/node_filter.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "scheduler/capacity/capacity_test_fixture.h"
#include "scheduler/fair/fs_test_fixture.h"
#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {
namespace {

constexpr SchedulerKey kKey{1, 0};

Node node(const std::string& name, const std::string& rack) {
  return Node(NodeId(1), name, rack, Resource::of(8192, 8));
}

Application appBlacklisting(std::vector<std::string> blacklist) {
  Application a(AppId(1), AppSubmission{}, 0);
  a.updateBlacklist(blacklist, {});
  return a;
}

ResourceRequest request(const std::string& where, int count, bool relax) {
  return ResourceRequest{kKey, where, Resource::of(1024, 1), count, relax, ""};
}

// Refuses the nodes it names to the keys at `priority` (every key when negative), for any app.
class RefuseNodes final : public PlacementCheck {
 public:
  explicit RefuseNodes(std::set<std::string> refused, int32_t priority = -1)
      : refused_(std::move(refused)), priority_(priority) {}
  bool satisfied(const Application&, const SchedulerKey& key, const Node& n) const override {
    return (priority_ >= 0 && key.priority != priority_) || refused_.count(n.name()) == 0;
  }
  std::string explain(const Application&, const SchedulerKey& key, const Node& n) const override {
    return "priority " + std::to_string(key.priority) + ": anti-affinity refuses " + n.name();
  }

 private:
  std::set<std::string> refused_;
  int32_t priority_;
};

TEST(NodeFilter, BlacklistRefusesTheNodeOrItsRack) {
  const NodeFilter f;
  const Node h1 = node("h1", "/r1");
  const Node h2 = node("h2", "/r1");
  const Node h3 = node("h3", "/r2");
  EXPECT_EQ(f.checkBlacklist(appBlacklisting({}), h1), SkipReason::kNone);
  EXPECT_EQ(f.checkBlacklist(appBlacklisting({"h1"}), h1), SkipReason::kBlacklisted);
  EXPECT_EQ(f.checkBlacklist(appBlacklisting({"h1"}), h2), SkipReason::kNone);
  EXPECT_EQ(f.checkBlacklist(appBlacklisting({"/r1"}), h2), SkipReason::kBlacklisted);
  EXPECT_EQ(f.checkBlacklist(appBlacklisting({"/r1"}), h3), SkipReason::kNone);
}

TEST(NodeFilter, PartitionRespectingExclusivityNeedsTheNodesPartition) {
  const NodeFilter f;
  EXPECT_EQ(f.checkPartition("", "", true), SkipReason::kNone);
  EXPECT_EQ(f.checkPartition("gpu", "gpu", true), SkipReason::kNone);
  EXPECT_EQ(f.checkPartition("", "gpu", true), SkipReason::kPartition);
  EXPECT_EQ(f.checkPartition("gpu", "", true), SkipReason::kPartition);
  EXPECT_EQ(f.checkPartition("gpu", "fpga", true), SkipReason::kPartition);
}

TEST(NodeFilter, PartitionIgnoringExclusivityAdmitsOnlyDefaultPartitionAsks) {
  const NodeFilter f;
  EXPECT_EQ(f.checkPartition("", "shared", false), SkipReason::kNone);
  EXPECT_EQ(f.checkPartition("shared", "shared", false), SkipReason::kPartition);
  EXPECT_EQ(f.checkPartition("gpu", "shared", false), SkipReason::kPartition);
}

TEST(NodeFilter, RelaxLocalityPerLevelReadsTheLevelsRequest) {
  const NodeFilter f;
  const Node h2 = node("h2", "/r1");
  AskTable asks;
  ASSERT_TRUE(asks.update({request("h1", 1, true), request("/r1", 1, false), request("*", 1, true)})
                  .isOk());
  EXPECT_EQ(f.checkRelaxLocality(asks, kKey, h2, Locality::kNodeLocal), SkipReason::kNone);
  EXPECT_EQ(f.checkRelaxLocality(asks, kKey, h2, Locality::kRackLocal), SkipReason::kRelaxLocality)
      << "the rack request does not relax";
  EXPECT_EQ(f.checkRelaxLocality(asks, kKey, h2, Locality::kOffSwitch), SkipReason::kNone);
  ASSERT_TRUE(asks.update({request("*", 1, false)}).isOk());
  EXPECT_EQ(f.checkRelaxLocality(asks, kKey, h2, Locality::kOffSwitch), SkipReason::kRelaxLocality);
  const Node h3 = node("h3", "/r2");
  EXPECT_EQ(f.checkRelaxLocality(asks, kKey, h3, Locality::kRackLocal), SkipReason::kNone)
      << "no request for /r2: nothing to forbid at the rack level";
}

TEST(NodeFilter, RelaxLocalityOnLookedUpAsksAgreesWithTheTable) {
  const NodeFilter f;
  const Node h1 = node("h1", "/r1");
  for (int bits = 0; bits < 16; ++bits) {
    AskTable asks;
    std::vector<ResourceRequest> rrs = {request("*", 1, (bits & 1) != 0)};
    if (bits & 2) rrs.push_back(request("/r1", 1, (bits & 4) != 0));
    if (bits & 8) rrs.push_back(request("h1", 1, true));
    ASSERT_TRUE(asks.update(rrs).isOk());
    const LocalityAsks looked = LocalityAsks::lookUp(asks, kKey, h1);
    for (Locality l : {Locality::kNodeLocal, Locality::kRackLocal, Locality::kOffSwitch}) {
      EXPECT_EQ(f.checkRelaxLocality(looked, l), f.checkRelaxLocality(asks, kKey, h1, l))
          << "bits " << bits << " level " << toString(l);
    }
  }
}

TEST(NodeFilter, RelaxLocalityAtAnyLevelFollowsHasContainerForNode) {
  const NodeFilter f;
  const ResourceRequest anyStrict = request("*", 1, false);
  const ResourceRequest anyRelaxed = request("*", 1, true);
  const ResourceRequest rackStrict = request("/r1", 1, false);
  const ResourceRequest rackRelaxed = request("/r1", 1, true);
  const ResourceRequest rackNone = request("/r1", 0, false);
  const ResourceRequest host = request("h1", 1, true);
  EXPECT_EQ(f.checkRelaxLocality(LocalityAsks{&anyRelaxed, nullptr, nullptr}), SkipReason::kNone);
  EXPECT_EQ(f.checkRelaxLocality(LocalityAsks{&anyStrict, nullptr, nullptr}),
            SkipReason::kRelaxLocality)
      << "a strict ANY request needs a request for the node's rack";
  EXPECT_EQ(f.checkRelaxLocality(LocalityAsks{&anyStrict, &rackNone, nullptr}),
            SkipReason::kRelaxLocality)
      << "a rack request with no containers outstanding does not count";
  EXPECT_EQ(f.checkRelaxLocality(LocalityAsks{&anyStrict, &rackRelaxed, nullptr}),
            SkipReason::kNone);
  EXPECT_EQ(f.checkRelaxLocality(LocalityAsks{&anyRelaxed, &rackStrict, nullptr}),
            SkipReason::kRelaxLocality)
      << "a strict rack request needs a request for the node itself";
  EXPECT_EQ(f.checkRelaxLocality(LocalityAsks{&anyStrict, &rackStrict, &host}), SkipReason::kNone);
}

TEST(NodeFilter, ConstraintsAdmitEveryNodeUntilACheckIsInstalled) {
  NodeFilter f;
  const Application a = appBlacklisting({});
  const Node h1 = node("h1", "/r1");
  const Node h2 = node("h2", "/r1");
  EXPECT_EQ(f.checkConstraints(a, kKey, h1), SkipReason::kNone);
  const RefuseNodes check({"h1"});
  f.setPlacementCheck(&check);
  EXPECT_EQ(f.checkConstraints(a, kKey, h1), SkipReason::kConstraint);
  EXPECT_EQ(f.explainConstraints(a, kKey, h1), "priority 1: anti-affinity refuses h1");
  EXPECT_EQ(f.checkConstraints(a, kKey, h2), SkipReason::kNone);
  f.setPlacementCheck(nullptr);
  EXPECT_EQ(f.checkConstraints(a, kKey, h1), SkipReason::kNone);
}

// The constraint hook as each scheduler calls it: the refused node gets nothing for the refused
// key and the app's skip says why. FIFO then tries no lower-priority key (as for a key that got
// nothing); the Capacity Scheduler skips the key (PRIORITY_SKIPPED, as precheckNode does) and
// the Fair Scheduler tries the next key (hasContainerForNode is false).

const Decision* lastConstraintSkip(const DecisionLog& log, AppId app) {
  const Decision* found = nullptr;
  for (const Decision& d : log.decisions()) {
    if (d.kind == DecisionKind::kSkip && d.app == app && d.skip == SkipReason::kConstraint) {
      found = &d;
    }
  }
  return found;
}

const Decision* lastAllocation(const DecisionLog& log, AppId app) {
  const Decision* found = nullptr;
  for (const Decision& d : log.decisions()) {
    if (d.kind == DecisionKind::kAllocate && d.app == app) found = &d;
  }
  return found;
}

TEST(NodeFilterHook, FifoRecordsTheConstraintAndTriesNoLowerKey) {
  Configuration conf;
  SimulatedClock clock;
  Rng rng(1);
  DecisionLog log;
  auto fifo = FifoScheduler::create(conf, clock, rng).value();
  fifo->setDecisionSink(&log);
  const RefuseNodes check({"h1"}, /*priority=*/1);
  fifo->setPlacementCheck(&check);
  ASSERT_TRUE(fifo->handle(NodeAdded{"h1", "/r1", Resource::of(4096, 4), {}, {}}).isOk());
  ASSERT_TRUE(fifo->handle(NodeAdded{"h2", "/r1", Resource::of(4096, 4), {}, {}}).isOk());
  const AppId app = fifo->submit(AppSubmission{}).value();
  ResourceRequest low = request("*", 1, true);
  low.key.priority = 2;
  ASSERT_TRUE(fifo->handle(AppAllocate{app, {request("*", 1, true), low}, {}, {}, {}}).isOk());
  ASSERT_TRUE(fifo->handle(NodeHeartbeat{"h1", {}}).isOk());
  EXPECT_EQ(fifo->findApp(app)->liveContainers().size(), 0u);
  const Decision* skip = lastConstraintSkip(log, app);
  ASSERT_NE(skip, nullptr);
  EXPECT_EQ(skip->reason, "priority 1: anti-affinity refuses h1");
  EXPECT_EQ(skip->key, kKey);
  ASSERT_TRUE(fifo->handle(NodeHeartbeat{"h2", {}}).isOk());
  EXPECT_EQ(fifo->findApp(app)->liveContainers().size(), 2u);
  EXPECT_TRUE(fifo->checkInvariants().isOk());
}

TEST(NodeFilterHook, CapacitySkipsTheKeyAtPrecheckWithoutCountingAnOpportunity) {
  testing::CsConf c;
  c.queues("root", "a").cap("root.a", "100");
  Cs cs(c);
  const RefuseNodes check({"h1"}, /*priority=*/1);
  cs.sched().setPlacementCheck(&check);
  cs.node("h1", "/r1", 8 * GB).node("h2", "/r1", 8 * GB);
  const AppId app = cs.submit("a", "u");
  cs.ask(app, 1, "*", GB, 1).ask(app, 2, "*", GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocationsOf(app).back().key.priority, 2) << "PRIORITY_SKIPPED: the next key";
  const Decision* skip = lastConstraintSkip(cs.log(), app);
  ASSERT_NE(skip, nullptr);
  EXPECT_EQ(skip->reason, "priority 1: anti-affinity refuses h1");
  EXPECT_EQ(cs.opportunities(app, 1), 0)
      << "precheckNode refuses before a scheduling opportunity is counted";
  EXPECT_EQ(cs.heartbeat("h2"), 1);
  EXPECT_EQ(cs.allocationsOf(app).back().key.priority, 1);
}

TEST(NodeFilterHook, FairTriesTheNextKeyWhenTheNodeIsRefused) {
  fstest::Fs fs(fstest::allocationXml(R"(<queue name="a"/>)"));
  const RefuseNodes check({"h1"}, /*priority=*/1);
  fs.sched().setPlacementCheck(&check);
  fs.node("h1", "/r1", 8192).node("h2", "/r1", 8192);
  const AppId app = fs.app("root.a");
  fs.ask(app, 1, "*", 1024, 1, 1);
  fs.ask(app, 2, "*", 1024, 1, 1);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(app), 1);
  ASSERT_NE(lastAllocation(fs.log(), app), nullptr);
  EXPECT_EQ(lastAllocation(fs.log(), app)->key.priority, 2) << "the next key";
  const Decision* skip = lastConstraintSkip(fs.log(), app);
  ASSERT_NE(skip, nullptr);
  EXPECT_EQ(skip->reason, "priority 1: anti-affinity refuses h1");
  fs.heartbeat("h2");
  EXPECT_EQ(fs.allocations(app), 2);
}

// The order of the checks stays each scheduler's: the Capacity Scheduler's precheckNode (with
// the constraint hook) comes before its blacklist check, while FIFO and Fair skip a
// blacklisting app before looking at any key.

int skipsFor(const DecisionLog& log, AppId app, SkipReason why) {
  int n = 0;
  for (const Decision& d : log.decisions()) {
    n += d.kind == DecisionKind::kSkip && d.app == app && d.skip == why;
  }
  return n;
}

TEST(NodeFilterOrder, CapacityAsksTheConstraintHookBeforeTheBlacklist) {
  testing::CsConf c;
  c.queues("root", "a").cap("root.a", "100");
  Cs cs(c);
  const RefuseNodes check({"h1"});
  cs.sched().setPlacementCheck(&check);
  cs.node("h1", "/r1", 8 * GB);
  const AppId app = cs.submit("a", "u");
  ASSERT_TRUE(cs.sched().handle(AppAllocate{app, {request("*", 1, true)}, {}, {"h1"}, {}}).isOk());
  EXPECT_EQ(cs.heartbeat("h1"), 0);
  EXPECT_EQ(skipsFor(cs.log(), app, SkipReason::kConstraint), 1);
  EXPECT_EQ(skipsFor(cs.log(), app, SkipReason::kBlacklisted), 0);
}

TEST(NodeFilterOrder, FairAsksTheBlacklistBeforeAnyKey) {
  fstest::Fs fs(fstest::allocationXml(R"(<queue name="a"/>)"));
  const RefuseNodes check({"h1"});
  fs.sched().setPlacementCheck(&check);
  fs.node("h1", "/r1", 8192);
  const AppId app = fs.app("root.a");
  ASSERT_TRUE(fs.sched().handle(AppAllocate{app, {request("*", 1, true)}, {}, {"h1"}, {}}).isOk());
  fs.heartbeat("h1");
  EXPECT_EQ(skipsFor(fs.log(), app, SkipReason::kBlacklisted), 1);
  EXPECT_EQ(skipsFor(fs.log(), app, SkipReason::kConstraint), 0);
}

TEST(NodeFilterOrder, FifoAsksTheBlacklistBeforeAnyKey) {
  Configuration conf;
  SimulatedClock clock;
  Rng rng(1);
  DecisionLog log;
  auto fifo = FifoScheduler::create(conf, clock, rng).value();
  fifo->setDecisionSink(&log);
  const RefuseNodes check({"h1"});
  fifo->setPlacementCheck(&check);
  ASSERT_TRUE(fifo->handle(NodeAdded{"h1", "/r1", Resource::of(4096, 4), {}, {}}).isOk());
  const AppId app = fifo->submit(AppSubmission{}).value();
  ASSERT_TRUE(fifo->handle(AppAllocate{app, {request("*", 1, true)}, {}, {"/r1"}, {}}).isOk());
  ASSERT_TRUE(fifo->handle(NodeHeartbeat{"h1", {}}).isOk());
  EXPECT_EQ(skipsFor(log, app, SkipReason::kBlacklisted), 1);
  EXPECT_EQ(skipsFor(log, app, SkipReason::kConstraint), 0);
}

}  // namespace
}  // namespace spindle
