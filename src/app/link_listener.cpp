#include "app/link_listener.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <sstream>
#include <utility>

#include <asio.hpp>

namespace ikpose::app {

namespace {

using asio::ip::tcp;

std::string Endpoint(const tcp::endpoint& e) {
  std::ostringstream s;
  if (e.address().is_v6()) {
    s << "[" << e.address().to_string() << "]:" << e.port();
  } else {
    s << e.address().to_string() << ":" << e.port();
  }
  return s.str();
}

std::string Seconds(double s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

// A refused connection: the busy line, then its bytes read and dropped until it closes (so
// that closing does not reset the line away), for at most a second.
struct Refusal : std::enable_shared_from_this<Refusal> {
  explicit Refusal(tcp::socket s) : socket(std::move(s)), timer(socket.get_executor()) {}
  void Start() {
    auto self = shared_from_this();
    timer.expires_after(std::chrono::seconds(1));
    timer.async_wait([self](const asio::error_code& ec) {
      if (!ec) self->Close();
    });
    asio::async_write(socket, asio::buffer(kLinkBusyLine.data(), kLinkBusyLine.size()),
                      [self](const asio::error_code& ec, std::size_t) {
                        if (ec) return self->Close();
                        asio::error_code ignored;
                        self->socket.shutdown(tcp::socket::shutdown_send, ignored);
                        self->Drain();
                      });
  }
  void Drain() {
    auto self = shared_from_this();
    socket.async_read_some(asio::buffer(sink), [self](const asio::error_code& ec, std::size_t n) {
      self->drained += n;
      if (ec || self->drained > (64u << 10)) return self->Close();
      self->Drain();
    });
  }
  void Close() {
    asio::error_code ignored;
    timer.cancel();
    socket.close(ignored);
  }
  tcp::socket socket;
  asio::steady_timer timer;
  std::array<char, 4096> sink{};
  std::size_t drained = 0;
};

// One ServeOne call. Handlers hold it by shared_ptr and do nothing once it is done, so that a
// handler left in the loop after ServeOne returned touches nothing of the caller's.
struct Session : std::enable_shared_from_this<Session> {
  Session(asio::io_context& c, tcp::acceptor& a, double idle, const LinkListener::OnBytes& b,
          std::string* p)
      : ctx(c), acceptor(a), idle_timeout_s(idle), on_bytes(b), peer_out(p), socket(c), timer(c) {}

  void Finish(bool success, std::string what) {
    if (done) return;
    done = true;
    ok = success;
    error = std::move(what);
    asio::error_code ignored;
    timer.cancel();
    socket.close(ignored);
    ctx.stop();
  }
  void Arm() {
    if (idle_timeout_s <= 0.0) return;
    timer.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(idle_timeout_s)));
    auto self = shared_from_this();
    timer.async_wait([self](const asio::error_code& ec) {
      if (ec || self->done) return;
      const std::string waited = Seconds(self->idle_timeout_s) + " (--idle-timeout)";
      self->Finish(false, self->connected
                              ? "the game at " + self->peer + " sent nothing for " + waited
                              : "no game connected to " +
                                    Endpoint(self->acceptor.local_endpoint()) + " within " +
                                    waited);
    });
  }
  void Accept() {
    auto self = shared_from_this();
    acceptor.async_accept([self](const asio::error_code& ec, tcp::socket s) {
      if (self->done) return;
      if (ec) return self->Finish(false, "cannot accept a connection: " + ec.message());
      if (self->connected) {
        std::make_shared<Refusal>(std::move(s))->Start();
      } else {
        self->connected = true;
        self->socket = std::move(s);
        asio::error_code ignored;
        self->peer = Endpoint(self->socket.remote_endpoint(ignored));
        *self->peer_out = self->peer;
        self->Arm();
        self->Read();
      }
      self->Accept();
    });
  }
  void Read() {
    auto self = shared_from_this();
    socket.async_read_some(asio::buffer(buffer), [self](const asio::error_code& ec, std::size_t n) {
      if (self->done) return;
      std::string what;
      if (n > 0 && !self->on_bytes(std::string_view(self->buffer.data(), n), &what)) {
        return self->Finish(false, what);
      }
      if (ec == asio::error::eof) return self->Finish(true, "");
      if (ec) return self->Finish(false, "the connection from " + self->peer + ": " + ec.message());
      self->Arm();
      self->Read();
    });
  }

  asio::io_context& ctx;
  tcp::acceptor& acceptor;
  double idle_timeout_s;
  const LinkListener::OnBytes& on_bytes;
  std::string* peer_out;  // the caller's, written on this thread while ServeOne runs
  tcp::socket socket;
  asio::steady_timer timer;
  std::array<char, 64u << 10> buffer{};
  bool connected = false;
  bool done = false;
  bool ok = false;
  std::string peer;
  std::string error;
};

}  // namespace

bool ParseLinkAddress(std::string_view text, LinkAddress* address, std::string* error) {
  const std::string shown(text);
  std::string host = "127.0.0.1";
  std::string_view port = text;
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find("]:");
    if (close == std::string_view::npos) {
      *error = "--listen '" + shown + "': an IPv6 address is written [ADDRESS]:PORT";
      return false;
    }
    host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
  } else if (const std::size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
    if (host.find(':') != std::string::npos) {
      *error = "--listen '" + shown + "': an IPv6 address is written [ADDRESS]:PORT";
      return false;
    }
  }
  if (host == "localhost") host = "127.0.0.1";
  unsigned long value = 0;
  bool digits = !port.empty() && port.size() <= 5;
  for (char c : port) {
    digits = digits && c >= '0' && c <= '9';
    if (digits) value = value * 10 + static_cast<unsigned long>(c - '0');
  }
  if (!digits || value > 65535) {
    *error = "--listen '" + shown + "': the port must be a number in 0..65535 ([HOST:]PORT)";
    return false;
  }
  asio::error_code ec;
  const asio::ip::address parsed = asio::ip::make_address(host, ec);
  if (ec) {
    *error = "--listen '" + shown + "': '" + host +
             "' is not an IP address (an address of this machine, e.g. 127.0.0.1 or 0.0.0.0)";
    return false;
  }
  address->host = parsed.to_string();
  address->port = static_cast<std::uint16_t>(value);
  return true;
}

bool CheckLinkOptions(const LinkOptions& options, LinkAddress* address, std::string* error) {
  if (!std::isfinite(options.idle_timeout_s) || options.idle_timeout_s <= 0.0 ||
      options.idle_timeout_s > kMaxIdleTimeoutS) {
    *error = "--idle-timeout must be a number of seconds in (0, 86400]";
    return false;
  }
  return ParseLinkAddress(options.listen, address, error);
}

struct LinkListener::Impl {
  asio::io_context ctx;
  tcp::acceptor acceptor{ctx};
  std::atomic<bool> stop{false};
};

LinkListener::LinkListener() : impl_(std::make_unique<Impl>()) {}
LinkListener::~LinkListener() = default;

bool LinkListener::Open(const LinkAddress& address, std::string* error) {
  asio::error_code ec;
  const tcp::endpoint endpoint(asio::ip::make_address(address.host, ec), address.port);
  const std::string shown = Endpoint(endpoint);
  if (!ec) impl_->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(endpoint, ec);
  if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    *error = "cannot listen on " + shown + ": " + ec.message();
    asio::error_code ignored;
    impl_->acceptor.close(ignored);
    return false;
  }
  return true;
}

std::string LinkListener::BoundAddress() const {
  asio::error_code ec;
  const tcp::endpoint e = impl_->acceptor.local_endpoint(ec);
  return ec ? std::string("(not listening)") : Endpoint(e);
}

bool LinkListener::ServeOne(double idle_timeout_s, const OnBytes& on_bytes, std::string* peer,
                            std::string* error) {
  if (!impl_->acceptor.is_open()) {
    *error = "the link is not listening";
    return false;
  }
  peer->clear();
  auto session =
      std::make_shared<Session>(impl_->ctx, impl_->acceptor, idle_timeout_s, on_bytes, peer);
  impl_->ctx.restart();
  session->Arm();
  session->Accept();
  // Stop() posts into the loop; a stop asked before this call is seen here.
  if (impl_->stop) session->Finish(false, "stopped");
  impl_->ctx.run();
  // Handlers still queued (the pending accept) see `done` and return when the loop next runs.
  if (!session->done) session->Finish(false, "stopped");
  asio::error_code ignored;
  impl_->acceptor.cancel(ignored);
  if (!session->ok) *error = session->error;
  return session->ok;
}

void LinkListener::Stop() {
  impl_->stop = true;
  impl_->ctx.stop();
}

}  // namespace ikpose::app
