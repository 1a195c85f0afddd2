// A container as the scheduler tracks it: YARN's RMContainer, minus the launch context.
//
//   Container c{id, app, node, Resource::of(1024, 1), key, Locality::kNodeLocal, ...};
//
// The lifecycle follows container_state.h (RMContainerImpl's table).
#pragma once

#include <cstddef>
#include <string>

#include "app/asks.h"
#include "app/container_state.h"
#include "base/clock.h"
#include "base/hot_path.h"
#include "base/ids.h"
#include "resource/resource.h"

namespace spindle {

struct Container {
  ContainerId id;
  NodeId node;
  Resource resource;
  SchedulerKey key;
  Locality locality = Locality::kOffSwitch;
  bool isAm = false;
  ContainerState state = ContainerState::NEW;
  TimeMs allocatedAt = 0;
  // The ANY request it was allocated against (at `key`), so a container lost before it ran can
  // be asked for again (origin() rebuilds it). Only the fields that differ between requests are
  // kept: the resource name is always "*" and the count 1.
  Resource askedCapability;
  bool askedRelaxLocality = true;
  std::string askedLabel;  // the request's node-label expression

  ResourceRequest origin() const {
    return {key, std::string(kAnyResourceName), askedCapability, 1, askedRelaxLocality, askedLabel};
  }
};
// A release reads id .. allocatedAt: they are in the record's first two cache lines, the two
// Scheduler::heartbeat prefetches for every reported container.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(Container, allocatedAt) + sizeof(TimeMs) <= 2 * kCacheLineSize);
#pragma GCC diagnostic pop

}  // namespace spindle
