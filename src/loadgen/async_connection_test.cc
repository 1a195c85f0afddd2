#include "loadgen/async_connection.h"

#include <string>

#include <gtest/gtest.h>

#include "protocol/http_server.h"
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

// Answers small, large (past the room a read gets after a small one), small again, on one
// connection: each arrives whole, whatever the read sizes.
TEST(AsyncConnection, AnswersOfEverySizeOnOneConnection) {
  protocol::HttpServer server("127.0.0.1", 0, [](protocol::HttpRequest req, protocol::Respond r) {
    const size_t n = std::stoul(req.body);
    std::string body(n, 'y');
    for (size_t i = 0; i < n; i += 89) body[i] = static_cast<char>('A' + i % 26);
    r({200, std::move(body)});
  });
  ASSERT_TRUE(server.start().isOk());
  boost::asio::io_context ioc;
  AsyncConnection conn(
      ioc, {boost::asio::ip::make_address("127.0.0.1"), static_cast<uint16_t>(server.port())},
      std::chrono::seconds(10));
  const std::vector<size_t> sizes = {3, 4096, 4097, 70'000, 1'000'000, 10, 65'536, 0, 5};
  std::vector<HttpCall> answers;
  for (size_t n : sizes) {
    conn.call(http::verb::post, "/size", std::to_string(n),
              [&answers](const HttpCall& c) { answers.push_back(c); });
  }
  ioc.run_for(std::chrono::seconds(20));
  server.stop();
  ASSERT_EQ(answers.size(), sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_EQ(answers[i].error, "") << sizes[i];
    EXPECT_EQ(answers[i].status, 200);
    ASSERT_EQ(answers[i].body.size(), sizes[i]);
    for (size_t k = 0; k < sizes[i]; ++k) {
      const char want = k % 89 == 0 ? static_cast<char>('A' + k % 26) : 'y';
      ASSERT_EQ(answers[i].body[k], want) << "answer " << i << " byte " << k;
    }
  }
}

}  // namespace
}  // namespace spindle::loadgen
