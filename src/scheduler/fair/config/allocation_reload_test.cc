// AllocationReloadWatcher: AllocationFileLoaderService's check cadence and quiet time, with a
// scripted file probe and a simulated clock.
#include "scheduler/fair/config/allocation_reload.h"

#include <gtest/gtest.h>

namespace spindle::fair {
namespace {

struct FakeFile {
  std::optional<int64_t> mtime;  // nullopt: missing
  std::string text = "<allocations/>";
  int reads = 0;
};

class FakeProbe final : public AllocationFileProbe {
 public:
  explicit FakeProbe(FakeFile* f) : f_(f) {}
  const std::string& path() const override { return path_; }
  Result<int64_t> modificationTimeMs() const override {
    if (!f_->mtime) return notFound("no such file {}", path_);
    return *f_->mtime;
  }
  Result<std::string> read() const override {
    ++f_->reads;
    return f_->text;
  }

 private:
  FakeFile* f_;
  std::string path_ = "/etc/fair-scheduler.xml";
};

TEST(AllocationReloadWatcher, ChecksEveryIntervalAndWaitsForAQuietFile) {
  FakeFile file{.mtime = 500};
  AllocationReloadWatcher w(std::make_unique<FakeProbe>(&file), 10000, 5000, /*loadedAt=*/1000);
  EXPECT_FALSE(w.poll(1000)) << "not modified since the load";
  file.mtime = 2000;
  EXPECT_FALSE(w.poll(9000)) << "no check before the interval";
  EXPECT_FALSE(w.poll(10999)) << "still sleeping";
  auto due = w.poll(11000);  // 11000 > 2000 + 5000
  ASSERT_TRUE(due);
  ASSERT_TRUE(due->isOk());
  w.finished(11000, Status::ok());
  EXPECT_EQ(w.lastSuccessfulReload(), 11000);
  EXPECT_FALSE(w.poll(21000)) << "loaded after its last modification";

  // Modified 4 s before a check: not yet; at the next check it is.
  file.mtime = 27000;
  EXPECT_FALSE(w.poll(31000));
  ASSERT_TRUE(w.poll(41000));
  w.finished(41000, Status::ok());
}

TEST(AllocationReloadWatcher, QuietTimeIsStrict) {
  FakeFile file{.mtime = 5000};
  AllocationReloadWatcher w(std::make_unique<FakeProbe>(&file), 10000, 5000, 0);
  EXPECT_FALSE(w.poll(10000)) << "exactly ALLOC_RELOAD_WAIT_MS old is not enough";
  EXPECT_TRUE(w.poll(20000));
}

TEST(AllocationReloadWatcher, FailedReloadsAreRetriedAndRemembered) {
  FakeFile file{.mtime = 1000};
  AllocationReloadWatcher w(std::make_unique<FakeProbe>(&file), 10000, 5000, 0);
  ASSERT_TRUE(w.poll(10000));
  w.finished(10000, invalidArgument("fair-scheduler.xml:3: bad weight"));
  EXPECT_EQ(w.lastError().message(), "fair-scheduler.xml:3: bad weight");
  EXPECT_EQ(w.lastSuccessfulReload(), 0);
  ASSERT_TRUE(w.poll(20000)) << "retried at the next check";
  EXPECT_EQ(file.reads, 2);
  w.finished(20000, Status::ok());
  EXPECT_TRUE(w.lastError().isOk());
  EXPECT_FALSE(w.poll(30000));
}

TEST(AllocationReloadWatcher, MissingFileIsAnErrorNotAReload) {
  FakeFile file;
  AllocationReloadWatcher w(std::make_unique<FakeProbe>(&file), 10000, 5000, 0);
  EXPECT_FALSE(w.poll(10000));
  EXPECT_NE(w.lastError().message().find("no such file /etc/fair-scheduler.xml"), std::string::npos)
      << w.lastError().message();
  EXPECT_EQ(file.reads, 0);
}

}  // namespace
}  // namespace spindle::fair
