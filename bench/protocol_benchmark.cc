// Micro benchmark of what one NM heartbeat costs in protocol work alone, both sides, without a
// socket: the NM encodes its NodeHeartbeatRequest as JSON and frames it as an HTTP/1.1 POST;
// the RM parses the HTTP message (Boost.Beast), decodes the record, encodes its
// NodeHeartbeatResponse and frames it; the NM parses and decodes the answer. Together with
// loopback_floor (what the round trip costs the kernel on this machine) it bounds the
// heartbeats per second two cores can carry over JSON and HTTP (bench/README.md, "How many
// heartbeats two cores can carry").
//
//   ./build/bench/spindle_bench --benchmark_filter=BM_HeartbeatProtocolWork
// Argument: container statuses in the heartbeat (0: a node with nothing to report).
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "protocol/codec.h"
#include "protocol/http_server.h"
#include "protocol/json_text.h"
#include "protocol/wire_text.h"

namespace spindle::protocol {
namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;

NodeHeartbeatRequest heartbeatWith(int statuses) {
  NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "127.0.0.1:20417";
  hb.nodeStatus.responseId = 1234;
  hb.nodeStatus.nodeHealthStatus.lastHealthReportTime = 1'764'000'000'000;
  for (int i = 0; i < statuses; ++i) {
    ContainerStatus s;
    s.containerId = "container_1764000000000_0042_01_" + std::to_string(100'000 + i);
    s.state = i % 2 ? ContainerState::COMPLETE : ContainerState::RUNNING;
    s.exitStatus = i % 2 ? 0 : kInvalidExitStatus;
    hb.nodeStatus.containersStatuses.push_back(std::move(s));
  }
  return hb;
}

// One HTTP message as the bytes a socket would carry.
template <bool isRequest>
std::string frame(http::message<isRequest, http::string_body>& m) {
  m.prepare_payload();
  std::string out;
  appendWireText(m, out);
  return out;
}

template <bool isRequest>
std::string unframe(const std::string& bytes) {
  http::parser<isRequest, http::string_body> p;
  p.eager(true);
  beast::error_code ec;
  p.put(boost::asio::buffer(bytes), ec);
  if (ec || !p.is_done()) std::abort();
  return std::move(p.get().body());
}

void BM_HeartbeatProtocolWork(benchmark::State& state) {
  const NodeHeartbeatRequest hb = heartbeatWith(static_cast<int>(state.range(0)));
  NodeHeartbeatResponse answer;
  answer.responseId = 1235;
  answer.nextHeartBeatInterval = 1000;
  for (auto _ : state) {
    // The NM.
    http::request<http::string_body> req{http::verb::post, "/rpc/v1/resource-tracker/heartbeat",
                                         11};
    req.set(http::field::host, "127.0.0.1:8088");
    req.set(http::field::content_type, "application/json");
    req.body() = jsonText(hb);
    const std::string wireIn = frame(req);
    // The RM.
    auto got = decode<NodeHeartbeatRequest>(unframe<true>(wireIn));
    if (!got) std::abort();
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::server, "spindle");
    res.set(http::field::content_type, "application/json");
    res.body() = jsonText(answer);
    const std::string wireOut = frame(res);
    // The NM again.
    auto back = decode<NodeHeartbeatResponse>(unframe<false>(wireOut));
    if (!back) std::abort();
    benchmark::DoNotOptimize(back->responseId);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HeartbeatProtocolWork)->Arg(0)->Arg(2)->Arg(10);

// The RM's reading of a heartbeat with 10 container statuses. Argument: 0 = through the JSON
// document (parseJsonBody, decodeJson), 1 = decodeHeartbeatDirect.
void BM_HeartbeatDecode(benchmark::State& state) {
  const std::string body = toJson(heartbeatWith(10)).dump();
  for (auto _ : state) {
    if (state.range(0)) {
      auto r = decodeHeartbeatDirect(body);
      benchmark::DoNotOptimize(r->nodeStatus.responseId);
    } else {
      auto r = decodeJson<NodeHeartbeatRequest>(*parseJsonBody(body, "NodeHeartbeatRequest"));
      benchmark::DoNotOptimize(r->nodeStatus.responseId);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HeartbeatDecode)->Arg(0)->Arg(1);

// The RM's reading of one NodeHeartbeatRequest as the NMs write it (jsonText), per heartbeat.
// Arguments: the path (0 = through the JSON document, parseJsonBody and decodeJson; 1 =
// decodeHeartbeatDirect on a body without room after it, which it copies first; 2 = the same
// on a body with kBodyReadPadding bytes of room, as the HTTP server's, read in place) and the
// container statuses in it (0, 8, 64).
void BM_HeartbeatRequestDecode(benchmark::State& state) {
  std::string body = jsonText(heartbeatWith(static_cast<int>(state.range(1))));
  body.reserve(body.size() + kBodyReadPadding);
  for (auto _ : state) {
    if (state.range(0) == 0) {
      auto r = decodeJson<NodeHeartbeatRequest>(*parseJsonBody(body, "NodeHeartbeatRequest"));
      benchmark::DoNotOptimize(r->nodeStatus.responseId);
    } else {
      auto r = decodeHeartbeatDirect(body, state.range(0) == 2 ? body.capacity() : 0);
      if (!r) std::abort();
      benchmark::DoNotOptimize(r->nodeStatus.responseId);
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(body.size()));
}
BENCHMARK(BM_HeartbeatRequestDecode)->ArgsProduct({{0, 1, 2}, {0, 8, 64}});

// What one container costs in the AM protocol's messages, both sides: the RM encodes an
// AllocateResponse with N allocated containers and N completed ones, the AM decodes it.
// Argument: N. items/s = containers (each counted once, allocated and returned).
AllocateResponse responseWith(int n) {
  AllocateResponse r;
  r.responseId = 77;
  r.limit = {.memory = 1'048'576, .vCores = 1024};
  r.numClusterNodes = 10'000;
  for (int i = 0; i < n; ++i) {
    Container c;
    c.id = "container_1764000000000_0042_01_" + std::to_string(100'000 + i);
    c.nodeId = "127.0.0.1:" + std::to_string(20'000 + i);
    c.nodeHttpAddress = "127.0.0.1:8042";
    c.resource = {.memory = 1024, .vCores = 1};
    c.priority = 20;
    r.allocatedContainers.push_back(c);
    ContainerStatus done;
    done.containerId = c.id;
    done.state = ContainerState::COMPLETE;
    done.exitStatus = 0;
    r.completedContainerStatuses.push_back(std::move(done));
  }
  return r;
}

void BM_AllocateResponsePerContainer(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const AllocateResponse r = responseWith(n);
  for (auto _ : state) {
    const std::string body = toJson(r).dump();
    auto back = decode<AllocateResponse>(body);
    if (!back) std::abort();
    benchmark::DoNotOptimize(back->allocatedContainers.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AllocateResponsePerContainer)->Arg(100);

// The RM's side alone: writing an AllocateResponse of 100 allocated and 100 completed
// containers. Argument: 0 = through the JSON document (toJson().dump()), 1 = jsonText.
void BM_AllocateResponseEncode(benchmark::State& state) {
  const AllocateResponse r = responseWith(100);
  for (auto _ : state) {
    std::string body = state.range(0) ? jsonText(r) : toJson(r).dump();
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations() * 100);
}
BENCHMARK(BM_AllocateResponseEncode)->Arg(0)->Arg(1);

// The NM's side of a heartbeat with 10 container statuses: writing its NodeHeartbeatRequest.
// Argument: 0 = through the JSON document (toJson().dump()), 1 = jsonText, 2 = jsonText with
// each status's text kept from the heartbeat before (what the simulated NMs do).
void BM_HeartbeatRequestEncode(benchmark::State& state) {
  const NodeHeartbeatRequest hb = heartbeatWith(10);
  NodeHeartbeatRequest head = hb;
  head.nodeStatus.containersStatuses.clear();
  std::vector<std::string> kept;
  for (const ContainerStatus& s : hb.nodeStatus.containersStatuses) kept.push_back(jsonText(s));
  for (auto _ : state) {
    std::string body;
    if (state.range(0) == 0) {
      body = toJson(hb).dump();
    } else if (state.range(0) == 1) {
      body = jsonText(hb);
    } else {
      body = jsonText(head, [&kept](std::string& out) {
        for (size_t i = 0; i < kept.size(); ++i) {
          if (i) out += ',';
          out += kept[i];
        }
      });
    }
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HeartbeatRequestEncode)->Arg(0)->Arg(1)->Arg(2);

// The NM's reading of the RM's answer (one container to clean up). Argument: 0 = through the
// JSON document, 1 = decodeHeartbeatResponseDirect.
void BM_HeartbeatResponseDecode(benchmark::State& state) {
  NodeHeartbeatResponse answer;
  answer.responseId = 1235;
  answer.containersToCleanup = {"container_1764000000000_0042_01_100001"};
  std::string body = jsonText(answer);
  body.reserve(body.size() + kBodyReadPadding);
  for (auto _ : state) {
    if (state.range(0)) {
      auto r = decodeHeartbeatResponseDirect(body, body.capacity());
      benchmark::DoNotOptimize(r->responseId);
    } else {
      auto r = decodeJson<NodeHeartbeatResponse>(*parseJsonBody(body, "NodeHeartbeatResponse"));
      benchmark::DoNotOptimize(r->responseId);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HeartbeatResponseDecode)->Arg(0)->Arg(1);

// The AM's side: writing its AllocateRequest (one ask, as rm_load's AMs send). Argument: 0 =
// toJson().dump(), 1 = jsonText.
void BM_AllocateRequestEncode(benchmark::State& state) {
  AllocateRequest r;
  r.applicationAttemptId = "appattempt_1764000000000_0042_000001";
  r.responseId = 17;
  r.progress = 0.5;
  ResourceRequest ask;
  ask.priority = 1;
  ask.capability = {.memory = 1024, .vCores = 1};
  ask.numContainers = 2000;
  r.ask.push_back(ask);
  for (auto _ : state) {
    std::string body = state.range(0) ? jsonText(r) : toJson(r).dump();
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllocateRequestEncode)->Arg(0)->Arg(1);

// The AM's reading of an AllocateResponse of 100 allocated and 100 completed containers.
// Argument: 0 = through the JSON document, 1 = decodeAllocateResponseDirect. items/s =
// containers (each counted once, allocated and returned).
void BM_AllocateResponseDecode(benchmark::State& state) {
  std::string body = jsonText(responseWith(100));
  body.reserve(body.size() + kBodyReadPadding);
  for (auto _ : state) {
    if (state.range(0)) {
      auto r = decodeAllocateResponseDirect(body, body.capacity());
      benchmark::DoNotOptimize(r->allocatedContainers.data());
    } else {
      auto r = decodeJson<AllocateResponse>(*parseJsonBody(body, "AllocateResponse"));
      benchmark::DoNotOptimize(r->allocatedContainers.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * 100);
}
BENCHMARK(BM_AllocateResponseDecode)->Arg(0)->Arg(1);

}  // namespace
}  // namespace spindle::protocol
