#include "replay/metrics_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace spindle::replay {
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
  s.queues["default"] = QueueSample{3072, 3, 1536, 1};
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
  EXPECT_EQ(slurp(dir + "/metrics/variable.app.job_1.live.containers.csv"), "t,value\n0,3\n1.5,3\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/metrics/sampler.scheduler.operation.handle.timecost.csv"));
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

TEST(MetricsWriter, UnwritableFolderIsAnError) {
  MetricsWriter w;
  Status s = w.open("/proc/no-such-dir/x", {});
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("/proc/no-such-dir/x"), std::string::npos);
}

}  // namespace
}  // namespace spindle::replay
