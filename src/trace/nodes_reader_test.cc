#include "trace/nodes_reader.h"

#include <gtest/gtest.h>

#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::sourcePath;

const Resource kDefault = Resource::of(8192, 8);

TEST(NodesReader, ExampleNodesFileIsHeterogeneous) {
  ResourceTypes types;
  Result<std::vector<TraceNode>> nodes =
      readNodesFile(sourcePath("examples/sim/sls/nodes.json"), types, kDefault);
  ASSERT_TRUE(nodes) << nodes.status().toString();
  ASSERT_EQ(nodes->size(), 6u);
  EXPECT_EQ((*nodes)[0].name, "host1");
  EXPECT_EQ((*nodes)[0].rack, "/rack-a");
  EXPECT_EQ((*nodes)[0].resource, Resource::of(16384, 16));
  EXPECT_EQ((*nodes)[2].resource, kDefault);  // host3 has no size of its own
  EXPECT_EQ((*nodes)[3].name, "host4");
  EXPECT_EQ((*nodes)[3].rack, "/rack-b");
  EXPECT_EQ((*nodes)[3].resource, Resource::of(32768, 32));
}

TEST(NodesReader, LabelsStringNumbersAndEmptyEntries) {
  ResourceTypes types;
  Result<std::vector<TraceNode>> nodes =
      readNodesFile(sourcePath("tests/data/traces/nodes-labels.json"), types, kDefault);
  ASSERT_TRUE(nodes) << nodes.status().toString();
  ASSERT_EQ(nodes->size(), 3u);  // the `{}` entry is skipped
  EXPECT_EQ((*nodes)[0].rack, "/r1");
  EXPECT_EQ((*nodes)[0].resource, Resource::of(4096, 4));
  ASSERT_EQ((*nodes)[0].labels.size(), 1u);
  EXPECT_EQ((*nodes)[0].labels[0].name, "gpu");
  EXPECT_TRUE((*nodes)[0].labels[0].exclusive);
  ASSERT_EQ((*nodes)[1].labels.size(), 1u);
  EXPECT_EQ((*nodes)[1].labels[0].name, "ssd");
  EXPECT_FALSE((*nodes)[1].labels[0].exclusive);
  EXPECT_EQ((*nodes)[2].rack, "/r2");
  EXPECT_EQ((*nodes)[2].resource, Resource::of(2048, 8));
  ASSERT_EQ((*nodes)[2].labels.size(), 1u);
  EXPECT_EQ((*nodes)[2].labels[0].name, "fast");
  EXPECT_TRUE((*nodes)[2].labels[0].exclusive);
}

TEST(NodesReader, ExtraResourceTypeByName) {
  ResourceTypes types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
  Result<std::vector<TraceNode>> nodes = parseNodesFile(
      R"({"rack": "r", "nodes": [{"node": "g1", "yarn.io/gpu": 4}, {"node": "c1"}]})", "n.json",
      types, kDefault);
  ASSERT_TRUE(nodes) << nodes.status().toString();
  EXPECT_EQ((*nodes)[0].resource.get(2), 4);
  EXPECT_EQ((*nodes)[1].resource.get(2), 0);
}

TEST(NodesReader, BadFilesNameTheEntry) {
  ResourceTypes types;
  const std::pair<const char*, const char*> cases[] = {
      {"tests/data/traces/bad-nodes-missing-name.json",
       "bad-nodes-missing-name.json: rack entry #1 (line 1): field nodes[1].node: missing"},
      {"tests/data/traces/bad-nodes-duplicate.json",
       "rack entry #2 (line 2): field nodes[0].node: host 'n1' is listed twice"},
      {"tests/data/traces/bad-nodes-label.json",
       "field nodes[0].labels: label 'gpu(shared=yes)': expected name(exclusive=true|false)"},
      {"tests/data/traces/bad-nodes-two-labels.json",
       "bad-nodes-two-labels.json: rack entry #1 (line 1): field nodes[0].labels: 'gpu, "
       "ssd(exclusive=false)' names 2 labels; a node has at most one (its partition)"},
  };
  for (const auto& [file, expected] : cases) {
    Result<std::vector<TraceNode>> nodes = readNodesFile(sourcePath(file), types, kDefault);
    ASSERT_FALSE(nodes) << file;
    EXPECT_NE(nodes.status().message().find(expected), std::string::npos)
        << nodes.status().message();
  }
  EXPECT_FALSE(parseNodesFile(R"({"nodes": []})", "x", types, kDefault));
  EXPECT_FALSE(parseNodesFile(R"({"rack": "r", "nodes": [{"node": "a", "vcores": 0}]})", "x", types,
                              kDefault));
  Result<std::vector<TraceNode>> empty = parseNodesFile("  ", "e.json", types, kDefault);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.status().message(), "e.json: the nodes file lists no nodes");
}

TEST(NodesReader, HostPaths) {
  EXPECT_EQ(splitHostPath("/default-rack/node1").rack, "/default-rack");
  EXPECT_EQ(splitHostPath("/default-rack/node1").host, "node1");
  EXPECT_EQ(splitHostPath("/dc1/rack2/h.example.com").rack, "/dc1/rack2");
  EXPECT_EQ(splitHostPath("/dc1/rack2/h.example.com").host, "h.example.com");
  EXPECT_EQ(splitHostPath("node9").rack, "/default-rack");
  EXPECT_EQ(splitHostPath("/node9").rack, "/default-rack");
  EXPECT_EQ(splitHostPath("/node9").host, "node9");
  EXPECT_EQ(splitHostPath("").host, "");
}

TEST(NodesReader, GenerateNodesRoundRobinsRacks) {
  std::vector<TraceNode> n = generateNodes(5, 2, kDefault);
  ASSERT_EQ(n.size(), 5u);
  EXPECT_EQ(n[3].name, "node3");
  EXPECT_EQ(n[3].rack, "/rack1");
  EXPECT_EQ(n[4].rack, "/rack0");
  EXPECT_EQ(generateNodes(2, 9, kDefault)[1].rack, "/rack1");  // racks clamped to nodes
}

TEST(NodesReader, AttributesObjectOfStrings) {
  ResourceTypes types;
  Result<std::vector<TraceNode>> nodes = parseNodesFile(
      R"({"rack": "r1", "nodes": [{"node": "a", "attributes": {"rm.yarn.io/java": "1.8",
          "os": "linux"}}, {"node": "b"}]})",
      "n.json", types, kDefault);
  ASSERT_TRUE(nodes) << nodes.status().toString();
  EXPECT_EQ((*nodes)[0].attributes,
            (std::map<std::string, std::string>{{"os", "linux"}, {"rm.yarn.io/java", "1.8"}}));
  EXPECT_TRUE((*nodes)[1].attributes.empty());

  Result<std::vector<TraceNode>> bad =
      parseNodesFile(R"({"rack": "r1", "nodes": [{"node": "a", "attributes": {"java": 1.8}}]})",
                     "n.json", types, kDefault);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find(
                "field nodes[0].attributes: attribute 'java': expected a string value"),
            std::string::npos)
      << bad.status().message();
  bad = parseNodesFile(R"({"rack": "r1", "nodes": [{"node": "a", "attributes": "java=1.8"}]})",
                       "n.json", types, kDefault);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("n.json: rack entry #1"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace spindle
