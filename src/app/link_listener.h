// The live link's listening end: a TCP port that a running game connects to and sends its
// targets on, one JSON line a frame (include/ikpose_link.h is the game's end).
//
// What: LinkListener binds [HOST:]PORT (loopback unless another address is named) and serves
// one connection at a time: its bytes go to a callback as they arrive, until the game closes
// it. A second connection while one is open is refused: it is sent one line saying so and
// closed. An idle timeout ends the wait when no game connects, or a connected one falls
// silent, so that nothing waits forever.
// Why here: networking is the app layer's (docs/DESIGN.md, layer rules); standalone Asio, not
// raw sockets, so that timeouts, refusals and reads share one event loop.
// Limits: IPv4 and IPv6 literal addresses and "localhost", no name lookup; plain TCP, no
// authentication or encryption (which is why the default is loopback). The callbacks run on
// the thread that calls ServeOne.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ikpose::app {

// The --listen and --idle-timeout options of `trace` and `view`.
struct LinkOptions {
  std::string listen;            // [HOST:]PORT; empty: no link
  double idle_timeout_s = 60.0;  // the wait for a game, and for its next bytes
};
inline constexpr double kMaxIdleTimeoutS = 24.0 * 3600.0;

struct LinkAddress {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port, chosen by the system
};

// "[HOST:]PORT", "[v6]:PORT" for an IPv6 address; false with one line.
bool ParseLinkAddress(std::string_view text, LinkAddress* address, std::string* error);
// The options as a command line gives them: false with one line (a usage error).
bool CheckLinkOptions(const LinkOptions& options, LinkAddress* address, std::string* error);

// The line a refused connection receives.
inline constexpr std::string_view kLinkBusyLine =
    "ikpose: busy: another game is connected; one connection at a time\n";

class LinkListener {
 public:
  LinkListener();
  ~LinkListener();
  LinkListener(const LinkListener&) = delete;
  LinkListener& operator=(const LinkListener&) = delete;

  // Binds and listens; false with one line (not an address of this machine, port in use).
  bool Open(const LinkAddress& address, std::string* error);
  // The address and port bound ("127.0.0.1:7777"); the port the system chose for port 0.
  std::string BoundAddress() const;

  // Called with each piece of a connection's bytes; false (with one line in `error`) ends it.
  using OnBytes = std::function<bool(std::string_view bytes, std::string* error)>;
  // Waits for a connection and serves it until the game closes it (true), or until an error,
  // `on_bytes` refusing, Stop(), or `idle_timeout_s` (0: none) without a connection or bytes
  // (false, with one line). `peer` gets the game's address as it connects (before its first
  // bytes reach `on_bytes`).
  bool ServeOne(double idle_timeout_s, const OnBytes& on_bytes, std::string* peer,
                std::string* error);
  // From any thread: ServeOne returns soon (false, "stopped").
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ikpose::app
