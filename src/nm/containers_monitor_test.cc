#include "nm/containers_monitor.h"

#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "app/container_state.h"

namespace spindle::nm {
namespace {

const int64_t kPage = sysconf(_SC_PAGESIZE);

ProcInfo proc(pid_t pid, pid_t ppid, int64_t rssMb, int64_t vmemMb = 0) {
  ProcInfo p;
  p.pid = pid;
  p.ppid = ppid;
  p.pgrp = pid;
  p.session = pid;
  p.name = fmt::format("p{}", pid);
  p.rssPages = (rssMb << 20) / kPage;
  p.vsizeBytes = vmemMb << 20;
  return p;
}

ProcTable table(std::initializer_list<ProcInfo> ps) {
  ProcTable t;
  for (const ProcInfo& p : ps) t[p.pid] = p;
  return t;
}

TEST(ProcessTreeTest, ParsesProcStatWithSpacesInTheName) {
  ProcInfo p;
  ASSERT_TRUE(parseProcStat(
      "4242 (my (odd) cmd) S 17 4242 4242 0 -1 4194304 100 0 0 0 12 3 0 0 20 0 1 0 555 "
      "104857600 2560 18446744073709551615",
      p));
  EXPECT_EQ(p.pid, 4242);
  EXPECT_EQ(p.ppid, 17);
  EXPECT_EQ(p.name, "my (odd) cmd");
  EXPECT_EQ(p.utimeTicks, 12);
  EXPECT_EQ(p.stimeTicks, 3);
  EXPECT_EQ(p.vsizeBytes, 104857600);
  EXPECT_EQ(p.rssPages, 2560);
  EXPECT_FALSE(parseProcStat("garbage", p));
}

TEST(ProcessTreeTest, SumsTheTreeAndItsAgedPart) {
  // 10 -> 11 -> 12, and 20 outside the tree.
  ProcTable t = table(
      {proc(10, 1, 100, 300), proc(11, 10, 50, 200), proc(12, 11, 25, 100), proc(20, 1, 999, 999)});
  TreeUsage u = treeUsage(t, 10, {10, 11});
  EXPECT_EQ(u.pids, (std::set<pid_t>{10, 11, 12}));
  EXPECT_EQ(u.rssBytes, int64_t{175} << 20);
  EXPECT_EQ(u.vmemBytes, int64_t{600} << 20);
  EXPECT_EQ(u.agedRssBytes, int64_t{150} << 20);
  EXPECT_TRUE(treeUsage(t, 99).pids.empty());
}

TEST(ProcessTreeTest, Long2StringAsHadoop) {
  EXPECT_EQ(long2String(512), "512");
  EXPECT_EQ(long2String(int64_t{256} << 20), "256 M");
  EXPECT_EQ(long2String(int64_t{3} << 29), "1.5 G");
  EXPECT_EQ(long2String((int64_t{300} << 20) + (int64_t{1} << 19)), "300.5 M");
  EXPECT_EQ(long2String(int64_t{1} << 30), "1 G");
}

TEST(ProcessTreeTest, NodeUsageFromProcFiles) {
  NodeUsage u = parseNodeUsage(
      "MemTotal:        8000000 kB\nMemFree:  100 kB\nMemAvailable:    6000000 kB\n"
      "SwapTotal:       1000 kB\nSwapFree:        400 kB\n",
      "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3 4\n");
  EXPECT_EQ(u.memTotalKb, 8000000);
  EXPECT_EQ(u.memAvailableKb, 6000000);
  EXPECT_EQ(u.swapTotalKb - u.swapFreeKb, 600);
  EXPECT_EQ(u.cpuBusyTicks, 150);
  EXPECT_EQ(u.cpuTotalTicks, 1000);
}

TEST(ContainersMonitorTest, KillsATreeAboveItsMemoryOnceAged) {
  ContainersMonitor m(MonitorSettings{}, 8);
  const std::vector<MonitoredContainer> running = {{"container_1_0001_01_000002", 10, 128}};
  // 150 MB of a 128 MB container: new processes are not aged yet, so no kill on first sight.
  ProcTable t = table({proc(10, 1, 100), proc(11, 10, 50)});
  MonitorResult r = m.check(t, running, {}, 0);
  EXPECT_TRUE(r.kills.empty());
  EXPECT_EQ(r.containers.pmem, 150);
  r = m.check(t, running, {}, 3000);
  ASSERT_EQ(r.kills.size(), 1u);
  EXPECT_EQ(r.kills[0].exitStatus, ContainerExitStatus::KILLED_EXCEEDED_PMEM);
  EXPECT_TRUE(r.kills[0].diagnostics.starts_with(
      "Container [pid=10,containerID=container_1_0001_01_000002] is running 23068672B "
      "beyond the 'PHYSICAL' memory limit. Current usage: 150 MB of 128 MB physical memory "
      "used; 0B of 268.8 MB virtual memory used. Killing container.\n"))
      << r.kills[0].diagnostics;
  EXPECT_NE(
      r.kills[0].diagnostics.find("Dump of the process-tree for container_1_0001_01_000002 :\n"
                                  "\t|- PID PPID PGRPID"),
      std::string::npos);
}

TEST(ContainersMonitorTest, TwiceTheLimitKillsAtOnceAndCgroupContainersAreSkipped) {
  ContainersMonitor m(MonitorSettings{}, 8);
  ProcTable t = table({proc(10, 1, 300)});
  EXPECT_EQ(m.check(t, {{"c1", 10, 128}}, {}, 0).kills.size(), 1u);
  ContainersMonitor m2(MonitorSettings{}, 8);
  EXPECT_TRUE(m2.check(t, {{"c1", 10, 128}}, {}, 0, {"c1"}).kills.empty());
  MonitorSettings off;
  off.pmemCheck = false;
  ContainersMonitor m3(off, 8);
  EXPECT_TRUE(m3.check(t, {{"c1", 10, 128}}, {}, 0).kills.empty());
}

TEST(ContainersMonitorTest, VmemCheckWhenEnabled) {
  MonitorSettings s;
  s.vmemCheck = true;
  s.vmemPmemRatio = 2.0;
  ContainersMonitor m(s, 8);
  ProcTable t = table({proc(10, 1, 10, 600)});
  MonitorResult r = m.check(t, {{"c1", 10, 128}}, {}, 0);
  ASSERT_EQ(r.kills.size(), 1u);
  EXPECT_EQ(r.kills[0].exitStatus, ContainerExitStatus::KILLED_EXCEEDED_VMEM);
  EXPECT_NE(r.kills[0].diagnostics.find("beyond the 'VIRTUAL' memory limit"), std::string::npos);
}

TEST(ContainersMonitorTest, NodeUtilisation) {
  ContainersMonitor m(MonitorSettings{}, 8);
  NodeUsage n;
  n.memTotalKb = 4 << 20;
  n.memAvailableKb = 3 << 20;
  n.swapTotalKb = 2048;
  n.swapFreeKb = 1024;
  n.cpuTotalTicks = 1000;
  MonitorResult r = m.check({}, {}, n, 0);
  EXPECT_EQ(r.node.pmem, 1024);
  EXPECT_EQ(r.node.vmem, 1025);
  EXPECT_EQ(r.node.cpu, 0);
  n.cpuTotalTicks = 2000;
  n.cpuBusyTicks = 500;  // half of the 1000 ticks since the last check were busy
  r = m.check({}, {}, n, 1000);
  EXPECT_NEAR(r.node.cpu, 4.0, 1e-9);  // half of 8 vcores
}

TEST(ContainersMonitorTest, SettingsAreValidated) {
  Configuration c;
  c.set("yarn.nodemanager.vmem-pmem-ratio", "0.5");
  EXPECT_NE(readMonitorSettings(c).status().message().find("vmem-pmem-ratio"), std::string::npos);
  Configuration d;
  d.set("yarn.nodemanager.container-monitor.interval-ms", "0");
  EXPECT_FALSE(readMonitorSettings(d).isOk());
  auto s = readMonitorSettings(Configuration{});
  ASSERT_TRUE(s.isOk());
  EXPECT_TRUE(s->pmemCheck);
  EXPECT_EQ(s->intervalMs, 3000);
}

}  // namespace
}  // namespace spindle::nm
