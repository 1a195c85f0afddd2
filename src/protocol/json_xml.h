// YARN's XML rendering of a REST answer (JAXB, as the RM's web services produce it for
// `Accept: application/xml`) from the same JSON tree the JSON answer is:
//
//   std::string xml = jsonToXml({{"apps", {{"app", {a, b}}}}});
//   // <?xml ...?><apps><app>...</app><app>...</app></apps>
//
// Rules: the root object's one member is the root element; an object member is an element of
// its name; an array member repeats its element once per item (JAXB's lists: {"app": [a, b]}
// is <app>a</app><app>b</app>, an empty array writes nothing); null writes nothing; strings
// are escaped, numbers and booleans written as JSON writes them. A polymorphic element's "type"
// (capacityScheduler, fairSchedulerLeafQueueInfo, ...) becomes its xsi:type attribute, as JAXB
// writes it. A name that is not a valid XML name has its invalid characters replaced by '_'.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle::protocol {

std::string jsonToXml(const nlohmann::json& root);

// Whether an Accept header asks for XML before JSON (application/xml or text/xml listed, and
// not after application/json).
bool acceptsXmlFirst(std::string_view accept);

// A request body YARN's web services accept as XML (JAXB), as the JSON tree its JSON form is:
// the root element's children become the members of one object (the root's name is dropped, as
// it is in the JSON form); an element with child elements is an object, one with text only a
// string (trimmed; numbers and booleans stay strings, which the JSON readers take as numbers
// and booleans), and repeated sibling elements an array. Attributes are ignored.
//
//   xmlToJson("<appstate><state>KILLED</state></appstate>")   // {"state": "KILLED"}
//
// A body that is not well-formed XML, or whose root has no child elements, is an error naming
// the parser's reason and offset.
Result<nlohmann::json> xmlToJson(std::string_view xml);

// Whether a Content-Type header names XML (application/xml or text/xml, parameters ignored).
bool isXmlContentType(std::string_view contentType);

}  // namespace spindle::protocol
