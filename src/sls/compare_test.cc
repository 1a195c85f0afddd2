#include "sls/compare.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace spindle::sls {
namespace {

TEST(Compare, PairsJobsByIdWithDeltasAndTheMakespanRatio) {
  std::vector<JobRuntime> sim = {{"a", 0, 10'000}, {"b", 5000, 20'000}, {"c", 6000, 9000}};
  std::vector<JobRuntime> sls = {{"b", 5010, 22'000}, {"a", 2, 11'000}, {"d", 0, std::nullopt}};
  RunComparison c = compareRuns(sim, sls);
  ASSERT_EQ(c.jobs.size(), 4u);
  EXPECT_EQ(c.jobs[0].id, "a");
  EXPECT_EQ(c.jobs[0].startDelta(), 2);
  EXPECT_EQ(c.jobs[0].endDelta(), 1000);
  EXPECT_EQ(c.jobs[1].endDelta(), 2000);
  EXPECT_FALSE(c.jobs[2].endDelta().has_value()) << "c ran in the simulator only";
  EXPECT_EQ(c.onlySim, std::vector<std::string>{"c"});
  EXPECT_EQ(c.onlySls, std::vector<std::string>{"d"});
  EXPECT_EQ(c.simMakespanMs, 20'000);
  EXPECT_EQ(c.slsMakespanMs, 22'000);
  EXPECT_DOUBLE_EQ(c.makespanRatio(), 1.1);
  EXPECT_EQ(c.unfinishedSls, 1);
  EXPECT_DOUBLE_EQ(c.meanAbsEndDeltaMs, 1500);
  EXPECT_EQ(c.maxAbsEndDeltaMs, 2000);
  const std::string table = formatComparison(c);
  EXPECT_NE(table.find("ratio sls/sim 1.100"), std::string::npos) << table;
  EXPECT_NE(table.find("+2000"), std::string::npos) << table;
  EXPECT_NE(table.find("only in sim: c"), std::string::npos) << table;
  EXPECT_NE(table.find("only in sls: d"), std::string::npos) << table;
}

TEST(Compare, ReadsJobRuntimeCsvAndNamesTheFileOnErrors) {
  const auto dir = std::filesystem::temp_directory_path() / "spindle_sls_compare_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "jobruntime.csv").string();
  {
    std::ofstream f(path);
    f << "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n"
      << "\"job,1\",0,100,0,120\n"
      << "job_2,5,,7,\n";
  }
  auto rows = readRuntimes(path);
  ASSERT_TRUE(rows.isOk()) << rows.status().message();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].id, "job,1");
  EXPECT_EQ((*rows)[0].endMs, 120);
  EXPECT_EQ((*rows)[1].startMs, 7);
  EXPECT_FALSE((*rows)[1].endMs.has_value());
  auto missing = readRuntimes((dir / "none.csv").string());
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.status().message().find("none.csv"), std::string::npos);
  {
    std::ofstream f(path);
    f << "JobID,simulate_start_time,simulate_end_time\njob_1,zero,1\n";
  }
  auto bad = readRuntimes(path);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("simulate_start_time"), std::string::npos)
      << bad.status().message();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace spindle::sls
