// The viewer's receiving end of the live link (app/link_receiver.h): a game that floods a
// window which does not poll loses its oldest frames, never its newest, and the loss is
// counted; a bad game is disconnected with the reason and the next game is served.
#include "app/link_receiver.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "ikpose_link.h"

namespace ikpose::app {
namespace {

int PortOf(const LinkStatus& status) {
  return std::stoi(status.listening.substr(status.listening.rfind(':') + 1));
}

// Polls until `done` says so or two seconds pass; the keys taken are appended.
template <typename Done>
LinkStatus PollUntil(LinkReceiver& receiver, std::vector<scene::TargetKey>* keys, Done done) {
  LinkStatus status;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < until) {
    if (receiver.Poll(keys, &status) && done(status)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status;
}

TEST(LinkReceiver, AFloodKeepsTheNewestFramesAndCountsTheDropped) {
  LinkReceiver receiver;
  std::string error;
  ASSERT_TRUE(receiver.Start(LinkAddress{"127.0.0.1", 0}, &error)) << error;
  std::vector<scene::TargetKey> keys;
  const LinkStatus bound = PollUntil(receiver, &keys, [](const LinkStatus&) { return true; });
  ikpose_link link;
  ASSERT_EQ(ikpose_link_connect(&link, "127.0.0.1", static_cast<unsigned short>(PortOf(bound))), 0)
      << link.error;
  constexpr int kFrames = 1000;
  for (int i = 0; i < kFrames; ++i) {
    ikpose_link_frame frame{};
    frame.time = i / 60.0;
    ikpose_link_set_target(&frame, IKPOSE_LINK_LEFT_LEG, 0.1f, 0.001f * i, 0.f);
    ASSERT_EQ(ikpose_link_send_frame(&link, &frame), 0) << link.error;
  }
  ikpose_link_close(&link);
  // The window did not poll while the game sent: wait for all to arrive, then take them.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  LinkStatus status;
  ASSERT_TRUE(receiver.Poll(&keys, &status));
  EXPECT_EQ(status.received, static_cast<std::size_t>(kFrames));
  ASSERT_EQ(keys.size(), LinkReceiver::kQueueCapacity);
  EXPECT_EQ(status.dropped, kFrames - LinkReceiver::kQueueCapacity);
  EXPECT_EQ(keys.back().time, static_cast<float>((kFrames - 1) / 60.0));  // the newest kept
  EXPECT_EQ(keys.front().time, static_cast<float>((kFrames - 256) / 60.0));
}

TEST(LinkReceiver, ABadGameIsDisconnectedWithTheReasonAndTheNextIsServed) {
  LinkReceiver receiver;
  std::string error;
  ASSERT_TRUE(receiver.Start(LinkAddress{"127.0.0.1", 0}, &error)) << error;
  std::vector<scene::TargetKey> keys;
  const LinkStatus bound = PollUntil(receiver, &keys, [](const LinkStatus&) { return true; });
  const auto port = static_cast<unsigned short>(PortOf(bound));

  ikpose_link bad;
  ASSERT_EQ(ikpose_link_connect(&bad, "127.0.0.1", port), 0);
  const std::string text = "{\"time\": 0, \"limbs\": {}}\n{\"time\": 1, \"limbs\": 3}\n";
  ASSERT_EQ(ikpose_link_send_raw(&bad, text.data(), text.size()), 0);
  LinkStatus status =
      PollUntil(receiver, &keys, [](const LinkStatus& s) { return !s.last_error.empty(); });
  EXPECT_EQ(status.last_error, "link:2: limbs: not an object");
  EXPECT_EQ(keys.size(), 1u);
  ikpose_link_close(&bad);

  ikpose_link good;
  ASSERT_EQ(ikpose_link_connect(&good, "127.0.0.1", port), 0);
  ikpose_link_frame frame{};
  frame.time = 0.0;
  ikpose_link_set_target(&frame, IKPOSE_LINK_RIGHT_ARM, 0.f, 1.f, 0.f);
  ASSERT_EQ(ikpose_link_send_frame(&good, &frame), 0);
  status = PollUntil(receiver, &keys, [](const LinkStatus& s) { return s.received == 2; });
  EXPECT_EQ(status.connections, 2);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_TRUE(keys.back().limbs[1].has_target);
  ikpose_link_close(&good);
  receiver.Stop();  // returns: the thread ends while a game may still be connected
}

}  // namespace
}  // namespace ikpose::app
