// State store macro benchmark (not a test): SQLite write throughput, one transaction per state
// change as the RM writes them (an app and its attempt), with synchronous NORMAL and FULL; and
// the restart: an RM recovering 10,000 running apps from SQLite, then 100 NodeManagers
// re-registering with 100,000 running containers, until every container is recovered.
//   build/bench/spindle_store_bench [folder]     (default /tmp)
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "base/clock.h"
#include "protocol/rest_records.h"
#include "rm/rm_core.h"
#include "store/sqlite_store.h"

namespace {

using namespace spindle;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

constexpr int64_t kTs = 1'700'000'000'000;

store::StoredApp app(uint32_t seq) {
  store::StoredApp a;
  a.appId = fmt::format("application_{}_{:04d}", kTs, seq);
  a.user = "user" + std::to_string(seq % 10);
  a.queue = "default";
  a.name = "bench";
  a.type = "YARN";
  a.submitTime = kTs + seq;
  a.state = "RUNNING";
  a.finalStatus = "UNDEFINED";
  protocol::SubmissionContext ctx;
  ctx.applicationId = a.appId;
  ctx.applicationName = "bench";
  ctx.queue = "default";
  ctx.resource = {128, 1};
  ctx.amContainerSpec.commands = {"run-am"};
  a.submissionContext = protocol::toJson(ctx);
  a.currentAttempt = 1;
  return a;
}

store::StoredAttempt attempt(uint32_t seq) {
  store::StoredAttempt t;
  t.appId = fmt::format("application_{}_{:04d}", kTs, seq);
  t.attemptId = fmt::format("appattempt_{}_{:04d}_000001", kTs, seq);
  t.attempt = 1;
  t.amContainerId = fmt::format("container_e1_{}_{:04d}_01_000001", kTs, seq);
  t.nodeId = fmt::format("n{}:1", (seq - 1) / 100);
  t.state = "RUNNING";
  return t;
}

void writeThroughput(const std::string& dir, const std::string& sync, int n) {
  const std::string path = dir + "/spindle-store-bench-" + sync + ".db";
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  store::SqliteStore s(path, sync);
  if (!s.open().isOk()) return;
  const auto t = Clock::now();
  for (int i = 1; i <= n; ++i) {
    store::StoreBatch b;
    b.put(store::RecordKind::kApp, app(i).appId, store::toJson(app(i)));
    b.put(store::RecordKind::kAttempt, attempt(i).attemptId, store::toJson(attempt(i)));
    if (!s.apply(b).isOk()) return;
  }
  const double sec = secondsSince(t);
  std::printf("sqlite write, synchronous=%s: %d transactions (app + attempt) in %.3f s: %.0f/s\n",
              sync.c_str(), n, sec, n / sec);
}

int restart(const std::string& dir) {
  const uint32_t apps = 10'000;
  const int nodes = 100, perApp = 10;
  const std::string path = dir + "/spindle-store-bench-restart.db";
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  {
    store::SqliteStore s(path);
    uint64_t epoch = 0;
    if (!s.open().isOk() || !s.bumpEpoch(epoch).isOk()) return 1;
    store::StoreBatch b;
    for (uint32_t i = 1; i <= apps; ++i) {
      b.put(store::RecordKind::kApp, app(i).appId, store::toJson(app(i)));
      b.put(store::RecordKind::kAttempt, attempt(i).attemptId, store::toJson(attempt(i)));
    }
    if (!s.apply(b).isOk()) return 1;
  }
  Configuration conf;
  conf.set("yarn.scheduler.capacity.maximum-applications", "100000");
  conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
  conf.set("yarn.scheduler.minimum-allocation-mb", "128");
  auto settings = rm::RmSettings::fromConfiguration(conf);
  if (!settings) return 1;
  SimulatedClock clock(kTs + 100'000);
  const auto t = Clock::now();
  auto core =
      rm::RmCore::create(*settings, conf, clock, "", std::make_unique<store::SqliteStore>(path));
  if (!core) {
    std::fprintf(stderr, "%s\n", core.status().message().c_str());
    return 1;
  }
  const double loaded = secondsSince(t);
  for (int n = 0; n < nodes; ++n) {
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = fmt::format("n{}:1", n);
    r.httpPort = 8042;
    r.resource = {1'000'000, 10'000};
    for (uint32_t a = n * (apps / nodes) + 1; a <= (n + 1) * (apps / nodes); ++a) {
      for (int c = 1; c <= perApp; ++c) {
        protocol::ContainerStatus st;
        st.containerId = fmt::format("container_e1_{}_{:04d}_01_{:06d}", kTs, a, c);
        st.allocatedResource = protocol::ResourceRecord{128, 1};
        r.containerStatuses.push_back(std::move(st));
      }
    }
    (*core)->registerNode(r);
  }
  const double total = secondsSince(t);
  const int64_t allocated = (*core)->metrics()["clusterMetrics"]["allocatedMB"];
  const int64_t containers = allocated / 128;
  std::printf(
      "restart: %u apps loaded in %.3f s; %d nodes re-registered with %lld containers "
      "recovered, %.3f s in all (target < 5 s)\n",
      apps, loaded, nodes, static_cast<long long>(containers), total);
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
  return containers == static_cast<int64_t>(apps) * perApp ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp";
  writeThroughput(dir, "NORMAL", 5000);
  writeThroughput(dir, "FULL", 1000);
  return restart(dir);
}
