#include "nm/disk_checker.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

constexpr uint64_t kGb = 1024ull * 1024 * 1024;

// Each dir's file system, set by the test; a dir without one has an error.
struct FakeDisks {
  std::map<std::string, DiskSpace> space;
  DirProbe probe() {
    return [this](const std::string& dir) -> Result<DiskSpace> {
      auto it = space.find(dir);
      if (it == space.end()) return failedPrecondition("Cannot create directory: {}", dir);
      return it->second;
    };
  }
  void usedPercent(const std::string& dir, double percent) {
    space[dir] = {100 * kGb, static_cast<uint64_t>((100 - percent) * kGb)};
  }
};

TEST(DiskCheckSettings, YarnsDefaultsAndBadValues) {
  Configuration conf;
  auto s = readDiskCheckSettings(conf);
  ASSERT_TRUE(s) << s.status().message();
  EXPECT_TRUE(s->enabled);
  EXPECT_EQ(s->intervalMs, 120'000);
  EXPECT_DOUBLE_EQ(s->minHealthyDisks, 0.25);
  EXPECT_DOUBLE_EQ(s->maxUtilizationPercent, 90.0);
  EXPECT_DOUBLE_EQ(s->lowWatermarkPercent, 90.0);
  EXPECT_EQ(s->minFreeMb, 0);
  conf.set("yarn.nodemanager.disk-health-checker.min-healthy-disks", "1.5");
  EXPECT_NE(readDiskCheckSettings(conf).status().message().find("min-healthy-disks"),
            std::string::npos);
  conf.set("yarn.nodemanager.disk-health-checker.min-healthy-disks", "0.5");
  conf.set("yarn.nodemanager.disk-health-checker.interval-ms", "0");
  EXPECT_NE(readDiskCheckSettings(conf).status().message().find("interval-ms"), std::string::npos);
  conf.set("yarn.nodemanager.disk-health-checker.interval-ms", "1000");
  conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "120");
  conf.set(
      "yarn.nodemanager.disk-health-checker.disk-utilization-watermark-low-per-disk-percentage",
      "150");
  s = readDiskCheckSettings(conf);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->maxUtilizationPercent, 100.0);  // clamped, as DirectoryCollection does
  EXPECT_DOUBLE_EQ(s->lowWatermarkPercent, 100.0);
}

TEST(DiskChecker, AFullOrBrokenDirMakesTheNodeUnhealthyWithYarnsReport) {
  FakeDisks fs;
  fs.usedPercent("/l", 50);
  fs.usedPercent("/g", 50);
  DiskChecker disks(DiskCheckSettings{}, {"/l"}, {"/g"}, fs.probe());
  disks.check(1000);
  EXPECT_TRUE(disks.status().healthy);
  EXPECT_EQ(disks.status().report, "");
  EXPECT_EQ(disks.status().checkedAtMs, 1000);

  fs.usedPercent("/l", 95);
  disks.check(2000);
  EXPECT_FALSE(disks.status().healthy);
  EXPECT_EQ(disks.status().report,
            "1/1 local-dirs usable space is below configured utilization percentage/no more "
            "usable space [ /l : used space above threshold of 90.0% ]");

  fs.space.erase("/g");
  disks.check(3000);
  EXPECT_EQ(disks.status().report,
            "1/1 local-dirs usable space is below configured utilization percentage/no more "
            "usable space [ /l : used space above threshold of 90.0% ] ; 1/1 log-dirs have "
            "errors: [ /g : Cannot create directory: /g ]");

  fs.usedPercent("/l", 10);
  fs.usedPercent("/g", 10);
  disks.check(4000);
  EXPECT_TRUE(disks.status().healthy);
  EXPECT_EQ(disks.status().report, "");
}

TEST(DiskChecker, AFullDirIsGoodAgainOnlyBelowTheLowWatermarks) {
  FakeDisks fs;
  fs.usedPercent("/l", 95);
  DiskCheckSettings s;
  s.lowWatermarkPercent = 80;
  s.minFreeMb = 1024;
  s.minFreeHighMb = 20 * 1024;
  DiskChecker disks(s, {"/l"}, {}, fs.probe());
  disks.check(1);
  EXPECT_FALSE(disks.status().healthy);
  fs.usedPercent("/l", 85);  // below the high mark, above the low one: still full
  disks.check(2);
  EXPECT_FALSE(disks.status().healthy);
  EXPECT_NE(disks.status().report.find("above threshold of 80.0%"), std::string::npos);
  fs.usedPercent("/l", 79);  // 21 GB free: good again
  disks.check(3);
  EXPECT_TRUE(disks.status().healthy);
  fs.space["/l"] = {100 * kGb, 512ull * 1024 * 1024};  // 512 MB free of 100 GB
  disks.check(4);
  EXPECT_FALSE(disks.status().healthy);
  fs.space["/l"] = {100 * kGb, 10 * kGb};  // 90 % used, 10 GB free: under the 20 GB high mark
  disks.check(5);
  EXPECT_EQ(disks.status().report,
            "1/1 local-dirs usable space is below configured utilization percentage/no more "
            "usable space [ /l : used space above threshold of 80.0% ]");
}

TEST(DiskChecker, MinHealthyDisksIsAFractionOfEachKind) {
  FakeDisks fs;
  for (const char* d : {"/a", "/b", "/c", "/d"}) fs.usedPercent(d, 10);
  fs.usedPercent("/a", 99);
  fs.usedPercent("/b", 99);
  fs.usedPercent("/c", 99);
  DiskChecker disks(DiskCheckSettings{}, {"/a", "/b", "/c", "/d"}, {}, fs.probe());
  disks.check(1);
  EXPECT_TRUE(disks.status().healthy);  // 1 of 4 good: 0.25 is enough
  EXPECT_NE(disks.status().report.find("3/4 local-dirs"), std::string::npos);
  fs.usedPercent("/d", 99);
  disks.check(2);
  EXPECT_FALSE(disks.status().healthy);
}

TEST(DiskChecker, DisabledReportsNothing) {
  FakeDisks fs;
  DiskCheckSettings s;
  s.enabled = false;
  DiskChecker disks(s, {"/missing"}, {"/missing-too"}, fs.probe());
  disks.check(1);
  EXPECT_TRUE(disks.status().healthy);
  EXPECT_EQ(disks.status().report, "");
}

TEST(DiskChecker, ProbesARealDirectory) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("spindle-disk-check-" + std::to_string(::getpid())) / "sub")
                              .string();
  auto space = probeDir(dir);  // created
  ASSERT_TRUE(space) << space.status().message();
  EXPECT_GT(space->totalBytes, 0u);
  EXPECT_LE(space->usableBytes, space->totalBytes);
  const std::string file = dir + "/file";
  std::ofstream(file) << "x";
  auto notDir = probeDir(file);
  ASSERT_FALSE(notDir);
  EXPECT_NE(notDir.status().message().find(file), std::string::npos);
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

TEST(CombinedHealth, JoinsTheScriptAndTheDisks) {
  protocol::NodeHealthStatus script{true, "", 500};
  auto h = combinedHealth(script, DisksHealth{true, "", 700});
  EXPECT_TRUE(h.isNodeHealthy);
  EXPECT_EQ(h.healthReport, "");
  EXPECT_EQ(h.lastHealthReportTime, 700);
  script = {false, "ERROR bad fan", 900};
  h = combinedHealth(script, DisksHealth{false, "1/1 log-dirs have errors: [ /g : x ]", 700});
  EXPECT_FALSE(h.isNodeHealthy);
  EXPECT_EQ(h.healthReport, "ERROR bad fan;1/1 log-dirs have errors: [ /g : x ]");
  EXPECT_EQ(h.lastHealthReportTime, 900);
  h = combinedHealth({true, "", 1}, DisksHealth{false, "disk", 2});
  EXPECT_FALSE(h.isNodeHealthy);
  EXPECT_EQ(h.healthReport, "disk");
}

}  // namespace
}  // namespace spindle::nm
