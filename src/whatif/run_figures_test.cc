#include "whatif/run_figures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "whatif/comparison.h"
#include "whatif/whatif_report.h"

namespace spindle::whatif {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// A run of two jobs: one finished in root.a, one rejected for an unknown queue. With
// `preemption`, the preemption columns: j1 had 5 containers marked, 3 given back and 2 killed
// after 2 h of run time together, and one AM restart.
fs::path writeRun(const std::string& name, bool preemption = false) {
  const fs::path dir = fs::temp_directory_path() / ("spindle_run_figures_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  if (preemption) {
    write(dir / "jobs.csv",
          "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state,"
          "preemption_marked,preemption_released,preempted_killed,preempted_run_ms,am_restarts,"
          "reason\n"
          "j1,root.a,alice,mapreduce,0,1000,5000,1000,4000,1,FINISHED,5,3,2,7200000,1,\n"
          "j2,x,bob,mapreduce,0,,0,,,1,REJECTED,0,0,0,0,0,Application application_0_0002 "
          "submitted by user bob to unknown queue: x\n");
  } else {
    write(dir / "jobs.csv",
          "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state,"
          "reason\n"
          "j1,root.a,alice,mapreduce,0,1000,5000,1000,4000,1,FINISHED,\n"
          "j2,x,bob,mapreduce,0,,0,,,1,REJECTED,Application application_0_0002 submitted by "
          "user bob to unknown queue: x\n");
  }
  write(dir / "jobruntime.csv",
        "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n"
        "j1,0,0,0,5000\nj2,0,0,0,0\n");
  return dir;
}

TEST(RunFigures, UtilisationPreemptionRejectionsReservations) {
  const fs::path dir = writeRun("full", /*preemption=*/true);
  // Cluster 100 GB at t=0 and t=1 (then 200 GB at t=2: a node joined); root.a holds 50, 25, 100.
  write(dir / "metrics/variable.cluster.allocated.memory.csv", "t,value\n0,50\n1,25\n2,100\n");
  write(dir / "metrics/variable.cluster.available.memory.csv", "t,value\n0,50\n1,75\n2,100\n");
  write(dir / "metrics/counter.queue.a.allocated.memory.csv", "t,count\n0,50\n1,25\n2,100\n");
  write(dir / "preemption-rounds.csv",
        "t,observe_only,selected_mb,selected_vcores,containers_marked,containers_killed\n"
        "3000,false,4096,4,4,0\n6000,false,3072,3,3,2\n");
  write(dir / "reservation-metrics.json",
        R"({"reservationsAsked": 4, "reservationsAccepted": 3, "acceptanceRatio": 0.75,
            "acceptedFinished": 3, "acceptedMetDeadline": 2, "deadlineShare": 0.6667})");
  Result<RunFigures> f = readRunFigures(dir);
  ASSERT_TRUE(f.isOk()) << f.status().message();
  // (0.5 + 0.25 + 0.5) / 3
  EXPECT_NEAR(f->queueUtilisation.at("a"), 1.25 / 3, 1e-12);
  EXPECT_EQ(f->preemptedMarked, 7);
  EXPECT_EQ(f->preemptedKilled, 2);
  ASSERT_EQ(f->rejectedReasons.size(), 1u);
  EXPECT_EQ(f->rejectedReasons.begin()->second, 1);
  EXPECT_THAT(f->rejectedReasons.begin()->first, ::testing::HasSubstr("application_*"));
  ASSERT_TRUE(f->reservations.has_value());
  EXPECT_EQ(f->reservations->asked, 4);
  EXPECT_EQ(f->reservations->accepted, 3);
  EXPECT_DOUBLE_EQ(f->reservations->acceptanceRatio, 0.75);
  EXPECT_DOUBLE_EQ(f->reservations->deadlineShare, 0.6667);

  // The same run against one without metrics: the report carries both, empty where unknown.
  const fs::path bare = writeRun("bare");
  auto c = compareRuns({{"full", dir}, {"bare", bare}});
  ASSERT_TRUE(c.isOk()) << c.status().message();
  ASSERT_EQ(c->runFigures.size(), 2u);
  EXPECT_FALSE(c->runFigures[1].preemptedMarked.has_value());
  const std::string csv = comparisonCsv(*c);
  EXPECT_THAT(
      csv, ::testing::HasSubstr(",memory_share,preempted_marked,"
                                "preempted_released,preempted_killed,preempted_run_ms,am_restarts,"
                                "rejected_reasons,reservation_acceptance_ratio,"
                                "reservation_deadline_share\n"));
  // Preemption from jobs.csv (every scheduler), on every row: the all row and root.a have j1's.
  EXPECT_THAT(csv,
              ::testing::HasSubstr(",0.4167,5,3,2,7200000,1,Application application_* submitted by "
                                   "user bob to unknown queue: x=1,0.7500,0.6667\n"));
  EXPECT_THAT(csv, ::testing::HasSubstr("queue,root.a,full,1,1,0,0,0,0,1000.0,1000,1000,1000,"
                                        "4000.0,4000,4000,4000,0.4167,5,3,2,7200000,1,,,\n"));
  EXPECT_THAT(csv, ::testing::HasSubstr("queue,root.a,bare,1,1,0,0,0,0,1000.0,1000,1000,1000,"
                                        "4000.0,4000,4000,4000,,0,0,0,0,0,,,\n"));
  EXPECT_THAT(csv, ::testing::HasSubstr("queue,x,full,1,0,0,0,1,0,,,,,,,,,,0,0,0,0,0,,,\n"));
  WhatifSettings s{"SLS", "jobs.json", "", 1, "", {"conf/full", "conf/bare"}};
  const nlohmann::json j = comparisonJson(*c, s);
  EXPECT_EQ(j["runFigures"]["full"]["preemptedMarked"], 7);
  EXPECT_TRUE(j["runFigures"]["bare"]["preemptedMarked"].is_null());
  EXPECT_EQ(j["runFigures"]["full"]["reservations"]["accepted"], 3);
  EXPECT_NEAR(j["groups"][1]["runs"]["full"]["memoryShare"].get<double>(), 1.25 / 3, 1e-12);
  EXPECT_EQ(j["groups"][1]["runs"]["full"]["preemptionReleased"], 3);
  EXPECT_EQ(j["groups"][1]["runs"]["full"]["preemptedKilled"], 2);
  EXPECT_EQ(j["groups"][1]["runs"]["full"]["preemptedRunMs"], 7200000);
  EXPECT_EQ(j["groups"][0]["runs"]["full"]["amRestarts"], 1);
  EXPECT_EQ(j["groups"][0]["runs"]["bare"]["preemptionMarked"], 0);
  const std::string html = comparisonHtml(*c, s, {{"full", dir}, {"bare", bare}});
  EXPECT_THAT(html,
              ::testing::HasSubstr("containers marked for preemption</td><td>5</td><td>0</td>"));
  EXPECT_THAT(html,
              ::testing::HasSubstr("containers killed as preempted</td><td>2</td><td>0</td>"));
  EXPECT_THAT(html, ::testing::HasSubstr(
                        "running containers given back for preemption</td><td>3</td><td>0</td>"));
  EXPECT_THAT(html, ::testing::HasSubstr("their run time (container-h)</td><td>2.00</td>"));
  EXPECT_THAT(html, ::testing::HasSubstr("AM restarts</td><td>1</td><td>0</td>"));
  EXPECT_THAT(html, ::testing::HasSubstr("memory share a</td><td>41.67%</td><td>—</td>"));
  EXPECT_THAT(html, ::testing::HasSubstr("reservations accepted / asked</td><td>3 / 4 (75.00%)"));
}

TEST(RunFigures, MalformedFilesNameTheFile) {
  const fs::path dir = writeRun("bad_metrics");
  write(dir / "preemption-rounds.csv",
        "t,observe_only,selected_mb,selected_vcores,containers_marked,containers_killed\n"
        "3000,false,4096,4,many,0\n");
  Result<RunFigures> f = readRunFigures(dir);
  ASSERT_FALSE(f.isOk());
  EXPECT_THAT(f.status().message(), ::testing::HasSubstr("preemption-rounds.csv"));

  const fs::path res = writeRun("bad_reservations");
  write(res / "reservation-metrics.json", R"({"reservationsAsked": "four"})");
  f = readRunFigures(res);
  ASSERT_FALSE(f.isOk());
  EXPECT_THAT(f.status().message(),
              ::testing::HasSubstr("reservation-metrics.json: 'reservationsAsked'"));
  // And the comparison names the run.
  auto c = compareRuns({{"ok", writeRun("ok")}, {"broken", res}});
  ASSERT_FALSE(c.isOk());
  EXPECT_THAT(c.status().message(), ::testing::HasSubstr("run 'broken'"));
}

}  // namespace
}  // namespace spindle::whatif
