// Process trees and node usage read from /proc (YARN's ProcfsBasedProcessTree and
// LinuxResourceCalculatorPlugin), the facts the NodeManager's ContainersMonitor acts on.
//
//   ProcTable procs = readProcTable();                 // every process under /proc
//   TreeUsage u = treeUsage(procs, containerPid);      // RSS, virtual memory, CPU of the tree
//   std::string s = long2String(300 << 20);            // "300 M", as Hadoop prints sizes
//   NodeUsage n = parseNodeUsage(meminfoText, statText);
//
// The parsers take the files' text, so tests feed them fixed samples. Thread-safety: pure
// functions; readProcTable and readNodeUsage read /proc.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::nm {

// One line of /proc/<pid>/stat.
struct ProcInfo {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgrp = 0;
  pid_t session = 0;
  std::string name;  // comm, without the parentheses
  int64_t utimeTicks = 0;
  int64_t stimeTicks = 0;
  int64_t vsizeBytes = 0;
  int64_t rssPages = 0;
};

using ProcTable = std::map<pid_t, ProcInfo>;

// Parses "pid (comm) state ppid pgrp session ... utime stime ... vsize rss ..." (proc(5));
// false when the line is not one.
bool parseProcStat(std::string_view line, ProcInfo& out);
ProcTable readProcTable();

struct TreeUsage {
  int64_t rssBytes = 0;
  int64_t vmemBytes = 0;
  int64_t cpuTicks = 0;  // user + system, in clock ticks
  // The same sums over the processes also in `aged` (YARN's "older than one iteration").
  int64_t agedRssBytes = 0;
  int64_t agedVmemBytes = 0;
  std::set<pid_t> pids;  // root and every descendant
};

// `root` and every process whose parent chain reaches it. `aged`: the tree's pids at the
// previous check.
TreeUsage treeUsage(const ProcTable& procs, pid_t root, const std::set<pid_t>& aged = {});

// YARN's ProcfsBasedProcessTree.getProcessTreeDump: a header line and one line per process,
// each starting with "\t|- ".
std::string processTreeDump(const ProcTable& procs, const TreeUsage& tree);

// Hadoop's StringUtils.TraditionalBinaryPrefix.long2String(n, "", 1): "512", "256 M", "1.5 G".
std::string long2String(int64_t n);

// YARN's ContainersMonitorImpl.isProcessTreeOverLimit: over when the whole tree uses more than
// twice the limit, or the processes aged one check use more than the limit.
bool overLimit(int64_t current, int64_t aged, int64_t limit);

// The diagnostics of a container killed for memory (ContainersMonitorImpl.formatErrorMessage):
// "Container [pid=P,containerID=C] is running NB beyond the 'PHYSICAL' memory limit. Current
// usage: ... Killing container.\nDump of the process-tree for C :\n...".
std::string memoryErrorMessage(const std::string& type, pid_t pid, const std::string& containerId,
                               int64_t current, int64_t limit, int64_t pmemUsed, int64_t pmemLimit,
                               int64_t vmemUsed, int64_t vmemLimit, const std::string& dump);

// The node's memory and CPU counters (/proc/meminfo, the "cpu " line of /proc/stat).
struct NodeUsage {
  int64_t memTotalKb = 0;
  int64_t memAvailableKb = 0;
  int64_t swapTotalKb = 0;
  int64_t swapFreeKb = 0;
  int64_t cpuBusyTicks = 0;
  int64_t cpuTotalTicks = 0;
};
NodeUsage parseNodeUsage(std::string_view meminfo, std::string_view stat);
NodeUsage readNodeUsage();

}  // namespace spindle::nm
