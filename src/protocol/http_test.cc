#include <atomic>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "protocol/http_client.h"
#include "protocol/http_server.h"

namespace spindle::protocol {
namespace {

TEST(Http, AnswersNowAndLaterOnOnePersistentConnection) {
  std::vector<std::thread> later;
  HttpServer server("127.0.0.1", 0, [&later](HttpRequest req, Respond respond) {
    if (req.path == "/later") {
      // Answered from another thread, as the RM's scheduler thread does.
      later.emplace_back([respond, body = req.body] { respond({202, "later:" + body}); });
      return;
    }
    respond({200, req.method + " " + req.path + " q=" + req.query["q"]});
  });
  ASSERT_TRUE(server.start().isOk());
  ASSERT_GT(server.port(), 0);
  HttpClient client("127.0.0.1", server.port());
  auto a = client.get("/ws/v1/x%20y?q=a+b&z");
  ASSERT_TRUE(a.isOk()) << a.status().toString();
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(a->body, "GET /ws/v1/x y q=a b");
  auto b = client.post("/later", "body");
  ASSERT_TRUE(b.isOk()) << b.status().toString();
  EXPECT_EQ(b->status, 202);
  EXPECT_EQ(b->body, "later:body");
  server.stop();
  for (auto& t : later) t.join();
}

// A body rendered by the server's I/O thread, not by the thread that answered.
TEST(Http, RendersADeferredBodyOnTheIoThread) {
  std::thread::id renderedOn;
  HttpServer server("127.0.0.1", 0, [&renderedOn](HttpRequest req, Respond respond) {
    HttpResponse r;
    r.renderBody = [&renderedOn, b = req.body] {
      renderedOn = std::this_thread::get_id();
      return "rendered:" + b;
    };
    respond(std::move(r));
  });
  ASSERT_TRUE(server.start().isOk());
  HttpClient client("127.0.0.1", server.port());
  auto r = client.post("/x", "abc");
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "rendered:abc");
  EXPECT_NE(renderedOn, std::thread::id());
  EXPECT_NE(renderedOn, std::this_thread::get_id());
  server.stop();
}

// Bodies around the read buffer's room and far past it, on one keep-alive connection, in both
// directions: what is read in several receives arrives whole.
TEST(Http, BodiesOfEverySizeOnOneConnection) {
  HttpServer server("127.0.0.1", 0, [](HttpRequest req, Respond respond) {
    respond({200, std::to_string(req.body.size()) + ":" + req.body});
  });
  ASSERT_TRUE(server.start().isOk());
  HttpClient client("127.0.0.1", server.port());
  for (size_t n : {size_t{0}, size_t{1}, size_t{511}, size_t{16383}, size_t{16384}, size_t{16385},
                   size_t{100'000}, size_t{3}, size_t{1'500'000}, size_t{2}}) {
    std::string body(n, 'x');
    for (size_t i = 0; i < n; i += 97) body[i] = static_cast<char>('a' + i % 26);
    auto r = client.post("/echo", body);
    ASSERT_TRUE(r.isOk()) << n << ": " << r.status().toString();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, std::to_string(n) + ":" + body) << "a body of " << n << " bytes";
  }
  server.stop();
}

// A body of known length comes with simdjson's padding after it in its capacity, so the
// heartbeat decoder reads it in place (heartbeat_decode.h).
TEST(Http, ABodyOfKnownLengthLeavesRoomForTheDecodersPadding) {
  std::atomic<size_t> room = 0;  // set on the server's I/O thread
  HttpServer server("127.0.0.1", 0, [&room](HttpRequest req, Respond respond) {
    room = req.body.capacity() - req.body.size();
    respond({200, std::to_string(req.body.size())});
  });
  ASSERT_TRUE(server.start().isOk());
  HttpClient client("127.0.0.1", server.port());
  for (size_t size : {size_t{1}, size_t{5000}, size_t{300'000}}) {
    room = 0;
    auto r = client.post("/rpc/v1/resource-tracker/heartbeat", std::string(size, ' '));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_EQ(r->body, std::to_string(size));
    EXPECT_GE(room.load(), kBodyReadPadding) << size;
  }
  server.stop();
}

TEST(Http, ConnectionRefusedNamesThePeer) {
  HttpServer server("127.0.0.1", 0, [](HttpRequest, Respond r) { r({200, ""}); });
  ASSERT_TRUE(server.start().isOk());
  const uint16_t port = server.port();
  server.stop();
  HttpClient client("127.0.0.1", port, 2000);
  auto r = client.get("/");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("127.0.0.1:" + std::to_string(port)), std::string::npos);
}

TEST(Http, HostPortParsing) {
  auto hp = parseHostPort("0.0.0.0:8088", "yarn.resourcemanager.webapp.address");
  ASSERT_TRUE(hp.isOk());
  EXPECT_EQ(hp->first, "0.0.0.0");
  EXPECT_EQ(hp->second, 8088);
  auto bad = parseHostPort("host:80x", "k");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(), "k: '80x' is not a port number");
}

}  // namespace
}  // namespace spindle::protocol
