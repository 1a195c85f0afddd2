// The SLS nodes file (--nodes) and the node set SLS derives when there is none.
//
//   Result<std::vector<TraceNode>> nodes = readNodesFile("nodes.json", types, sls.nodeResource);
//   HostPath hp = splitHostPath("/default-rack/node1");   // {rack "/default-rack", host "node1"}
//   std::vector<TraceNode> derived = nodesFromTaskHosts(trace.jobs, sls.nodeResource);
//
// Nodes file (SLSUtils.parseNodesFromNodeFile): a stream of concatenated objects
//   {"rack": "rack1", "nodes": [{"node": "node1", "memory-mb": 2048, "vcores": 6,
//                                "labels": "label1, label2(exclusive=false)"}, ...]}
// 1. "rack" is required; it becomes "/rack1" (a leading '/' is kept if present).
// 2. Each entry needs "node"; an empty entry `{}` is skipped (SLS's own nodes.json ends with one).
// 3. "memory-mb", "vcores" and any configured extra type name override `defaultResource`.
// 4. "labels" is a comma-separated list; "name(exclusive=false)" marks a non-exclusive label.
// 5. "attributes" (Spindle's key) is an object of node attributes, name -> string value, e.g.
//    {"rm.yarn.io/java": "1.8"}; the scheduler checks the prefixes when the node registers.
// 6. A host listed twice is an error (SLS's set would silently keep one).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "resource/resource.h"
#include "trace/trace.h"

namespace spindle {

inline constexpr std::string_view kDefaultRack = "/default-rack";

struct HostPath {
  std::string rack;  // "/default-rack" form; kDefaultRack when the path has no rack part
  std::string host;
};

// "/rack/host" -> {"/rack", "host"}; "/dc/rack/host" -> {"/dc/rack", "host"};
// "host" -> {"/default-rack", "host"}; "" -> {"", ""}.
HostPath splitHostPath(std::string_view path);

// Parses a nodes file's text; `source` names it in errors.
Result<std::vector<TraceNode>> parseNodesFile(std::string_view text, std::string_view source,
                                              const ResourceTypes& types,
                                              const Resource& defaultResource);
Result<std::vector<TraceNode>> readNodesFile(const std::string& path, const ResourceTypes& types,
                                             const Resource& defaultResource);

// Parses a "label1, label2(exclusive=false)" list.
Result<std::vector<NodeLabelSpec>> parseNodeLabels(std::string_view text);

// SLS's rule without --nodes: every distinct task host, in order of first appearance, with
// `defaultResource` (yarn.sls.nm.*). Tasks without a host add nothing.
std::vector<TraceNode> nodesFromTaskHosts(const std::vector<TraceJob>& jobs,
                                          const Resource& defaultResource);

// SLSUtils.generateNodes: node i is "node<i>" on rack "/rack<i % numRacks>", numRacks clamped
// to [1, numNodes].
std::vector<TraceNode> generateNodes(int64_t numNodes, int64_t numRacks,
                                     const Resource& defaultResource);

}  // namespace spindle
