// Node attributes: centralised and distributed sets, the admin CLI form, and attribute
// constraints in the evaluator (prefix defaults, NE on a missing attribute, the first-value
// rule, partitions).
#include "placement/node_attributes.h"

#include <gtest/gtest.h>

#include "placement/evaluator.h"
#include "placement/spec_parser.h"

namespace spindle::placement {
namespace {

const NodeId n0{0}, n1{1};

NodeAttribute rm(std::string name, std::string value) {
  return {std::string(kCentralizedPrefix), std::move(name), NodeAttributeType::kString,
          std::move(value)};
}
NodeAttribute nm(std::string name, std::string value) {
  return {std::string(kDistributedPrefix), std::move(name), NodeAttributeType::kString,
          std::move(value)};
}

TEST(NodeAttributes, CentralizedAndDistributedCoexist) {
  NodeAttributes attrs;
  ASSERT_TRUE(attrs.replaceCentralized(n0, {rm("os", "centos")}));
  ASSERT_TRUE(attrs.replaceDistributed(n0, {nm("os", "linux"), nm("gpu", "")}));
  EXPECT_EQ(attrs.value(n0, "rm.yarn.io", "os"), "centos");
  EXPECT_EQ(attrs.value(n0, "nm.yarn.io", "os"), "linux");
  EXPECT_EQ(attrs.value(n0, "nm.yarn.io", "gpu"), "");
  // A new report replaces the distributed set only.
  ASSERT_TRUE(attrs.replaceDistributed(n0, {nm("arch", "arm")}));
  EXPECT_FALSE(attrs.value(n0, "nm.yarn.io", "os"));
  EXPECT_EQ(attrs.value(n0, "rm.yarn.io", "os"), "centos");
  EXPECT_EQ(attrs.attributesOf(n0).size(), 2u);
  // add keeps others and overwrites by identity (prefix + name).
  ASSERT_TRUE(attrs.addCentralized(n0, {rm("os", "rhel"), rm("java", "1.8")}));
  EXPECT_EQ(attrs.value(n0, "rm.yarn.io", "os"), "rhel");
  EXPECT_EQ(attrs.attributesOf(n0).size(), 3u);
  ASSERT_TRUE(attrs.removeCentralized(n0, {rm("java", "")}));
  EXPECT_FALSE(attrs.value(n0, "rm.yarn.io", "java"));
  EXPECT_EQ(attrs.removeCentralized(n0, {rm("java", "")}).code(), StatusCode::kNotFound);
  attrs.removeNode(n0);
  EXPECT_FALSE(attrs.hasAny(n0));
}

TEST(NodeAttributes, PrefixAndNameAreValidated) {
  NodeAttributes attrs;
  EXPECT_NE(
      attrs.replaceCentralized(n0, {nm("os", "x")}).message().find("prefix must be rm.yarn.io"),
      std::string::npos);
  EXPECT_NE(
      attrs.replaceDistributed(n0, {rm("os", "x")}).message().find("prefix must be nm.yarn.io"),
      std::string::npos);
  EXPECT_FALSE(attrs.addCentralized(n0, {rm("", "x")}));
  EXPECT_FALSE(attrs.addCentralized(n0, {rm("a=b", "x")}));
  EXPECT_FALSE(attrs.hasAny(n0));  // nothing accepted on error
}

TEST(NodeAttributes, AdminCliForm) {
  Result<std::vector<NodeAttributeMapping>> m =
      parseNodeAttributeMappings("host1:java(string)=1.8,gpu  host2:rm.yarn.io/os=linux");
  ASSERT_TRUE(m) << m.status().toString();
  ASSERT_EQ(m->size(), 2u);
  EXPECT_EQ((*m)[0].host, "host1");
  EXPECT_EQ((*m)[0].attributes, (std::vector<NodeAttribute>{rm("java", "1.8"), rm("gpu", "")}));
  EXPECT_EQ((*m)[1].attributes, (std::vector<NodeAttribute>{rm("os", "linux")}));
  EXPECT_NE(parseNodeAttributeMappings("host1:java(INT)=8")
                .status()
                .message()
                .find("unsupported node attribute type 'INT': only STRING is supported"),
            std::string::npos);
  EXPECT_FALSE(parseNodeAttributeMappings("host1"));
  EXPECT_FALSE(parseNodeAttributeMappings(""));
  EXPECT_TRUE(parseNodeAttributeMappings("host1:java,gpu", /*withValues=*/false));
  EXPECT_FALSE(parseNodeAttributeMappings("host1:java=1", /*withValues=*/false));
}

bool check(const std::string& expr, const NodeAttributes& attrs, NodeId node = n0,
           std::string_view partition = "") {
  Result<PlacementConstraint> c = parseExpression(expr);
  EXPECT_TRUE(c) << c.status().toString();
  const AllocationTagsManager tags;
  Result<bool> ok = satisfies(*c, AppId{1}, {node, RackId{0}, partition}, tags, attrs);
  EXPECT_TRUE(ok) << ok.status().toString();
  return ok && *ok;
}

TEST(NodeAttributeConstraints, PrefixDefaultsToCentralized) {
  NodeAttributes attrs;
  ASSERT_TRUE(attrs.replaceDistributed(n0, {nm("os", "linux")}));
  EXPECT_FALSE(check("os=linux", attrs));  // looks for rm.yarn.io/os
  EXPECT_TRUE(check("nm.yarn.io/os=linux", attrs));
  EXPECT_TRUE(check("os!=linux", attrs));  // absent and NE
  EXPECT_FALSE(check("nm.yarn.io/os!=linux", attrs));
  ASSERT_TRUE(attrs.replaceCentralized(n0, {rm("os", "linux")}));
  EXPECT_TRUE(check("os=linux", attrs));
  EXPECT_TRUE(check("rm.yarn.io/os=linux", attrs));
  EXPECT_FALSE(check("os=linux", attrs, n1));  // a node without attributes
  EXPECT_TRUE(check("os!=linux", attrs, n1));
}

TEST(NodeAttributeConstraints, OnlyTheFirstValueIsChecked) {
  NodeAttributes attrs;
  ASSERT_TRUE(attrs.replaceCentralized(n0, {rm("java", "1.8")}));
  // YARN surprise: "java=1.7,1.8" is not "one of"; the first value (1.7 here) is compared.
  EXPECT_FALSE(check("java=1.7,1.8", attrs));
  EXPECT_TRUE(check("java=1.8,1.9", attrs));
  EXPECT_TRUE(check("java!=1.7,1.8", attrs));
}

TEST(NodeAttributeConstraints, NoOpIsNeverSatisfiedOnAPresentAttribute) {
  NodeAttributes attrs;
  ASSERT_TRUE(attrs.replaceCentralized(n0, {rm("java", "1.8")}));
  const AllocationTagsManager tags;
  const auto c =
      targetNodeAttribute(Scope::kNode, NodeAttributeOp::kNoOp, {nodeAttribute("java", {"1.8"})});
  EXPECT_FALSE(canSatisfy(c, AppId{1}, {n0, RackId{0}, ""}, tags, attrs));
  EXPECT_FALSE(canSatisfy(c, AppId{1}, {n1, RackId{0}, ""}, tags, attrs));
}

TEST(NodeAttributeConstraints, Partitions) {
  const NodeAttributes attrs;
  const AllocationTagsManager tags;
  const auto inX = targetIn(Scope::kNode, {nodePartition({"x"})});
  const auto inDefault = targetIn(Scope::kNode, {nodePartition({})});
  EXPECT_TRUE(canSatisfy(inX, AppId{1}, {n0, RackId{0}, "x"}, tags, attrs));
  EXPECT_FALSE(canSatisfy(inX, AppId{1}, {n0, RackId{0}, ""}, tags, attrs));
  EXPECT_TRUE(canSatisfy(inDefault, AppId{1}, {n0, RackId{0}, ""}, tags, attrs));
  EXPECT_FALSE(canSatisfy(inDefault, AppId{1}, {n0, RackId{0}, "x"}, tags, attrs));
}

}  // namespace
}  // namespace spindle::placement
