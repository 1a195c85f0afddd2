#include "scheduler/capacity/preemption/reserved_selector.h"

#include <algorithm>
#include <map>
#include <optional>

#include "scheduler/capacity/preemption/ideal_assignment.h"
#include "scheduler/capacity/preemption/selection_util.h"

namespace spindle::preemption {
namespace {

using Quotas = std::map<QueueId, ToObtain>;

struct NodeChoice {
  const NodeSnapshot* node;
  double cost;
  std::vector<std::pair<const AppSnapshot*, const ContainerSnapshot*>> picks;
};

// One walk of getPreemptionCandidatesOnNode; nullopt when the reservation cannot fit.
std::optional<NodeChoice> walkNode(RoundState& st, const NodeSnapshot& node,
                                   const ContainerSnapshot& reservation, Quotas& quotas,
                                   bool readOnly) {
  const ResourceCalculator& rc = st.rc();
  Resource cur = node.unallocated + node.killable;
  if (rc.fitsIn(reservation.size, cur)) return std::nullopt;
  std::vector<std::pair<const AppSnapshot*, const ContainerSnapshot*>> running;
  for (const AppSnapshot& app : st.snapshot().apps) {
    for (const ContainerSnapshot& c : app.containers) {
      if (!c.isReservation && c.node == node.id) running.emplace_back(&app, &c);
    }
  }
  std::sort(running.begin(), running.end(),
            [](const auto& a, const auto& b) { return a.second->id > b.second->id; });
  NodeChoice choice{&node, 0, {}};
  Resource totalSelected;
  Resource& budget = st.totalPreemptionAllowed();
  bool fits = false;
  for (const auto& [app, c] : running) {
    if (c->killable || c->isAm) continue;  // AMs are never taken here
    auto q = quotas.find(app->queue);
    if (q == quotas.end()) continue;
    auto quota = q->second.find(node.partition);
    if (quota == q->second.end()) continue;
    if (!rc.fitsIn(c->size, quota->second) || !rc.fitsIn(c->size, budget)) continue;
    if (!readOnly) {
      quota->second -= c->size;
      budget -= c->size;
    }
    if (!st.isSelected(c->id)) {
      choice.picks.emplace_back(app, c);
      totalSelected += c->size;
    }
    cur += c->size;
    if (rc.fitsIn(reservation.size, cur)) {
      fits = true;
      break;
    }
  }
  if (!fits) {
    if (!readOnly) {
      for (const auto& [app, c] : choice.picks) quotas[app->queue][node.partition] += c->size;
    }
    return std::nullopt;
  }
  // preemptionCost = Resources.ratio(rc, totalSelected, reserved), a float in YARN: nodes whose
  // float costs tie keep their node order (the sort below is stable).
  choice.cost = rc.ratio(totalSelected, reservation.size);
  return choice;
}

const ContainerSnapshot* findContainer(const RoundState& st, const ContainerId& id) {
  const AppSnapshot* app = st.app(id.attempt);
  if (app == nullptr) return nullptr;
  for (const ContainerSnapshot& c : app->containers) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

}  // namespace

void ReservedSelector::select(RoundState& st) const {
  IdealAssignmentCalculator(st, CalculatorMode{.considerReservedInPending = true,
                                               .applyNaturalTermination = false,
                                               .balanceAfterSatisfied = false})
      .compute();
  Quotas quotas;
  for (QueueId leaf : st.leaves()) quotas[leaf] = resToObtainForLeaf(st, leaf);

  std::vector<NodeChoice> nodes;
  for (const NodeSnapshot& node : st.snapshot().nodes) {
    if (!node.reservedContainer) continue;
    const ContainerSnapshot* r = findContainer(st, *node.reservedContainer);
    if (r == nullptr) continue;
    auto choice = walkNode(st, node, *r, quotas, /*readOnly=*/true);
    if (choice) nodes.push_back(std::move(*choice));
  }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const NodeChoice& a, const NodeChoice& b) { return a.cost < b.cost; });
  for (const NodeChoice& n : nodes) {
    const ContainerSnapshot* r = findContainer(st, *n.node->reservedContainer);
    auto choice = walkNode(st, *n.node, *r, quotas, /*readOnly=*/false);
    if (!choice) continue;
    // Picks are running (not reserved) containers, so their isReservation is false.
    for (const auto& [app, c] : choice->picks) {
      selectVictim(st, *app, *c, n.node->partition, index_, st.app(r->id.attempt)->queue);
    }
  }
}

}  // namespace spindle::preemption
