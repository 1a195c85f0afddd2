// Containers in cgroup v2 (YARN's CGroupsV2 resource handlers, Hadoop 3.4+): one cgroup per
// container under a delegated root, with memory.max (the container's memory: the kernel
// enforces it and OOM-kills inside the group), cpu.weight (proportional to vcores) and, with
// yarn.nodemanager.linux-container-executor.cgroups.strict-resource-usage, cpu.max (a hard cap).
//
//   auto cg = Cgroups::open(readCgroupsSettings(conf).value());   // nullopt: not configured
//   std::string dir = cg->create("container_..._000002", {512, 2}).value();
//   // the child, before exec: joinSelf(procsPath) (async-signal-safe)
//   cg->kill(dir);                   // cgroup.kill: every process in the group
//   bool oom = cg->oomKilled(dir);   // memory.events oom_kill > 0
//   cg->remove(dir);
//
// The root is spindle.nodemanager.cgroups.root, or mount-path + hierarchy when
// yarn.nodemanager.linux-container-executor.cgroups.hierarchy is set. open() checks that it is
// a cgroup v2 folder (cgroup.controllers lists memory) and enables the memory and cpu
// controllers for its children (cgroup.subtree_control). When it is not usable the NM logs why
// and the ContainersMonitor enforces memory instead.
// Thread-safety: methods only touch files; callers serialise per container.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/status.h"
#include "config/configuration.h"
#include "protocol/records.h"

namespace spindle::nm {

struct CgroupsSettings {
  std::string root;     // empty: cgroups are not used
  bool strict = false;  // ...cgroups.strict-resource-usage
  int64_t nodeVcores = 8;
  int64_t processors = 1;
};
Result<CgroupsSettings> readCgroupsSettings(const Configuration& conf, int64_t nodeVcores);

// cpu.weight for `vcores`: 100 per vcore (cgroup v1's 1024 shares per vcore, scaled to
// v2's default 100), within 1..10000.
int64_t cpuWeight(int64_t vcores);
// cpu.max "quota period" in strict mode: vcores / node vcores of the node's processors
// (CGroupsCpuResourceHandlerImpl), period 100 ms.
std::string cpuMax(int64_t vcores, int64_t nodeVcores, int64_t processors);
// The oom_kill count of a memory.events text.
int64_t oomKills(const std::string& memoryEvents);

// Moves the calling process into the cgroup whose cgroup.procs is `procsPath`; for the child
// between fork and exec. False when the write failed.
bool joinSelf(const char* procsPath);

class Cgroups {
 public:
  // nullopt with a reason when the root is not a usable cgroup v2 folder.
  static Result<Cgroups> open(const CgroupsSettings& s);
  // Makes <root>/<containerId> with its limits; answers its folder.
  Result<std::string> create(const std::string& containerId,
                             const protocol::ResourceRecord& resource) const;
  void kill(const std::string& dir) const;
  bool oomKilled(const std::string& dir) const;
  void remove(const std::string& dir) const;
  const std::string& root() const { return s_.root; }

 private:
  explicit Cgroups(CgroupsSettings s) : s_(std::move(s)) {}
  CgroupsSettings s_;
};

}  // namespace spindle::nm
