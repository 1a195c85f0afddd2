// The scenario fuzz target: a scenario file parsed and validated as `spindle scenario check`
// does, then run as `spindle scenario run` does (no outputs written) when it is small enough
// that one input stays cheap.
#include <string>
#include <type_traits>
#include <variant>

#include "config/configuration.h"
#include "fuzz/harness.h"
#include "scenario/scenario.h"
#include "scenario/scenario_runner.h"

namespace spindle::fuzz {
namespace {

// What a run may cost: a handful of nodes, steps, containers and heartbeats. Anything bigger is
// parsed and validated only.
constexpr size_t kMaxNodes = 16;
constexpr size_t kMaxSteps = 200;
constexpr int64_t kMaxContainers = 500;
constexpr int64_t kMaxHeartbeats = 400;
constexpr int64_t kMaxNodeMemoryMb = 64 * 1024;
constexpr int64_t kMaxNodeVcores = 64;
constexpr int64_t kMaxTickedAdvanceMs = 60'000;

// A configuration naming a file (yarn.scheduler.fair.allocation.file, ...) would make the run
// read whatever path the input names.
bool namesFiles(const Configuration& conf) {
  for (const auto& [name, value] : conf.all()) {
    if (name.find("file") != std::string::npos || name.find("path") != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool smallNode(const NodeSpec& n) {
  return n.resource.memoryMb() <= kMaxNodeMemoryMb && n.resource.vcores() <= kMaxNodeVcores;
}

bool cheapToRun(const Scenario& sc) {
  if (sc.steps.size() > kMaxSteps || namesFiles(sc.conf)) return false;
  size_t nodes = sc.nodes.size();
  for (const NodeSpec& n : sc.nodes) {
    if (!smallNode(n)) return false;
  }
  int64_t containers = 0, heartbeats = 0, tickedMs = 0;
  bool ok = true;
  for (const Step& step : sc.steps) {
    std::visit(
        [&](const auto& b) {
          using T = std::decay_t<decltype(b)>;
          if constexpr (std::is_same_v<T, AddNodeStep>) {
            nodes += b.nodes.size();
            for (const NodeSpec& n : b.nodes) ok = ok && smallNode(n);
          } else if constexpr (std::is_same_v<T, UpdateNodeStep>) {
            ok = ok && b.resource.memoryMb() <= kMaxNodeMemoryMb &&
                 b.resource.vcores() <= kMaxNodeVcores;
          } else if constexpr (std::is_same_v<T, HeartbeatStep>) {
            heartbeats += static_cast<int64_t>(b.all ? kMaxNodes : 1) * b.times;
          } else if constexpr (std::is_same_v<T, AskStep>) {
            for (const ResourceRequest& r : b.requests) containers += r.numContainers;
          } else if constexpr (std::is_same_v<T, PlaceStep>) {
            containers += b.count;
          } else if constexpr (std::is_same_v<T, SchedulingRequestStep>) {
            for (const SchedulingRequestSpec& r : b.requests) containers += r.count;
          } else if constexpr (std::is_same_v<T, AdvanceStep>) {
            if (b.monitorTicks) tickedMs += b.ms;
          } else if constexpr (std::is_same_v<T, RefreshConfigStep>) {
            ok = ok && !namesFiles(b.properties);
          }
        },
        step.body);
    if (!ok || nodes > kMaxNodes || containers > kMaxContainers || heartbeats > kMaxHeartbeats ||
        tickedMs > kMaxTickedAdvanceMs) {
      return false;
    }
  }
  return true;
}

}  // namespace

int scenario(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Scenario> sc = parseScenarioText(text, "scenario.json");
  if (!sc || !cheapToRun(*sc)) return 0;
  (void)runScenario(*sc, RunOptions{});
  return 0;
}

}  // namespace spindle::fuzz
