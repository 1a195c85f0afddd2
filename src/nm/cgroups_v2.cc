#include "nm/cgroups_v2.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace spindle::nm {

namespace fs = std::filesystem;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Status writeText(const std::string& path, const std::string& value) {
  std::ofstream out(path);
  out << value;
  out.flush();
  if (!out) return failedPrecondition("cannot write '{}' to {}", value, path);
  return Status::ok();
}

}  // namespace

Result<CgroupsSettings> readCgroupsSettings(const Configuration& conf, int64_t nodeVcores) {
  const std::string pre = "yarn.nodemanager.linux-container-executor.cgroups.";
  CgroupsSettings s;
  s.root = conf.get("spindle.nodemanager.cgroups.root", "");
  if (s.root.empty() && conf.contains(pre + "hierarchy")) {
    s.root = conf.get(pre + "mount-path", "/sys/fs/cgroup") + "/" + conf.get(pre + "hierarchy", "");
  }
  SPINDLE_ASSIGN_OR_RETURN(s.strict, conf.getBool(pre + "strict-resource-usage", false));
  s.nodeVcores = nodeVcores;
  s.processors = std::max<long>(sysconf(_SC_NPROCESSORS_ONLN), 1);
  return s;
}

int64_t cpuWeight(int64_t vcores) { return std::clamp<int64_t>(vcores * 100, 1, 10000); }

std::string cpuMax(int64_t vcores, int64_t nodeVcores, int64_t processors) {
  constexpr int64_t kPeriodUs = 100'000;
  const int64_t quota =
      std::max<int64_t>(1000, kPeriodUs * vcores * processors / std::max<int64_t>(nodeVcores, 1));
  return fmt::format("{} {}", quota, kPeriodUs);
}

int64_t oomKills(const std::string& memoryEvents) {
  std::istringstream in(memoryEvents);
  std::string key;
  int64_t value = 0;
  while (in >> key >> value) {
    if (key == "oom_kill") return value;
  }
  return 0;
}

bool joinSelf(const char* procsPath) {
  const int fd = ::open(procsPath, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, "0", 1) == 1;  // "0": the writing process
  ::close(fd);
  return ok;
}

Result<Cgroups> Cgroups::open(const CgroupsSettings& s) {
  std::error_code ec;
  if (!fs::is_directory(s.root, ec)) return failedPrecondition("{} is not a folder", s.root);
  const std::string controllers = readText(s.root + "/cgroup.controllers");
  if (controllers.find("memory") == std::string::npos) {
    return failedPrecondition(
        "{} is not a cgroup v2 folder with the memory controller (cgroup.controllers: '{}')",
        s.root, controllers);
  }
  std::string enable = "+memory";
  if (controllers.find("cpu") != std::string::npos) enable += " +cpu";
  SPINDLE_RETURN_IF_ERROR(writeText(s.root + "/cgroup.subtree_control", enable));
  if (access(s.root.c_str(), W_OK) != 0) return failedPrecondition("{} is not writable", s.root);
  return Cgroups(s);
}

Result<std::string> Cgroups::create(const std::string& containerId,
                                    const protocol::ResourceRecord& resource) const {
  const std::string dir = s_.root + "/" + containerId;
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec) return failedPrecondition("cgroup {}: {}", dir, ec.message());
  SPINDLE_RETURN_IF_ERROR(writeText(dir + "/memory.max", std::to_string(resource.memory << 20)));
  // Swap would let the group outgrow memory.max unnoticed; a missing file (no swap) is fine.
  if (fs::exists(dir + "/memory.swap.max", ec)) (void)writeText(dir + "/memory.swap.max", "0");
  if (fs::exists(dir + "/cpu.weight", ec)) {
    SPINDLE_RETURN_IF_ERROR(
        writeText(dir + "/cpu.weight", std::to_string(cpuWeight(resource.vCores))));
    if (s_.strict) {
      SPINDLE_RETURN_IF_ERROR(
          writeText(dir + "/cpu.max", cpuMax(resource.vCores, s_.nodeVcores, s_.processors)));
    }
  }
  return dir;
}

void Cgroups::kill(const std::string& dir) const { (void)writeText(dir + "/cgroup.kill", "1"); }

bool Cgroups::oomKilled(const std::string& dir) const {
  return oomKills(readText(dir + "/memory.events")) > 0;
}

void Cgroups::remove(const std::string& dir) const {
  std::error_code ec;
  // A cgroup folder is removed with rmdir (its control files go with it); a test root made of
  // plain files needs the files removed first.
  if (::rmdir(dir.c_str()) != 0) fs::remove_all(dir, ec);
}

}  // namespace spindle::nm
