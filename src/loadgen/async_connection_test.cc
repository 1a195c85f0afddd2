#include "loadgen/async_connection.h"

#include <string>

#include <gtest/gtest.h>

#include "protocol/wire_text.h"

namespace spindle::loadgen {
namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;

// The request as the connection wrote it with Beast's request<string_body>: what goes on the
// wire must not change.
std::string throughBeast(http::verb verb, const std::string& target, const std::string& body) {
  http::request<http::string_body> req;
  req.method(verb);
  req.target(target);
  req.version(11);
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, "application/json");
  req.keep_alive(true);
  req.body() = body;
  req.prepare_payload();
  std::string out;
  protocol::appendWireText(req, out);
  return out;
}

TEST(AsyncConnection, RequestsAreTheBytesBeastWrites) {
  const std::string body = R"({"nodeStatus":{"nodeId":"127.0.0.1:20000"}})";
  for (http::verb verb : {http::verb::post, http::verb::get, http::verb::put, http::verb::delete_,
                          http::verb::options}) {
    for (const std::string& b : {body, std::string()}) {
      std::string mine;
      appendRequestHead(mine, verb, "/rpc/v1/resource-tracker/heartbeat", b.size());
      mine += b;
      EXPECT_EQ(mine, throughBeast(verb, "/rpc/v1/resource-tracker/heartbeat", b))
          << http::to_string(verb) << " with a body of " << b.size();
    }
  }
}

// The answer parser keeps the status, the body (whole or chunked) and keep-alive.
TEST(AsyncConnection, AnswersAreReadToStatusAndBody) {
  struct Case {
    std::string wire;
    int status;
    std::string body;
    bool keepAlive;
  };
  const Case cases[] = {
      {"HTTP/1.1 200 OK\r\nServer: spindle\r\nContent-Type: application/json\r\n"
       "Content-Length: 13\r\n\r\n{\"a\":[1,2,3]}",
       200, "{\"a\":[1,2,3]}", true},
      {"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbad", 400, "bad",
       false},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", 200,
       "abcde", true},
      {"HTTP/1.1 204 No Content\r\n\r\n", 204, "", true},
  };
  for (const Case& c : cases) {
    AnswerParser p;
    p.eager(true);
    beast::error_code ec;
    p.put(boost::asio::buffer(c.wire), ec);
    ASSERT_FALSE(ec) << ec.message() << " in " << c.wire;
    ASSERT_TRUE(p.is_done()) << c.wire;
    EXPECT_EQ(p.status, c.status);
    EXPECT_EQ(p.body, c.body);
    EXPECT_EQ(p.keep_alive(), c.keepAlive);
  }
}

}  // namespace
}  // namespace spindle::loadgen
