// `spindle top`: YARN's TopCLI over the REST API (info, metrics, nodes, apps).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <ostream>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "base/strings.h"
#include "client/commands.h"
#include "client/rm_client.h"

namespace spindle::client {

using nlohmann::json;

namespace {

int64_t num(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return 0;
  return static_cast<int64_t>(j[key].get<double>());
}

std::string str(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

// The queue filter of -queues: "root" shows every app; otherwise a leaf name or a full path.
bool inQueues(const std::string& queue, const std::vector<std::string>& queues) {
  for (const std::string& q : queues) {
    if (q == "root" || queue == q || queue.ends_with("." + q) || queue.starts_with(q + ".")) {
      return true;
    }
  }
  return false;
}

// DurationFormatUtils.formatDuration(ms, "dd:HH:mm").
std::string duration(int64_t ms) {
  if (ms < 0) ms = 0;
  const int64_t minutes = ms / 60'000;
  return fmt::format("{:02d}:{:02d}:{:02d}", minutes / 1440, (minutes / 60) % 24, minutes % 60);
}

// TopCLI's columns, each with its format, joined by one space.
std::string row(const std::vector<std::string>& v) {
  return fmt::format(
      "{:>31} {:<10} {:>10} {:>10} {:>5} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>10} "
      "{:>10} {:>6} {:>10} {}\n",
      v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14],
      v[15]);
}

// The pending resource of an app's ANY requests (TopCLI reads it from the queue metrics).
std::pair<int64_t, int64_t> pendingOf(const json& app) {
  int64_t mb = 0, vcores = 0;
  if (!app.contains("resourceRequests") || !app["resourceRequests"].is_array()) return {0, 0};
  for (const json& r : app["resourceRequests"]) {
    if (str(r, "resourceName") != "*") continue;
    const int64_t n = num(r, "numContainers");
    mb += n * num(r.value("capability", json::object()), "memory");
    vcores += n * num(r.value("capability", json::object()), "vCores");
  }
  return {mb, vcores};
}

Result<std::string> screen(RmRestClient& rm, const TopArgs& a) {
  auto info = rm.get("/ws/v1/cluster/info");
  if (!info) return info.status();
  auto metrics = rm.get("/ws/v1/cluster/metrics");
  if (!metrics) return metrics.status();
  auto apps = rm.get("/ws/v1/cluster/apps?states=NEW,NEW_SAVING,SUBMITTED,ACCEPTED,RUNNING");
  if (!apps) return apps.status();
  const json& m = (*metrics)["clusterMetrics"];
  const std::vector<std::string> queues = splitTrimmed(a.queues, ",", " ");
  std::vector<json> shown;
  std::set<std::string> users;
  int64_t pendingMb = 0, pendingVcores = 0;
  for (const json& app : (*apps)["apps"]["app"]) {
    if (!inQueues(str(app, "queue"), queues)) continue;
    if (str(app, "state") == "RUNNING") users.insert(str(app, "user"));
    const auto [mb, vc] = pendingOf(app);
    pendingMb += mb;
    pendingVcores += vc;
    shown.push_back(app);
  }
  // TopCLI's default order: newest application first.
  std::sort(shown.begin(), shown.end(),
            [](const json& x, const json& y) { return str(x, "id") > str(y, "id"); });

  const auto nowMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  const int64_t up = std::max<int64_t>(0, nowMs - num((*info)["clusterInfo"], "startedOn"));
  const std::time_t secs = static_cast<std::time_t>(nowMs / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char clock[16];
  std::strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
  std::string s;
  // TopCLI.getHeader.
  s += fmt::format("YARN top - {}, up {}d, {}:{}, {} active users, queue(s): {}\n", clock,
                   up / 86'400'000, (up / 3'600'000) % 24, (up / 60'000) % 60, users.size(),
                   a.queues);
  s += fmt::format(
      "NodeManager(s): {} total, {} active, {} unhealthy, {} decommissioned, {} lost, {} "
      "rebooted\n",
      num(m, "totalNodes"), num(m, "activeNodes"), num(m, "unhealthyNodes"),
      num(m, "decommissionedNodes"), num(m, "lostNodes"), num(m, "rebootedNodes"));
  s += fmt::format(
      "Queue(s) Applications: {} running, {} submitted, {} pending, {} completed, {} killed, {} "
      "failed\n",
      num(m, "appsRunning"), num(m, "appsSubmitted"), num(m, "appsPending"),
      num(m, "appsCompleted"), num(m, "appsKilled"), num(m, "appsFailed"));
  s += fmt::format("Queue(s) Mem(GB): {} available, {} allocated, {} pending, {} reserved\n",
                   num(m, "availableMB") / 1024, num(m, "allocatedMB") / 1024, pendingMb / 1024,
                   num(m, "reservedMB") / 1024);
  s += fmt::format("Queue(s) VCores: {} available, {} allocated, {} pending, {} reserved\n",
                   num(m, "availableVirtualCores"), num(m, "allocatedVirtualCores"), pendingVcores,
                   num(m, "reservedVirtualCores"));
  s += fmt::format("Queue(s) Containers: {} allocated, {} pending, {} reserved\n",
                   num(m, "containersAllocated"), num(m, "containersPending"),
                   num(m, "containersReserved"));
  s += "\n";
  s += row({"APPLICATIONID", "USER", "TYPE", "QUEUE", "PRIOR", "#CONT", "#RCONT", "VCORES",
            "RVCORES", "MEM", "RMEM", "VCORESECS", "MEMSECS", "%PROGR", "TIME", "NAME"});
  size_t n = 0;
  for (const json& app : shown) {
    if (a.rows > 0 && n++ >= static_cast<size_t>(a.rows)) break;
    // The -1 sentinels of an app that does not run are shown as 0.
    auto nz = [&](const char* key) { return std::max<int64_t>(0, num(app, key)); };
    s += row({str(app, "id"), str(app, "user"), str(app, "applicationType"), str(app, "queue"),
              str(app, "priority"), std::to_string(nz("runningContainers")),
              std::to_string(nz("reservedMB") > 0 ? 1 : 0), std::to_string(nz("allocatedVCores")),
              std::to_string(nz("reservedVCores")), std::to_string(nz("allocatedMB") / 1024),
              std::to_string(nz("reservedMB") / 1024), std::to_string(nz("vcoreSeconds")),
              std::to_string(nz("memorySeconds") / 1024),
              fmt::format("{:.2f}", app.value("progress", 0.0)), duration(num(app, "elapsedTime")),
              str(app, "name")});
  }
  return s;
}

}  // namespace

int runTop(const TopArgs& a, std::ostream& out, std::ostream& err) {
  if (a.delaySeconds <= 0) {
    err << "top: -delay must be a positive number of seconds\n";
    return 2;
  }
  if (a.rows < 0 || a.iterations < 0) {
    err << "top: -rows and -iterations must not be negative\n";
    return 2;
  }
  auto hp = resolveRmAddress(a.conn.rm, a.conn.confDir);
  if (!hp) {
    err << hp.status().message() << "\n";
    return 2;
  }
  RmRestClient rm(std::move(*hp));
  for (int64_t i = 0;; ++i) {
    auto s = screen(rm, a);
    if (!s) {
      err << "top: " << s.status().message() << "\n";
      return 1;
    }
    // Interactive: clear the terminal and redraw (TopCLI's CLEAR and cursor home).
    if (!a.once) out << "\033[2J\033[H";
    out << *s << std::flush;
    if (a.once || (a.iterations > 0 && i + 1 >= a.iterations)) return 0;
    std::this_thread::sleep_for(std::chrono::seconds(a.delaySeconds));
  }
}

}  // namespace spindle::client
