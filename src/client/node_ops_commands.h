// The node-side client commands: `yarn logs` (LogsCLI, for logs still on the NodeManagers) and
// `yarn rmadmin -refreshNodes` (RMAdminCLI).
//
//   LogsArgs l{.applicationId = "application_1_0001"};
//   int code = runLogs(l, std::cout, std::cerr);
//
// Exit codes as commands.h: 0 done, 1 the RM or an NM refused or nothing was found, 2 bad
// input.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "client/commands.h"

namespace spindle::client {

// `yarn logs -applicationId <id> [-containerId <id>] [-log_files a,b]`: finds the app's
// containers on every node the RM lists (the NM's /ws/v1/node/apps/{id}), then prints each log
// file with LogToolUtils' header and footer.
struct LogsArgs {
  Connection conn;
  std::string applicationId;
  std::string containerId;
  std::vector<std::string> logFiles;  // empty or ALL: every file
};
int runLogs(const LogsArgs& a, std::ostream& out, std::ostream& err);

// `yarn rmadmin -refreshNodes [-g|-graceful [timeout] [-client|-server]]`.
struct RefreshNodesArgs {
  Connection conn;
  bool refreshNodes = false;
  bool graceful = false;
  std::optional<int64_t> timeoutS;
  std::string tracking;   // "client" or "server" (default)
  int64_t pollMs = 1000;  // client tracking: how often the client looks (RMAdminCLI: 1 s)
};
int runRefreshNodes(const RefreshNodesArgs& a, std::ostream& out, std::ostream& err);

}  // namespace spindle::client
