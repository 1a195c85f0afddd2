// `spindle rmadmin`'s HA commands (YARN's RMAdminCLI / HAAdmin): -getServiceState <rm-id>,
// -transitionToActive <rm-id>, -transitionToStandby <rm-id>, -checkHealth <rm-id>, with
// --forcemanual to override automatic failover. The RM is found by its id in --conf's
// yarn-site.xml (yarn.resourcemanager.ha.rm-ids, .webapp.address.<rm-id>) and called directly
// (no failover: the question is about that RM).
//
//   spindle rmadmin --conf conf/ -getServiceState rm1        # prints active or standby
#pragma once

#include <ostream>
#include <string>

#include "client/commands.h"

namespace spindle::client {

struct HaAdminArgs {
  Connection conn;
  std::string getServiceState;
  std::string transitionToActive;
  std::string transitionToStandby;
  std::string checkHealth;
  bool forceManual = false;
  bool any() const {
    return !getServiceState.empty() || !transitionToActive.empty() ||
           !transitionToStandby.empty() || !checkHealth.empty();
  }
};

// Exit codes as HAAdmin's: 0 done (healthy), 1 refused or failed (unhealthy), 2 bad usage.
int runHaAdmin(const HaAdminArgs& a, std::ostream& out, std::ostream& err);

}  // namespace spindle::client
