#include "whatif/share_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "whatif/plan_queues.h"

namespace spindle::whatif {
namespace {

namespace fs = std::filesystem;

fs::path writeTrack(const std::string& name, const std::string& json) {
  const fs::path dir = fs::temp_directory_path() / ("spindle_share_chart_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "realtimetrack.json") << json;
  return dir;
}

TEST(PlanQueues, ReservationQueuesFoldIntoTheirPlan) {
  EXPECT_EQ(jobsQueueGroup("root.prod.reservation_0_0001"), "root.prod");
  EXPECT_EQ(jobsQueueGroup("root.prod.prod-default"), "root.prod");
  EXPECT_EQ(jobsQueueGroup("root.prod"), "root.prod");
  EXPECT_EQ(jobsQueueGroup("root.a.b-default"), "root.a.b-default");  // not a's default queue
  EXPECT_EQ(jobsQueueGroup("default"), "default");
  const auto one = metricQueueGroups({"dev", "prod-default", "reservation_0_0001"});
  ASSERT_EQ(one.size(), 2u);
  EXPECT_THAT(one.at("prod"), ::testing::ElementsAre("prod-default", "reservation_0_0001"));
  EXPECT_THAT(one.at("dev"), ::testing::ElementsAre("dev"));
  // Two plans: a reservation's plan is unknown from its leaf name, so it stays apart.
  const auto two = metricQueueGroups({"a-default", "b-default", "reservation_0_0002"});
  EXPECT_EQ(two.size(), 3u);
  EXPECT_TRUE(two.contains("reservation_0_0002"));
}

// A Capacity-like run (configured guarantee) and a Fair-like run (fair share) of queue a on a
// 100 GB cluster, three samples each.
TEST(ShareChart, ObtainedAgainstGuaranteedPerRun) {
  const fs::path cap = writeTrack("capacity", R"([
{"time":0,"cluster.allocated.memory":20,"cluster.available.memory":80,
 "queue.a.allocated.memory":10,"queue.a.pending.memory":5,"queue.a.guarantee.memory":50},
{"time":60,"cluster.allocated.memory":60,"cluster.available.memory":40,
 "queue.a.allocated.memory":60,"queue.a.pending.memory":0,"queue.a.guarantee.memory":50},
{"time":120,"cluster.allocated.memory":40,"cluster.available.memory":60,
 "queue.a.allocated.memory":30,"queue.a.pending.memory":2,"queue.a.guarantee.memory":50}])");
  const fs::path fair = writeTrack("fair", R"([
{"time":0,"cluster.allocated.memory":20,"cluster.available.memory":80,
 "queue.a.allocated.memory":20,"queue.a.pending.memory":0,"queue.a.guarantee.memory":0,
 "queue.a.fairshare.memory":100},
{"time":60,"cluster.allocated.memory":100,"cluster.available.memory":0,
 "queue.a.allocated.memory":40,"queue.a.pending.memory":10,"queue.a.guarantee.memory":0,
 "queue.a.fairshare.memory":50}])");
  Result<QueueShareRuns> s = readQueueShares({{"cap", cap}, {"fair", fair}});
  ASSERT_TRUE(s.isOk()) << s.status().message();
  ASSERT_EQ(s->count("a"), 1u);
  const std::vector<QueueShare>& a = s->at("a");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].guaranteeSource, "configured guarantee");
  EXPECT_NEAR(a[0].meanObtained, (0.1 + 0.6 + 0.3) / 3, 1e-12);
  EXPECT_NEAR(a[0].meanGuaranteed, 0.5, 1e-12);
  EXPECT_NEAR(a[0].belowWhilePending, 2.0 / 3, 1e-12);  // t=0 and t=120: pending, below 50 %
  EXPECT_EQ(a[1].run, 1u);
  EXPECT_EQ(a[1].guaranteeSource, "fair share");
  EXPECT_NEAR(a[1].meanObtained, (0.2 + 0.4) / 2, 1e-12);
  EXPECT_NEAR(a[1].meanGuaranteed, (1.0 + 0.5) / 2, 1e-12);
  EXPECT_NEAR(a[1].belowWhilePending, 0.5, 1e-12);  // t=60 only (t=0 had nothing pending)
  const std::string html = shareChartsHtml(*s, {"cap", "fair"});
  EXPECT_THAT(html, ::testing::HasSubstr("<h2>Guaranteed and obtained share</h2>"));
  EXPECT_THAT(html, ::testing::HasSubstr("id=\"chart-share-a\""));
  EXPECT_THAT(html, ::testing::HasSubstr("cap guaranteed (configured guarantee)"));
  EXPECT_THAT(html, ::testing::HasSubstr("fair guaranteed (fair share)"));
  EXPECT_THAT(html, ::testing::HasSubstr("stroke-dasharray=\"6 3\""));
  EXPECT_THAT(html, ::testing::HasSubstr("<tr><td>a</td><td>cap</td><td>configured "
                                         "guarantee</td><td>33.33%</td><td>50.00%</td>"
                                         "<td>66.67%</td></tr>"));
  EXPECT_THAT(html, ::testing::HasSubstr("<tr><td>a</td><td>fair</td><td>fair share</td>"
                                         "<td>30.00%</td><td>75.00%</td><td>50.00%</td></tr>"));
}

TEST(ShareChart, MalformedTrackNamesTheRun) {
  const fs::path bad = writeTrack("bad", "[{\"time\":0,\"queue.a.allocated.memory\":\"x\"}]");
  Result<QueueShareRuns> s = readQueueShares({{"broken", bad}});
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.status().message(), ::testing::HasSubstr("run 'broken'"));
  EXPECT_THAT(s.status().message(), ::testing::HasSubstr("realtimetrack.json"));
}

}  // namespace
}  // namespace spindle::whatif
