// `spindle nodemanager` (alias `spindle nm`): the node agent. Registers with the RM, heartbeats
// at the interval the RM returns, runs containers (container_launcher.h) and serves the
// ContainerManagementProtocol and a small node REST view over HTTP.
//
//   spindle nm --conf conf/
//
// Keys (yarn-site.xml):
//   yarn.resourcemanager.resource-tracker.address   where to register (default: the RM's
//       yarn.resourcemanager.webapp.address, itself <yarn.resourcemanager.hostname>:8088)
//   yarn.nodemanager.hostname (127.0.0.1), yarn.nodemanager.webapp.address (<hostname>:8042;
//       port 0 picks a free one): the NM's one HTTP server; the node id is host:bound port
//   yarn.nodemanager.resource.memory-mb (8192), yarn.nodemanager.resource.cpu-vcores (8)
//   yarn.nodemanager.node-labels.provider.*: the node's label (partition), from the
//       configuration or a script, sent with the registration and with a heartbeat after a
//       change or resync-interval-ms (node_labels_provider.h)
//   yarn.nodemanager.node-attributes.provider.*: the node's distributed attributes, sent with
//       the registration and with the next heartbeat after a change (node_attributes_provider.h)
//   yarn.nodemanager.log-dirs (/tmp/spindle/nm-logs), yarn.nodemanager.local-dirs
//       (/tmp/spindle/nm-local-dir): the first folder of each list is used
//   yarn.nodemanager.sleep-delay-before-sigkill.ms (250)
//   yarn.resourcemanager.connect.max-wait.ms (900000): give up after this long without the RM
//   yarn.resourcemanager.connect.retry-interval.ms (30000): between registration attempts
// Paths served: POST /rpc/v1/containers/start (StartContainersRequest), POST
// /rpc/v1/containers/stop (StopContainersRequest), GET /ws/v1/node/info,
// GET /ws/v1/node/containers.
// Node actions: RESYNC kills the running containers and registers again (YARN without NM
// work-preserving restart); SHUTDOWN kills them and exits. SIGTERM kills them and exits 0.
#pragma once

#include <string>

namespace spindle::nm {

// Exit code: 0 after SIGTERM or a SHUTDOWN, 1 when the RM stayed unreachable past
// connect.max-wait.ms, 2 bad configuration or an address that cannot be bound.
int runNodeManager(const std::string& confDir);

}  // namespace spindle::nm
