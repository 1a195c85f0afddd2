// The ResourceManager's host -> rack resolution: YARN's RackResolver over Hadoop's
// CachedDNSToSwitchMapping, around one DnsToSwitchMapping (topology_mapping.h).
//
//   RackResolver racks(createMapping(settings, warn), warn);
//   std::string rack = racks.resolve("host1");   // "/rack1", or "/default-rack"
//
// Algorithm of resolve(host):
//  1. A host resolved before gets its cached rack (CachedDNSToSwitchMapping keeps each
//     resolved host for the life of the process).
//  2. Otherwise the mapping resolves it, outside the lock (a script may take its timeout).
//  3. The rack is normalised as NodeBase.normalize does: a trailing '/' is dropped. A rack
//     that does not start with '/' (NodeBase throws "Network Location path does not start with
//     /") or is empty is a warning and the host gets /default-rack.
//  4. A failed mapping (nullopt) gives /default-rack with a warning (RackResolver.coreResolve
//     falls back to NetworkTopology.DEFAULT_RACK). As CachedDNSToSwitchMapping caches only what
//     the mapping answered, failures and refused racks are not cached: the host's next
//     registration asks the mapping again.
// Thread-safe: the cache is behind a mutex; two threads resolving the same new host at once
// may both ask the mapping, and the mapping is called under its own lock (one script run at a
// time).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "topology/topology_mapping.h"

namespace spindle::topology {

class RackResolver {
 public:
  RackResolver(std::unique_ptr<DnsToSwitchMapping> mapping, Warn warn);

  // Every host on /default-rack, no mapping (tests, tools).
  static std::shared_ptr<RackResolver> defaultRackOnly();

  std::string resolve(const std::string& host);
  // The cached rack of `host`, if any (no mapping call).
  std::optional<std::string> cached(const std::string& host) const;
  // How many times the mapping was asked (tests: a cached host does not ask again).
  int64_t mappingCalls() const;

 private:
  std::unique_ptr<DnsToSwitchMapping> mapping_;
  Warn warn_;
  mutable std::mutex mu_;
  std::map<std::string, std::string, std::less<>> cache_;
  int64_t calls_ = 0;
  std::mutex mappingMu_;  // one mapping call at a time (RawScriptBasedMapping is synchronized)
};

}  // namespace spindle::topology
