// The cgroup v2 handler against a folder laid out like a cgroup (plain files stand in for the
// kernel's), so the test runs where no delegated cgroup v2 hierarchy exists; the daemon test
// uses a real one when the machine has it.
#include "nm/cgroups_v2.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "app/container_state.h"
#include "nm/container_launcher.h"

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class CgroupsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("spindle-cgroup-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
    std::ofstream(root / "cgroup.controllers") << "cpuset cpu io memory pids\n";
  }
  void TearDown() override { fs::remove_all(root); }
  CgroupsSettings settings(bool strict = false) {
    CgroupsSettings s;
    s.root = root.string();
    s.strict = strict;
    s.nodeVcores = 8;
    s.processors = 4;
    return s;
  }
  fs::path root;
};

TEST(CgroupsMathTest, WeightQuotaAndEvents) {
  EXPECT_EQ(cpuWeight(1), 100);
  EXPECT_EQ(cpuWeight(0), 1);
  EXPECT_EQ(cpuWeight(500), 10000);
  EXPECT_EQ(cpuMax(2, 8, 4), "100000 100000");  // 2 of 8 vcores on 4 processors: one CPU
  EXPECT_EQ(oomKills("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n"), 1);
  EXPECT_EQ(oomKills("oom 0\noom_kill 0\n"), 0);
}

TEST_F(CgroupsTest, OpenEnablesControllersAndCreateWritesLimits) {
  auto cg = Cgroups::open(settings(true));
  ASSERT_TRUE(cg.isOk()) << cg.status().toString();
  EXPECT_EQ(slurp(root / "cgroup.subtree_control"), "+memory +cpu");
  const std::string id = "container_1_0001_01_000002";
  fs::create_directories(root / id);
  std::ofstream(root / id / "cpu.weight") << "100";
  auto dir = cg->create(id, {512, 2});
  ASSERT_TRUE(dir.isOk()) << dir.status().toString();
  EXPECT_EQ(slurp(root / id / "memory.max"), std::to_string(int64_t{512} << 20));
  EXPECT_EQ(slurp(root / id / "cpu.weight"), "200");
  EXPECT_EQ(slurp(root / id / "cpu.max"), "100000 100000");
  cg->kill(*dir);
  EXPECT_EQ(slurp(root / id / "cgroup.kill"), "1");
  cg->remove(*dir);
  EXPECT_FALSE(fs::exists(root / id));
}

TEST_F(CgroupsTest, NotACgroupFolderIsRefusedWithTheReason) {
  fs::remove(root / "cgroup.controllers");
  auto cg = Cgroups::open(settings());
  ASSERT_FALSE(cg.isOk());
  EXPECT_NE(cg.status().message().find("is not a cgroup v2 folder"), std::string::npos);
  CgroupsSettings missing = settings();
  missing.root = (root / "nope").string();
  EXPECT_NE(Cgroups::open(missing).status().message().find("is not a folder"), std::string::npos);
}

TEST_F(CgroupsTest, LauncherJoinsTheCgroupAndReportsAnOomKillAsPmem) {
  auto cg = Cgroups::open(settings());
  ASSERT_TRUE(cg.isOk());
  ContainerLauncher l(LauncherDirs{(root / "logs").string(), (root / "local").string()}, {}, 100);
  l.useCgroups(std::move(*cg));
  const std::string id = "container_1_0001_01_000003";
  fs::create_directories(root / id);
  std::ofstream(root / id / "cgroup.procs") << "";
  // The "kernel" records an OOM kill while the container runs.
  ASSERT_TRUE(
      l.start({id,
               "application_1_0001",
               {"echo oom_kill 1 > " + (root / id / "memory.events").string() + "; exit 137"},
               {},
               {128, 1}})
          .isOk());
  auto running = l.runningContainers();
  ASSERT_EQ(running.size(), 1u);
  EXPECT_TRUE(running[0].inCgroup);
  for (int i = 0; i < 500 && l.running() > 0; ++i) {
    l.reap();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto st = l.status(id);
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->exitStatus, ContainerExitStatus::KILLED_EXCEEDED_PMEM);
  EXPECT_NE(st->diagnostics.find("is running beyond the 'PHYSICAL' memory limit"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(root / id));  // removed after the exit
}

}  // namespace
}  // namespace spindle::nm
