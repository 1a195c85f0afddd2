#include "nm/container_launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "app/container_state.h"
#include "base/log.h"
#include "nm/command_line.h"
#include "nm/process_tree.h"

namespace spindle::nm {

Status launchUserAllowed(const std::string& containerId, uid_t euid, bool allowRoot) {
  if (euid != 0 || allowRoot) return Status::ok();
  return failedPrecondition(
      "Container {} refused: the NodeManager runs as root and containers never run as root "
      "unless spindle.nodemanager.allow-root is true",
      containerId);
}

namespace {

int64_t steadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Variables a container inherits from the NM (YARN's yarn.nodemanager.env-whitelist idea).
constexpr const char* kInherited[] = {"PATH", "HOME", "LANG", "TMPDIR", "LD_LIBRARY_PATH", "USER"};

std::string replaceAll(std::string s, std::string_view from, std::string_view to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) {
    s.replace(p, from.size(), to);
  }
  return s;
}

// Every process whose parent chain reaches `root` (read from /proc/<pid>/stat).
std::vector<pid_t> descendants(pid_t root) {
  std::map<pid_t, pid_t> parent;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &ppid) != 2) continue;
    parent[static_cast<pid_t>(std::atol(name.c_str()))] = static_cast<pid_t>(ppid);
  }
  std::vector<pid_t> out;
  std::set<pid_t> inTree{root};
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& [pid, ppid] : parent) {
      if (!inTree.contains(pid) && inTree.contains(ppid)) {
        inTree.insert(pid);
        out.push_back(pid);
        grew = true;
      }
    }
  }
  return out;
}

}  // namespace

ContainerLauncher::ContainerLauncher(LauncherDirs dirs, std::map<std::string, std::string> nodeEnv,
                                     int64_t killGraceMs)
    : dirs_(std::move(dirs)), nodeEnv_(std::move(nodeEnv)), killGraceMs_(killGraceMs) {}

ContainerLauncher::~ContainerLauncher() = default;

void ContainerLauncher::useCgroups(Cgroups cg) {
  std::lock_guard lock(mu_);
  cgroups_ = std::move(cg);
}

void ContainerLauncher::signalTree(pid_t pid, int sig) const {
  for (pid_t p : descendants(pid)) ::kill(p, sig);
  ::kill(-pid, sig);  // the session's process group (setsid made pid its leader)
  ::kill(pid, sig);
}

Status ContainerLauncher::start(const LaunchSpec& spec) {
  std::lock_guard lock(mu_);
  if (procs_.contains(spec.containerId)) {
    return invalidArgument("container {} is already known to this node", spec.containerId);
  }
  if (spec.commands.empty()) return invalidArgument("container {}: no command", spec.containerId);
  namespace fs = std::filesystem;
  const std::string logFolder = dirs_.logDir + "/" + spec.appId + "/" + spec.containerId;
  const std::string workDir = dirs_.localDir + "/appcache/" + spec.appId + "/" + spec.containerId;
  std::error_code ec;
  fs::create_directories(logFolder, ec);
  if (!ec) fs::create_directories(workDir, ec);
  if (ec) return failedPrecondition("container {}: {}", spec.containerId, ec.message());

  std::string command;
  for (const std::string& c : spec.commands) command += (command.empty() ? "" : " ") + c;
  command = replaceAll(command, "<LOG_DIR>", logFolder);

  std::map<std::string, std::string> env;
  for (const char* name : kInherited) {
    if (const char* v = std::getenv(name)) env[name] = v;
  }
  for (const auto& [k, v] : nodeEnv_) env[k] = v;
  env["CONTAINER_ID"] = spec.containerId;
  env["APPLICATION_ID"] = spec.appId;
  env["LOG_DIRS"] = logFolder;
  env["LOCAL_DIRS"] = dirs_.localDir + "/appcache/" + spec.appId;
  env["PWD"] = workDir;
  for (const auto& [k, v] : spec.environment) env[k] = replaceAll(v, "<LOG_DIR>", logFolder);

  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<std::string> envStrings;
  for (const auto& [k, v] : env) envStrings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (std::string& s : envStrings) envp.push_back(s.data());
  envp.push_back(nullptr);
  // `/bin/sh -c <command>`, or the program itself when the command has no shell syntax.
  std::vector<std::string> words = {"/bin/sh", "-c", command};
  if (auto plain = plainWords(command)) {
    auto path = env.find("PATH");
    if (path != env.end()) {
      if (auto program = findOnPath(plain->front(), path->second)) {
        words = std::move(*plain);
        words.front() = std::move(*program);
      }
    }
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string out = logFolder + "/stdout", err = logFolder + "/stderr";
  const long maxFd = std::min<long>(sysconf(_SC_OPEN_MAX), 65536);
  std::string cgroup, procsPath;
  if (cgroups_) {
    auto dir = cgroups_->create(spec.containerId, spec.resource);
    if (dir) {
      cgroup = *dir;
      procsPath = cgroup + "/cgroup.procs";
    } else {
      SPINDLE_LOG_WARN("container {} runs without a cgroup: {}", spec.containerId,
                       dir.status().message());
    }
  }
  static constexpr char kJoinFailed[] = "spindle nm: cannot join the container's cgroup\n";

  pid_t pid = -1;
  if (procsPath.empty()) {
    // No cgroup to join: posix_spawn (a vfork-style clone), which does not copy the NM's page
    // tables, about halves what a launch costs the NM. The file actions do what the fork branch
    // below does; one that fails fails the start with its reason.
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addchdir_np(&actions, workDir.c_str());
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    const int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
      return failedPrecondition("container {}: cannot start {}: {}", spec.containerId, argv[0],
                                std::strerror(rc));
    }
  } else {
    pid = fork();
  }
  if (pid < 0) return failedPrecondition("container {}: fork failed", spec.containerId);
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    setsid();
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0 || chdir(workDir.c_str()) != 0) _exit(127);
    dup2(in, 0);
    dup2(o, 1);
    dup2(e, 2);
    if (!procsPath.empty() && !joinSelf(procsPath.c_str())) {
      (void)!write(2, kJoinFailed, sizeof kJoinFailed - 1);
      _exit(1);
    }
    // One close_range call (Linux 5.9) instead of one close per possible descriptor: with a
    // high RLIMIT_NOFILE the loop cost milliseconds per container. The loop stays the fallback.
    if (close_range(3, ~0U, 0) != 0) {
      for (long fd = 3; fd < maxFd; ++fd) close(static_cast<int>(fd));
    }
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  Proc p;
  p.pid = pid;
  p.appId = spec.appId;
  p.logFolder = logFolder;
  p.resource = spec.resource;
  p.cgroup = cgroup;
  procs_.emplace(spec.containerId, std::move(p));
  SPINDLE_LOG_INFO("container {} started (pid {}): {}", spec.containerId, pid, command);
  return Status::ok();
}

Status ContainerLauncher::stop(const std::string& containerId, int32_t exitStatus,
                               const std::string& why) {
  std::lock_guard lock(mu_);
  auto it = procs_.find(containerId);
  if (it == procs_.end()) return notFound("container {} is not known to this node", containerId);
  Proc& p = it->second;
  if (p.done || p.killStatus) return Status::ok();
  p.killStatus = exitStatus;
  p.diagnostics = why;
  p.killDeadlineMs = steadyMs() + killGraceMs_;
  signalTree(p.pid, SIGTERM);
  SPINDLE_LOG_INFO("container {} stopping: {}", containerId, why);
  return Status::ok();
}

void ContainerLauncher::stopAll(int32_t exitStatus, const std::string& why) {
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, p] : procs_) {
      if (!p.done) ids.push_back(id);
    }
  }
  for (const std::string& id : ids) (void)stop(id, exitStatus, why);
}

void ContainerLauncher::reap() {
  std::lock_guard lock(mu_);
  const int64_t now = steadyMs();
  for (auto& [id, p] : procs_) {
    if (p.done) continue;
    int status = 0;
    const pid_t r = waitpid(p.pid, &status, WNOHANG);
    if (r == p.pid) {
      p.done = true;
      const int code = WIFEXITED(status)     ? WEXITSTATUS(status)
                       : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                             : 1;
      // Whatever the container left running in its group ends with it.
      ::kill(-p.pid, SIGKILL);
      const bool oom = !p.cgroup.empty() && cgroups_ && cgroups_->oomKilled(p.cgroup);
      if (!p.cgroup.empty() && cgroups_) {
        cgroups_->kill(p.cgroup);
        cgroups_->remove(p.cgroup);
      }
      if (oom && !p.killStatus) {
        // The kernel enforced memory.max (YARN's exit status for a pmem kill).
        p.exitStatus = ContainerExitStatus::KILLED_EXCEEDED_PMEM;
        p.diagnostics = fmt::format(
            "Container [pid={},containerID={}] is running beyond the 'PHYSICAL' memory limit. "
            "Current usage: {}B of {}B physical memory used; the kernel killed it in its cgroup "
            "(memory.max). Killing container.\nContainer exited with a non-zero exit code {}.",
            p.pid, id, long2String(p.resource.memory << 20), long2String(p.resource.memory << 20),
            code);
      } else if (p.killStatus) {
        p.exitStatus = *p.killStatus;
        p.diagnostics += "\nContainer killed on request. Exit code is " + std::to_string(code);
      } else {
        p.exitStatus = code;
        if (code != 0)
          p.diagnostics = "Exception from container-launch. Exit code: " + std::to_string(code);
      }
      SPINDLE_LOG_INFO("container {} exited: status {}", id, p.exitStatus);
      continue;
    }
    if (p.killStatus && !p.killed && now >= p.killDeadlineMs) {
      signalTree(p.pid, SIGKILL);
      if (!p.cgroup.empty() && cgroups_) cgroups_->kill(p.cgroup);
      p.killed = true;
    }
  }
}

std::vector<protocol::ContainerStatus> ContainerLauncher::statuses() const {
  std::lock_guard lock(mu_);
  std::vector<protocol::ContainerStatus> out;
  out.reserve(procs_.size());
  for (const auto& [id, p] : procs_) {
    if (p.done) {
      out.push_back(
          {id, protocol::ContainerState::COMPLETE, p.exitStatus, p.diagnostics, p.resource});
    } else {
      out.push_back(
          {id, protocol::ContainerState::RUNNING, protocol::kInvalidExitStatus, "", p.resource});
    }
  }
  return out;
}

void ContainerLauncher::acknowledge(const std::vector<protocol::ContainerStatus>& reported) {
  std::lock_guard lock(mu_);
  for (const protocol::ContainerStatus& s : reported) {
    if (s.state != protocol::ContainerState::COMPLETE) continue;
    auto it = procs_.find(s.containerId);
    if (it == procs_.end() || !it->second.done) continue;
    acknowledged_[s.containerId] = {s.containerId, protocol::ContainerState::COMPLETE,
                                    it->second.exitStatus, it->second.diagnostics};
    acknowledgedOrder_.push_back(s.containerId);
    procs_.erase(it);
  }
  constexpr size_t kKeep = 1000;
  if (acknowledgedOrder_.size() > kKeep) {
    const size_t drop = acknowledgedOrder_.size() - kKeep;
    for (size_t i = 0; i < drop; ++i) acknowledged_.erase(acknowledgedOrder_[i]);
    acknowledgedOrder_.erase(acknowledgedOrder_.begin(),
                             acknowledgedOrder_.begin() + static_cast<std::ptrdiff_t>(drop));
  }
}

std::vector<ContainerLauncher::Running> ContainerLauncher::runningContainers() const {
  std::lock_guard lock(mu_);
  std::vector<Running> out;
  for (const auto& [id, p] : procs_) {
    if (!p.done && !p.killStatus) out.push_back({id, p.pid, p.resource, !p.cgroup.empty()});
  }
  return out;
}

std::optional<protocol::ContainerStatus> ContainerLauncher::status(
    const std::string& containerId) const {
  std::lock_guard lock(mu_);
  if (auto it = procs_.find(containerId); it != procs_.end()) {
    const Proc& p = it->second;
    if (p.done)
      return protocol::ContainerStatus{containerId, protocol::ContainerState::COMPLETE,
                                       p.exitStatus, p.diagnostics};
    return protocol::ContainerStatus{containerId, protocol::ContainerState::RUNNING,
                                     protocol::kInvalidExitStatus, ""};
  }
  if (auto it = acknowledged_.find(containerId); it != acknowledged_.end()) return it->second;
  return std::nullopt;
}

size_t ContainerLauncher::running() const {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& [id, p] : procs_) n += p.done ? 0 : 1;
  return n;
}

std::optional<std::string> ContainerLauncher::logFolder(const std::string& containerId) const {
  std::lock_guard lock(mu_);
  auto it = procs_.find(containerId);
  if (it == procs_.end()) return std::nullopt;
  return it->second.logFolder;
}

}  // namespace spindle::nm
