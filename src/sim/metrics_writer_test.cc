#include "sim/metrics_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace spindle::sim {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

MetricsSample sampleAt(TimeMs t) {
  MetricsSample s;
  s.timeMs = t;
  s.runningApps = 1;
  s.runningContainers = 3;
  s.allocatedMb = 3072;
  s.allocatedVcores = 3;
  s.availableMb = 5120;
  s.availableVcores = 5;
  s.pendingMb = 1536;
  s.queues["default"] = QueueSample{3072, 3, 1536, 1, 0, 0, std::nullopt};
  s.nodeMemoryUsage[3] = 1;
  s.trackedJobs["job_1"] = {3, 0};
  return s;
}

TEST(MetricsWriter, WritesSlsKeysInGbAndCodahaleCsvs) {
  const std::string dir = ::testing::TempDir() + "/metrics_writer_test";
  std::filesystem::remove_all(dir);
  MetricsWriter w;
  ASSERT_TRUE(w.open(dir, {.timings = false}).isOk());
  w.write(sampleAt(0));
  w.write(sampleAt(1500));
  ASSERT_TRUE(w.close().isOk());
  auto track = nlohmann::json::parse(slurp(dir + "/realtimetrack.json"));
  ASSERT_EQ(track.size(), 2u);
  EXPECT_EQ(track[1]["time"], 1.5);
  EXPECT_EQ(track[1]["cluster.allocated.memory"], 3.0) << "MB / 1024";
  EXPECT_EQ(track[1]["cluster.available.memory"], 5.0);
  EXPECT_EQ(track[1]["queue.default.pending.memory"], 1.5);
  EXPECT_EQ(track[1]["running.containers"], 3);
  EXPECT_FALSE(track[1].contains("scheduler.handle.timecost")) << "timings off";
  EXPECT_EQ(slurp(dir + "/metrics/counter.queue.default.allocated.memory.csv"),
            "t,count\n0,3072\n1.5,3072\n");
  EXPECT_EQ(slurp(dir + "/metrics/nodes.memory.30-40.csv"), "t,value\n0,1\n1.5,1\n");
  EXPECT_EQ(slurp(dir + "/metrics/variable.app.job_1.live.containers.csv"),
            "t,value\n0,3\n1.5,3\n");
  EXPECT_FALSE(
      std::filesystem::exists(dir + "/metrics/sampler.scheduler.operation.handle.timecost.csv"));
}

TEST(MetricsWriter, TimingsAddTimecostKeysAndHistogramFiles) {
  const std::string dir = ::testing::TempDir() + "/metrics_writer_timings";
  std::filesystem::remove_all(dir);
  MetricsWriter w;
  ASSERT_TRUE(w.open(dir, {.timings = true}).isOk());
  MetricsSample s = sampleAt(0);
  s.handleTimer.count = 4;
  s.handleTimer.mean = 0.25;
  w.write(s);
  ASSERT_TRUE(w.close().isOk());
  auto track = nlohmann::json::parse(slurp(dir + "/realtimetrack.json"));
  EXPECT_EQ(track[0]["scheduler.handle.timecost"], 0.25);
  const std::string h = slurp(dir + "/metrics/sampler.scheduler.operation.handle.timecost.csv");
  EXPECT_EQ(h.substr(0, h.find('\n')), "t,count,max,mean,min,stddev,p50,p75,p95,p98,p99,p999");
  EXPECT_NE(h.find("\n0,4,0,0.25,"), std::string::npos);
}

// SLS's FairSchedulerMetrics gauges, one file per queue, figure and resource; the queue's
// configured guarantee and maximum and its preemption totals in realtimetrack.json.
TEST(MetricsWriter, FairQueueGaugesLimitsAndPreemptionCounts) {
  const std::string dir = ::testing::TempDir() + "/metrics_writer_fair";
  std::filesystem::remove_all(dir);
  MetricsWriter w;
  ASSERT_TRUE(w.open(dir, {.timings = false}).isOk());
  MetricsSample s = sampleAt(0);
  s.fairQueues["default"] =
      QueueShares{Resource::of(4096, 4), Resource::of(3072, 3), Resource::of(1024, 1),
                  Resource::of(8192, 8), Resource::of(6144, 6)};
  s.queues["default"].limits = QueueLimits{Resource::of(1024, 1), Resource::of(8192, 8)};
  w.write(s);
  s.timeMs = 1000;
  s.queues["default"].containersMarked = 2;
  s.queues["default"].containersPreempted = 1;
  w.write(s);
  ASSERT_TRUE(w.close().isOk());
  const std::string m = dir + "/metrics/variable.queue.default.";
  EXPECT_EQ(slurp(m + "demand.memory.csv"), "t,value\n0,4096\n1,4096\n");
  EXPECT_EQ(slurp(m + "usage.vcores.csv"), "t,value\n0,3\n1,3\n");
  EXPECT_EQ(slurp(m + "minshare.memory.csv"), "t,value\n0,1024\n1,1024\n");
  EXPECT_EQ(slurp(m + "maxshare.vcores.csv"), "t,value\n0,8\n1,8\n");
  EXPECT_EQ(slurp(m + "fairshare.memory.csv"), "t,value\n0,6144\n1,6144\n");
  auto track = nlohmann::json::parse(slurp(dir + "/realtimetrack.json"));
  EXPECT_EQ(track[0]["queue.default.guarantee.memory"], 1.0);
  EXPECT_EQ(track[0]["queue.default.maximum.vcores"], 8);
  EXPECT_FALSE(track[0].contains("queue.default.containers.marked")) << "none yet";
  EXPECT_EQ(track[1]["queue.default.containers.marked"], 2);
  EXPECT_EQ(track[1]["queue.default.containers.preempted"], 1);
  EXPECT_EQ(slurp(dir + "/metrics/counter.queue.default.containers.preempted.csv"),
            "t,count\n1,1\n");
}

TEST(MetricsWriter, NoPreemptionRoundMeansNoPreemptionKeysOrFiles) {
  const std::string dir = ::testing::TempDir() + "/metrics_writer_nopreempt";
  std::filesystem::remove_all(dir);
  MetricsWriter w;
  ASSERT_TRUE(w.open(dir, {.timings = false}).isOk());
  w.write(sampleAt(0));
  ASSERT_TRUE(w.close().isOk());
  const std::string track = slurp(dir + "/realtimetrack.json");
  EXPECT_EQ(track.find("preemption"), std::string::npos);
  EXPECT_EQ(track.find("guaranteed"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir + "/preemption.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/preemption-rounds.csv"));
}

// Two leaves under root: root.a takes 4 GB from root.b (ideal 8, to-be-preempted 10, actual
// 2 after natural termination 0.2), selecting two 1 GB containers.
PreemptionRoundReport roundAt(TimeMs t) {
  PreemptionRoundReport r;
  r.timeMs = t;
  r.containersMarked = 2;
  r.containersKilled = 1;
  QueuePreemptionFigures root{"root",
                              "",
                              Resource::of(16384, 16),
                              Resource::of(16384, 16),
                              Resource::of(16384, 16),
                              Resource::of(4096, 4),
                              Resource::of(16384, 16),
                              Resource::of(10240, 10),
                              Resource::of(2048, 2),
                              {},
                              {},
                              Resource::of(2048, 2)};
  QueuePreemptionFigures a{"root.a",
                           "",
                           Resource::of(12288, 12),
                           Resource::of(16384, 16),
                           Resource::of(2048, 2),
                           Resource::of(4096, 4),
                           Resource::of(6144, 6),
                           {},
                           {},
                           {},
                           {},
                           {}};
  QueuePreemptionFigures b{"root.b",
                           "",
                           Resource::of(4096, 4),
                           Resource::of(16384, 16),
                           Resource::of(14336, 14),
                           {},
                           Resource::of(8192, 8),
                           Resource::of(10240, 10),
                           Resource::of(2048, 2),
                           {},
                           {},
                           Resource::of(2048, 2)};
  r.queues = {root, a, b};
  return r;
}

TEST(MetricsWriter, PreemptionFiguresPerQueueAndRoundFiles) {
  const std::string dir = ::testing::TempDir() + "/metrics_writer_preempt";
  std::filesystem::remove_all(dir);
  MetricsWriter w;
  ASSERT_TRUE(w.open(dir, {.timings = false}).isOk());
  w.writeRound(roundAt(3000));
  MetricsSample s = sampleAt(3000);
  s.preemption.emplace();
  s.preemption->rounds = 1;
  s.preemption->containersMarked = 2;
  s.preemption->containersKilled = 1;
  s.preemption->queues["b"] =
      QueuePreemptionSample{Resource::of(4096, 4), Resource::of(8192, 8), Resource::of(10240, 10),
                            Resource::of(2048, 2), Resource::of(2048, 2)};
  w.write(s);
  ASSERT_TRUE(w.close().isOk());
  auto track = nlohmann::json::parse(slurp(dir + "/realtimetrack.json"));
  EXPECT_EQ(track[0]["queue.b.guaranteed.memory"], 4.0);
  EXPECT_EQ(track[0]["queue.b.ideal.assigned.memory"], 8.0);
  EXPECT_EQ(track[0]["queue.b.ideal.preemption.memory"], 10.0);
  EXPECT_EQ(track[0]["queue.b.actual.preemption.memory"], 2.0);
  EXPECT_EQ(track[0]["queue.b.preemption.selected.vcores"], 2);
  EXPECT_EQ(track[0]["preemption.rounds"], 1);
  EXPECT_EQ(track[0]["preemption.containers.marked"], 2);
  EXPECT_EQ(track[0]["preemption.containers.killed"], 1);
  EXPECT_EQ(slurp(dir + "/metrics/variable.queue.b.actual.preemption.memory.csv"),
            "t,value\n3,2048\n");
  EXPECT_EQ(slurp(dir + "/metrics/counter.preemption.containers.marked.csv"), "t,count\n3,2\n");
  const std::string q = slurp(dir + "/preemption.csv");
  EXPECT_EQ(q.substr(0, q.find('\n')),
            "t,queue,partition,guaranteed_mb,guaranteed_vcores,maximum_mb,maximum_vcores,used_mb,"
            "used_vcores,pending_mb,pending_vcores,ideal_assigned_mb,ideal_assigned_vcores,"
            "ideal_preemption_mb,ideal_preemption_vcores,actual_preemption_mb,"
            "actual_preemption_vcores,selected_mb,selected_vcores");
  EXPECT_NE(q.find("\n3,root.b,,4096,4,16384,16,14336,14,0,0,8192,8,10240,10,2048,2,2048,2\n"),
            std::string::npos)
      << q;
  // Selected is summed over leaves only (root's 2 GB is its children's).
  EXPECT_EQ(slurp(dir + "/preemption-rounds.csv"),
            "t,observe_only,selected_mb,selected_vcores,containers_marked,containers_killed\n"
            "3,false,2048,2,2,1\n");
}

TEST(MetricsWriter, UnwritableFolderIsAnError) {
  MetricsWriter w;
  Status s = w.open("/proc/no-such-dir/x", {});
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("/proc/no-such-dir/x"), std::string::npos);
}

}  // namespace
}  // namespace spindle::sim
