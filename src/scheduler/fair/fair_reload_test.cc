// Fair Scheduler: the allocation file named by yarn.scheduler.fair.allocation.file is reloaded
// while running (AllocationFileLoaderService), driven by MonitorTick on a simulated clock that
// counts epoch ms; the test sets the real file's modification time instead of sleeping.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

namespace stdfs = std::filesystem;
using fstest::allocationXml;

constexpr TimeMs kT0 = 1'800'000'000'000;  // the simulated clock, in epoch ms

class FairReload : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = stdfs::temp_directory_path() /
            fmt::format("spindle-fair-reload-{}-{}.xml",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                        static_cast<long>(::getpid()));
  }
  void TearDown() override { stdfs::remove(path_); }

  void write(const std::string& xml, TimeMs mtime) {
    std::ofstream(path_) << xml;
    const std::chrono::sys_time<std::chrono::milliseconds> sys{std::chrono::milliseconds(mtime)};
    stdfs::last_write_time(path_, std::chrono::file_clock::from_sys(sys));
  }
  void start() {
    conf_.set("yarn.scheduler.fair.allocation.file", path_.string());
    auto s = FairScheduler::create(conf_, clock_, rng_);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    sched_ = std::move(s).value();
  }
  // The replay engine's MonitorTick at `t`.
  void tickAt(TimeMs t) {
    clock_.setMs(t);
    ASSERT_TRUE(sched_->handle(MonitorTick{}).isOk());
    ASSERT_TRUE(sched_->checkInvariants().isOk());
  }
  bool has(const std::string& queue) const { return sched_->queues().find(queue) != nullptr; }
  float weight(const std::string& queue) const { return sched_->queues().find(queue)->weight(); }

  stdfs::path path_;
  Configuration conf_;
  SimulatedClock clock_{kT0};
  Rng rng_{1};
  std::unique_ptr<FairScheduler> sched_;
};

TEST_F(FairReload, ChangedFileIsReloadedOnceQuietForFiveSeconds) {
  write(allocationXml(R"(<queue name="a"/>)"), kT0 - 60000);
  start();
  ASSERT_NE(sched_->allocationWatcher(), nullptr);
  tickAt(kT0);
  EXPECT_FALSE(has("root.b"));

  write(allocationXml(R"(<queue name="a"/><queue name="b"><weight>3</weight></queue>)"),
        kT0 + 1000);
  tickAt(kT0 + 7000);  // quiet long enough, but the next check is at +10 s
  EXPECT_FALSE(has("root.b"));
  tickAt(kT0 + 10000);  // check: modified at +1 s, now > +6 s
  EXPECT_TRUE(has("root.b"));
  EXPECT_FLOAT_EQ(weight("root.b"), 3.0f);

  // Written 2 s before the next check: that check waits, the one after reloads.
  write(allocationXml(R"(<queue name="a"/><queue name="b"><weight>5</weight></queue>)"),
        kT0 + 18000);
  tickAt(kT0 + 20000);
  EXPECT_FLOAT_EQ(weight("root.b"), 3.0f);
  tickAt(kT0 + 30000);
  EXPECT_FLOAT_EQ(weight("root.b"), 5.0f);
  EXPECT_TRUE(sched_->allocationWatcher()->lastError().isOk());
}

TEST_F(FairReload, InvalidFileKeepsTheTreeInForceUntilFixed) {
  write(allocationXml(R"(<queue name="a"><weight>2</weight></queue>)"), kT0 - 60000);
  start();
  tickAt(kT0);
  write(allocationXml(R"(<queue name="a"><weight>heavy</weight></queue><queue name="b"/>)"),
        kT0 + 1000);
  tickAt(kT0 + 10000);
  EXPECT_FALSE(has("root.b"));
  EXPECT_FLOAT_EQ(weight("root.a"), 2.0f);
  const Status& err = sched_->allocationWatcher()->lastError();
  EXPECT_FALSE(err.isOk());
  EXPECT_NE(err.message().find(path_.string()), std::string::npos) << err.message();
  EXPECT_NE(err.message().find("weight"), std::string::npos) << err.message();

  write(allocationXml(R"(<queue name="a"><weight>4</weight></queue><queue name="b"/>)"),
        kT0 + 12000);
  tickAt(kT0 + 20000);
  EXPECT_TRUE(has("root.b"));
  EXPECT_FLOAT_EQ(weight("root.a"), 4.0f);
  EXPECT_TRUE(sched_->allocationWatcher()->lastError().isOk());
}

// A tree the live apps cannot move into (their leaf would become a parent) is refused whole.
TEST_F(FairReload, ReloadThatStrandsALiveAppIsRefused) {
  write(allocationXml(R"(<queue name="a"/>)"), kT0 - 60000);
  start();
  AppSubmission sub;
  sub.name = "job";
  sub.queue = "a";
  sub.user = "alice";
  ASSERT_TRUE(sched_->submit(sub).isOk());
  write(allocationXml(R"(<queue name="a"><queue name="inner"/></queue>)"), kT0 + 1000);
  tickAt(kT0 + 10000);
  EXPECT_TRUE(sched_->queues().find("root.a")->isLeaf());
  EXPECT_NE(sched_->allocationWatcher()->lastError().message().find("has live app"),
            std::string::npos)
      << sched_->allocationWatcher()->lastError().message();
}

TEST_F(FairReload, RemovedFileKeepsTheTree) {
  write(allocationXml(R"(<queue name="a"/>)"), kT0 - 60000);
  start();
  stdfs::remove(path_);
  tickAt(kT0 + 10000);
  EXPECT_TRUE(has("root.a"));
  EXPECT_FALSE(sched_->allocationWatcher()->lastError().isOk());
}

// Allocation text given directly (scenario files) has no file to watch.
TEST(FairReloadInline, NoWatcherWithoutAFile) {
  fstest::Fs fs(allocationXml(R"(<queue name="a"/>)"));
  EXPECT_EQ(fs.sched().allocationWatcher(), nullptr);
}

}  // namespace
}  // namespace spindle
