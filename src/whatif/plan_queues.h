// Reservation queues folded into their plan queue, so that a run with the reservation system on
// compares queue by queue with runs without it.
//
//   jobsQueueGroup("root.prod.reservation_0_0001");  // "root.prod"
//   jobsQueueGroup("root.prod.prod-default");        // "root.prod"
//   metricQueueGroups({"prod-default", "reservation_0_0001", "dev"});
//     // {"dev": {"dev"}, "prod": {"prod-default", "reservation_0_0001"}}
//
// A reservable (plan) queue runs its jobs in child queues the plan follower creates: one per
// current reservation, `<plan>.reservation_<n>`, and `<plan>.<plan>-default` for jobs without
// one (docs/reservations.md; YARN's PlanQueue and ReservationQueue). jobs.csv names them by
// path, so each folds into its parent. The metrics name queues by leaf, without the path: a
// `<plan>-default` leaf folds into `<plan>`, and the `reservation_*` leaves into the plan when
// the run has exactly one `*-default` leaf (with several plans they stay apart).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace spindle::whatif {

std::string jobsQueueGroup(const std::string& queue);

std::map<std::string, std::vector<std::string>> metricQueueGroups(
    const std::set<std::string>& leaves);

}  // namespace spindle::whatif
