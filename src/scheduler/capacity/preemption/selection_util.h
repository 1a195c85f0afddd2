// Helpers shared by the candidate selectors (YARN's CapacitySchedulerPreemptionUtils,
// e.g. getResToObtainByPartitionForLeafQueue).
//
//   ToObtain obtain = resToObtainForLeaf(st, leaf);
//   deductSelected(st);                  // earlier selectors' picks count first
//   if (tryPreemptContainer(st, obtain, app, c, selector, conservativeDrf)) ...
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scheduler/capacity/preemption/round_state.h"

namespace spindle::preemption {

// Partition -> what still has to be freed from one leaf there.
using ToObtain = std::map<std::string, Resource>;

// getResToObtainByPartitionForLeafQueue: copies of actuallyToBePreempted > 0, skipping
// partition entries whose preemption is disabled.
ToObtain resToObtainForLeaf(const RoundState& st, QueueId leaf);

// deductPreemptableResourcesBasedSelectedCandidates: every container already selected lowers
// the actuallyToBePreempted of its (queue, node partition), never below zero.
void deductSelected(RoundState& st);

// tryPreemptContainerAndDeductResToObtain. On success the container is recorded in the round's
// selected map with `selectorIndex`, and toObtain and the round budget shrink by its size.
// `servedQueue`, when valid, is recorded as the queue the pick is for.
bool tryPreemptContainer(RoundState& st, ToObtain& obtain, const AppSnapshot& app,
                         const ContainerSnapshot& c, int selectorIndex, bool conservativeDrf,
                         QueueId servedQueue = QueueId());

// Live containers in FIFO preemption order: lowest request priority (largest number) first,
// then the newest (largest container id) first (testContainerOrdering).
// Marks container `c` of `app` (on a node of `partition`) selected by selector `selectorIndex`,
// with the victim queue's figures as they stand now as the reason. Every selector records its
// picks through this.
void selectVictim(RoundState& st, const AppSnapshot& app, const ContainerSnapshot& c,
                  const std::string& partition, int selectorIndex, QueueId servedQueue);

std::vector<const ContainerSnapshot*> liveContainersInPreemptionOrder(const AppSnapshot& app);

}  // namespace spindle::preemption
