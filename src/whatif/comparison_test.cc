#include "whatif/comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "whatif/whatif_report.h"

namespace spindle::whatif {
namespace {

namespace fs = std::filesystem;

// A run folder with jobs.csv and jobruntime.csv; each job: id, queue, user, submit, start, end.
struct Job {
  std::string id, queue, user;
  int64_t submit, start, end;
  std::string state = "FINISHED";
};

fs::path writeRun(const std::string& name, const std::vector<Job>& jobs) {
  const fs::path dir = fs::temp_directory_path() / ("spindle_whatif_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream csv(dir / "jobs.csv");
  csv << "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state\n";
  std::ofstream rt(dir / "jobruntime.csv");
  rt << "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n";
  for (const Job& j : jobs) {
    csv << j.id << ',' << j.queue << ',' << j.user << ",mapreduce," << j.submit << ',' << j.start
        << ',' << j.end << ',' << j.start - j.submit << ',' << j.end - j.start << ",1," << j.state
        << '\n';
    rt << j.id << ",0,0," << j.submit << ',' << j.end << '\n';
  }
  return dir;
}

TEST(Comparison, GroupsPercentilesPairsAndHeadline) {
  const fs::path base = writeRun("base", {{"j1", "root.a", "alice", 0, 1000, 11000},
                                          {"j2", "root.a", "bob", 0, 2000, 12000},
                                          {"j3", "root.a", "alice", 0, 3000, 13000},
                                          {"j4", "root.b", "bob", 0, 500, 10500}});
  const fs::path more = writeRun("more", {{"j1", "root.a", "alice", 0, 1000, 11000},
                                          {"j2", "root.a", "bob", 0, 5000, 15000},
                                          {"j3", "root.a", "alice", 0, 9000, 19000},
                                          {"j4", "root.b", "bob", 0, 500, 10500}});
  auto c = compareRuns({{"base", base}, {"more", more}});
  ASSERT_TRUE(c.isOk()) << c.status().message();
  EXPECT_EQ(c->labels, (std::vector<std::string>{"base", "more"}));
  // all, queues root.a and root.b, users alice and bob.
  ASSERT_EQ(c->groups.size(), 5u);
  EXPECT_EQ(c->groups[1].kind, "queue");
  EXPECT_EQ(c->groups[1].name, "root.a");
  const GroupStats& a0 = c->groups[1].perRun[0];
  const GroupStats& a1 = c->groups[1].perRun[1];
  EXPECT_EQ(a0.jobs, 3);
  EXPECT_EQ(a0.finished, 3);
  EXPECT_EQ(*a0.wait.p50, 2000);
  EXPECT_EQ(*a1.wait.p50, 5000);
  EXPECT_EQ(*a1.wait.p95, 9000);
  EXPECT_DOUBLE_EQ(*a1.wait.mean, 5000.0);
  EXPECT_EQ(*a1.runtime.p50, 10000);
  // Pairs: diffs 0, 3000, 6000, 0 -> median (nearest rank 2 of 4) 0; two of four longer.
  EXPECT_EQ(c->paired[1].pairs, 4);
  EXPECT_EQ(*c->paired[1].medianWaitDiffMs, 0);
  EXPECT_DOUBLE_EQ(c->paired[1].shareWaitLonger, 0.5);
  EXPECT_DOUBLE_EQ(c->paired[1].shareWaitShorter, 0.0);
  // Largest relative change first: alice's p95 wait 3000 -> 9000 (+200 %) ties root.a's; the
  // all-jobs p95 (3000 -> 9000) too; stable order keeps "all" first.
  ASSERT_FALSE(c->headline.empty());
  EXPECT_EQ(c->headline[0].group, "all");
  EXPECT_EQ(c->headline[0].metric, "wait p95");
  EXPECT_DOUBLE_EQ(*c->headline[0].relative, 2.0);
  // root.b did not change: it is in no headline entry.
  for (const Change& ch : c->headline) EXPECT_NE(ch.group, "queue root.b");

  const std::string csv = comparisonCsv(*c);
  EXPECT_THAT(csv, ::testing::HasSubstr("queue,root.a,more,3,3,0,0,0,0,5000.0,5000,9000,9000,"));
  WhatifSettings s{"SLS", "jobs.json", "", 1, "", {"conf/base", "conf/more"}};
  const nlohmann::json j = comparisonJson(*c, s);
  EXPECT_EQ(j["groups"][1]["runs"]["more"]["wait"]["p95Ms"], 9000);
  EXPECT_EQ(j["paired"]["more"]["pairs"], 4);
  const std::string html = comparisonHtml(*c, s, {{"base", base}, {"more", more}});
  EXPECT_THAT(html, ::testing::HasSubstr("+200.0%"));
  EXPECT_THAT(html, ::testing::Not(::testing::HasSubstr("<script")));
}

// Two seeds per configuration: a change inside the baseline's seed spread is not beyond it.
TEST(Comparison, SeedSpread) {
  auto run = [](const std::string& name, int64_t wait) {
    return writeRun(name, {{"j1", "root.a", "alice", 0, wait, wait + 10000}});
  };
  const fs::path b1 = run("s_b1", 1000), b2 = run("s_b2", 9000);    // baseline: 1 s .. 9 s
  const fs::path n1 = run("s_n1", 5000), n2 = run("s_n2", 6000);    // inside: 5 s .. 6 s
  const fs::path f1 = run("s_f1", 50000), f2 = run("s_f2", 60000);  // beyond: 50 s .. 60 s
  auto c = compareRuns({{"base", b1, {b2}}, {"near", n1, {n2}}, {"far", f1, {f2}}});
  ASSERT_TRUE(c.isOk()) << c.status().message();
  EXPECT_EQ(c->seeds, 2u);
  const Range r = c->groups[0].spread[0].at("wait p95");
  EXPECT_DOUBLE_EQ(r.min, 1000);
  EXPECT_DOUBLE_EQ(r.max, 9000);
  for (const Change& ch : c->headline) {
    if (ch.group != "all" || ch.metric != "wait p95") continue;
    ASSERT_TRUE(ch.beyondSpread.has_value());
    EXPECT_EQ(*ch.beyondSpread, ch.run == "far") << ch.run;
  }
  auto uneven = compareRuns({{"base", b1, {b2}}, {"near", n1}});
  ASSERT_FALSE(uneven.isOk());
  EXPECT_THAT(uneven.status().message(), ::testing::HasSubstr("every run needs as many"));
}

TEST(Comparison, RefusesBadInput) {
  const fs::path base = writeRun("bad_base", {{"j1", "root.a", "alice", 0, 1000, 2000}});
  EXPECT_FALSE(compareRuns({{"only", base}}).isOk());
  auto dup = compareRuns({{"x", base}, {"x", base}});
  ASSERT_FALSE(dup.isOk());
  EXPECT_THAT(dup.status().message(), ::testing::HasSubstr("two runs are labelled 'x'"));
  auto missing = compareRuns({{"x", base}, {"y", base / "nowhere"}});
  ASSERT_FALSE(missing.isOk());
  EXPECT_THAT(missing.status().message(), ::testing::HasSubstr("run 'y'"));
}

}  // namespace
}  // namespace spindle::whatif
