// rm_load: a load generator for a running `spindle rm` (rm_load_sim.h): N simulated
// NodeManagers heartbeating, M simulated ApplicationMasters allocating, over the real
// protocols on loopback, all driven by one thread. After every NM and AM has registered it
// measures for --seconds and prints NM heartbeats per second, container allocations per
// second end to end (allocated to the AMs, and returned to them completed), the allocate
// call's latency, and the RM's CPU and memory from /proc/<--rm-pid>.
//
//   rm_load --rm 127.0.0.1:8088 --rm-pid 4242 --nms 10000 --ams 100 --seconds 30
//
// With --hold K (the restart benchmark, rm_restart.sh) each AM gets K containers and keeps them
// running: once every AM holds its K (plus its AM container) it prints a `held:` line, then
// waits, for at most --hold-seconds, until every NM has registered again after a RESYNC and
// every AM after an AM_RESYNC (the RM was restarted meanwhile), and prints when the last did
// (`nms_resynced:`, `ams_resynced:`, wall ms since the epoch).
//
// Exit status: 0 after a measured run; 1 when the NMs or AMs did not all register within
// --warmup-seconds or the RM answered an error during the run (the first one is printed);
// 2 for bad arguments.
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include "base/latency_histogram.h"
#include "loadgen/container_listener.h"
#include "protocol/codec.h"
#include "protocol/http_client.h"
#include "protocol/http_server.h"
#include "rm_load_sim.h"

namespace asio = boost::asio;
using spindle::bench::Load;
using spindle::bench::LoadCounters;
using spindle::bench::LoadOptions;
using spindle::bench::steadyNowMs;

namespace {

struct ProcSample {
  double cpuS = 0;  // user + system
  int64_t rssKb = 0, hwmKb = 0;
  bool ok = false;
};

// utime + stime in seconds from a /proc/.../stat file; -1 when it cannot be read.
double cpuSeconds(const std::string& statPath) {
  std::ifstream stat(statPath);
  std::string line;
  if (!std::getline(stat, line)) return -1;
  // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
  std::istringstream in(line.substr(line.rfind(')') + 2));
  std::string f;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> f; ++i) {
    if (i == 14) utime = std::stod(f);
    if (i == 15) stime = std::stod(f);
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// CPU seconds per thread name (several threads of one name add up), from /proc/<pid>/task.
std::map<std::string, double> threadCpu(int pid) {
  std::map<std::string, double> out;
  const std::string task = "/proc/" + std::to_string(pid) + "/task";
  std::error_code ec;
  for (const auto& t : std::filesystem::directory_iterator(task, ec)) {
    std::ifstream comm(t.path() / "comm");
    std::string name;
    std::getline(comm, name);
    const double cpu = cpuSeconds(t.path() / "stat");
    if (cpu >= 0) out[name] += cpu;
  }
  return out;
}

ProcSample sample(int pid) {
  ProcSample s;
  const double cpu = cpuSeconds("/proc/" + std::to_string(pid) + "/stat");
  if (cpu < 0) return s;
  s.cpuS = cpu;
  std::string line;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) s.rssKb = std::stoll(line.substr(6));
    if (line.starts_with("VmHWM:")) s.hwmKb = std::stoll(line.substr(6));
  }
  s.ok = true;
  return s;
}

std::string loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

double percentileMs(std::vector<uint32_t>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<ptrdiff_t>(k), v.end());
  return v[k] / 1000.0;
}

// The RM's own timings of each protocol method (GET /ws/v1/cluster/spindle/rpc-timings): per
// method and measure ("allocate/total"), the histogram's non-empty buckets by their low end.
using RmTimings = std::map<std::string, std::map<int64_t, uint64_t>>;

RmTimings fetchRmTimings(spindle::protocol::HttpClient& rm) {
  RmTimings t;
  auto r = rm.get("/ws/v1/cluster/spindle/rpc-timings");
  if (!r || r->status != 200) return t;
  const nlohmann::json j = nlohmann::json::parse(r->body, nullptr, false);
  if (j.is_discarded()) return t;
  for (const auto& m : j["rpcTimings"]["method"]) {
    for (const char* measure : {"queue", "processing", "total"}) {
      auto& buckets = t[m["name"].get<std::string>() + "/" + measure];
      for (const auto& b : m[measure]["buckets"])
        buckets[b[0].get<int64_t>()] = b[1].get<uint64_t>();
    }
  }
  return t;
}

// "p50 0.41 p99 3.20 (9,812 calls)" for what the RM counted of `key` between the two fetches.
std::string rmTimingLine(const RmTimings& before, const RmTimings& after, const std::string& key) {
  std::vector<uint64_t> buckets(spindle::LatencyHistogram::kBuckets, 0);
  uint64_t n = 0;
  if (auto a = after.find(key); a != after.end()) {
    const auto b = before.find(key);
    for (const auto& [low, count] : a->second) {
      uint64_t was = 0;
      if (b != before.end()) {
        if (auto w = b->second.find(low); w != b->second.end()) was = w->second;
      }
      buckets[spindle::LatencyHistogram::bucketOf(low)] += count - was;
      n += count - was;
    }
  }
  return fmt::format("p50 {:.2f} p99 {:.2f} ({} calls)", spindle::percentileUs(buckets, 0.5) / 1000,
                     spindle::percentileUs(buckets, 0.99) / 1000, n);
}

}  // namespace

int main(int argc, char** argv) {
  LoadOptions o;
  std::string rm = "127.0.0.1:8088";
  int rmPid = 0;
  double seconds = 30, warmupSeconds = 120;
  CLI::App app{"Drives a running spindle rm with simulated NodeManagers and ApplicationMasters"};
  app.add_option("--rm", rm, "the RM's address (host:port, an IP address)");
  app.add_option("--rm-pid", rmPid, "the RM's PID: its CPU and memory are reported");
  app.add_option("--nms", o.nms, "simulated NodeManagers")->check(CLI::Range(1, 45'000));
  app.add_option("--ams", o.ams, "simulated ApplicationMasters")->check(CLI::Range(0, 100'000));
  app.add_option("--seconds", seconds, "measured time")->check(CLI::Range(0.5, 3600.0));
  app.add_option("--warmup-seconds", warmupSeconds, "longest wait for every NM and AM")
      ->check(CLI::Range(1.0, 3600.0));
  app.add_option("--node-memory-mb", o.nodeMemoryMb, "each NM's memory")
      ->check(CLI::PositiveNumber);
  app.add_option("--node-vcores", o.nodeVcores, "each NM's vcores")->check(CLI::PositiveNumber);
  app.add_option("--container-mb", o.containerMb, "each container's memory (1 vcore)")
      ->check(CLI::PositiveNumber);
  app.add_option("--container-ms", o.containerMs, "how long a container runs")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--pending", o.pending, "containers each AM keeps asked for")
      ->check(CLI::Range(0, 1'000'000));
  app.add_option("--am-interval-ms", o.amIntervalMs, "between an AM's allocate calls")
      ->check(CLI::Range(1, 60'000));
  app.add_option("--heartbeat-ms", o.heartbeatMs,
                 "NM heartbeat interval (default: the RM's nextHeartBeatInterval)")
      ->check(CLI::Range(0, 60'000));
  app.add_option("--first-node-port", o.firstNodePort, "node ids are 127.0.0.1:<port + i>")
      ->check(CLI::Range(1, 65'535));
  double holdSeconds = 600;
  app.add_option("--hold", o.hold,
                 "containers each AM gets and keeps running; then wait for a restart's resyncs")
      ->check(CLI::Range(0, 100'000));
  app.add_option("--hold-seconds", holdSeconds,
                 "--hold: longest wait, once held, for every NM and AM to resync")
      ->check(CLI::Range(1.0, 3600.0));
  app.add_option("--submit-per-s", o.submitPerS, "AM submissions per second (0: all at once)")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  auto hp = spindle::protocol::parseHostPort(rm, "--rm");
  boost::system::error_code ec;
  if (hp) asio::ip::make_address(hp->first, ec);
  if (!hp || ec) {
    fmt::print(stderr, "rm_load: --rm: expected ip:port, got '{}'\n", rm);
    return 2;
  }
  if (o.firstNodePort + o.nms - 1 > 65'535) {
    fmt::print(stderr, "rm_load: --first-node-port {} + --nms {} passes port 65535\n",
               o.firstNodePort, o.nms);
    return 2;
  }
  if (rmPid > 0 && !sample(rmPid).ok) {
    fmt::print(stderr, "rm_load: --rm-pid {}: no such process\n", rmPid);
    return 2;
  }
  o.rmHost = hp->first;
  o.rmPort = hp->second;
  spindle::protocol::HttpClient rmRest(o.rmHost, o.rmPort);
  RmTimings timings0, timings1;

  asio::io_context ioc;
  Load* loadPtr = nullptr;
  // The simulated NMs' ContainerManagementProtocol: the RM starts AM containers here.
  spindle::loadgen::ContainerListener listener(
      ioc, [&loadPtr](std::vector<std::string> ids) { loadPtr->onContainerStart(std::move(ids)); });
  if (auto st = listener.start(); !st.isOk()) {
    fmt::print(stderr, "rm_load: {}\n", st.message());
    return 1;
  }
  Load running(o, ioc, listener.port());
  loadPtr = &running;

  const std::string loadStart = loadavg();
  const int64_t t0 = steadyNowMs();
  enum class Phase { WARMUP, MEASURE, FINISH, HOLD } phase = Phase::WARMUP;
  int64_t measureStart = 0, measureEnd = 0, finishDeadline = 0, holdStart = 0;
  bool holdFailed = false;
  // --hold: every AM container and every held container runs on its simulated NM.
  const int64_t heldTarget = static_cast<int64_t>(o.ams) * (o.hold + 1);
  LoadCounters c0, c1;
  ProcSample rm0, rm1, self0, self1;
  std::map<std::string, double> rmThreads0, rmThreads1;  // CPU seconds per RM thread name
  bool warmupFailed = false;
  asio::steady_timer control(ioc);
  std::function<void()> tick = [&] {
    const int64_t now = steadyNowMs();
    const LoadCounters& c = running.counters();
    if (phase == Phase::WARMUP && o.hold > 0) {
      if (c.nmsRegistered == o.nms && c.amsRegistered == o.ams && c.runningOnNodes == heldTarget) {
        phase = Phase::HOLD;
        holdStart = now;
        const ProcSample r = rmPid > 0 ? sample(rmPid) : ProcSample{};
        fmt::print(
            "rm_load: held: {} NMs, {} AMs, {} containers running ({} AM containers + {} x {}) "
            "after {:.1f} s; RM cpu {:.1f} s rss {:.0f} MB hwm {:.0f} MB; errors {}\n",
            c.nmsRegistered, c.amsRegistered, c.runningOnNodes, o.ams, o.ams, o.hold,
            (now - t0) / 1000.0, r.cpuS, r.rssKb / 1024.0, r.hwmKb / 1024.0,
            c.amErrors + c.heartbeatErrors);
        std::fflush(stdout);
      } else if (now - t0 > warmupSeconds * 1000) {
        fmt::print(stderr,
                   "rm_load: after {} s {} of {} NMs and {} of {} AMs registered, {} of {} "
                   "containers running\n",
                   warmupSeconds, c.nmsRegistered, o.nms, c.amsRegistered, o.ams, c.runningOnNodes,
                   heldTarget);
        warmupFailed = true;
        ioc.stop();
        return;
      }
    } else if (phase == Phase::HOLD) {
      if (c.nmsResynced == o.nms && c.amsResynced == o.ams) {
        fmt::print("nms_resynced: {} of {} last_at_ms {}\n", c.nmsResynced, o.nms,
                   c.lastNmResyncMs);
        fmt::print("ams_resynced: {} of {} last_at_ms {}\n", c.amsResynced, o.ams,
                   c.lastAmResyncMs);
        fmt::print(
            "totals: running_on_nodes {} heartbeat_errors {} am_errors {} resyncs {} "
            "am_resyncs {}\n",
            c.runningOnNodes, c.heartbeatErrors, c.amErrors, c.resyncs, c.amResyncs);
        ioc.stop();
        return;
      }
      if (now - holdStart > holdSeconds * 1000) {
        fmt::print(stderr,
                   "rm_load: after holding {} s only {} of {} NMs and {} of {} AMs resynced; "
                   "{} containers running\n",
                   holdSeconds, c.nmsResynced, o.nms, c.amsResynced, o.ams, c.runningOnNodes);
        holdFailed = true;
        ioc.stop();
        return;
      }
    } else if (phase == Phase::WARMUP) {
      if (c.nmsRegistered == o.nms && c.amsRegistered == o.ams) {
        phase = Phase::MEASURE;
        measureStart = now;
        c0 = c;
        rm0 = rmPid > 0 ? sample(rmPid) : ProcSample{};
        if (rmPid > 0) rmThreads0 = threadCpu(rmPid);
        self0 = sample(getpid());
        timings0 = fetchRmTimings(rmRest);
        running.setMeasuring(true);
        fmt::print("rm_load: {} NMs and {} AMs registered in {:.1f} s; measuring {} s\n",
                   c.nmsRegistered, c.amsRegistered, (now - t0) / 1000.0, seconds);
        std::fflush(stdout);
      } else if (now - t0 > warmupSeconds * 1000) {
        fmt::print(stderr, "rm_load: after {} s only {} of {} NMs and {} of {} AMs registered\n",
                   warmupSeconds, c.nmsRegistered, o.nms, c.amsRegistered, o.ams);
        warmupFailed = true;
        ioc.stop();
        return;
      }
    } else if (phase == Phase::MEASURE && now - measureStart >= seconds * 1000) {
      phase = Phase::FINISH;
      measureEnd = now;
      c1 = c;
      rm1 = rmPid > 0 ? sample(rmPid) : ProcSample{};
      if (rmPid > 0) rmThreads1 = threadCpu(rmPid);
      self1 = sample(getpid());
      timings1 = fetchRmTimings(rmRest);
      running.setMeasuring(false);
      running.finishAms();
      finishDeadline = now + 15'000;
    } else if (phase == Phase::FINISH &&
               (c.amsFinished == c.amsRegistered || now > finishDeadline)) {
      ioc.stop();
      return;
    }
    control.expires_after(std::chrono::milliseconds(50));
    control.async_wait([&](boost::system::error_code e) {
      if (!e) tick();
    });
  };
  running.start();
  tick();
  ioc.run();
  listener.stop();
  const LoadCounters& end = running.counters();
  if (warmupFailed || holdFailed) {
    if (!running.firstError().empty()) fmt::print(stderr, "rm_load: {}\n", running.firstError());
    return 1;
  }
  // --hold: the RM was killed and restarted meanwhile; transport errors while it was down are
  // expected (the totals line counts them).
  if (o.hold > 0) return 0;
  const double s = (measureEnd - measureStart) / 1000.0;
  const int64_t hbs = c1.heartbeats - c0.heartbeats;
  const int64_t allocated = c1.allocated - c0.allocated;
  const int64_t returned = c1.returned - c0.returned;
  fmt::print(
      "rm_load: {} NMs, {} AMs, heartbeat {} ms, containers {} MB for {} ms, {} pending "
      "per AM, allocate every {} ms\n",
      o.nms, o.ams, o.heartbeatMs > 0 ? fmt::format("{}", o.heartbeatMs) : "(RM's)", o.containerMb,
      o.containerMs, o.pending, o.amIntervalMs);
  fmt::print("measured_s: {:.2f}\n", s);
  fmt::print("nm_heartbeats_per_s: {:.0f} ({} heartbeats; errors {}, resyncs {})\n", hbs / s, hbs,
             c1.heartbeatErrors - c0.heartbeatErrors, c1.resyncs - c0.resyncs);
  fmt::print("heartbeat_latency_ms: p50 {:.2f} p99 {:.2f}\n",
             percentileMs(running.heartbeatLatencyUs(), 0.5),
             percentileMs(running.heartbeatLatencyUs(), 0.99));
  fmt::print("allocations_per_s: {:.0f} ({} containers allocated to the AMs)\n", allocated / s,
             allocated);
  fmt::print("returned_per_s: {:.0f} ({} completed containers returned to the AMs)\n", returned / s,
             returned);
  const size_t calls = running.allocateLatencyUs.size();
  fmt::print("allocate_latency_ms: p50 {:.2f} p99 {:.2f} max {:.2f} ({} calls)\n",
             percentileMs(running.allocateLatencyUs, 0.5),
             percentileMs(running.allocateLatencyUs, 0.99),
             percentileMs(running.allocateLatencyUs, 1.0), calls);
  // The same calls as the RM timed them (rpc_timings.h): from the request read to the answer
  // written, and its parts; the rest of the latency above is the kernel's and the generator's.
  for (const char* method : {"nodeHeartbeat", "allocate"}) {
    for (const char* measure : {"total", "queue", "processing"}) {
      const std::string key = std::string(method) + "/" + measure;
      fmt::print("rm_{}_{}_ms: {}\n", method, measure, rmTimingLine(timings0, timings1, key));
    }
  }
  if (rm1.ok) {
    fmt::print("rm_cpu_s: {:.2f} ({:.0f} % of one core)\n", rm1.cpuS - rm0.cpuS,
               100 * (rm1.cpuS - rm0.cpuS) / s);
    std::string perThread;
    for (const auto& [name, cpu] : rmThreads1) {
      const auto was = rmThreads0.find(name);
      const double used = cpu - (was == rmThreads0.end() ? 0 : was->second);
      if (used >= 0.005 * s) perThread += fmt::format(" {} {:.0f} %", name, 100 * used / s);
    }
    fmt::print("rm_threads_cpu:{}\n", perThread);
    fmt::print("rm_memory_mb: rss {:.0f} hwm {:.0f}\n", rm1.rssKb / 1024.0, rm1.hwmKb / 1024.0);
  }
  fmt::print("load_cpu_s: {:.2f} ({:.0f} % of one core)\n", self1.cpuS - self0.cpuS,
             100 * (self1.cpuS - self0.cpuS) / s);
  fmt::print("loadavg: {} at the start, {} at the end\n", loadStart, loadavg());
  fmt::print("totals: allocated {} returned {} running_on_nodes {} am_finished {} of {}\n",
             end.allocated, end.returned, end.runningOnNodes, end.amsFinished, end.amsRegistered);
  const int64_t errors = end.amErrors + end.heartbeatErrors;
  if (errors > 0 || !running.firstError().empty()) {
    fmt::print("errors: {} (first: {})\n", errors, running.firstError());
    return 1;
  }
  return 0;
}
