#include "nm/containers_monitor.h"

#include <unistd.h>

#include <algorithm>

#include "app/container_state.h"

namespace spindle::nm {

Result<MonitorSettings> readMonitorSettings(const Configuration& conf) {
  MonitorSettings s;
  SPINDLE_ASSIGN_OR_RETURN(s.pmemCheck, conf.getBool("yarn.nodemanager.pmem-check-enabled", true));
  // YARN's default is true; Spindle's is false (docs/compatibility.md): a multi-threaded AM
  // reserves far more address space than it uses.
  SPINDLE_ASSIGN_OR_RETURN(s.vmemCheck, conf.getBool("yarn.nodemanager.vmem-check-enabled", false));
  SPINDLE_ASSIGN_OR_RETURN(s.vmemPmemRatio,
                           conf.getDouble("yarn.nodemanager.vmem-pmem-ratio", 2.1));
  if (!(s.vmemPmemRatio >= 1.0)) {
    return invalidArgument("yarn.nodemanager.vmem-pmem-ratio: must be at least 1, got {}",
                           s.vmemPmemRatio);
  }
  SPINDLE_ASSIGN_OR_RETURN(
      s.intervalMs, conf.getTimeDurationMs("yarn.nodemanager.container-monitor.interval-ms", 3000));
  if (s.intervalMs <= 0) {
    return invalidArgument(
        "yarn.nodemanager.container-monitor.interval-ms: must be positive, got {}", s.intervalMs);
  }
  return s;
}

ContainersMonitor::ContainersMonitor(MonitorSettings settings, int64_t nodeVcores)
    : settings_(settings),
      vcoresPerProcessor_(static_cast<double>(nodeVcores) /
                          static_cast<double>(std::max<long>(sysconf(_SC_NPROCESSORS_ONLN), 1))) {}

MonitorResult ContainersMonitor::check(const ProcTable& procs,
                                       const std::vector<MonitoredContainer>& running,
                                       const NodeUsage& node, int64_t nowMs,
                                       const std::set<std::string>& enforcedByCgroup) {
  MonitorResult r;
  nextMs_ = nowMs + settings_.intervalMs;
  const double elapsedS = lastMs_ < 0 ? 0.0 : static_cast<double>(nowMs - lastMs_) / 1000.0;
  const double ticksPerS = static_cast<double>(std::max<long>(sysconf(_SC_CLK_TCK), 1));
  std::map<std::string, Tracked> next;
  double containerCpu = 0;
  for (const MonitoredContainer& c : running) {
    Tracked& was = tracked_[c.containerId];
    const TreeUsage u = treeUsage(procs, c.pid, was.aged);
    Tracked& now = next[c.containerId];
    now.aged = u.pids;
    now.cpuTicks = u.cpuTicks;
    r.containers.pmem += u.rssBytes >> 20;
    r.containers.vmem += u.vmemBytes >> 20;
    if (was.cpuTicks >= 0 && elapsedS > 0 && u.cpuTicks >= was.cpuTicks) {
      containerCpu += static_cast<double>(u.cpuTicks - was.cpuTicks) / ticksPerS / elapsedS;
    }
    if (u.pids.empty() || enforcedByCgroup.contains(c.containerId)) continue;
    const int64_t pmemLimit = c.memoryMb << 20;
    const auto vmemLimit =
        static_cast<int64_t>(static_cast<double>(pmemLimit) * settings_.vmemPmemRatio);
    auto kill = [&](const char* type, int32_t status, int64_t current, int64_t limit) {
      r.kills.push_back(
          {c.containerId, status,
           memoryErrorMessage(type, c.pid, c.containerId, current, limit, u.rssBytes, pmemLimit,
                              u.vmemBytes, vmemLimit, processTreeDump(procs, u))});
    };
    if (settings_.pmemCheck && pmemLimit > 0 && overLimit(u.rssBytes, u.agedRssBytes, pmemLimit)) {
      kill("PHYSICAL", ContainerExitStatus::KILLED_EXCEEDED_PMEM, u.rssBytes, pmemLimit);
    } else if (settings_.vmemCheck && pmemLimit > 0 &&
               overLimit(u.vmemBytes, u.agedVmemBytes, vmemLimit)) {
      kill("VIRTUAL", ContainerExitStatus::KILLED_EXCEEDED_VMEM, u.vmemBytes, vmemLimit);
    }
  }
  tracked_ = std::move(next);
  r.containers.cpu = containerCpu * vcoresPerProcessor_;
  r.node.pmem = std::max<int64_t>(node.memTotalKb - node.memAvailableKb, 0) >> 10;
  r.node.vmem = r.node.pmem + (std::max<int64_t>(node.swapTotalKb - node.swapFreeKb, 0) >> 10);
  if (lastMs_ >= 0 && node.cpuTotalTicks > lastNode_.cpuTotalTicks) {
    const double busy = static_cast<double>(node.cpuBusyTicks - lastNode_.cpuBusyTicks) /
                        static_cast<double>(node.cpuTotalTicks - lastNode_.cpuTotalTicks);
    const double processors = static_cast<double>(std::max<long>(sysconf(_SC_NPROCESSORS_ONLN), 1));
    r.node.cpu = std::max(busy, 0.0) * processors * vcoresPerProcessor_;
  }
  lastNode_ = node;
  lastMs_ = nowMs;
  return r;
}

}  // namespace spindle::nm
