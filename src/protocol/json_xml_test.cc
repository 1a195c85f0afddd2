#include "protocol/json_xml.h"

#include <gtest/gtest.h>

namespace spindle::protocol {
namespace {

using nlohmann::json;

constexpr const char* kDecl = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";

TEST(JsonXmlTest, ListsRepeatTheirElementAsJaxbWritesThem) {
  json j = {{"apps",
             {{"app", json::array({{{"id", "a1"}, {"progress", 10.5}},
                                   {{"id", "a2"}, {"unmanaged", false}}})}}}};
  EXPECT_EQ(jsonToXml(j), std::string(kDecl) +
                              "<apps><app><id>a1</id><progress>10.5</progress></app>"
                              "<app><id>a2</id><unmanaged>false</unmanaged></app></apps>");
  EXPECT_EQ(jsonToXml({{"apps", {{"app", json::array()}}}}), std::string(kDecl) + "<apps></apps>");
}

TEST(JsonXmlTest, EscapesTextSkipsNullAndTypesPolymorphicElements) {
  json j = {
      {"scheduler", {{"schedulerInfo", {{"type", "capacityScheduler"}, {"queueName", "root"}}}}}};
  EXPECT_EQ(jsonToXml(j),
            std::string(kDecl) +
                "<scheduler><schedulerInfo xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                "xsi:type=\"capacityScheduler\"><queueName>root</queueName></schedulerInfo>"
                "</scheduler>");
  EXPECT_EQ(
      jsonToXml({{"app", {{"diagnostics", "a<b & \"c\""}, {"x", nullptr}}}}),
      std::string(kDecl) + "<app><diagnostics>a&lt;b &amp; &quot;c&quot;</diagnostics></app>");
  // A plain "type" member (not a scheduler type) stays an element.
  EXPECT_EQ(jsonToXml({{"t", {{"type", "LIFETIME"}}}}),
            std::string(kDecl) + "<t><type>LIFETIME</type></t>");
  EXPECT_EQ(jsonToXml({{"a b", 1}}), std::string(kDecl) + "<a_b>1</a_b>");
}

TEST(JsonXmlTest, AcceptHeaderOrderDecides) {
  EXPECT_TRUE(acceptsXmlFirst("application/xml"));
  EXPECT_TRUE(acceptsXmlFirst("text/xml, application/json"));
  EXPECT_FALSE(acceptsXmlFirst("application/json, application/xml"));
  EXPECT_FALSE(acceptsXmlFirst("*/*"));
  EXPECT_FALSE(acceptsXmlFirst(""));
}

TEST(XmlToJson, ElementsBecomeTheJsonForm) {
  auto j = xmlToJson(R"(<?xml version="1.0"?>
<application-submission-context>
  <application-name> a &amp; b </application-name>
  <resource><memory>1024</memory><vCores>1</vCores></resource>
  <commands><command>x</command></commands>
  <tags><tag>t1</tag><tag>t2</tag><tag>t3</tag></tags>
  <empty/>
  <node attr="ignored">n1</node>
</application-submission-context>)");
  ASSERT_TRUE(j) << j.status().message();
  EXPECT_EQ(*j, nlohmann::json::parse(R"({
    "application-name": "a & b",
    "resource": {"memory": "1024", "vCores": "1"},
    "commands": {"command": "x"},
    "tags": {"tag": ["t1", "t2", "t3"]},
    "empty": "",
    "node": "n1"})"));
}

TEST(XmlToJson, BadBodiesAreErrors) {
  EXPECT_NE(xmlToJson("<a><b></a>").status().message().find("not well-formed"), std::string::npos);
  EXPECT_NE(xmlToJson("").status().message().find("not well-formed"), std::string::npos);
  EXPECT_EQ(xmlToJson("<appstate>KILLED</appstate>").status().message(),
            "the XML body's root element <appstate> has no child elements");
}

TEST(XmlToJson, ContentTypes) {
  EXPECT_TRUE(isXmlContentType("application/xml"));
  EXPECT_TRUE(isXmlContentType("Application/XML; charset=UTF-8"));
  EXPECT_TRUE(isXmlContentType("text/xml"));
  EXPECT_FALSE(isXmlContentType("application/json"));
  EXPECT_FALSE(isXmlContentType(""));
}

}  // namespace
}  // namespace spindle::protocol
