#include "nm/process_tree.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace spindle::nm {

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string commandLine(pid_t pid) {
  std::string s = readFile("/proc/" + std::to_string(pid) + "/cmdline");
  for (char& c : s) {
    if (c == '\0') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

bool parseProcStat(std::string_view line, ProcInfo& out) {
  // comm may hold spaces and parentheses: it ends at the last ')'.
  const size_t open = line.find('('), close = line.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return false;
  }
  const std::string head(line.substr(0, open));
  const std::string rest(line.substr(close + 1));
  long pid = 0;
  if (std::sscanf(head.c_str(), "%ld", &pid) != 1) return false;
  char state = 0;
  long ppid = 0, pgrp = 0, session = 0;
  long long utime = 0, stime = 0, vsize = 0, rss = 0;
  // Fields 3..24 of proc(5); the ones not kept are skipped with %*.
  const int n = std::sscanf(rest.c_str(),
                            " %c %ld %ld %ld %*d %*d %*u %*u %*u %*u %*u %lld %lld %*d %*d %*d "
                            "%*d %*d %*d %*u %lld %lld",
                            &state, &ppid, &pgrp, &session, &utime, &stime, &vsize, &rss);
  if (n != 8) return false;
  out.pid = static_cast<pid_t>(pid);
  out.ppid = static_cast<pid_t>(ppid);
  out.pgrp = static_cast<pid_t>(pgrp);
  out.session = static_cast<pid_t>(session);
  out.name = std::string(line.substr(open + 1, close - open - 1));
  out.utimeTicks = utime;
  out.stimeTicks = stime;
  out.vsizeBytes = vsize;
  out.rssPages = rss;
  return true;
}

ProcTable readProcTable() {
  ProcTable out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;  // the process ended meanwhile
    ProcInfo p;
    if (parseProcStat(line, p)) out[p.pid] = std::move(p);
  }
  return out;
}

TreeUsage treeUsage(const ProcTable& procs, pid_t root, const std::set<pid_t>& aged) {
  TreeUsage u;
  if (!procs.contains(root)) return u;
  std::multimap<pid_t, pid_t> children;
  for (const auto& [pid, p] : procs) children.emplace(p.ppid, pid);
  const int64_t page = sysconf(_SC_PAGESIZE);
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    const pid_t pid = todo.back();
    todo.pop_back();
    if (!u.pids.insert(pid).second) continue;
    const ProcInfo& p = procs.at(pid);
    const int64_t rss = p.rssPages * page;
    u.rssBytes += rss;
    u.vmemBytes += p.vsizeBytes;
    u.cpuTicks += p.utimeTicks + p.stimeTicks;
    if (aged.contains(pid)) {
      u.agedRssBytes += rss;
      u.agedVmemBytes += p.vsizeBytes;
    }
    auto [b, e] = children.equal_range(pid);
    for (auto it = b; it != e; ++it) todo.push_back(it->second);
  }
  return u;
}

std::string processTreeDump(const ProcTable& procs, const TreeUsage& tree) {
  const int64_t tickMs = 1000 / std::max<long>(sysconf(_SC_CLK_TCK), 1);
  std::string out =
      "\t|- PID PPID PGRPID SESSID CMD_NAME USER_MODE_TIME(MILLIS) SYSTEM_TIME(MILLIS) "
      "VMEM_USAGE(BYTES) RSSMEM_USAGE(PAGES) FULL_CMD_LINE\n";
  for (pid_t pid : tree.pids) {
    auto it = procs.find(pid);
    if (it == procs.end()) continue;
    const ProcInfo& p = it->second;
    out += fmt::format("\t|- {} {} {} {} ({}) {} {} {} {} {}\n", p.pid, p.ppid, p.pgrp, p.session,
                       p.name, p.utimeTicks * tickMs, p.stimeTicks * tickMs, p.vsizeBytes,
                       p.rssPages, commandLine(p.pid));
  }
  return out;
}

std::string long2String(int64_t n) {
  // TraditionalBinaryPrefix: KILO (k) .. EXA (E), each 1024 times the last.
  static constexpr char kSymbols[] = {'k', 'M', 'G', 'T', 'P', 'E'};
  std::string sign;
  if (n < 0) {
    sign = "-";
    n = -n;
  }
  if (n < 1024) return sign + std::to_string(n);
  int i = 0;
  while (i + 1 < 6 && n >= (int64_t{1} << (10 * (i + 2)))) ++i;
  const int shift = 10 * (i + 1);
  if ((n & ((int64_t{1} << shift) - 1)) == 0) {
    return sign + std::to_string(n >> shift) + " " + kSymbols[i];
  }
  std::string s = fmt::format("{:.1f}", static_cast<double>(n) / static_cast<double>(1LL << shift));
  if (s.starts_with("1024") && i + 1 < 6) {
    ++i;
    s = fmt::format("{:.1f}", static_cast<double>(n) / static_cast<double>(1LL << (shift + 10)));
  }
  return sign + s + " " + kSymbols[i];
}

bool overLimit(int64_t current, int64_t aged, int64_t limit) {
  return current > 2 * limit || aged > limit;
}

std::string memoryErrorMessage(const std::string& type, pid_t pid, const std::string& containerId,
                               int64_t current, int64_t limit, int64_t pmemUsed, int64_t pmemLimit,
                               int64_t vmemUsed, int64_t vmemLimit, const std::string& dump) {
  return fmt::format(
      "Container [pid={},containerID={}] is running {}B beyond the '{}' memory limit. Current "
      "usage: {}B of {}B physical memory used; {}B of {}B virtual memory used. Killing "
      "container.\nDump of the process-tree for {} :\n{}",
      pid, containerId, current - limit, type, long2String(pmemUsed), long2String(pmemLimit),
      long2String(vmemUsed), long2String(vmemLimit), containerId, dump);
}

NodeUsage parseNodeUsage(std::string_view meminfo, std::string_view stat) {
  NodeUsage u;
  std::istringstream mem{std::string(meminfo)};
  std::string key;
  int64_t value = 0;
  std::string unit;
  std::string line;
  while (std::getline(mem, line)) {
    std::istringstream l(line);
    if (!(l >> key >> value)) continue;
    if (key == "MemTotal:") u.memTotalKb = value;
    if (key == "MemAvailable:") u.memAvailableKb = value;
    if (key == "SwapTotal:") u.swapTotalKb = value;
    if (key == "SwapFree:") u.swapFreeKb = value;
  }
  std::istringstream st{std::string(stat)};
  while (std::getline(st, line)) {
    if (!line.starts_with("cpu ")) continue;
    std::istringstream l(line.substr(4));
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    int64_t v = 0;
    for (int i = 0; i < 8 && (l >> v); ++i) {
      u.cpuTotalTicks += v;
      if (i != 3 && i != 4) u.cpuBusyTicks += v;
    }
    break;
  }
  return u;
}

NodeUsage readNodeUsage() {
  return parseNodeUsage(readFile("/proc/meminfo"), readFile("/proc/stat"));
}

}  // namespace spindle::nm
