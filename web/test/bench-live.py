#!/usr/bin/env python3
"""Fills a running ResourceManager for the web UI's benchmark: NODES node managers registered
through the resource tracker protocol and APPS applications submitted through the REST API, in
three Capacity queues of examples/capacity/conf.
  bench-live.py RM_URL [APPS] [NODES] [HOLD_SECONDS]
The node managers are simulated: one HTTP server of this script answers every container start
(so AM containers "launch"), and each node heartbeats NODES_BEATS times so the scheduler places
AM containers on it. Their AMs never register, so apps stay ACCEPTED with an allocated AM, as
apps whose AMs start slowly do. After filling, the script keeps answering container starts for
HOLD_SECONDS (default 0; run it in the background and stop it by PID when done). Bounded: every request has a 10 s timeout; exits 1 on the first
refused request, naming it."""
import http.client
import http.server
import json
import sys
import threading
import time
import urllib.parse

rm = urllib.parse.urlparse(sys.argv[1])
apps = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
hold = float(sys.argv[4]) if len(sys.argv) > 4 else 0
NODES_BEATS = 2
QUEUES = [("prod", "alice"), ("dev", "bob"), ("adhoc", "carol")]


class FakeNodeManager(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


nm_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeNodeManager)
nm_server.daemon_threads = True
threading.Thread(target=nm_server.serve_forever, daemon=True).start()
nm_port = nm_server.server_address[1]

conn = http.client.HTTPConnection(rm.hostname, rm.port, timeout=10)


def call(method, path, body=None):
    data = None if body is None else json.dumps(body)
    headers = {"Content-Type": "application/json"} if data else {}
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    text = resp.read()
    if resp.status >= 300:
        sys.exit(f"bench-live: {method} {path} answered {resp.status}: {text[:300]!r}")
    return json.loads(text) if text else {}


node_ids = [f"127.0.0.1:{20000 + i}" for i in range(nodes)]
for node_id in node_ids:
    call("POST", "/rpc/v1/resource-tracker/register",
         {"nodeId": node_id, "httpPort": nm_port, "resource": {"memory": 8192, "vCores": 8}})
print(f"bench-live: {nodes} nodes registered", flush=True)

for i in range(apps):
    q, user = QUEUES[i % 3]
    app_id = call("POST", "/ws/v1/cluster/apps/new-application")["application-id"]
    call("POST", f"/ws/v1/cluster/apps?user.name={user}",
         {"application-id": app_id, "application-name": f"bench-{i}", "queue": q,
          "application-type": "YARN", "max-app-attempts": 1,
          "resource": {"memory": 1024, "vCores": 1},
          "am-container-spec": {"commands": {"command": "true"}}})
print(f"bench-live: {apps} applications submitted", flush=True)

response_ids = {}
for beat in range(NODES_BEATS):
    for node_id in node_ids:
        r = call("POST", "/rpc/v1/resource-tracker/heartbeat",
                 {"nodeStatus": {"nodeId": node_id, "responseId": response_ids.get(node_id, 0),
                                 "containersStatuses": [],
                                 "nodeHealthStatus": {"isNodeHealthy": True,
                                                      "healthReport": "",
                                                      "lastHealthReportTime": 0}}})
        response_ids[node_id] = r["responseId"]
print(f"bench-live: {nodes} nodes heartbeat {NODES_BEATS} times", flush=True)
time.sleep(hold)
