#include "trace/sls_settings.h"

#include <gtest/gtest.h>

#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::sourcePath;

Configuration confOf(std::initializer_list<std::pair<const char*, const char*>> props) {
  Configuration c;
  for (const auto& [k, v] : props) c.set(k, v);
  return c;
}

TEST(SlsSettings, DefaultsAreSlsDefaults) {
  SlsSettings s = slsSettingsFromConfig(Configuration(), ResourceTypes()).value();
  EXPECT_EQ(s.nodeResource, Resource::of(10240, 10));
  EXPECT_EQ(s.amResource, Resource::of(1024, 1));
  EXPECT_EQ(s.containerResource, Resource::of(1024, 1));
  EXPECT_EQ(s.nmHeartbeatMs, 1000);
  EXPECT_EQ(s.amHeartbeatMs, 1000);
  EXPECT_EQ(s.nmUtilizationRatio, -1);
  EXPECT_TRUE(s.metricsOn);
  EXPECT_EQ(s.metricsRecordIntervalMs, 1000);
  EXPECT_EQ(s.metricsTimerWindow, 100);
  EXPECT_EQ(s.runnerPoolSize, 10);
  EXPECT_EQ(s.metricsWebPort, 10001);
  EXPECT_TRUE(s.amHonoursPreemption);
  EXPECT_FALSE(s.amWorkPreservingPreemption) << "preempted tasks restart from zero, as in SLS";
  EXPECT_EQ(s.amKinds, (std::map<std::string, std::string>{
                           {"dag", "dag"}, {"mapreduce", "mapreduce"}, {"stream", "stream"}}));
  EXPECT_EQ(s.amTypes.at("mapreduce"), "org.apache.hadoop.yarn.sls.appmaster.MRAMSimulator");
}

TEST(SlsSettings, DefaultConstructedEqualsEmptyConfiguration) {
  SlsSettings fromConf = slsSettingsFromConfig(Configuration(), ResourceTypes()).value();
  SlsSettings plain;
  EXPECT_EQ(plain.nodeResource, fromConf.nodeResource);
  EXPECT_EQ(plain.amResource, fromConf.amResource);
  EXPECT_EQ(plain.containerResource, fromConf.containerResource);
  EXPECT_EQ(plain.amTypes, fromConf.amTypes);
  EXPECT_EQ(plain.amKinds, fromConf.amKinds);
}

TEST(SlsSettings, ExampleSlsRunnerXml) {
  Configuration conf =
      Configuration::parseFile(sourcePath("examples/sim/sls/sls-runner.xml")).value();
  SlsSettings s = slsSettingsFromConfig(conf, ResourceTypes()).value();
  EXPECT_EQ(s.nodeResource, Resource::of(8192, 8));
  EXPECT_EQ(s.amKinds.size(), 3u);
}

TEST(SlsSettings, EveryKeyIsRead) {
  ResourceTypes types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
  Configuration conf = confOf({{"yarn.sls.nm.memory.mb", "4096"},
                               {"yarn.sls.nm.vcores", "4"},
                               {"yarn.sls.nm.yarn.io/gpu", "2"},
                               {"yarn.sls.nm.heartbeat.interval.ms", "500"},
                               {"yarn.sls.nm.resource.utilization.ratio", "0.5"},
                               {"yarn.sls.am.heartbeat.interval.ms", "2000"},
                               {"yarn.sls.am.container.memory", "2048"},
                               {"yarn.sls.am.container.vcores", "2"},
                               {"yarn.sls.container.memory.mb", "512"},
                               {"yarn.sls.container.vcores", "3"},
                               {"yarn.sls.container.yarn.io/gpu", "1"},
                               {"yarn.sls.am.type.spark", "mapreduce"},
                               {"yarn.sls.am.type.stream", "StreamAMSimulator"},
                               {"yarn.sls.metrics.switch", "off"},
                               {"yarn.sls.metrics.record.interval.ms", "250"},
                               {"yarn.sls.metrics.timer.window.size", "60"},
                               {"yarn.sls.runner.pool.size", "100"},
                               {"yarn.sls.metrics.web.address.port", "0"},
                               {"spindle.sls.am.honour-preemption", "false"},
                               {"spindle.sls.am.preemption.work-preserving", "TRUE"}});
  SlsSettings s = slsSettingsFromConfig(conf, types).value();
  Resource node = Resource::of(4096, 4);
  node.set(2, 2);
  EXPECT_EQ(s.nodeResource, node);
  EXPECT_EQ(s.nmHeartbeatMs, 500);
  EXPECT_EQ(s.nmUtilizationRatio, 0.5);
  EXPECT_EQ(s.amHeartbeatMs, 2000);
  EXPECT_EQ(s.amResource, Resource::of(2048, 2));
  Resource container = Resource::of(512, 3);
  container.set(2, 1);
  EXPECT_EQ(s.containerResource, container);
  EXPECT_EQ(s.amKinds.at("spark"), "mapreduce");
  EXPECT_EQ(s.amKinds.at("stream"), "stream");
  EXPECT_EQ(s.amTypes.at("stream"), "StreamAMSimulator");
  EXPECT_FALSE(s.metricsOn);
  EXPECT_EQ(s.metricsRecordIntervalMs, 250);
  EXPECT_EQ(s.metricsTimerWindow, 60);
  EXPECT_EQ(s.runnerPoolSize, 100);
  EXPECT_EQ(s.metricsWebPort, 0);
  EXPECT_FALSE(s.amHonoursPreemption);
  EXPECT_TRUE(s.amWorkPreservingPreemption);
}

TEST(SlsSettings, BadValuesNameKeyAndValue) {
  const std::pair<std::pair<const char*, const char*>, const char*> cases[] = {
      {{"yarn.sls.nm.heartbeat.interval.ms", "0"},
       "property 'yarn.sls.nm.heartbeat.interval.ms': must be positive, got 0"},
      {{"yarn.sls.nm.memory.mb", "lots"}, "yarn.sls.nm.memory.mb"},
      {{"yarn.sls.container.vcores", "-1"},
       "property 'yarn.sls.container.vcores': must be positive, got -1"},
      {{"yarn.sls.metrics.switch", "maybe"},
       "property 'yarn.sls.metrics.switch': expected ON or OFF, got 'maybe'"},
      {{"yarn.sls.am.type.spark", "org.example.SparkAM"},
       "property 'yarn.sls.am.type.spark': unknown AM simulator 'org.example.SparkAM'"},
      {{"yarn.sls.nm.resource.utilization.ratio", "1.5"},
       "property 'yarn.sls.nm.resource.utilization.ratio': must be at most 1"},
      {{"yarn.sls.metrics.web.address.port", "70000"}, "must be a port in 0..65535, got 70000"},
      {{"spindle.sls.am.preemption.work-preserving", "yes"},
       "spindle.sls.am.preemption.work-preserving"},
  };
  for (const auto& [prop, expected] : cases) {
    Result<SlsSettings> s = slsSettingsFromConfig(confOf({prop}), ResourceTypes());
    ASSERT_FALSE(s) << prop.first;
    EXPECT_NE(s.status().message().find(expected), std::string::npos) << s.status().message();
    EXPECT_NE(s.status().message().find(prop.second), std::string::npos) << s.status().message();
  }
}

TEST(SlsSettings, AmKindForClass) {
  EXPECT_EQ(amKindForClass("org.apache.hadoop.yarn.sls.appmaster.DAGAMSimulator"), "dag");
  EXPECT_EQ(amKindForClass("MRAMSimulator"), "mapreduce");
  EXPECT_EQ(amKindForClass("stream"), "stream");
  EXPECT_EQ(amKindForClass("org.example.Other"), std::nullopt);
}

}  // namespace
}  // namespace spindle
