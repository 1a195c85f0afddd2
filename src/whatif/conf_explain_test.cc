#include "whatif/conf_explain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace spindle::whatif {
namespace {

Configuration capacityConf(const std::string& aCapacity) {
  const std::string xml =
      "<configuration>\n"
      "<property><name>yarn.resourcemanager.scheduler.class</name><value>capacity</value></"
      "property>\n"
      "<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\n"
      "<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>" +
      aCapacity +
      "</value></property>\n"
      "<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>" +
      std::to_string(100 - std::stoi(aCapacity)) + "</value></property>\n" +
      "<property><name>yarn.scheduler.capacity.root.b.user-limit-factor</name><value>2</value></"
      "property>\n"
      "</configuration>\n";
  return Configuration::parseString(xml, "capacity-scheduler.xml").value();
}

const ExplainedValue* find(const Explanation& e, const std::string& queue,
                           const std::string& name) {
  for (const ExplainedQueue& q : e.queues) {
    if (q.path != queue) continue;
    for (const ExplainedValue& v : q.values) {
      if (v.name == name) return &v;
    }
  }
  return nullptr;
}

TEST(ConfExplain, ValuesWithTheirSources) {
  auto e = explainConfiguration(capacityConf("40"), Resource::of(100 * 1024, 100));
  ASSERT_TRUE(e.isOk()) << e.status().message();
  EXPECT_EQ(e->scheduler, "capacity");
  const ExplainedValue* cap = find(*e, "root.a", "capacity %");
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(cap->value, "40.0");
  EXPECT_EQ(cap->source, "capacity-scheduler.xml:4");
  EXPECT_EQ(find(*e, "root.a", "guaranteed resources")->value, "<memory:40960, vCores:40>");
  EXPECT_EQ(find(*e, "root.a", "guaranteed resources")->source, "derived");
  EXPECT_EQ(find(*e, "root.b", "user limit factor")->source, "capacity-scheduler.xml:6");
  EXPECT_EQ(find(*e, "root.a", "user limit factor")->source, "default");
  EXPECT_EQ(find(*e, "root.a", "maximum applications")->value, "4000");  // 10000 x 40 %
  const std::string text = explanationText(*e);
  EXPECT_THAT(text, ::testing::HasSubstr("root.a\n"));
  EXPECT_EQ(explanationJson(*e)["queues"][1]["path"], "root.a");
}

TEST(ConfExplain, CompareShowsOnlyWhatChanged) {
  const Resource cluster = Resource::of(100 * 1024, 100);
  auto a = explainConfiguration(capacityConf("40"), cluster);
  auto b = explainConfiguration(capacityConf("30"), cluster);
  ASSERT_TRUE(a.isOk() && b.isOk());
  EXPECT_TRUE(compareExplanations(*a, *a).empty());
  const std::vector<std::string> diff = compareExplanations(*a, *b);
  EXPECT_THAT(diff,
              ::testing::Contains("root.a capacity %: 40.0 (capacity-scheduler.xml:4) -> 30.0 "
                                  "(capacity-scheduler.xml:4)"));
  for (const std::string& line : diff) {
    EXPECT_THAT(line, ::testing::Not(::testing::HasSubstr("user limit factor"))) << line;
  }
}

TEST(ConfExplain, ARefusedConfigurationIsItsError) {
  auto e = explainConfiguration(capacityConf("140"), Resource::of(1024, 1));
  ASSERT_FALSE(e.isOk());
  EXPECT_THAT(e.status().message(), ::testing::HasSubstr("capacity-scheduler.xml"));
}

}  // namespace
}  // namespace spindle::whatif
