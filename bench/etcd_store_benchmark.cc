// etcd state store throughput: fenced batches per second against a real etcd, as the active RM
// writes them (one txn per state transition). Not run by ctest; run it with an etcd:
//   tests/with_etcd.sh /tmp/etcd-bench build/bench/spindle_etcd_bench [seconds-per-case]
// Prints one line per case: batch size, batches/s, records/s, mean and p99 latency.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/clock.h"
#include "ha/etcd_store.h"
#include "ha/leader_elector.h"

namespace {

using Clock = std::chrono::steady_clock;
using spindle::store::RecordKind;

int run(double seconds) {
  const char* env = std::getenv("SPINDLE_ETCD_ENDPOINTS");
  if (env == nullptr) {
    std::fprintf(stderr, "SPINDLE_ETCD_ENDPOINTS is not set (run through tests/with_etcd.sh)\n");
    return 2;
  }
  auto endpoints = spindle::ha::parseEtcdEndpoints(env);
  if (!endpoints) {
    std::fprintf(stderr, "%s\n", endpoints.status().message().c_str());
    return 2;
  }
  spindle::ha::EtcdClient etcd(*endpoints);
  spindle::RealClock clock;
  spindle::ha::LeaderElector elector(
      etcd, clock, {.leaderKey = "/bench/leader", .candidate = "bench", .ttlSeconds = 30});
  auto won = elector.campaign();
  if (!won || !*won) {
    std::fprintf(stderr, "cannot lead: %s\n", won ? "key held" : won.status().message().c_str());
    return 1;
  }
  spindle::ha::EtcdStore store(etcd, "/bench");
  store.setFence({"/bench/leader", elector.fencingToken()});
  if (auto s = store.open(); !s.isOk()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  const nlohmann::json app = {
      {"appId", "application_1_0001"},
      {"user", "alice"},
      {"queue", "root.default"},
      {"state", "RUNNING"},
      {"submissionContext", {{"am-container-spec", std::string(300, 'x')}}}};
  std::printf("%-10s %12s %12s %12s %12s\n", "batch", "batches/s", "records/s", "mean_ms",
              "p99_ms");
  for (int size : {1, 4, 16}) {
    std::vector<double> latencies;
    int n = 0;
    const auto start = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
      spindle::store::StoreBatch b;
      for (int i = 0; i < size; ++i) {
        b.put(RecordKind::kApp, fmt::format("application_1_{}", n * size + i), app);
      }
      const auto t0 = Clock::now();
      if (auto s = store.apply(b); !s.isOk()) {
        std::fprintf(stderr, "%s\n", s.message().c_str());
        return 1;
      }
      latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      ++n;
    }
    const double total = std::chrono::duration<double>(Clock::now() - start).count();
    std::sort(latencies.begin(), latencies.end());
    double sum = 0;
    for (double l : latencies) sum += l;
    std::printf("%-10d %12.0f %12.0f %12.2f %12.2f\n", size, n / total, n * size / total, sum / n,
                latencies[static_cast<size_t>(0.99 * (n - 1))]);
  }
  (void)elector.resign();
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return run(argc > 1 ? std::atof(argv[1]) : 3.0); }
