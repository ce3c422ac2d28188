#include "app/link_receiver.h"

#include "app/link_targets.h"
#include "scene/files/targets_stream.h"

namespace ikpose::app {

LinkReceiver::~LinkReceiver() {
  Stop();
}

bool LinkReceiver::Start(const LinkAddress& address, std::string* error) {
  if (!listener_.Open(address, error)) return false;
  status_.listening = listener_.BoundAddress();
  thread_ = std::thread([this] { Serve(); });
  return true;
}

void LinkReceiver::Serve() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
    }
    scene::TargetsStream stream(kLinkName);
    std::string peer;
    std::string error;
    bool counted = false;
    bool bad_input = false;
    const auto feed = [&](std::string_view bytes, std::string* what) {
      if (!counted) {
        counted = true;
        std::lock_guard<std::mutex> lock(mutex_);
        ++status_.connections;
        status_.peer = peer;
      }
      const bool ok = stream.Feed(bytes, what);
      bad_input = bad_input || !ok;
      Push(stream.Take());
      return ok;
    };
    const bool closed = listener_.ServeOne(0.0, feed, &peer, &error);
    std::string finish_error;
    if (closed && !stream.Finish(&finish_error)) error = finish_error;
    Push(stream.Take());
    std::lock_guard<std::mutex> lock(mutex_);
    status_.peer.clear();
    // A game cut off by Stop was not disconnected for a reason of its own.
    if (!stopping_ || closed || bad_input) {
      status_.last_error = closed && finish_error.empty() ? "" : error;
    }
    if (stopping_) return;
  }
}

void LinkReceiver::Push(std::vector<scene::TargetKey> keys) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (scene::TargetKey& key : keys) {
    if (queue_.size() == kQueueCapacity) {
      queue_.pop_front();
      ++status_.dropped;
    }
    queue_.push_back(key);
    ++status_.received;
  }
}

bool LinkReceiver::Poll(std::vector<scene::TargetKey>* keys, LinkStatus* status) {
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  keys->insert(keys->end(), queue_.begin(), queue_.end());
  queue_.clear();
  *status = status_;
  return true;
}

void LinkReceiver::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  listener_.Stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace ikpose::app
