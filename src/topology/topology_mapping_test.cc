#include "topology/topology_mapping.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace spindle::topology {
namespace {

namespace fs = std::filesystem;
using Racks = std::vector<std::string>;

struct Warnings {
  std::vector<std::string> lines;
  Warn sink() {
    return [this](const std::string& w) { lines.push_back(w); };
  }
  bool mention(const std::string& part) const {
    for (const std::string& l : lines) {
      if (l.find(part) != std::string::npos) return true;
    }
    return false;
  }
};

// A folder of its own under the test's temporary dir, removed at the end.
class TopologyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("spindle-topology-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text, bool executable = false) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    if (executable) chmod(path.c_str(), 0755);
    return path;
  }
  fs::path dir_;
};

TEST(TopologyTable, TwoColumnsPerLineCommentsAndBadLinesSkipped) {
  Warnings w;
  const auto t = parseTopologyTable(
      "# racks of the lab\n"
      "host1 /rack1\n"
      "  host2\t/rack2  \n"
      "\n"
      "   # indented comment\n"
      "host3 /rack3 extra\n"
      "lonely\n"
      "10.0.0.4    /rack1\n"
      "host1 /rack9\n",
      "racks.txt", w.sink());
  EXPECT_EQ(t, (std::map<std::string, std::string>{
                   {"host1", "/rack9"}, {"host2", "/rack2"}, {"10.0.0.4", "/rack1"}}));
  ASSERT_EQ(w.lines.size(), 2u);
  EXPECT_NE(w.lines[0].find("racks.txt:6: line does not have two columns"), std::string::npos)
      << w.lines[0];
  EXPECT_NE(w.lines[1].find("racks.txt:7:"), std::string::npos) << w.lines[1];
}

TEST(TopologySettingsTest, DefaultsAndKeys) {
  Configuration conf;
  auto s = TopologySettings::fromConfiguration(conf);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->impl, TopologySettings::Impl::kScript);
  EXPECT_EQ(s->scriptPath, "");
  EXPECT_EQ(s->scriptNumberArgs, 100);
  conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
  conf.set("net.topology.table.file.name", "/etc/racks.txt");
  s = TopologySettings::fromConfiguration(conf);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->impl, TopologySettings::Impl::kTable);
  EXPECT_EQ(s->tablePath, "/etc/racks.txt");
}

TEST(TopologySettingsTest, UnknownImplAndBadNumbersNameKeyAndValue) {
  Configuration conf;
  conf.set("net.topology.node.switch.mapping.impl", "org.example.DnsMapping");
  auto s = TopologySettings::fromConfiguration(conf);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("net.topology.node.switch.mapping.impl"), std::string::npos)
      << s.status().message();
  EXPECT_NE(s.status().message().find("'org.example.DnsMapping'"), std::string::npos);
  conf = Configuration();
  conf.set("net.topology.script.number.args", "0");
  s = TopologySettings::fromConfiguration(conf);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("net.topology.script.number.args"), std::string::npos);
  conf.set("net.topology.script.number.args", "many");
  EXPECT_FALSE(TopologySettings::fromConfiguration(conf).isOk());
}

TEST_F(TopologyFiles, TableMappingUnknownHostIsOnTheDefaultRack) {
  Warnings w;
  TableMapping m(write("racks.txt", "host1 /rack1\nhost2 /rack2\n"), w.sink());
  EXPECT_EQ(m.resolve({"host2", "other", "host1"}).value(),
            (Racks{"/rack2", "/default-rack", "/rack1"}));
  EXPECT_TRUE(w.lines.empty());
}

TEST_F(TopologyFiles, UnreadableTableWarnsNamingItAndEveryHostIsOnTheDefaultRack) {
  for (const std::string& path : {(dir_ / "missing.txt").string(), dir_.string()}) {
    Warnings w;
    TableMapping m(path, w.sink());
    EXPECT_EQ(m.resolve({"host1"}).value(), (Racks{"/default-rack"}));
    ASSERT_EQ(w.lines.size(), 1u) << path;
    EXPECT_TRUE(w.mention("cannot read the topology table " + path)) << w.lines[0];
  }
}

TEST_F(TopologyFiles, ScriptGetsTheHostsAndPrintsARackEach) {
  Warnings w;
  // Prints /rack-<first letter> for each argument, one per line.
  const std::string script =
      write("rack.sh", "#!/bin/sh\nfor h in \"$@\"; do echo \"/rack-$(echo $h | cut -c1)\"; done\n",
            true);
  ScriptMapping m(script, 100, 5000, w.sink());
  EXPECT_EQ(m.resolve({"alpha", "beta", "alice"}).value(),
            (Racks{"/rack-a", "/rack-b", "/rack-a"}));
  EXPECT_TRUE(w.lines.empty());
}

TEST_F(TopologyFiles, NumberArgsBatchesTheHosts) {
  Warnings w;
  const std::string log = (dir_ / "calls").string();
  // Records each call's argument count and answers /r<n> with the count, so batches show.
  const std::string script = write(
      "rack.sh", "#!/bin/sh\necho $# >> " + log + "\nfor h in \"$@\"; do printf '/r%s ' $#; done\n",
      true);
  ScriptMapping m(script, 2, 5000, w.sink());
  EXPECT_EQ(m.resolve({"a", "b", "c", "d", "e"}).value(),
            (Racks{"/r2", "/r2", "/r2", "/r2", "/r1"}));
  std::ifstream calls(log);
  std::string text((std::istreambuf_iterator<char>(calls)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "2\n2\n1\n");
}

TEST_F(TopologyFiles, WrongTokenCountFailureAndTimeoutGiveNoAnswerAndAWarning) {
  struct Case {
    std::string name, body, warning;
  };
  const std::vector<Case> cases = {
      {"short.sh", "echo /rack1\n", "returned 1 values when 2 were expected"},
      {"long.sh", "echo /rack1 /rack2 /rack3\n", "returned 3 values when 2 were expected"},
      {"fails.sh", "echo /rack1 /rack2; exit 3\n", "exited with 3"},
      {"slow.sh", "exec sleep 10\n", "timed out after 200 ms"},
  };
  for (const Case& c : cases) {
    Warnings w;
    ScriptMapping m(write(c.name, "#!/bin/sh\n" + c.body, true), 100, 200, w.sink());
    EXPECT_FALSE(m.resolve({"h1", "h2"}).has_value()) << c.name;
    ASSERT_EQ(w.lines.size(), 1u) << c.name;
    EXPECT_TRUE(w.mention(c.warning)) << w.lines[0];
    EXPECT_TRUE(w.mention(c.name)) << w.lines[0];
  }
  Warnings w;
  ScriptMapping missing((dir_ / "nope.sh").string(), 100, 200, w.sink());
  EXPECT_FALSE(missing.resolve({"h1"}).has_value());
  EXPECT_TRUE(w.mention("nope.sh"));
}

TEST(ScriptMappingTest, NoScriptPutsEveryHostOnTheDefaultRack) {
  Warnings w;
  ScriptMapping m("", 100, 200, w.sink());
  EXPECT_EQ(m.resolve({"a", "b"}).value(), (Racks{"/default-rack", "/default-rack"}));
  EXPECT_TRUE(w.lines.empty());
}

TEST(TopologyTableFormat, WritesWhatTheParserReads) {
  const std::string text = formatTopologyTable({{"n01", "/rack0"}, {"n05", "/rack1"}});
  Warnings w;
  EXPECT_EQ(parseTopologyTable(text, "t", w.sink()),
            (std::map<std::string, std::string>{{"n01", "/rack0"}, {"n05", "/rack1"}}));
  EXPECT_TRUE(w.lines.empty());
}

}  // namespace
}  // namespace spindle::topology
