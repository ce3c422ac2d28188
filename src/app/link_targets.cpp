#include "app/link_targets.h"

#include "scene/files/targets_stream.h"

namespace ikpose::app {

bool ReceiveTargets(const LinkAddress& address, double idle_timeout_s, std::ostream& notices,
                    std::vector<scene::TargetKey>* keys, std::string* error) {
  LinkListener listener;
  if (!listener.Open(address, error)) return false;
  if (address.port == 0) {
    notices << "ikpose: listening on " << listener.BoundAddress() << std::endl;
  }
  scene::TargetsStream stream(kLinkName);
  std::string peer;
  const auto feed = [&stream](std::string_view bytes, std::string* what) {
    return stream.Feed(bytes, what);
  };
  if (!listener.ServeOne(idle_timeout_s, feed, &peer, error)) return false;
  if (!stream.Finish(error)) return false;
  *keys = stream.keys();
  return true;
}

}  // namespace ikpose::app
