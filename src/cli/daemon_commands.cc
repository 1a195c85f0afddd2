#include "cli/daemon_commands.h"

#include <iostream>

#include "base/log.h"
#include "nm/node_manager.h"
#include "rm/resource_manager.h"

namespace spindle::cli {

bool DaemonOptions::selected() const {
  return rm->parsed() || nm->parsed() || application->parsed() || node->parsed() ||
         dshell->parsed() || attempt->parsed() || queue->parsed() || nodeAttributes->parsed() ||
         cluster->parsed() || container->parsed() || logs->parsed() || rmadmin->parsed() ||
         top->parsed();
}

namespace {

void addConnection(CLI::App* c, client::Connection& conn) {
  c->add_option("--rm", conn.rm,
                "The RM's web address host:port (default: from --conf, else "
                "127.0.0.1:8088)");
  c->add_option("--conf", conn.confDir, "Folder with yarn-site.xml");
}

// rmadmin's HA commands (client/ha_admin.h).
void addHaAdminOptions(CLI::App* c, client::HaAdminArgs& a) {
  c->add_option("--getServiceState", a.getServiceState, "Print the HA state of the RM <rm-id>");
  c->add_option("--transitionToActive", a.transitionToActive,
                "Make the RM <rm-id> active (refused under automatic failover)");
  c->add_option("--transitionToStandby", a.transitionToStandby,
                "Make the RM <rm-id> standby (refused under automatic failover)");
  c->add_option("--checkHealth", a.checkHealth, "Exit 0 when the RM <rm-id> is healthy");
  c->add_flag("--forcemanual", a.forceManual,
              "Transition even though automatic failover is enabled");
}

}  // namespace

std::vector<std::string> normalizeYarnArgs(int argc, char** argv) {
  std::vector<std::string> out(argv, argv + argc);
  if (argc < 2) return out;
  const std::string cmd = argv[1];
  if (cmd != "application" && cmd != "applicationattempt" && cmd != "node" && cmd != "queue" &&
      cmd != "dshell" && cmd != "nodeattributes" && cmd != "cluster" && cmd != "container" &&
      cmd != "logs" && cmd != "rmadmin" && cmd != "top") {
    return out;
  }
  for (size_t i = 2; i < out.size(); ++i) {
    const std::string& a = out[i];
    if (a.size() > 2 && a[0] == '-' && a[1] != '-' &&
        std::isalpha(static_cast<unsigned char>(a[1]))) {
      out[i] = "-" + a;
    }
  }
  return out;
}

void addDaemonCommands(CLI::App& app, DaemonOptions& o) {
  o.rm = app.add_subcommand("resourcemanager",
                            "Run the ResourceManager daemon (REST API, NM and AM protocols)");
  o.rm->alias("rm");
  o.rm->add_option("--conf", o.confDir,
                   "Folder with yarn-site.xml, capacity-scheduler.xml, fair-scheduler.xml");
  o.nm = app.add_subcommand("nodemanager", "Run a node agent that registers with the RM");
  o.nm->alias("nm");
  o.nm->add_option("--conf", o.confDir, "Folder with yarn-site.xml");

  o.application =
      app.add_subcommand("application", "List, report and kill applications (yarn application)");
  auto* a = o.application;
  addConnection(a, o.app.conn);
  a->add_flag("--list", o.app.list,
              "List applications (default states SUBMITTED, ACCEPTED, RUNNING)");
  a->add_option("--appStates", o.app.appStates, "With -list: states, comma separated, or ALL");
  a->add_option("--appTypes", o.app.appTypes, "With -list: application types, comma separated");
  a->add_option("--status", o.app.status, "Print the report of an application");
  a->add_option("--kill", o.app.kill, "Kill applications")->expected(1, 100);
  a->add_option("--movetoqueue", o.app.moveToQueue, "Move an application (with -queue)");
  a->add_option("--queue", o.app.queue, "With -movetoqueue: the target queue");
  a->add_option("--changeQueue", o.app.queue, "Move the -appId application to this queue");
  a->add_option("--appId", o.app.appId, "With -changeQueue or -updatePriority: the application");
  a->add_option("--updatePriority", o.app.updatePriority,
                "Change the -appId application's priority");

  o.attempt = app.add_subcommand("applicationattempt", "List an application's attempts");
  addConnection(o.attempt, o.attemptArgs.conn);
  o.attempt->add_option("--list", o.attemptArgs.list, "List the attempts of this application");
  o.attempt->add_option("--status", o.attemptArgs.status, "Print the report of an attempt");

  o.container = app.add_subcommand("container", "List and report containers (yarn container)");
  addConnection(o.container, o.containerArgs.conn);
  o.container->add_option("--list", o.containerArgs.list,
                          "List the containers of this application attempt");
  o.container->add_option("--states", o.containerArgs.states,
                          "With -list: NEW, RUNNING, COMPLETE, comma separated");
  o.container->add_option("--status", o.containerArgs.status, "Print the report of a container");

  o.rmadmin = app.add_subcommand("rmadmin", "Administer the ResourceManager (yarn rmadmin)");
  client::RmAdminArgs& ra = o.rmadminArgs;
  addConnection(o.rmadmin, ra.conn);
  o.rmadmin->add_flag("--refreshQueues", ra.refreshQueues,
                      "Re-read the scheduler's queues from the RM's --conf folder");
  o.rmadmin->add_option("--addToClusterNodeLabels", ra.addLabels,
                        "Add labels: \"x(exclusive=true),y\"");
  o.rmadmin->add_option("--removeFromClusterNodeLabels", ra.removeLabels, "Remove labels: \"x,y\"");
  o.rmadmin->add_option("--replaceLabelsOnNode", ra.replaceLabels,
                        "Set node labels: \"host:port=x host2=y\" (a host: every NM on it)");
  addHaAdminOptions(o.rmadmin, o.haAdmin);
  o.rmadmin->add_flag("--refreshNodes", o.refreshNodesArgs.refreshNodes,
                      "Reread the include and exclude files and decommission excluded nodes");
  o.rmadmin
      ->add_option("-g,--graceful", o.graceful,
                   "With -refreshNodes: decommission gracefully, [timeout] seconds (-1: none)")
      ->expected(0, 1);
  o.rmadmin->add_flag(
      "--client", [&o](int64_t) { o.refreshNodesArgs.tracking = "client"; },
      "With -g: the client waits for the timeout, then decommissions forcefully");
  o.rmadmin->add_flag(
      "--server", [&o](int64_t) { o.refreshNodesArgs.tracking = "server"; },
      "With -g: the RM tracks the timeout (default)");

  o.top = app.add_subcommand("top", "Cluster and applications, refreshed (yarn top)");
  addConnection(o.top, o.topArgs.conn);
  o.top->add_option("--delay", o.topArgs.delaySeconds, "Seconds between screens (3)");
  o.top->add_option("--rows", o.topArgs.rows, "Application rows shown (default: all)");
  o.top->add_option("--queues", o.topArgs.queues, "Queues shown, comma separated (root)");
  o.top->add_flag("--once", o.topArgs.once, "Print one screen without terminal control and exit");
  o.top->add_option("--iterations", o.topArgs.iterations, "Stop after this many screens");

  o.queue = app.add_subcommand("queue", "Report a queue (yarn queue)");
  addConnection(o.queue, o.queueArgs.conn);
  o.queue->add_option("--status", o.queueArgs.status, "Print the report of a queue");

  o.node = app.add_subcommand("node", "List nodes (yarn node)");
  addConnection(o.node, o.nodeArgs.conn);
  o.node->add_flag("--list", o.nodeArgs.list, "List RUNNING nodes");
  o.node->add_flag("--all", o.nodeArgs.all, "With -list: nodes in every state");
  o.node->add_option("--states", o.nodeArgs.states, "With -list: states, comma separated");
  o.node->add_option("--status", o.nodeArgs.status, "Print the report of a node");

  o.nodeAttributes =
      app.add_subcommand("nodeattributes", "Set and list node attributes (yarn nodeattributes)");
  client::NodeAttributesArgs& na = o.attrArgs;
  addConnection(o.nodeAttributes, na.conn);
  o.nodeAttributes->add_option(
      "--add", na.add, "Admin: add or update \"host1:attr[(type)][=value],attr2 host2:...\"");
  o.nodeAttributes->add_option("--replace", na.replace,
                               "Admin: replace the hosts' centralised attributes");
  o.nodeAttributes->add_option("--remove", na.remove, "Admin: remove \"host1:attr,attr2 ...\"");
  o.nodeAttributes->add_flag("--failOnUnknownNodes", na.failOnUnknownNodes,
                             "With -add/-replace/-remove: fail when a host has no NodeManager");
  o.nodeAttributes->add_flag("--list", na.list, "List every attribute of the cluster");
  o.nodeAttributes->add_flag("--attributestonodes", na.attributesToNodes,
                             "Hosts and values per attribute");
  o.nodeAttributes
      ->add_option("--attributes", na.attributes,
                   "With -attributestonodes: prefix/name or name, comma separated")
      ->delimiter(',');
  o.nodeAttributes->add_flag("--nodestoattributes", na.nodesToAttributes, "Attributes per host");
  o.nodeAttributes->add_option("--nodes", na.nodes, "With -nodestoattributes: hosts")
      ->delimiter(',');

  o.cluster = app.add_subcommand("cluster", "Cluster information (yarn cluster)");
  addConnection(o.cluster, o.clusterArgs.conn);
  o.cluster->add_flag("--lna,--list-node-attributes", o.clusterArgs.listNodeAttributes,
                      "List the cluster's node attributes");

  o.logs = app.add_subcommand("logs", "Print the container logs of an application (yarn logs)");
  addConnection(o.logs, o.logsArgs.conn);
  o.logs->add_option("--applicationId", o.logsArgs.applicationId, "The application");
  o.logs->add_option("--containerId", o.logsArgs.containerId, "Only this container");
  o.logs
      ->add_option("--log_files,--logFiles", o.logsArgs.logFiles,
                   "Log file names, comma separated, or ALL (default)")
      ->delimiter(',');

  o.dshell =
      app.add_subcommand("dshell", "YARN's distributed shell: run a command in N containers");
  auto* d = o.dshell;
  client::DshellArgs& ds = o.ds;
  addConnection(d, ds.conn);
  d->add_option("--shell_command", ds.shellCommand, "The command to run in every container");
  d->add_option("--shell_env", ds.shellEnv, "NAME=VALUE for the containers' environment");
  d->add_option("--num_containers", ds.numContainers, "Containers to run the command in (1)");
  d->add_option("--container_memory", ds.containerMemory, "MB per container (10)");
  d->add_option("--container_vcores", ds.containerVcores, "Virtual cores per container (1)");
  d->add_option("--priority", ds.priority, "Application and container priority (0)");
  d->add_option("--queue", ds.queue, "Queue (default)");
  d->add_option("--appname", ds.appName, "Application name (DistributedShell)");
  d->add_option("--master_memory", ds.masterMemory, "MB for the AM (100)");
  d->add_option("--master_vcores", ds.masterVcores, "Virtual cores for the AM (1)");
  d->add_option("--timeout", ds.timeoutMs, "Kill the application after this many ms (600000)");
  d->add_option("--placement_spec", ds.placementSpec,
                "Placement constraints, e.g. zk=3,NOTIN,NODE,zk or zk(3),notin,node,zk");
  d->add_option("--shell_script", ds.shellScript,
                "A script file whose text every container runs (instead of -shell_command)");
  d->add_option("--node_label_expression", ds.nodeLabelExpression,
                "The node label the containers ask for");
  d->add_flag("--keep_containers_across_application_attempts", ds.keepContainersAcrossAttempts,
              "A new attempt keeps the containers of the failed one");
  d->add_flag("--am", ds.am, "Run as the application master (the AM container's command)")
      ->group("");
}

int runDaemonCommand(const DaemonOptions& o) {
  initLogging(LogLevel::kInfo);
  if (o.application->parsed() || o.node->parsed() || o.dshell->parsed() || o.attempt->parsed() ||
      o.queue->parsed() || o.nodeAttributes->parsed() || o.cluster->parsed() ||
      o.container->parsed() || o.logs->parsed() || o.rmadmin->parsed() || o.top->parsed()) {
    initLogging(LogLevel::kWarn);
    if (o.container->parsed()) return client::runContainer(o.containerArgs, std::cout, std::cerr);
    if (o.logs->parsed()) return client::runLogs(o.logsArgs, std::cout, std::cerr);
    if (o.rmadmin->parsed() && o.haAdmin.any()) {
      client::HaAdminArgs ha = o.haAdmin;
      ha.conn = o.rmadminArgs.conn;
      return client::runHaAdmin(ha, std::cout, std::cerr);
    }
    if (o.rmadmin->parsed() && o.refreshNodesArgs.refreshNodes) {
      client::RefreshNodesArgs a = o.refreshNodesArgs;
      a.conn = o.rmadminArgs.conn;
      a.graceful = o.rmadmin->count("--graceful") > 0;
      if (!o.graceful.empty()) {
        try {
          a.timeoutS = std::stoll(o.graceful.front());
        } catch (const std::exception&) {
          std::cerr << "rmadmin: -g: the timeout must be a number of seconds, got "
                    << o.graceful.front() << "\n";
          return 2;
        }
      }
      return client::runRefreshNodes(a, std::cout, std::cerr);
    }
    if (o.rmadmin->parsed()) return client::runRmAdmin(o.rmadminArgs, std::cout, std::cerr);
    if (o.top->parsed()) return client::runTop(o.topArgs, std::cout, std::cerr);
    if (o.nodeAttributes->parsed()) {
      return client::runNodeAttributes(o.attrArgs, std::cout, std::cerr);
    }
    if (o.cluster->parsed()) return client::runCluster(o.clusterArgs, std::cout, std::cerr);
    if (o.queue->parsed()) return client::runQueue(o.queueArgs, std::cout, std::cerr);
    if (o.attempt->parsed()) {
      return client::runApplicationAttempt(o.attemptArgs, std::cout, std::cerr);
    }
    if (o.application->parsed()) return client::runApplication(o.app, std::cout, std::cerr);
    if (o.node->parsed()) return client::runNode(o.nodeArgs, std::cout, std::cerr);
    return client::runDshell(o.ds, std::cout, std::cerr);
  }
  if (o.nm->parsed()) return nm::runNodeManager(o.confDir);
  return rm::runResourceManager(o.confDir);
}

}  // namespace spindle::cli
