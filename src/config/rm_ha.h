// Where the ResourceManagers of an HA pair (or more) are, from YARN's HA keys, for everything
// that talks to them: the CLI, NodeManagers, AMs (through the NM) and the RMs themselves.
//
//   auto rms = rmHaAddresses(conf, "yarn.resourcemanager.webapp.address", 8088);
//   // HA off: an empty list (use the plain address key); HA on: {"rm1", "127.0.0.1:8088"}, ...
//
// Keys (YARN's HAUtil / ConfiguredRMFailoverProxyProvider):
//   yarn.resourcemanager.ha.enabled   false
//   yarn.resourcemanager.ha.rm-ids    the RM ids, comma-separated (two or more)
//   <key>.<rm-id>                     the address of that RM for one service, e.g.
//                                     yarn.resourcemanager.webapp.address.rm1; else the RM's
//                                     webapp address (Spindle serves every protocol there);
//                                     else yarn.resourcemanager.hostname.<rm-id>:<defaultPort>
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle {

inline constexpr const char* kRmHaEnabledKey = "yarn.resourcemanager.ha.enabled";
inline constexpr const char* kRmHaIdsKey = "yarn.resourcemanager.ha.rm-ids";
inline constexpr const char* kRmHaIdKey = "yarn.resourcemanager.ha.id";

// (rm-id, "host:port") per RM, in rm-ids order; empty when HA is disabled. Errors: HA enabled
// with fewer than two ids, a repeated id, an RM without an address.
Result<std::vector<std::pair<std::string, std::string>>> rmHaAddresses(const Configuration& conf,
                                                                       const std::string& key,
                                                                       uint16_t defaultPort);

}  // namespace spindle
