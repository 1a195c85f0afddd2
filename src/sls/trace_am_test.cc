#include "sls/trace_am.h"

#include <gtest/gtest.h>

#include "placement/spec_parser.h"
#include "sim/test_traces.h"

namespace spindle::sls {
namespace {

using sim::testing::JobBuilder;

const std::string kApp = "container_1700000000000_0001";

std::string cid(int attempt, int seq) { return fmt::format("{}_{:02}_{:06}", kApp, attempt, seq); }

protocol::Container given(int seq, const std::string& node, int32_t priority, int attempt = 1) {
  protocol::Container c;
  c.id = cid(attempt, seq);
  c.nodeId = node;
  c.priority = priority;
  c.resource = {1024, 1};
  return c;
}

// The asks of one beat as "name=count" at a priority, in the order sent.
std::vector<std::string> asksAt(const TraceAm::Beat& b, int32_t priority) {
  std::vector<std::string> out;
  for (const protocol::ResourceRequest& r : b.asks) {
    if (r.priority == priority)
      out.push_back(r.resourceName + "=" + std::to_string(r.numContainers));
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Fixture {
  TraceJob job;
  TraceAm am;
  explicit Fixture(const JobBuilder& b)
      : job(b.build()), am(job, sim::AmKind::kMapReduce, nullptr, [](const std::string&) {
          return std::string("/default-rack");
        }) {}
  TraceAm::Beat answer(std::vector<protocol::Container> cs,
                       std::vector<protocol::ContainerStatus> done = {}, int64_t now = 1000) {
    protocol::AllocateResponse r;
    r.allocatedContainers = std::move(cs);
    r.completedContainerStatuses = std::move(done);
    EXPECT_TRUE(am.onAllocateResponse(r, now).isOk());
    return am.beat(now);
  }
};

TEST(TraceAm, AsksTheMapsNodeAndRackLocalAsTheSimulatorsAmDoes) {
  Fixture f(JobBuilder("j")
                .task(TaskType::kMap, 5000, "host1")
                .task(TaskType::kMap, 7000, "host2")
                .task(TaskType::kReduce, 3000));
  EXPECT_TRUE(f.am.beat(0).asks.empty()) << "nothing is asked before the AM container runs";
  ASSERT_TRUE(f.am.amStarted(cid(1, 1)).isOk());
  TraceAm::Beat b = f.am.beat(0);
  EXPECT_EQ(asksAt(b, 20),
            (std::vector<std::string>{"*=2", "/default-rack=2", "host1=1", "host2=1"}));
  EXPECT_TRUE(asksAt(b, 10).empty()) << "reduces wait for every map";
  EXPECT_EQ(b.asks[0].capability, (protocol::ResourceRecord{1024, 1}));
}

TEST(TraceAm, ANodeLocalContainerStartsItsHostsTaskAndNeedsNoCorrection) {
  Fixture f(
      JobBuilder("j").task(TaskType::kMap, 5000, "host1").task(TaskType::kMap, 7000, "host2"));
  ASSERT_TRUE(f.am.amStarted(cid(1, 1)).isOk());
  f.am.beat(0);
  TraceAm::Beat b = f.answer({given(2, "host2:20001", 20)});
  ASSERT_EQ(b.starts.size(), 1u);
  EXPECT_EQ(b.starts[0].containerId, cid(1, 2));
  EXPECT_EQ(b.starts[0].nodeId, "host2:20001");
  EXPECT_EQ(b.starts[0].durationMs, 7000) << "host2's task runs on host2";
  // The RM took host2, the rack and ANY down by one, as the AM did: nothing to correct.
  EXPECT_TRUE(b.asks.empty());
}

TEST(TraceAm, AContainerOnAnotherHostIsRackLocalAndTheAmCorrectsTheHostAsk) {
  Fixture f(JobBuilder("j").task(TaskType::kMap, 5000, "host1"));
  ASSERT_TRUE(f.am.amStarted(cid(1, 1)).isOk());
  f.am.beat(0);
  TraceAm::Beat b = f.answer({given(2, "host9:20008", 20)});
  ASSERT_EQ(b.starts.size(), 1u);
  // Rack-local: the RM lowered the rack and ANY; host1's ask is left for the AM to clear.
  EXPECT_EQ(asksAt(b, 20), (std::vector<std::string>{"host1=0"}));
}

TEST(TraceAm, ReducesFollowTheMapsAndTheJobFinishesWithoutReleasingItsAm) {
  Fixture f(JobBuilder("j").maps(1, 100).reduces(1, 50));
  ASSERT_TRUE(f.am.amStarted(cid(1, 1)).isOk());
  f.am.beat(0);
  f.answer({given(2, "host1:20000", 20)});
  TraceAm::Beat b = f.answer({}, {{cid(1, 2), protocol::ContainerState::COMPLETE, 0, ""}}, 2000);
  EXPECT_EQ(asksAt(b, 10), (std::vector<std::string>{"*=1"}));
  b = f.answer({given(3, "host1:20000", 10)}, {}, 2100);
  EXPECT_EQ(b.starts.size(), 1u);
  EXPECT_FALSE(b.finished);
  b = f.answer({}, {{cid(1, 3), protocol::ContainerState::COMPLETE, 0, ""}}, 3000);
  EXPECT_TRUE(b.finished);
  EXPECT_TRUE(b.releases.empty()) << "the AM container ends when the AM unregisters";
  EXPECT_EQ(f.am.tasksDone(), 2);
  EXPECT_EQ(f.am.allocated(), 2);
}

TEST(TraceAm, AKilledTaskIsAskedAgain) {
  Fixture f(JobBuilder("j").maps(1, 100));
  ASSERT_TRUE(f.am.amStarted(cid(1, 1)).isOk());
  f.am.beat(0);
  f.answer({given(2, "host1:20000", 20)});
  TraceAm::Beat b = f.answer({}, {{cid(1, 2), protocol::ContainerState::COMPLETE, -106, ""}});
  EXPECT_EQ(asksAt(b, 20), (std::vector<std::string>{"*=1"}));
  EXPECT_EQ(f.am.tasksDone(), 0);
}

TEST(TraceAm, ANewAttemptStartsEveryTaskAgain) {
  Fixture f(JobBuilder("j").maps(2, 100));
  ASSERT_TRUE(f.am.amStarted(cid(1, 1)).isOk());
  f.am.beat(0);
  f.answer({given(2, "host1:20000", 20)});
  TraceAm::Beat lost = f.answer({}, {{cid(1, 1), protocol::ContainerState::COMPLETE, -100, ""}});
  EXPECT_TRUE(lost.restart);
  ASSERT_TRUE(f.am.amStarted(cid(2, 1)).isOk());
  EXPECT_EQ(f.am.attempt(), 2u);
  EXPECT_TRUE(f.am.amStarted(cid(1, 1)).isOk()) << "an older attempt's start changes nothing";
  EXPECT_EQ(f.am.attempt(), 2u);
  EXPECT_EQ(asksAt(f.am.beat(5000), 20), (std::vector<std::string>{"*=2"}));
}

TEST(TraceAm, BadContainerIdsAreErrors) {
  Fixture f(JobBuilder("j").maps(1, 100));
  EXPECT_FALSE(f.am.amStarted("container_nonsense").isOk());
  protocol::AllocateResponse r;
  r.allocatedContainers.push_back(given(2, "host1:1", 20));
  r.allocatedContainers[0].id = "bogus";
  EXPECT_FALSE(f.am.onAllocateResponse(r, 0).isOk());
}

TEST(TraceAm, PlacementTasksAreAskedWithSchedulingRequestsCarryingTheSpecText) {
  TraceJob job = JobBuilder("j").maps(2, 100).build();
  for (TraceTask& t : job.tasks) {
    t.allocationTags = {"hbase"};
    t.placementSpec = "notin,node,hbase";
  }
  sim::PlacementAsks pa;
  pa.constraints.emplace("notin,node,hbase", *placement::parseExpression("notin,node,hbase"));
  TraceAm am(job, sim::AmKind::kMapReduce, &pa, [](const std::string&) { return "/r"; });
  ASSERT_TRUE(am.amStarted(cid(1, 1)).isOk());
  TraceAm::Beat b = am.beat(0);
  EXPECT_TRUE(b.asks.empty());
  ASSERT_EQ(b.schedulingRequests.size(), 1u);
  EXPECT_EQ(b.schedulingRequests[0].placementConstraint, "notin,node,hbase");
  EXPECT_EQ(b.schedulingRequests[0].allocationTags, std::vector<std::string>{"hbase"});
  ASSERT_TRUE(b.schedulingRequests[0].resourceSizing.has_value());
  EXPECT_EQ(b.schedulingRequests[0].resourceSizing->numAllocations, 2);
  // One allocation rejected: its task is given up.
  protocol::AllocateResponse r;
  protocol::RejectedSchedulingRequestRecord rej;
  rej.reason = "COULD_NOT_PLACE_ON_NODE";
  rej.request = b.schedulingRequests[0];
  rej.request.resourceSizing->numAllocations = 1;
  r.rejectedSchedulingRequests.push_back(rej);
  ASSERT_TRUE(am.onAllocateResponse(r, 10).isOk());
  am.beat(10);
  EXPECT_EQ(am.rejectedTasks(), 1);
}

}  // namespace
}  // namespace spindle::sls
