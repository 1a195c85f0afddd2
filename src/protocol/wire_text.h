// An HTTP message as the bytes Boost.Beast puts on the wire (its serializer, run to the end into
// a string): the server sends a response this way from any thread, and tests and benchmarks
// compare hand-written requests with it.
//
//   http::response<http::string_body> res = ...;
//   res.prepare_payload();
//   std::string bytes;
//   appendWireText(res, bytes);   // "HTTP/1.1 200 OK\r\n...\r\n\r\n{...}"
#pragma once

#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace spindle::protocol {

template <bool isRequest, class Body, class Fields>
void appendWireText(const boost::beast::http::message<isRequest, Body, Fields>& m,
                    std::string& out) {
  namespace beast = boost::beast;
  beast::http::serializer<isRequest, Body, Fields> sr(m);
  beast::error_code ec;
  while (!sr.is_done() && !ec) {
    sr.next(ec, [&](beast::error_code&, const auto& buffers) {
      for (const auto b : beast::buffers_range_ref(buffers)) {
        out.append(static_cast<const char*>(b.data()), b.size());
      }
      sr.consume(beast::buffer_bytes(buffers));
    });
  }
}

}  // namespace spindle::protocol
