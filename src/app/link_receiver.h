// `view --listen`: the live link on its own thread, handing the viewer the game's newest frames
// without ever making the window wait.
//
// What: LinkReceiver listens (app/link_listener.h) on a thread of its own and serves one game
// after another, each connection's bytes cut into keys (scene/files/targets_stream.h). Keys go into
// a bounded queue; when the window falls behind and the queue is full, the oldest key is dropped
// and counted, so the newest frames are kept. The window calls Poll once a frame: it takes what
// is queued if the queue is free at that instant (try-lock), else nothing until the next frame.
// A game that sends a bad line is disconnected with the reason kept for the panel; the next
// game can connect.
// Why: a sender that stalls or floods must never freeze the window.
// Limits: no idle timeout (the window waits for games as long as it is open); one game at a
// time, as for trace.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/link_listener.h"
#include "scene/files/trace_file.h"

namespace ikpose::app {

struct LinkStatus {
  std::string listening;     // HOST:PORT bound
  std::string peer;          // the game connected now, "" for none
  std::size_t received = 0;  // keys received, all games together
  std::size_t dropped = 0;   // keys dropped from a full queue
  int connections = 0;       // games served, the current one included
  std::string last_error;    // why the last game was disconnected ("" if it closed cleanly)
};

class LinkReceiver {
 public:
  static constexpr std::size_t kQueueCapacity = 256;

  LinkReceiver() = default;
  ~LinkReceiver();  // stops the thread
  LinkReceiver(const LinkReceiver&) = delete;
  LinkReceiver& operator=(const LinkReceiver&) = delete;

  // Binds on the caller's thread (an address in use is the caller's error), then serves on its
  // own. False with one line.
  bool Start(const LinkAddress& address, std::string* error);
  // Never waits: appends the queued keys, oldest first, to `keys` and copies the status; false
  // (nothing taken) when the receiving thread holds the queue at this instant.
  bool Poll(std::vector<scene::TargetKey>* keys, LinkStatus* status);
  // Ends the receiving thread: what it has read stays queued for Poll; a game still connected is
  // cut off (its status keeps the last game's reason).
  void Stop();

 private:
  void Serve();
  void Push(std::vector<scene::TargetKey> keys);

  LinkListener listener_;
  std::thread thread_;
  std::mutex mutex_;  // guards queue_ and status_
  std::deque<scene::TargetKey> queue_;
  LinkStatus status_;
  bool stopping_ = false;  // written under mutex_
};

}  // namespace ikpose::app
