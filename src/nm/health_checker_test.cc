#include "nm/health_checker.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

TEST(HealthReportTest, YarnRules) {
  ScriptRun ok;
  ok.output = "all good\n";
  EXPECT_TRUE(healthReportFor(ok, "", 5).isNodeHealthy);
  EXPECT_EQ(healthReportFor(ok, "", 5).lastHealthReportTime, 5);

  ScriptRun bad;
  bad.output = "checking disks\nERROR disk /data1 is full\n";
  auto h = healthReportFor(bad, "", 5);
  EXPECT_FALSE(h.isNodeHealthy);
  EXPECT_EQ(h.healthReport, "checking disks\nERROR disk /data1 is full");

  ScriptRun notAtStart;
  notAtStart.output = "no ERROR here\n";
  EXPECT_TRUE(healthReportFor(notAtStart, "", 5).isNodeHealthy);

  ScriptRun failed;  // a non-zero exit alone is not reported (NodeHealthScriptRunner)
  failed.exitCode = 3;
  EXPECT_TRUE(healthReportFor(failed, "", 5).isNodeHealthy);

  ScriptRun slow;
  slow.timedOut = true;
  h = healthReportFor(slow, "", 5);
  EXPECT_FALSE(h.isNodeHealthy);
  EXPECT_EQ(h.healthReport, "Node health script timed out");

  h = healthReportFor({}, "fork: no memory", 5);
  EXPECT_FALSE(h.isNodeHealthy);
  EXPECT_EQ(h.healthReport, "fork: no memory");
}

TEST(HealthCheckerTest, RunsTheScriptAtStart) {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("spindle-health-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string script = dir + "/health.sh";
  {
    std::ofstream f(script);
    f << "#!/bin/sh\necho \"ERROR $1\"\n";
  }
  ::chmod(script.c_str(), 0755);
  HealthSettings s;
  s.scriptPath = script;
  s.scriptOpts = {"bad-disk"};
  HealthChecker h(s);
  h.start();
  EXPECT_TRUE(h.running());
  EXPECT_FALSE(h.status().isNodeHealthy);
  EXPECT_EQ(h.status().healthReport, "ERROR bad-disk");
  h.stop();

  HealthSettings missing;
  missing.scriptPath = dir + "/nope.sh";
  HealthChecker m(missing);
  m.start();
  EXPECT_FALSE(m.running());
  EXPECT_TRUE(m.status().isNodeHealthy);
  std::filesystem::remove_all(dir);
}

TEST(HealthCheckerTest, SettingsAreValidated) {
  Configuration c;
  c.set("yarn.nodemanager.health-checker.interval-ms", "-5");
  EXPECT_NE(readHealthSettings(c).status().message().find("interval-ms"), std::string::npos);
  Configuration d;
  d.set("yarn.nodemanager.health-checker.script.path", "/x.sh");
  d.set("yarn.nodemanager.health-checker.script.opts", "a  b");
  d.set("yarn.nodemanager.health-checker.timeout-ms", "700");
  auto s = readHealthSettings(d);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->scriptOpts, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s->timeoutMs, 700);
}

}  // namespace
}  // namespace spindle::nm
