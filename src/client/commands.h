// The client commands, as `yarn` prints them (ApplicationCLI, NodeCLI and the distributed
// shell's Client and ApplicationMaster). Each talks to the RM over the REST API and the AM
// protocol, so a script can do the same with curl.
//
//   ApplicationArgs a{.rm = "127.0.0.1:8088", .list = true, .appStates = "ALL"};
//   int code = runApplication(a, std::cout, std::cerr);
//
// Exit codes: 0 done, 1 the RM refused or the app did not succeed, 2 bad input (an argument,
// an unreachable RM address).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace spindle::client {

struct Connection {
  std::string rm;       // host:port of the RM's web address (--rm)
  std::string confDir;  // or yarn-site.xml's yarn.resourcemanager.webapp.address (--conf)
};

struct ApplicationArgs {
  Connection conn;
  bool list = false;
  std::string appStates;  // comma list or ALL; default SUBMITTED,ACCEPTED,RUNNING
  std::string appTypes;
  std::string status;             // -status <appId>
  std::vector<std::string> kill;  // -kill <appId>...
  std::string moveToQueue;        // -movetoqueue <appId> (with -queue), or -appId
  std::string appId;              // -appId <appId> (with -changeQueue)
  std::string queue;              // -queue <queue> / -changeQueue <queue>
  std::string updatePriority;     // -updatePriority <priority> (with -appId)
};
int runApplication(const ApplicationArgs& a, std::ostream& out, std::ostream& err);

// `yarn applicationattempt -list <appId>` and `-status <attemptId>`.
struct AttemptArgs {
  Connection conn;
  std::string list;    // the application id
  std::string status;  // an application attempt id
};
int runApplicationAttempt(const AttemptArgs& a, std::ostream& out, std::ostream& err);

// `yarn queue -status <queue>`, from the scheduler view.
struct QueueArgs {
  Connection conn;
  std::string status;
};
int runQueue(const QueueArgs& a, std::ostream& out, std::ostream& err);

struct NodeArgs {
  Connection conn;
  bool list = false;
  bool all = false;
  std::string states;
  std::string status;  // -status <nodeId>
};
int runNode(const NodeArgs& a, std::ostream& out, std::ostream& err);

// `yarn nodeattributes` (NodeAttributesCLI): the admin's -add, -replace, -remove of
// centralised attributes ("host1:attr[(type)][=value],attr2 host2:..."; every NodeManager on
// the host), and -list, -attributestonodes [-attributes ...], -nodestoattributes [-nodes ...].
struct NodeAttributesArgs {
  Connection conn;
  std::string add, replace, remove;
  bool failOnUnknownNodes = false;
  bool list = false;
  bool attributesToNodes = false;
  std::vector<std::string> attributes;  // prefix/name or name (rm.yarn.io)
  bool nodesToAttributes = false;
  std::vector<std::string> nodes;  // hosts
};
int runNodeAttributes(const NodeAttributesArgs& a, std::ostream& out, std::ostream& err);

// `yarn cluster --list-node-attributes` (ClusterCLI).
struct ClusterArgs {
  Connection conn;
  bool listNodeAttributes = false;
};
int runCluster(const ClusterArgs& a, std::ostream& out, std::ostream& err);

// YARN's distributed shell (org.apache.hadoop.yarn.applications.distributedshell): the client
// submits an AM that is this same binary (`spindle dshell --am`, its settings in the AM's
// environment), waits for the app and exits 0 when it SUCCEEDED.
struct DshellArgs {
  Connection conn;
  std::string shellCommand;
  std::vector<std::string> shellEnv;  // NAME=VALUE
  int32_t numContainers = 1;
  int64_t containerMemory = 10;
  int64_t containerVcores = 1;
  int32_t priority = 0;
  std::string queue = "default";
  std::string appName = "DistributedShell";
  int64_t masterMemory = 100;
  int64_t masterVcores = 1;
  int64_t timeoutMs = 600'000;
  std::string placementSpec;
  std::string shellScript;                    // -shell_script FILE: its text is the command
  std::string nodeLabelExpression;            // -node_label_expression: the containers' asks
  bool keepContainersAcrossAttempts = false;  // -keep_containers_across_application_attempts
  bool am = false;  // run as the application master (inside its container)
};
int runDshell(const DshellArgs& a, std::ostream& out, std::ostream& err);

// `yarn container -list <attemptId> [-states S1,S2]` and `-status <containerId>`
// (client_ops_cli.cc).
struct ContainerArgs {
  Connection conn;
  std::string list;    // an application attempt id
  std::string states;  // with -list: NEW, RUNNING, COMPLETE, comma separated
  std::string status;  // a container id
};
int runContainer(const ContainerArgs& a, std::ostream& out, std::ostream& err);

// `yarn rmadmin` (RMAdminCLI): -refreshQueues, -addToClusterNodeLabels "x(exclusive=true),y",
// -removeFromClusterNodeLabels "x,y", -replaceLabelsOnNode "host:port=x host2=y". Each is an
// admin call (yarn.admin.acl); several run in that order.
struct RmAdminArgs {
  Connection conn;
  bool refreshQueues = false;
  std::string addLabels;
  std::string removeLabels;
  std::string replaceLabels;
};
int runRmAdmin(const RmAdminArgs& a, std::ostream& out, std::ostream& err);

// `yarn top` (TopCLI): the cluster header and the apps table from the REST API, redrawn every
// `delaySeconds`; `once` prints one screen without terminal control (scripts, tests);
// `iterations` > 0 stops after that many screens (top_cli.cc).
struct TopArgs {
  Connection conn;
  int64_t delaySeconds = 3;
  int32_t rows = 0;  // app rows shown; 0: every app
  std::string queues = "root";
  bool once = false;
  int64_t iterations = 0;
};
int runTop(const TopArgs& a, std::ostream& out, std::ostream& err);

class RmRestClient;
// `application -updatePriority <p> -appId <id>` (client_ops_cli.cc).
int runUpdatePriority(RmRestClient& rm, const std::string& appId, const std::string& priority,
                      std::ostream& out, std::ostream& err);
// `applicationattempt -status <attemptId>` (client_ops_cli.cc).
int printAttemptReport(RmRestClient& rm, const std::string& attemptId, std::ostream& out,
                       std::ostream& err);

}  // namespace spindle::client
