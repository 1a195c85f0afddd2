#include "nm/container_launcher.h"

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;

class LauncherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("spindle-launcher-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    launcher = std::make_unique<ContainerLauncher>(
        LauncherDirs{(root / "logs").string(), (root / "local").string()},
        std::map<std::string, std::string>{{"SPINDLE_RM_ADDRESS", "127.0.0.1:1"}}, 100);
  }
  void TearDown() override {
    launcher->stopAll(-106, "test end");
    waitDone();
    fs::remove_all(root);
  }
  // Polls (bounded) until no container runs.
  bool waitDone() {
    for (int i = 0; i < 500 && launcher->running() > 0; ++i) {
      launcher->reap();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    launcher->reap();
    return launcher->running() == 0;
  }
  std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  fs::path root;
  std::unique_ptr<ContainerLauncher> launcher;
};

TEST_F(LauncherTest, RunsWithEnvironmentLogsAndExitCode) {
  ASSERT_TRUE(launcher
                  ->start({"container_1_0001_01_000002",
                           "application_1_0001",
                           {"echo $CONTAINER_ID $APPLICATION_ID $SPINDLE_RM_ADDRESS $X;",
                            "pwd; echo err >&2; exit 3"},
                           {{"X", "x"}},
                           {128, 1}})
                  .isOk());
  ASSERT_TRUE(waitDone());
  auto st = launcher->statuses();
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].state, protocol::ContainerState::COMPLETE);
  EXPECT_EQ(st[0].exitStatus, 3);
  const fs::path logs = root / "logs/application_1_0001/container_1_0001_01_000002";
  EXPECT_EQ(read(logs / "stdout"),
            "container_1_0001_01_000002 application_1_0001 127.0.0.1:1 x\n" +
                (root / "local/appcache/application_1_0001/container_1_0001_01_000002").string() +
                "\n");
  EXPECT_EQ(read(logs / "stderr"), "err\n");
  launcher->acknowledge(st);
  EXPECT_TRUE(launcher->statuses().empty());
  // A known id is refused while it is known.
  ASSERT_TRUE(launcher->start({"c9", "a", {"true"}, {}, {}}).isOk());
  EXPECT_FALSE(launcher->start({"c9", "a", {"true"}, {}, {}}).isOk());
}

TEST_F(LauncherTest, StopKillsTheWholeProcessTree) {
  // The container starts a child in its own session (out of the group) and records its pid.
  ASSERT_TRUE(launcher
                  ->start({"container_1_0001_01_000003",
                           "application_1_0001",
                           {"setsid sleep 60 & echo $! > child.pid; sleep 60"},
                           {},
                           {128, 1}})
                  .isOk());
  const fs::path pidFile =
      root / "local/appcache/application_1_0001/container_1_0001_01_000003/child.pid";
  for (int i = 0; i < 300 && read(pidFile).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const pid_t child = std::stoi(read(pidFile));
  ASSERT_EQ(::kill(child, 0), 0);
  ASSERT_TRUE(launcher->stop("container_1_0001_01_000003", -105, "stop by AM").isOk());
  ASSERT_TRUE(waitDone());
  auto st = launcher->statuses();
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].exitStatus, -105);
  EXPECT_NE(st[0].diagnostics.find("stop by AM"), std::string::npos);
  // The escaped child is gone too (it may linger as a zombie of init for a moment).
  bool gone = false;
  for (int i = 0; i < 300 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
    std::string line;
    gone = !std::getline(stat, line) || line.find(") Z") != std::string::npos;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone);
  EXPECT_FALSE(launcher->stop("nope", -105, "x").isOk());
}

TEST_F(LauncherTest, APlainCommandRunsWithoutAShell) {
  // No shell syntax: the NM starts `cat` itself, so its parent is this process. With a
  // redirection the shell runs it, and the parent of `cat` is the shell.
  ASSERT_TRUE(launcher->start({"c1", "a", {"exec cat /proc/self/status"}, {}, {128, 1}}).isOk());
  ASSERT_TRUE(launcher->start({"c2", "a", {"cat /proc/self/status 1>&1"}, {}, {128, 1}}).isOk());
  ASSERT_TRUE(waitDone());
  auto parentOf = [&](const std::string& c) {
    const std::string status = read(root / "logs/a" / c / "stdout");
    const size_t at = status.find("PPid:");
    return at == std::string::npos ? -1 : std::stoi(status.substr(at + 5));
  };
  EXPECT_EQ(parentOf("c1"), ::getpid());
  const int shell = parentOf("c2");
  EXPECT_GT(shell, 0);
  EXPECT_NE(shell, ::getpid());
  for (const auto& st : launcher->statuses()) EXPECT_EQ(st.exitStatus, 0) << st.containerId;
}

TEST(LaunchUser, RootOnlyWhenAllowed) {
  EXPECT_TRUE(launchUserAllowed("container_1_0001_01_000001", 1000, false).isOk());
  EXPECT_TRUE(launchUserAllowed("container_1_0001_01_000001", 0, true).isOk());
  Status refused = launchUserAllowed("container_1_0001_01_000001", 0, false);
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.message(),
            "Container container_1_0001_01_000001 refused: the NodeManager runs as root and "
            "containers never run as root unless spindle.nodemanager.allow-root is true");
}

}  // namespace
}  // namespace spindle::nm
