#include "scheduler/capacity/preemption/queue_priority_selector.h"

#include <algorithm>
#include <map>
#include <set>

#include "scheduler/capacity/preemption/selection_util.h"

namespace spindle::preemption {
namespace {

std::vector<QueueId> pathToRoot(const PreemptionSnapshot& s, QueueId q) {
  std::vector<QueueId> path;
  for (QueueId cur = q; cur.valid(); cur = s.queue(cur).parent) path.push_back(cur);
  return path;
}

// (demanding, victim) pairs where demanding may preempt victim.
std::set<std::pair<QueueId, QueueId>> priorityGraph(const RoundState& st) {
  const PreemptionSnapshot& s = st.snapshot();
  std::set<std::pair<QueueId, QueueId>> edges;
  const std::vector<QueueId>& leaves = st.leaves();
  for (QueueId a : leaves) {
    for (QueueId b : leaves) {
      if (a == b) continue;
      std::vector<QueueId> pa = pathToRoot(s, a), pb = pathToRoot(s, b);
      int ia = static_cast<int>(pa.size()) - 1, ib = static_cast<int>(pb.size()) - 1;
      while (ia >= 0 && ib >= 0 && pa[ia] == pb[ib]) {
        --ia;
        --ib;
      }
      if (ia < 0 || ib < 0) continue;
      int p1 = s.queue(pa[ia]).relativePriority, p2 = s.queue(pb[ib]).relativePriority;
      if (p1 > p2) edges.insert({a, b});
    }
  }
  return edges;
}

struct Running {
  const AppSnapshot* app;
  const ContainerSnapshot* c;
};

}  // namespace

void QueuePrioritySelector::select(RoundState& st) const {
  const PreemptionSnapshot& s = st.snapshot();
  const PreemptionSettings& settings = st.settings();
  const ResourceCalculator& rc = st.rc();
  const Resource& cluster = s.clusterTotal;
  std::set<std::pair<QueueId, QueueId>> edges = priorityGraph(st);
  if (edges.empty()) return;
  auto mayPreempt = [&](QueueId a, QueueId b) { return edges.contains({a, b}); };
  std::set<QueueId> demanders;
  for (const auto& [a, b] : edges) demanders.insert(a);

  struct Reservation {
    const AppSnapshot* app;
    const ContainerSnapshot* c;
    const NodeSnapshot* node;
  };
  std::vector<Reservation> reservations;
  for (const NodeSnapshot& node : s.nodes) {
    if (!node.reservedContainer) continue;
    const AppSnapshot* app = st.app(node.reservedContainer->attempt);
    if (app == nullptr || !demanders.contains(app->queue)) continue;
    for (const ContainerSnapshot& c : app->containers) {
      if (c.id == *node.reservedContainer) reservations.push_back({app, &c, &node});
    }
  }
  std::stable_sort(reservations.begin(), reservations.end(),
                   [](const Reservation& a, const Reservation& b) {
                     return a.c->creationTimeMs < b.c->creationTimeMs;
                   });
  std::map<std::pair<QueueId, std::string>, Resource> markedFor;  // toPreemptedFromOtherQueues
  for (const Reservation& r : reservations) {
    if (s.nowMs - r.c->creationTimeMs < settings.underutilizedReservedContainerDelayMs) continue;
    const QueueId demander = r.app->queue;
    const std::string& partition = r.node->partition;
    const TempQueue& dq = st.queue(demander, partition);
    Resource usedNow = dq.used - dq.reserved + markedFor[{demander, partition}];
    if (rc.greaterThanOrEqual(cluster, usedNow, dq.guaranteed)) continue;  // satisfied

    std::vector<Running> running;
    for (const AppSnapshot& app : s.apps) {
      for (const ContainerSnapshot& c : app.containers) {
        if (!c.isReservation && c.node == r.node->id) running.push_back({&app, &c});
      }
    }
    std::stable_sort(running.begin(), running.end(), [&](const Running& x, const Running& y) {
      if (mayPreempt(x.app->queue, y.app->queue)) return true;
      if (mayPreempt(y.app->queue, x.app->queue)) return false;
      if (x.c->creationTimeMs != y.c->creationTimeMs) {
        return x.c->creationTimeMs < y.c->creationTimeMs;
      }
      return x.c->id < y.c->id;
    });
    Resource lacking = r.c->size - r.node->unallocated;
    for (const Running& x : running) {
      if (st.isSelected(x.c->id)) lacking -= x.c->size;
    }
    if (rc.fitsIn(lacking, Resource())) continue;  // already freed by earlier picks
    Resource allowed = st.totalPreemptionAllowed();
    std::vector<Running> picks;
    bool enough = false;
    for (const Running& x : running) {
      if (st.isSelected(x.c->id) || !mayPreempt(demander, x.app->queue) || x.c->isAm) continue;
      if (st.queue(x.app->queue, "").preemptionDisabled) continue;
      if (rc.greaterThanOrEqual(cluster, allowed, x.c->size)) {
        allowed -= x.c->size;
        lacking -= x.c->size;
        picks.push_back(x);
      }
      if (rc.fitsIn(lacking, Resource())) {
        enough = true;
        break;
      }
    }
    if (!enough) continue;
    markedFor[{demander, partition}] += r.c->size;
    for (const Running& x : picks) {
      // Picks are running (not reserved) non-AM containers, so their own flags are false.
      st.totalPreemptionAllowed() -= x.c->size;
      selectVictim(st, *x.app, *x.c, partition, index_, demander);
    }
  }
}

}  // namespace spindle::preemption
