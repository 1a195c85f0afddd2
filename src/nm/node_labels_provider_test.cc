#include "nm/node_labels_provider.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;
using Labels = std::vector<std::string>;

TEST(ScriptNodeLabels, LastPartitionLineWinsOtherLinesIgnored) {
  EXPECT_EQ(parseScriptNodeLabels("starting\nNODE_PARTITION: gpu \nbye\n").value(), Labels{"gpu"});
  EXPECT_EQ(parseScriptNodeLabels("NODE_PARTITION:a\n  NODE_PARTITION:b\nNODE_PARTITION:c").value(),
            Labels{"c"});
  EXPECT_TRUE(parseScriptNodeLabels("no partition here\nPARTITION:x\n").value().empty());
  EXPECT_TRUE(parseScriptNodeLabels("NODE_PARTITION:gpu\nNODE_PARTITION:  \n").value().empty());
  EXPECT_TRUE(parseScriptNodeLabels("").value().empty());
}

TEST(ScriptNodeLabels, BadNameNamesTheLine) {
  auto r = parseScriptNodeLabels("x\nNODE_PARTITION:gpu large\n");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("script output line 2: label name should only contains"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("'gpu large'"), std::string::npos);
  EXPECT_FALSE(parseScriptNodeLabels("NODE_PARTITION:_gpu\n").isOk());
  EXPECT_FALSE(parseScriptNodeLabels("NODE_PARTITION:" + std::string(256, 'a')).isOk());
}

TEST(NodeLabelsSettings, ReadsKeysAndRefusesBadOnes) {
  Configuration conf;
  auto none = readNodeLabelsSettings(conf);
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(none->kind, NodeLabelsSettings::Kind::kConfig);
  EXPECT_EQ(none->configured, "");
  EXPECT_EQ(none->resyncIntervalMs, 120'000);
  conf.set("yarn.nodemanager.node-labels.provider.configured-node-partition", "gpu");
  EXPECT_EQ(readNodeLabelsSettings(conf).value().configured, "gpu");
  conf.set("yarn.nodemanager.node-labels.provider.configured-node-partition", "g pu");
  EXPECT_NE(readNodeLabelsSettings(conf).status().message().find(
                "yarn.nodemanager.node-labels.provider.configured-node-partition: label name"),
            std::string::npos);
  conf.set("yarn.nodemanager.node-labels.provider", "script");
  conf.set("yarn.nodemanager.node-labels.provider.script.path", "/bin/x");
  conf.set("yarn.nodemanager.node-labels.provider.script.opts", "-a  b");
  conf.set("yarn.nodemanager.node-labels.provider.fetch-interval-ms", "-1");
  conf.set("yarn.nodemanager.node-labels.resync-interval-ms", "5000");
  auto s = readNodeLabelsSettings(conf);
  ASSERT_TRUE(s.isOk()) << s.status().message();
  EXPECT_EQ(s->kind, NodeLabelsSettings::Kind::kScript);
  EXPECT_EQ(s->script.path, "/bin/x");
  EXPECT_EQ(s->script.opts, (Labels{"-a", "b"}));
  EXPECT_EQ(s->script.intervalMs, -1);
  EXPECT_EQ(s->script.timeoutMs, 1'200'000);
  EXPECT_EQ(s->resyncIntervalMs, 5000);
  conf.set("yarn.nodemanager.node-labels.provider.fetch-timeout-ms", "0");
  EXPECT_NE(readNodeLabelsSettings(conf).status().message().find(
                "yarn.nodemanager.node-labels.provider.fetch-timeout-ms: must be positive"),
            std::string::npos);
  conf.set("yarn.nodemanager.node-labels.provider.fetch-timeout-ms", "100");
  conf.set("yarn.nodemanager.node-labels.resync-interval-ms", "0");
  EXPECT_NE(readNodeLabelsSettings(conf).status().message().find(
                "yarn.nodemanager.node-labels.resync-interval-ms: must be positive"),
            std::string::npos);
  conf.set("yarn.nodemanager.node-labels.provider", "whitelist");
  EXPECT_NE(readNodeLabelsSettings(conf).status().message().find("'whitelist' is not a provider"),
            std::string::npos);
}

TEST(NodeLabelsReporter, SendsOnChangeAndAfterResync) {
  NodeLabelsReporter r(1000);
  r.registered({"gpu"}, 0);
  EXPECT_FALSE(r.forHeartbeat({"gpu"}, 500).has_value());
  EXPECT_EQ(r.forHeartbeat({"ssd"}, 600), Labels{"ssd"});  // a change
  EXPECT_FALSE(r.forHeartbeat({"ssd"}, 1600).has_value());
  EXPECT_EQ(r.forHeartbeat({"ssd"}, 1601), Labels{"ssd"});  // resync-interval-ms passed
  EXPECT_FALSE(r.forHeartbeat({"ssd"}, 1700).has_value());
  auto none = r.forHeartbeat({}, 1800);  // the partition went away: an empty list
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->empty());
}

class LabelScriptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("spindle-label-script-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string script(const std::string& body) {
    const std::string path = (dir / "labels.sh").string();
    std::ofstream(path) << "#!/bin/sh\n" << body;
    ::chmod(path.c_str(), 0755);
    return path;
  }
  NodeLabelsSettings scriptSettings(const std::string& path) {
    NodeLabelsSettings s;
    s.kind = NodeLabelsSettings::Kind::kScript;
    s.script.path = path;
    s.script.intervalMs = -1;
    return s;
  }
  fs::path dir;
};

TEST_F(LabelScriptTest, RunsTheScriptWithItsOptions) {
  NodeLabelsSettings s = scriptSettings(script("echo hello\necho NODE_PARTITION:$1\n"));
  s.script.opts = {"gpu"};
  NodeLabelsProvider p(s);
  ASSERT_TRUE(p.start().isOk());
  EXPECT_EQ(p.current(), Labels{"gpu"});
}

TEST_F(LabelScriptTest, ConfigProviderGivesTheConfiguredPartition) {
  NodeLabelsSettings s;
  s.configured = "ssd";
  NodeLabelsProvider p(s);
  ASSERT_TRUE(p.start().isOk());
  EXPECT_EQ(p.current(), Labels{"ssd"});
  NodeLabelsProvider none{NodeLabelsSettings{}};
  ASSERT_TRUE(none.start().isOk());
  EXPECT_TRUE(none.current().empty());
}

TEST_F(LabelScriptTest, FailedOrTimedOutRunsKeepThePreviousLabels) {
  NodeLabelsProvider p(scriptSettings(script("echo NODE_PARTITION:gpu\n")));
  ASSERT_TRUE(p.start().isOk());
  EXPECT_EQ(p.current(), Labels{"gpu"});
  p.update(runProviderScript(script("echo NODE_PARTITION:ssd\nexit 3\n"), {}, 5000));
  EXPECT_EQ(p.current(), Labels{"gpu"});  // a failed run
  p.update(runProviderScript(script("sleep 5\n"), {}, 100));
  EXPECT_EQ(p.current(), Labels{"gpu"});  // timed out
  p.update(std::string("NODE_PARTITION:no good\n"));
  EXPECT_EQ(p.current(), Labels{"gpu"});  // a bad name
  p.update(std::string("NODE_PARTITION:ssd\n"));
  EXPECT_EQ(p.current(), Labels{"ssd"});
  p.update(std::string("nothing\n"));
  EXPECT_TRUE(p.current().empty());  // no partition line: the default partition
}

TEST_F(LabelScriptTest, MissingScriptIsAStartupErrorNamingTheKey) {
  NodeLabelsProvider missing(scriptSettings((dir / "missing.sh").string()));
  EXPECT_EQ(missing.start().message(),
            "yarn.nodemanager.node-labels.provider.script.path: " + (dir / "missing.sh").string() +
                " does not exist or is not executable");
  NodeLabelsProvider unset(scriptSettings(""));
  EXPECT_NE(unset.start().message().find(
                "yarn.nodemanager.node-labels.provider.script.path: the script provider needs"),
            std::string::npos);
  const std::string path = script("echo NODE_PARTITION:gpu\n");
  ::chmod(path.c_str(), 0644);
  NodeLabelsProvider notExecutable(scriptSettings(path));
  EXPECT_NE(notExecutable.start().message().find("is not executable"), std::string::npos);
}

}  // namespace
}  // namespace spindle::nm
