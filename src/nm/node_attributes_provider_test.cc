#include "nm/node_attributes_provider.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;

std::string errorOf(std::string_view text, bool script) {
  auto r = script ? parseScriptNodeAttributes(text) : parseConfiguredNodeAttributes(text);
  EXPECT_FALSE(r.isOk()) << text;
  return r.isOk() ? "" : r.status().message();
}

TEST(ConfiguredNodeAttributes, ParsesYarnFormat) {
  auto r = parseConfiguredNodeAttributes("os,STRING,linux:gpu,STRING,:java,STRING,1.8");
  ASSERT_TRUE(r.isOk()) << r.status().message();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0], (protocol::NodeAttributeRecord{"nm.yarn.io", "os", "STRING", "linux"}));
  EXPECT_EQ((*r)[1].attributeName, "gpu");
  EXPECT_EQ((*r)[1].attributeValue, "");
  EXPECT_EQ((*r)[2].attributeValue, "1.8");
  EXPECT_TRUE(parseConfiguredNodeAttributes("").value().empty());
}

TEST(ConfiguredNodeAttributes, BadInputNamesKeyAndAttribute) {
  const std::string key = "yarn.nodemanager.node-attributes.provider.configured-node-attributes";
  std::string e = errorOf("os,STRING", false);
  EXPECT_NE(e.find(key + ": 'os,STRING' is not name,type,value"), std::string::npos) << e;
  e = errorOf("os,STRING,linux,x", false);
  EXPECT_NE(e.find("is not name,type,value"), std::string::npos) << e;
  e = errorOf("nm.yarn.io/os,STRING,linux", false);
  EXPECT_NE(e.find("attribute 'nm.yarn.io/os' must not carry a prefix"), std::string::npos) << e;
  e = errorOf("os,string,linux", false);  // the enum's exact name, as YARN's EnumUtils
  EXPECT_NE(e.find("attribute 'os': invalid node attribute type: string"), std::string::npos) << e;
  e = errorOf("os,INT,1", false);
  EXPECT_NE(e.find("invalid node attribute type: INT"), std::string::npos) << e;
  e = errorOf("_os,STRING,linux", false);
  EXPECT_NE(e.find("attribute nm.yarn.io/_os: the name must be"), std::string::npos) << e;
  e = errorOf("os,STRING,lin ux", false);
  EXPECT_NE(e.find("the value 'lin ux'"), std::string::npos) << e;
  e = errorOf("os,STRING,a:os,STRING,b", false);
  EXPECT_NE(e.find("attribute 'os' is given more than once"), std::string::npos) << e;
}

TEST(ScriptNodeAttributes, ReadsOnlyAttributeLines) {
  auto r = parseScriptNodeAttributes(
      "starting\nNODE_ATTRIBUTE:os, STRING, linux\n  NODE_ATTRIBUTE:rack,STRING,r1\nbye\n");
  ASSERT_TRUE(r.isOk()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0], (protocol::NodeAttributeRecord{"nm.yarn.io", "os", "STRING", "linux"}));
  EXPECT_EQ((*r)[1].attributeName, "rack");
  EXPECT_TRUE(parseScriptNodeAttributes("no attributes here\n").value().empty());
}

TEST(ScriptNodeAttributes, BadLinesNameTheLine) {
  std::string e = errorOf("x\nNODE_ATTRIBUTE:os,linux\n", true);
  EXPECT_NE(e.find("script output line 2: malformed output, expecting format "
                   "NODE_ATTRIBUTE:ATTRIBUTE_NAME,ATTRIBUTE_TYPE,ATTRIBUTE_VALUE; but got "
                   "NODE_ATTRIBUTE:os,linux"),
            std::string::npos)
      << e;
  e = errorOf("NODE_ATTRIBUTE:os,FLOAT,1\n", true);
  EXPECT_NE(e.find("script output line 1: attribute 'os': invalid node attribute type: FLOAT"),
            std::string::npos)
      << e;
  e = errorOf("NODE_ATTRIBUTE:a=b,STRING,1\n", true);
  EXPECT_NE(e.find("script output line 1: attribute nm.yarn.io/a=b: the name must be"),
            std::string::npos)
      << e;
}

TEST(NodeAttributesSettings, ReadsKeysAndRefusesBadOnes) {
  Configuration conf;
  EXPECT_EQ(readNodeAttributesSettings(conf).value().kind, NodeAttributesSettings::Kind::kNone);
  conf.set("yarn.nodemanager.node-attributes.provider", "script");
  conf.set("yarn.nodemanager.node-attributes.provider.script.path", "/bin/x");
  conf.set("yarn.nodemanager.node-attributes.provider.script.opts", "-a  b");
  conf.set("yarn.nodemanager.node-attributes.provider.fetch-interval-ms", "-1");
  auto s = readNodeAttributesSettings(conf);
  ASSERT_TRUE(s.isOk()) << s.status().message();
  EXPECT_EQ(s->kind, NodeAttributesSettings::Kind::kScript);
  EXPECT_EQ(s->scriptOpts, (std::vector<std::string>{"-a", "b"}));
  EXPECT_EQ(s->fetchIntervalMs, -1);
  EXPECT_EQ(s->fetchTimeoutMs, 1'200'000);
  conf.set("yarn.nodemanager.node-attributes.provider.fetch-interval-ms", "0");
  EXPECT_NE(readNodeAttributesSettings(conf).status().message().find("fetch-interval-ms"),
            std::string::npos);
  conf.set("yarn.nodemanager.node-attributes.provider", "org.example.Provider");
  EXPECT_NE(readNodeAttributesSettings(conf).status().message().find(
                "'org.example.Provider' is not a provider"),
            std::string::npos);
}

class ScriptProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("spindle-attr-script-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string script(const std::string& body) {
    const std::string path = (dir / "attrs.sh").string();
    std::ofstream(path) << "#!/bin/sh\n" << body;
    ::chmod(path.c_str(), 0755);
    return path;
  }
  fs::path dir;
};

TEST_F(ScriptProviderTest, RunsTheScriptWithItsOptions) {
  NodeAttributesSettings s;
  s.kind = NodeAttributesSettings::Kind::kScript;
  s.scriptPath = script("echo NODE_ATTRIBUTE:os,STRING,$1\n");
  s.scriptOpts = {"linux"};
  s.fetchIntervalMs = -1;
  NodeAttributesProvider p(s);
  ASSERT_TRUE(p.start().isOk());
  ASSERT_EQ(p.current().size(), 1u);
  EXPECT_EQ(p.current()[0].attributeValue, "linux");
  EXPECT_FALSE(p.takeChanged().has_value());  // registration carries the first set
}

TEST_F(ScriptProviderTest, FailureAndTimeoutAreErrors) {
  EXPECT_NE(
      runProviderScript(script("exit 3\n"), {}, 5000).status().message().find("exited with 3"),
      std::string::npos);
  EXPECT_NE(runProviderScript(script("sleep 5\n"), {}, 100)
                .status()
                .message()
                .find("timed out after 100 ms"),
            std::string::npos);
  const std::atomic<bool> cancel{true};
  EXPECT_NE(runProviderScript(script("sleep 5\n"), {}, 5000, &cancel)
                .status()
                .message()
                .find("the NodeManager is stopping"),
            std::string::npos);
  NodeAttributesSettings s;
  s.kind = NodeAttributesSettings::Kind::kScript;
  s.scriptPath = (dir / "missing.sh").string();
  NodeAttributesProvider p(s);
  EXPECT_NE(p.start().message().find("does not exist or is not executable"), std::string::npos);
}

}  // namespace
}  // namespace spindle::nm
