// The NodeManager's container monitor (YARN's ContainersMonitorImpl and
// NodeResourceMonitorImpl): every yarn.nodemanager.container-monitor.interval-ms it sums each
// container's process tree from /proc, decides which containers exceed their memory, and
// measures the node's and the containers' utilisation for the heartbeat.
//
//   ContainersMonitor m(settings, /*nodeVcores=*/8);
//   if (m.due(nowMs)) {
//     auto r = m.check(readProcTable(), launcher.running Containers(), readNodeUsage(), nowMs);
//     for (auto& k : r.kills) launcher.stop(k.containerId, k.exitStatus, k.diagnostics);
//     heartbeat.containersUtilization = r.containers; heartbeat.nodeUtilization = r.node;
//   }
//
// Algorithm of check() (ContainersMonitorImpl.MonitoringThread.run):
//  1. For each running container, the tree of its process: RSS and virtual memory of all its
//     processes, and of those already in the tree at the previous check ("aged").
//  2. pmem (yarn.nodemanager.pmem-check-enabled): over when the tree's RSS is above twice the
//     container's memory, or the aged processes' RSS is above it: killed with -104
//     (KILLED_EXCEEDED_PMEM). vmem (yarn.nodemanager.vmem-check-enabled) the same against
//     memory x yarn.nodemanager.vmem-pmem-ratio: -103 (KILLED_EXCEEDED_VMEM). The pmem check
//     comes first, as in YARN.
//  3. Containers in a cgroup with memory.max (cgroups_v2.h) are left to the kernel: the check
//     skips those listed in `enforcedByCgroup`.
//  4. Utilisation: containers' RSS and virtual memory summed in MB, their CPU in vcores (CPU
//     seconds per second x node vcores / processors, as milliVcoresUsed); the node's used
//     memory (MemTotal - MemAvailable), virtual memory (that + used swap) and busy CPU in the
//     same vcore terms.
// Thread-compatible: one thread (the NM's main loop) calls it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"
#include "nm/process_tree.h"
#include "protocol/records.h"

namespace spindle::nm {

struct MonitorSettings {
  bool pmemCheck = true;       // yarn.nodemanager.pmem-check-enabled
  bool vmemCheck = false;      // yarn.nodemanager.vmem-check-enabled (YARN: true)
  double vmemPmemRatio = 2.1;  // yarn.nodemanager.vmem-pmem-ratio
  int64_t intervalMs = 3000;   // yarn.nodemanager.container-monitor.interval-ms
};
// Errors name the key (a ratio below 1, an interval that is not positive).
Result<MonitorSettings> readMonitorSettings(const Configuration& conf);

struct MonitoredContainer {
  std::string containerId;
  pid_t pid = -1;
  int64_t memoryMb = 0;
};

struct MonitorKill {
  std::string containerId;
  int32_t exitStatus = 0;  // -104 or -103
  std::string diagnostics;
};

struct MonitorResult {
  std::vector<MonitorKill> kills;
  protocol::ResourceUtilization containers;
  protocol::ResourceUtilization node;
};

class ContainersMonitor {
 public:
  ContainersMonitor(MonitorSettings settings, int64_t nodeVcores);
  bool due(int64_t nowMs) const { return nowMs >= nextMs_; }
  MonitorResult check(const ProcTable& procs, const std::vector<MonitoredContainer>& running,
                      const NodeUsage& node, int64_t nowMs,
                      const std::set<std::string>& enforcedByCgroup = {});
  const MonitorSettings& settings() const { return settings_; }

 private:
  struct Tracked {
    std::set<pid_t> aged;
    int64_t cpuTicks = -1;
  };
  MonitorSettings settings_;
  double vcoresPerProcessor_;
  int64_t nextMs_ = 0;
  int64_t lastMs_ = -1;
  NodeUsage lastNode_;
  std::map<std::string, Tracked> tracked_;
};

}  // namespace spindle::nm
