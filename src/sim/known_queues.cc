#include "sim/known_queues.h"

#include "base/clock.h"
#include "base/rng.h"
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/scheduler_factory.h"

namespace spindle::sim {

Result<std::set<std::string>> submittableQueues(const Configuration& conf) {
  SimulatedClock clock;
  Rng rng(1);
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<Scheduler> s, createScheduler(conf, clock, rng));
  std::set<std::string> out;
  const auto* cs = dynamic_cast<const CapacityScheduler*>(s.get());
  if (cs == nullptr) return out;
  const auto& cfg = cs->config();
  if (cfg.queueMappingsOverride) return out;
  for (const auto& [path, q] : cfg.queues) {
    if (!q.isLeaf() && !q.reservable) continue;
    out.insert(path);
    const CsQueue* byName = cs->findQueue(q.name);
    if (byName != nullptr && byName->config().path == path) out.insert(q.name);
  }
  return out;
}

}  // namespace spindle::sim
