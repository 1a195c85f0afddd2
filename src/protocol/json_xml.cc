#include "protocol/json_xml.h"

#include <cctype>
#include <set>

#include <pugixml.hpp>

namespace spindle::protocol {

using nlohmann::json;

namespace {

void escape(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
}

std::string elementName(std::string_view key) {
  std::string n;
  for (size_t i = 0; i < key.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    const bool ok =
        std::isalpha(c) || c == '_' || (i > 0 && (std::isdigit(c) || c == '-' || c == '.'));
    n += ok ? static_cast<char>(c) : '_';
  }
  return n.empty() ? "_" : n;
}

// The polymorphic types of the scheduler view (YARN's SchedulerInfo subclasses).
bool polymorphic(const json& v) {
  static const std::set<std::string> kTypes = {
      "capacityScheduler", "capacitySchedulerLeafQueueInfo",
      "fairScheduler",     "fairSchedulerLeafQueueInfo",
      "fifoScheduler",     "capacitySchedulerInfo"};
  return v.is_string() && kTypes.contains(v.get<std::string>());
}

void write(std::string& out, std::string_view key, const json& v) {
  if (v.is_null()) return;
  if (v.is_array()) {
    for (const json& item : v) write(out, key, item);
    return;
  }
  const std::string name = elementName(key);
  out += '<';
  out += name;
  if (v.is_object()) {
    auto type = v.find("type");
    const bool typed = type != v.end() && polymorphic(*type);
    if (typed) {
      out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"";
      escape(out, type->get<std::string>());
      out += '"';
    }
    out += '>';
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (typed && it.key() == "type") continue;
      write(out, it.key(), it.value());
    }
  } else {
    out += '>';
    if (v.is_string()) {
      escape(out, v.get_ref<const std::string&>());
    } else {
      out += v.dump();
    }
  }
  out += "</";
  out += name;
  out += '>';
}

}  // namespace

std::string jsonToXml(const json& root) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";
  if (root.is_object() && root.size() == 1) {
    write(out, root.begin().key(), root.begin().value());
  } else {
    write(out, "response", root);
  }
  return out;
}

bool acceptsXmlFirst(std::string_view accept) {
  size_t xml = accept.find("application/xml");
  if (xml == std::string_view::npos) xml = accept.find("text/xml");
  if (xml == std::string_view::npos) return false;
  const size_t js = accept.find("application/json");
  return js == std::string_view::npos || xml < js;
}

namespace {

std::string trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

bool hasElements(const pugi::xml_node& n) {
  for (const pugi::xml_node& c : n.children()) {
    if (c.type() == pugi::node_element) return true;
  }
  return false;
}

json elementValue(const pugi::xml_node& n) {
  if (!hasElements(n)) return trimmed(n.child_value());
  json obj = json::object();
  for (const pugi::xml_node& c : n.children()) {
    if (c.type() != pugi::node_element) continue;
    json v = elementValue(c);
    auto it = obj.find(c.name());
    if (it == obj.end()) {
      obj[c.name()] = std::move(v);
    } else {
      if (!it->is_array()) *it = json::array({std::move(*it)});
      it->push_back(std::move(v));
    }
  }
  return obj;
}

}  // namespace

Result<json> xmlToJson(std::string_view xml) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r =
      doc.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!r) {
    return invalidArgument("the XML body is not well-formed: {} at offset {}", r.description(),
                           r.offset);
  }
  const pugi::xml_node root = doc.document_element();
  if (!root || !hasElements(root)) {
    return invalidArgument("the XML body's root element <{}> has no child elements",
                           root ? root.name() : "");
  }
  return elementValue(root);
}

bool isXmlContentType(std::string_view contentType) {
  std::string t(contentType.substr(0, contentType.find(';')));
  t = trimmed(t);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t == "application/xml" || t == "text/xml";
}

}  // namespace spindle::protocol
