#include "config/configuration.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace spindle {
namespace {

std::string fixture(std::string_view file) {
  return std::string(SPINDLE_SOURCE_DIR "/tests/data/hadoop-conf/") + std::string(file);
}

// Builds a configuration file one line at a time: <configuration> is line 1, so the n-th added
// line sits on line n + 1.
class Xml {
 public:
  Xml& line(std::string_view raw) {
    body_ += std::string(raw) + "\n";
    return *this;
  }
  Xml& property(std::string_view name, std::string_view value) {
    return line(fmt::format("<property><name>{}</name><value>{}</value></property>", name, value));
  }
  Xml& finalProperty(std::string_view name, std::string_view value) {
    return line(fmt::format(
        "<property><name>{}</name><value>{}</value><final>true</final></property>", name, value));
  }
  std::string str() const { return "<configuration>\n" + body_ + "</configuration>\n"; }

 private:
  std::string body_;
};

Configuration parse(const Xml& xml, std::string_view source = "test.xml") {
  auto conf = Configuration::parseString(xml.str(), source);
  if (!conf) {
    ADD_FAILURE() << conf.status().toString();
    return {};
  }
  return *std::move(conf);
}

// The error message of a result that must have failed.
template <typename T>
std::string errorOf(const Result<T>& result) {
  if (result) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return result.status().message();
}

// ---- the SLS fixtures, as Hadoop ships them -----------------------------------------------------

TEST(SlsFixtures, YarnSiteNamesTheFairSchedulerAndIgnoresTheCommentedOutValue) {
  auto conf = Configuration::parseFile(fixture("yarn-site.xml"));
  ASSERT_TRUE(conf) << conf.status().toString();
  EXPECT_EQ(conf->get("yarn.resourcemanager.scheduler.class"),
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler");
  EXPECT_EQ(conf->get("yarn.resourcemanager.webapp.address"), "localhost:18088");
  EXPECT_TRUE(*conf->getBool("yarn.scheduler.fair.preemption", false));
  EXPECT_FALSE(*conf->getBool("hadoop.security.token.service.use_ip", true));
  EXPECT_EQ(conf->all().size(), 10u);
  EXPECT_TRUE(conf->warnings().empty());

  auto source = conf->source("yarn.resourcemanager.scheduler.class");
  ASSERT_TRUE(source);
  EXPECT_EQ(source->file, fixture("yarn-site.xml"));
  EXPECT_EQ(source->line, 18);
}

TEST(SlsFixtures, CapacitySchedulerListsThreeQueuesWithTheirCapacities) {
  auto conf = Configuration::parseFile(fixture("capacity-scheduler.xml"));
  ASSERT_TRUE(conf) << conf.status().toString();
  EXPECT_EQ(conf->getStrings("yarn.scheduler.capacity.root.queues"),
            (std::vector<std::string>{"sls_queue_1", "sls_queue_2", "sls_queue_3"}));
  EXPECT_EQ(*conf->getDouble("yarn.scheduler.capacity.root.sls_queue_1.capacity", 0), 25.0);
  EXPECT_EQ(*conf->getDouble("yarn.scheduler.capacity.root.sls_queue_3.capacity", 0), 50.0);
  EXPECT_TRUE(*conf->getBool("yarn.scheduler.capacity.root.sls_queue_1.reservable", false));
  EXPECT_EQ(conf->namesWithPrefix("yarn.scheduler.capacity.root.sls_queue_1."),
            (std::vector<std::string>{
                "yarn.scheduler.capacity.root.sls_queue_1.capacity",
                "yarn.scheduler.capacity.root.sls_queue_1.maximum-capacity",
                "yarn.scheduler.capacity.root.sls_queue_1.reservable",
                "yarn.scheduler.capacity.root.sls_queue_1.show-reservations-as-queues",
            }));
}

TEST(SlsFixtures, AllThreeMergeAndRunnerSettingsReadTyped) {
  Configuration conf;
  for (const char* file : {"yarn-site.xml", "capacity-scheduler.xml", "sls-runner.xml"}) {
    auto part = Configuration::parseFile(fixture(file));
    ASSERT_TRUE(part) << part.status().toString();
    conf.merge(*part);
  }
  EXPECT_EQ(conf.all().size(), 10u + 9u + 15u);
  EXPECT_EQ(*conf.getLong("yarn.sls.nm.memory.mb", 0), 100240);
  EXPECT_EQ(*conf.getInt("yarn.sls.nm.vcores", 0), 100);
  EXPECT_EQ(*conf.getTimeDurationMs("yarn.sls.nm.heartbeat.interval.ms", 0), 1000);
  EXPECT_EQ(conf.get("yarn.sls.metrics.switch"), "ON");
  // SLS reads the switch as a string; as a boolean it is wrong, and the error says where.
  EXPECT_EQ(errorOf(conf.getBool("yarn.sls.metrics.switch", false)),
            fixture("sls-runner.xml") +
                ":68: property 'yarn.sls.metrics.switch': expected true or false, got 'ON'");
  EXPECT_TRUE(conf.warnings().empty());
}

TEST(SlsFixtures, MissingFileIsAnErrorNamingThePath) {
  auto conf = Configuration::parseFile(fixture("no-such-site.xml"));
  ASSERT_FALSE(conf);
  EXPECT_EQ(conf.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(conf.status().message(),
            fixture("no-such-site.xml") + ": cannot open: No such file or directory");
}

// ---- file structure -----------------------------------------------------------------------------

TEST(Parse, MalformedXmlNamesFileAndLine) {
  const std::string xml =
      "<configuration>\n"
      "  <property>\n"
      "    <name>a</name>\n"
      "  </propert>\n"
      "</configuration>\n";
  EXPECT_EQ(errorOf(Configuration::parseString(xml, "bad.xml")),
            "bad.xml:4: malformed XML: Start-end tags mismatch");
}

TEST(Parse, EmptyDocumentAndForeignRootAreErrors) {
  EXPECT_EQ(errorOf(Configuration::parseString("", "empty.xml")),
            "empty.xml:1: malformed XML: No document element found");
  EXPECT_EQ(errorOf(Configuration::parseString("<?xml version=\"1.0\"?>\n<allocations/>", "f.xml")),
            "f.xml:2: root element is <allocations>, expected <configuration>");
  EXPECT_EQ(errorOf(Configuration::parseString("<configuration/>\n<configuration/>", "two.xml")),
            "two.xml:2: malformed XML: <configuration> after the root element");
}

TEST(Parse, PropertyWithoutNameIsAnErrorNamingItsLine) {
  Xml xml;
  xml.property("a", "1").line("<property>").line("  <value>2</value>").line("</property>");
  EXPECT_EQ(errorOf(Configuration::parseString(xml.str(), "site.xml")),
            "site.xml:3: property without a <name>");

  Xml blankName;
  blankName.property("  ", "1");
  EXPECT_EQ(errorOf(Configuration::parseString(blankName.str(), "site.xml")),
            "site.xml:2: property without a <name>");
}

TEST(Parse, PropertyWithoutValueIsSkippedWithAWarningAsHadoopDoes) {
  Xml xml;
  xml.line("<property><name>a</name></property>").property("b", "");
  Configuration conf = parse(xml);
  EXPECT_FALSE(conf.contains("a"));
  EXPECT_FALSE(conf.contains("b"));
  EXPECT_EQ(conf.warnings(), (std::vector<std::string>{
                                 "test.xml:2: property 'a' has no value; ignored as Hadoop does",
                                 "test.xml:3: property 'b' has no value; ignored as Hadoop does",
                             }));
}

TEST(Parse, WhitespaceValueIsKeptBecauseAclsUseItForNobody) {
  Xml xml;
  xml.property("yarn.scheduler.capacity.root.acl_submit_applications", " ");
  Configuration conf = parse(xml);
  EXPECT_EQ(conf.get("yarn.scheduler.capacity.root.acl_submit_applications"), " ");
}

TEST(Parse, NameIsTrimmedValueIsNotAndDescriptionIsIgnored) {
  Xml xml;
  xml.line("<property>")
      .line("  <description>ignored</description>")
      .line("  <name>\n    a.b\n  </name>")
      .line("  <value> v </value>")
      .line("  <unknown>also ignored</unknown>")
      .line("</property>");
  Configuration conf = parse(xml);
  EXPECT_EQ(conf.all(), (std::map<std::string, std::string>{{"a.b", " v "}}));
  EXPECT_EQ(conf.source("a.b")->line, 2);
}

TEST(Parse, AttributeFormAndCdataAreAccepted) {
  Xml xml;
  xml.line(R"(<property name="a" value="1" final="true"/>)")
      .property("b", "<![CDATA[x<y]]>")
      .property("a", "2");
  Configuration conf = parse(xml);
  EXPECT_EQ(conf.get("a"), "1");
  EXPECT_EQ(conf.get("b"), "x<y");
}

TEST(Parse, XIncludeIsRejectedRatherThanSilentlyDropped) {
  Xml xml;
  xml.property("a", "1").line(R"(<xi:include href="other.xml"/>)");
  EXPECT_EQ(errorOf(Configuration::parseString(xml.str(), "site.xml")),
            "site.xml:3: <xi:include> is not supported; load the included file separately");
}

// ---- final properties ---------------------------------------------------------------------------

TEST(Final, LaterFileCannotOverrideAFinalProperty) {
  Xml site;
  site.finalProperty("a", "1").property("b", "1");
  Xml other;
  other.property("a", "2").property("b", "2");
  Configuration conf = parse(site, "site.xml");
  conf.merge(parse(other, "other.xml"));

  EXPECT_EQ(conf.get("a"), "1");
  EXPECT_EQ(conf.get("b"), "2");
  EXPECT_EQ(conf.source("b")->file, "other.xml");
  EXPECT_EQ(conf.warnings(),
            std::vector<std::string>{
                "other.xml:2: property 'a': ignored value '2': final in site.xml:2"});
}

TEST(Final, RepeatingTheSameValueIsNotWorthAWarning) {
  Xml site;
  site.finalProperty("a", "1");
  Configuration conf = parse(site);
  conf.merge(parse(site));
  EXPECT_TRUE(conf.warnings().empty());
}

TEST(Final, HoldsWithinOneFileAndAgainstSet) {
  Xml xml;
  xml.finalProperty("a", "1").property("a", "2");
  Configuration conf = parse(xml, "site.xml");
  conf.set("a", "3", {"scenario step 0 properties", 0});
  EXPECT_EQ(conf.get("a"), "1");
  EXPECT_EQ(conf.warnings(), (std::vector<std::string>{
                                 "site.xml:3: property 'a': ignored value '2': final in site.xml:2",
                                 "scenario step 0 properties: property 'a': ignored value '3': "
                                 "final in site.xml:2",
                             }));
}

TEST(Final, ALaterFileMayMakeAPropertyFinal) {
  Xml first;
  first.property("a", "1");
  Xml second;
  second.finalProperty("a", "2");
  Configuration conf = parse(first);
  conf.merge(parse(second));
  conf.set("a", "3");
  EXPECT_EQ(conf.get("a"), "2");
}

TEST(Final, FinalMustBeTrueOrFalse) {
  Xml xml;
  xml.line("<property><name>a</name><value>1</value><final>yes</final></property>");
  EXPECT_EQ(errorOf(Configuration::parseString(xml.str(), "site.xml")),
            "site.xml:2: property 'a': <final> expected true or false, got 'yes'");
  Xml notFinal;
  notFinal.line("<property><name>a</name><value>1</value><final> FALSE </final></property>");
  Configuration conf = parse(notFinal);
  conf.set("a", "2");
  EXPECT_EQ(conf.get("a"), "2");
}

// ---- ${} expansion ------------------------------------------------------------------------------

TEST(Expansion, ReferencesOtherPropertiesAtReadTime) {
  Configuration conf;
  conf.set("dir", "/data/${user}");
  conf.set("log", "${dir}/logs");
  conf.set("user", "alice");
  EXPECT_EQ(conf.get("log"), "/data/alice/logs");
  EXPECT_EQ(conf.getRaw("log"), "${dir}/logs");
  conf.set("user", "bob");
  EXPECT_EQ(conf.get("log"), "/data/bob/logs");
  EXPECT_EQ(conf.all().at("log"), "/data/bob/logs");
}

TEST(Expansion, TypedAccessorsSeeTheExpandedValue) {
  Configuration conf;
  conf.set("base.mb", "2048");
  conf.set("max.mb", " ${base.mb} ");
  conf.set("interval", "${secs}s");
  conf.set("secs", "5");
  EXPECT_EQ(*conf.getLong("max.mb", 0), 2048);
  EXPECT_EQ(*conf.getTimeDurationMs("interval", 0), 5000);
}

TEST(Expansion, EnvironmentVariablesAndTheirDefaults) {
  ASSERT_EQ(setenv("SPINDLE_CONFIG_TEST_HOME", "/opt/spindle", 1), 0);
  ASSERT_EQ(setenv("SPINDLE_CONFIG_TEST_EMPTY", "", 1), 0);
  ASSERT_EQ(unsetenv("SPINDLE_CONFIG_TEST_UNSET"), 0);
  Configuration conf;
  conf.set("home", "${env.SPINDLE_CONFIG_TEST_HOME}/conf");
  conf.set("unset", "${env.SPINDLE_CONFIG_TEST_UNSET}");
  conf.set("colonDash", "${env.SPINDLE_CONFIG_TEST_EMPTY:-fallback}");
  conf.set("dash", "[${env.SPINDLE_CONFIG_TEST_EMPTY-fallback}]");
  conf.set("dashUnset", "${env.SPINDLE_CONFIG_TEST_UNSET-fallback}");
  EXPECT_EQ(conf.get("home"), "/opt/spindle/conf");
  EXPECT_EQ(conf.get("unset"), "${env.SPINDLE_CONFIG_TEST_UNSET}");
  EXPECT_EQ(conf.get("colonDash"), "fallback");
  EXPECT_EQ(conf.get("dash"), "[]");
  EXPECT_EQ(conf.get("dashUnset"), "fallback");
}

TEST(Expansion, UnresolvedVariableIsKeptAndStopsExpansionAsInHadoop) {
  Configuration conf;
  conf.set("a", "A");
  conf.set("ok", "${a}/${nope}/${a}");
  conf.set("literal", "$a ${} ${a b} ${a");
  EXPECT_EQ(conf.get("ok"), "A/${nope}/${a}");
  EXPECT_EQ(conf.get("literal"), "$a ${} ${a b} ${a");
}

TEST(Expansion, SelfReferenceLeavesTheValueUnexpanded) {
  Configuration conf;
  conf.set("x", "1");
  conf.set("path", "${x}:${path}:bin");
  EXPECT_EQ(conf.get("path"), "${x}:${path}:bin");
}

TEST(Expansion, TwentySubstitutionsAreAllowedAndMoreAreAnError) {
  Configuration conf;
  conf.set("v0", "7");
  for (int i = 1; i <= 21; ++i) conf.set(fmt::format("v{}", i), fmt::format("${{v{}}}", i - 1));
  EXPECT_EQ(*conf.getInt("v20", 0), 7);
  EXPECT_EQ(errorOf(conf.getInt("v21", 0)),
            "<set>: property 'v21': variable substitution depth too large: more than 20 in "
            "'${v20}'");
  EXPECT_EQ(conf.get("v21"), "${v20}");  // get() cannot fail: the raw value

  conf.set("ping", "${pong}");
  conf.set("pong", "${ping}");
  EXPECT_FALSE(conf.getLong("ping", 0));
}

// ---- typed values -------------------------------------------------------------------------------

struct DurationCase {
  std::string value;
  int64_t bareUnitMs;
  int64_t expectedMs;
};

void PrintTo(const DurationCase& c, std::ostream* os) {
  *os << "'" << c.value << "' with bare unit " << c.bareUnitMs << " ms";
}

class TimeDuration : public testing::TestWithParam<DurationCase> {};

TEST_P(TimeDuration, SuffixSetsTheUnit) {
  Configuration conf;
  conf.set("t", GetParam().value);
  auto ms = conf.getTimeDurationMs("t", -7, GetParam().bareUnitMs);
  ASSERT_TRUE(ms) << ms.status().toString();
  EXPECT_EQ(*ms, GetParam().expectedMs);
}

INSTANTIATE_TEST_SUITE_P(
    HadoopSuffixes, TimeDuration,
    testing::Values(DurationCase{"2500000ns", 1, 2}, DurationCase{"2500us", 1, 2},
                    DurationCase{"2500ms", 1, 2500}, DurationCase{"3s", 1, 3000},
                    DurationCase{"2m", 1, 120000}, DurationCase{"2h", 1, 7200000},
                    DurationCase{"2d", 1, 172800000}, DurationCase{" 3S ", 1, 3000},
                    DurationCase{"10MS", 1000, 10}, DurationCase{"1500", 1, 1500},
                    DurationCase{"15", 1000, 15000}, DurationCase{"-1", 1, -1},
                    DurationCase{"9223372036854775807d", 1, std::numeric_limits<int64_t>::max()}));

TEST(TypedValues, BadDurationsNameTheirPlace) {
  Xml xml;
  xml.property("a", "5 s").property("b", "1.5s").property("c", "5x").property("d", "s");
  Configuration conf = parse(xml, "yarn-site.xml");
  EXPECT_EQ(errorOf(conf.getTimeDurationMs("a", 0)),
            "yarn-site.xml:2: property 'a': expected a duration such as 30s or 1500ms (units ns, "
            "us, ms, s, m, h, d), got '5 s'");
  EXPECT_FALSE(conf.getTimeDurationMs("b", 0));
  EXPECT_FALSE(conf.getTimeDurationMs("c", 0));
  EXPECT_FALSE(conf.getTimeDurationMs("d", 0));
}

TEST(TypedValues, SizesTakeBinaryPrefixes) {
  const std::vector<std::pair<std::string, int64_t>> cases = {
      {"512", 512},
      {"1k", int64_t{1} << 10},
      {"128m", 134217728},
      {"2G", int64_t{2} << 30},
      {"1t", int64_t{1} << 40},
      {"1P", int64_t{1} << 50},
      {"1e", int64_t{1} << 60},
      {"-1k", -1024},
      {" 64M ", int64_t{64} << 20},
  };
  for (const auto& [text, bytes] : cases) {
    Configuration conf;
    conf.set("size", text);
    auto parsed = conf.getSizeBytes("size", 0);
    ASSERT_TRUE(parsed) << text << ": " << parsed.status().toString();
    EXPECT_EQ(*parsed, bytes) << text;
  }
}

TEST(TypedValues, BadSizesNameTheirPlace) {
  Xml xml;
  xml.property("unit", "1kb").property("big", "8e").property("frac", "1.5g");
  Configuration conf = parse(xml, "sls-runner.xml");
  EXPECT_EQ(errorOf(conf.getSizeBytes("unit", 0)),
            "sls-runner.xml:2: property 'unit': invalid size prefix 'b' in '1kb'; allowed "
            "prefixes are k, m, g, t, p, e (case-insensitive)");
  EXPECT_EQ(errorOf(conf.getSizeBytes("big", 0)),
            "sls-runner.xml:3: property 'big': expected a byte count such as 512 or 128m (binary "
            "prefixes k, m, g, t, p, e) that fits in 64 bits, got '8e'");
  EXPECT_FALSE(conf.getSizeBytes("frac", 0));
}

TEST(TypedValues, LongsAcceptWhitespaceSignsAndHex) {
  Configuration conf;
  const std::vector<std::pair<std::string, int64_t>> cases = {
      {" 42\n", 42},
      {"+7", 7},
      {"0x1F", 31},
      {"-0X10", -16},
      {"9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
  };
  for (const auto& [text, value] : cases) {
    conf.set("n", text);
    auto parsed = conf.getLong("n", 0);
    ASSERT_TRUE(parsed) << text << ": " << parsed.status().toString();
    EXPECT_EQ(*parsed, value) << text;
  }
  for (const char* bad : {"9223372036854775808", "0x", "", "1 2", "0x-5", "--1", "1e3"}) {
    conf.set("n", bad);
    EXPECT_FALSE(conf.getLong("n", 0)) << bad;
  }
}

TEST(TypedValues, BadIntegerMessageNamesFileLineAndProperty) {
  Xml xml;
  for (int i = 0; i < 10; ++i) xml.line("");
  xml.property("x", "abc");
  Configuration conf = parse(xml, "capacity-scheduler.xml");
  EXPECT_EQ(errorOf(conf.getLong("x", 0)),
            "capacity-scheduler.xml:12: property 'x': expected an integer, got 'abc'");
  EXPECT_EQ(conf.where("x"), "capacity-scheduler.xml:12: property 'x': ");
}

TEST(TypedValues, IntsAreRangeChecked) {
  Configuration conf;
  conf.set("n", "0x7fffffff");
  EXPECT_EQ(*conf.getInt("n", 0), std::numeric_limits<int32_t>::max());
  conf.set("n", "2147483648");
  EXPECT_EQ(errorOf(conf.getInt("n", 0)),
            "<set>: property 'n': integer '2147483648' does not fit in 32 bits");
}

TEST(TypedValues, IntListsTrimItemsAndNameTheBadOne) {
  Configuration conf;
  conf.set("ports", " 8030, 8031 ,\n 8032 ,");
  EXPECT_EQ(*conf.getInts("ports"), (std::vector<int32_t>{8030, 8031, 8032}));
  conf.set("ports", "8030,80x1");
  EXPECT_EQ(errorOf(conf.getInts("ports")),
            "<set>: property 'ports': item 2: expected an integer, got '80x1'");
}

TEST(TypedValues, BooleansAreCaseInsensitiveAndStrict) {
  Configuration conf;
  for (const char* yes : {"true", "TRUE", " True "}) {
    conf.set("b", yes);
    EXPECT_TRUE(*conf.getBool("b", false)) << yes;
  }
  conf.set("b", "False");
  EXPECT_FALSE(*conf.getBool("b", true));
  for (const char* bad : {"yes", "1", "ture", ""}) {
    conf.set("b", bad);
    EXPECT_FALSE(conf.getBool("b", true)) << bad;
  }
}

TEST(TypedValues, DoublesAreFinite) {
  Configuration conf;
  const std::vector<std::pair<std::string, double>> cases = {
      {"25", 25.0}, {" 12.5 ", 12.5}, {"1e2", 100.0}, {"+0.5", 0.5}, {"-3", -3.0}};
  for (const auto& [text, value] : cases) {
    conf.set("d", text);
    auto parsed = conf.getDouble("d", 0);
    ASSERT_TRUE(parsed) << text << ": " << parsed.status().toString();
    EXPECT_EQ(*parsed, value) << text;
  }
  for (const char* bad : {"nan", "inf", "1e999", "abc", "12.5%", "+-1"}) {
    conf.set("d", bad);
    EXPECT_FALSE(conf.getDouble("d", 0)) << bad;
  }
  conf.set("d", "abc");
  EXPECT_EQ(errorOf(conf.getDouble("d", 0)),
            "<set>: property 'd': expected a finite number, got 'abc'");
}

TEST(TypedValues, AbsentPropertiesGiveTheDefault) {
  Configuration conf;
  EXPECT_EQ(*conf.getLong("x", 5), 5);
  EXPECT_EQ(*conf.getInt("x", 6), 6);
  EXPECT_EQ(*conf.getDouble("x", 0.5), 0.5);
  EXPECT_TRUE(*conf.getBool("x", true));
  EXPECT_EQ(*conf.getTimeDurationMs("x", 3000, 1000), 3000);
  EXPECT_EQ(*conf.getSizeBytes("x", 1024), 1024);
  EXPECT_TRUE(conf.getStrings("x").empty());
  EXPECT_TRUE(conf.getInts("x")->empty());
  EXPECT_EQ(conf.get("x"), std::nullopt);
  EXPECT_EQ(conf.get("x", "fallback"), "fallback");
  EXPECT_EQ(conf.where("x"), "property 'x': ");
}

// ---- programmatic use ---------------------------------------------------------------------------

TEST(Programmatic, StringsSplitOnCommasAndNewlinesDroppingEmpties) {
  Configuration conf;
  conf.set("queues", "\n  a, b ,,\n c\n");
  EXPECT_EQ(conf.getStrings("queues"), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Programmatic, UnsetRemovesAndPrefixListingIsSorted) {
  Configuration conf;
  conf.set("q.b", "2");
  conf.set("q.a", "1");
  conf.set("qa", "x");
  conf.set("r", "3");
  EXPECT_EQ(conf.namesWithPrefix("q."), (std::vector<std::string>{"q.a", "q.b"}));
  conf.unset("q.a");
  EXPECT_FALSE(conf.contains("q.a"));
  EXPECT_EQ(conf.namesWithPrefix("q."), (std::vector<std::string>{"q.b"}));
  EXPECT_EQ(conf.source("r")->file, "<set>");
}

}  // namespace
}  // namespace spindle
