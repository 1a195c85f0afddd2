// Runs containers as child processes of the node manager (YARN's DefaultContainerExecutor
// and ContainerLaunch): each in its own session and process group, in its own working
// directory, with stdout and stderr in files under the NM's log dir, and with the container
// environment YARN sets (CONTAINER_ID, NM_HOST, NM_HTTP_PORT, LOG_DIRS, PWD, ...) plus
// APPLICATION_ID and SPINDLE_RM_ADDRESS.
//
//   ContainerLauncher l(dirs, nodeEnv, /*killGraceMs=*/250);
//   l.start({.containerId = "container_1_0001_01_000002", .appId = "application_1_0001",
//            .commands = {"echo", "hi"}});
//   l.reap();                                  // collects exits (call often)
//   auto statuses = l.statuses();              // RUNNING and COMPLETE, for the heartbeat
//   l.acknowledge(statuses);                   // the RM has them: forget the completed ones
//   l.stop("container_...", ContainerExitStatus::KILLED_BY_APPMASTER, "...");
//
// Layout: <log-dir>/<appId>/<containerId>/{stdout,stderr};
// <local-dir>/appcache/<appId>/<containerId>/ is the working directory. `<LOG_DIR>` in a
// command is replaced by the container's log folder, as YARN's NM expands it.
// Kill: SIGTERM to the process group and every descendant found under /proc (a child that
// left the group is still found through its parent chain, as ProcfsBasedProcessTree does),
// then SIGKILL after yarn.nodemanager.sleep-delay-before-sigkill.ms. A container that exits by
// itself has its group killed too, so nothing it started outlives it.
// Exit status: the process's exit code, 128 + signal when a signal ended it, or the status the
// kill was asked with (-105 by the AM, -106 by the RM).
// Thread-safety: every method locks; start/stop come from the HTTP thread, the rest from the
// heartbeat thread.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "nm/cgroups_v2.h"
#include "protocol/records.h"

namespace spindle::nm {

struct LaunchSpec {
  std::string containerId;
  std::string appId;
  std::vector<std::string> commands;
  std::map<std::string, std::string> environment;
  protocol::ResourceRecord resource;
};

// A container never runs as root unless configured: with an effective user id of 0 the
// container is refused unless `allowRoot` (spindle.nodemanager.allow-root). YARN's
// LinuxContainerExecutor refuses root the same way (banned.users, min.user.id); its
// DefaultContainerExecutor would run the container as the NM's user.
Status launchUserAllowed(const std::string& containerId, uid_t euid, bool allowRoot);

struct LauncherDirs {
  std::string logDir;
  std::string localDir;
};

class ContainerLauncher {
 public:
  // `nodeEnv`: variables every container gets (NM_HOST, NM_HTTP_PORT, SPINDLE_RM_ADDRESS).
  ContainerLauncher(LauncherDirs dirs, std::map<std::string, std::string> nodeEnv,
                    int64_t killGraceMs);
  ~ContainerLauncher();
  // Puts every container started from now on in its own cgroup under `cg` (cgroups_v2.h); a
  // container whose cgroup cannot be made runs without one (a warning says why).
  void useCgroups(Cgroups cg);

  // Errors: a container id already known, a folder that cannot be made, fork failing.
  Status start(const LaunchSpec& spec);
  // Starts killing the container's process tree; its status is reported once reaped with
  // `exitStatus`. Errors: an unknown container. Stopping a finished one is a no-op.
  Status stop(const std::string& containerId, int32_t exitStatus, const std::string& why);
  void stopAll(int32_t exitStatus, const std::string& why);
  // Collects exited processes and escalates kills past their grace time.
  void reap();
  std::vector<protocol::ContainerStatus> statuses() const;
  // Forgets the completed containers among `reported` (the RM has their final status).
  void acknowledge(const std::vector<protocol::ContainerStatus>& reported);
  size_t running() const;
  // "<log-dir>/<appId>/<containerId>" of a known container.
  std::optional<std::string> logFolder(const std::string& containerId) const;
  // The running containers' process ids and memory, for the ContainersMonitor.
  struct Running {
    std::string containerId;
    pid_t pid = -1;
    protocol::ResourceRecord resource;
    bool inCgroup = false;  // memory.max enforces its memory
  };
  std::vector<Running> runningContainers() const;
  // A container's last status: running, completed, or completed and already acknowledged (the
  // last 1000 of those are kept, as YARN's NM tracks stopped containers for a while).
  std::optional<protocol::ContainerStatus> status(const std::string& containerId) const;

 private:
  struct Proc {
    pid_t pid = -1;
    std::string appId;
    std::string logFolder;
    protocol::ResourceRecord resource;
    bool done = false;
    int32_t exitStatus = protocol::kInvalidExitStatus;
    std::string diagnostics;
    // A kill in progress: the status to report and when SIGKILL follows.
    std::optional<int32_t> killStatus;
    int64_t killDeadlineMs = 0;
    bool killed = false;  // SIGKILL sent
    std::string cgroup;   // its cgroup folder, when it has one
  };
  void signalTree(pid_t pid, int sig) const;

  LauncherDirs dirs_;
  std::map<std::string, std::string> nodeEnv_;
  int64_t killGraceMs_;
  std::optional<Cgroups> cgroups_;
  mutable std::mutex mu_;
  std::map<std::string, Proc> procs_;
  std::map<std::string, protocol::ContainerStatus> acknowledged_;
  std::vector<std::string> acknowledgedOrder_;
};

}  // namespace spindle::nm
