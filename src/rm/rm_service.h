// The ResourceManager's HTTP front: routes every request (the REST API under /ws/v1/cluster,
// the ResourceTracker and ApplicationMasterProtocol under /rpc/v1) to the RmCore on the
// scheduler thread and writes the answer back.
//
//   RmService service(*core, loop);
//   HttpServer server(host, port, [&](HttpRequest r, Respond d) {
//     service.handle(std::move(r), std::move(d));
//   });
//
// Request bodies are decoded and validated on the I/O thread (a malformed one is answered 400
// there, without touching the scheduler); only well-formed records reach the scheduler thread.
// Errors use YARN's RemoteException envelope and status codes (400 bad input, 404 unknown
// id or path, 405 wrong method).
//
// Paths (POST unless noted):
//   /rpc/v1/resource-tracker/register   RegisterNodeManagerRequest  -> ...Response
//   /rpc/v1/resource-tracker/heartbeat  NodeHeartbeatRequest        -> ...Response
//   /rpc/v1/am/register                 RegisterApplicationMasterRequest
//   /rpc/v1/am/allocate                 AllocateRequest
//   /rpc/v1/am/finish                   FinishApplicationMasterRequest
//   /ws/v1/cluster[/info], /metrics, /scheduler, /nodes, /nodes/{id}, /apps, /apps/{id},
//   /apps/{id}/state (GET)              the REST views
//   /apps/{id}/appattempts, /apps/{id}/queue (GET)
//   /ws/v1/cluster/apps/new-application, /apps (POST), /apps/{id}/state (PUT),
//   /apps/{id}/queue (PUT: move)
//   /ws/v1/cluster/reservation/new-reservation, /submit, /update, /delete (POST),
//   /reservation/list (GET)             the reservation API (rm_reservation_service.cc)
//   /node-attributes, /attributes-to-nodes, /nodes-to-attributes (GET),
//   /node-attributes/mapping (POST, admin): rm_node_attributes_service.cc
//   /apps/{id}/priority, /apps/{id}/appattempts/{a}/containers, node labels, activities,
//   /admin/refresh-queues: rm_client_ops_service.cc
// Every /ws/v1/cluster answer is XML instead of JSON when the Accept header asks for it first
// (protocol/json_xml.h).
//   /ws/v1/cluster/spindle/decisions, /spindle/app-decisions/{id} (GET): recent decisions
//   /ws/v1/cluster/spindle/apps, /spindle/nodes (GET): sorted, searched pages of the lists
//   /ws/v1/cluster/spindle/rpc-timings (GET): the protocol calls' timings (rpc_timings.h)
//   / and /ui/... (GET): the web UI (src/webui/assets.h)
#pragma once

#include "protocol/http_server.h"
#include "rm/rm_core.h"
#include "rm/rpc_timings.h"
#include "rm/scheduler_loop.h"

namespace spindle::rm {

class RmService {
 public:
  RmService(RmCore& core, SchedulerLoop& loop) : core_(core), loop_(loop) {}
  // On an I/O thread.
  void handle(protocol::HttpRequest req, protocol::Respond respond);

 private:
  void handleRpc(protocol::HttpRequest& req, protocol::Respond& respond);
  // On the scheduler thread: runs `call` and sends its answer, recording the call's timings.
  template <class Call>
  void timed(RpcMethod method, int64_t receivedUs, protocol::Respond& respond, const Call& call);
  void handleRest(protocol::HttpRequest& req, protocol::Respond& respond);
  // `what`: the path after /ws/v1/cluster/reservation; `user`: the caller.
  void handleReservation(protocol::HttpRequest& req, protocol::Respond& respond,
                         std::string_view what, const std::string& user);
  // The node-attribute endpoints (rm_node_attributes_service.cc); false for another path.
  bool handleNodeAttributes(std::string_view rest, protocol::HttpRequest& req,
                            protocol::Respond& respond, const std::string& user);
  // Priority, attempts and containers, node labels, activities, refresh-queues
  // (rm_client_ops_service.cc); false for another path.
  bool handleClientOps(std::string_view rest, protocol::HttpRequest& req,
                       protocol::Respond& respond, const std::string& user);

  RmCore& core_;
  SchedulerLoop& loop_;
  RpcTimings timings_;
};

}  // namespace spindle::rm
