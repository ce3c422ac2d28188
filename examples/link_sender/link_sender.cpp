// link_sender: plays a targets file (the `ikpose trace --targets` format) to ikpose over the
// live link in real time, as a game would send its frames: the example of include/ikpose_link.h.
//
//   ikpose trace --listen 7777 --json &
//   link_sender --port 7777 assets/traces/left_leg_sweep.jsonl
//
// What: each line is read into an ikpose_link_frame and sent with ikpose_link_send_frame when
// its time comes (--speed 2 plays twice as fast, --speed 0 sends as fast as the link takes it);
// --raw sends each line's bytes as they are instead (any text, to see how ikpose takes it).
// Why: the tests and the README's measurements use it as the game.
// Limits: a line that is not a targets object stops it (unless --raw); a ladder gives all of its
// sizes or none (the header sends them together). Prints one line on
// stdout, "sent N frames in T s", or one error line on stderr and exits 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "ikpose_link.h"

namespace {

using Json = nlohmann::json;

int Usage() {
  std::cerr << "usage: link_sender [--host ADDRESS] --port PORT [--speed FACTOR] [--raw] FILE\n";
  return 2;
}

int Fail(const std::string& what) {
  std::cerr << "link_sender: error: " << what << "\n";
  return 1;
}

bool ReadVec3(const Json& j, float out[3]) {
  if (!j.is_array() || j.size() != 3) return false;
  for (int i = 0; i < 3; ++i) {
    if (!j[i].is_number()) return false;
    out[i] = j[i].get<float>();
  }
  return true;
}

// One line of the targets format as a frame; false when it is not one.
bool ReadFrame(const std::string& line, ikpose_link_frame* frame) {
  static const char* const kNames[IKPOSE_LINK_LIMBS] = {"left_arm", "right_arm", "left_leg",
                                                        "right_leg"};
  const Json j = Json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("time") || !j["time"].is_number()) return false;
  *frame = ikpose_link_frame{};
  frame->time = j["time"].get<double>();
  if (!j.contains("limbs") || !j["limbs"].is_object()) return false;
  for (int limb = 0; limb < IKPOSE_LINK_LIMBS; ++limb) {
    if (!j["limbs"].contains(kNames[limb])) continue;
    const Json& l = j["limbs"][kNames[limb]];
    float v[3];
    if (!l.is_object() || !l.contains("target") || !ReadVec3(l["target"], v)) return false;
    ikpose_link_set_target(frame, limb, v[0], v[1], v[2]);
    if (l.contains("pole")) {
      if (!ReadVec3(l["pole"], v)) return false;
      ikpose_link_set_pole(frame, limb, v[0], v[1], v[2]);
    }
  }
  // The optional clip time, ladder (its sizes all five or none) and props moved.
  if (j.contains("clip_time")) {
    if (!j["clip_time"].is_number()) return false;
    ikpose_link_set_clip_time(frame, j["clip_time"].get<double>());
  }
  if (j.contains("ladder")) {
    float v[3];
    if (!j["ladder"].is_object() || !j["ladder"].contains("base") ||
        !ReadVec3(j["ladder"]["base"], v)) {
      return false;
    }
    ikpose_link_set_ladder(frame, v[0], v[1], v[2]);
    const Json& ladder = j["ladder"];
    const char* const sizes[4] = {"rung_spacing", "first_rung_height", "rung_radius", "rail_width"};
    float size[4] = {0.f, 0.f, 0.f, 0.f};
    int given = ladder.contains("rung_count") ? 1 : 0;
    for (int i = 0; i < 4; ++i) {
      if (!ladder.contains(sizes[i])) continue;
      if (!ladder[sizes[i]].is_number()) return false;
      size[i] = ladder[sizes[i]].get<float>();
      ++given;
    }
    if (given == 5 && ladder["rung_count"].is_number_integer()) {
      ikpose_link_set_ladder_size(frame, size[0], size[1], size[2], size[3],
                                  ladder["rung_count"].get<int>());
    } else if (given != 0) {
      return false;
    }
  }
  if (j.contains("props")) {
    if (!j["props"].is_array() || j["props"].size() > IKPOSE_LINK_MAX_PROPS) return false;
    for (const Json& p : j["props"]) {
      float v[3];
      if (!p.is_object() || !p.contains("index") || !p["index"].is_number_integer() ||
          !p.contains("position") || !ReadVec3(p["position"], v)) {
        return false;
      }
      const float yaw =
          p.contains("yaw_deg") && p["yaw_deg"].is_number() ? p["yaw_deg"].get<float>() : 0.f;
      ikpose_link_move_prop(frame, p["index"].get<int>(), v[0], v[1], v[2], yaw);
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1";
  long port = -1;
  double speed = 1.0;
  bool raw = false;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--host" && has_value) {
      host = argv[++i];
    } else if (arg == "--port" && has_value) {
      port = std::strtol(argv[++i], nullptr, 10);
    } else if (arg == "--speed" && has_value) {
      speed = std::strtod(argv[++i], nullptr);
    } else if (arg == "--raw") {
      raw = true;
    } else if (!arg.empty() && arg[0] != '-' && path.empty()) {
      path = arg;
    } else {
      return Usage();
    }
  }
  if (path.empty() || port < 1 || port > 65535 || !(speed >= 0.0)) return Usage();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail("cannot read " + path);

  ikpose_link link;
  if (ikpose_link_connect(&link, host.c_str(), static_cast<unsigned short>(port)) != 0) {
    return Fail(link.error);
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  double first_time = 0.0;
  bool timed = false;
  long frames = 0;
  std::string line;
  while (std::getline(in, line)) {
    ikpose_link_frame frame;
    const bool is_frame = ReadFrame(line, &frame);
    if (!is_frame && !raw) {
      ikpose_link_close(&link);
      return Fail(path + ":" + std::to_string(frames + 1) + ": not a targets line");
    }
    // Wait until this line's time has come, measured from the first line's.
    if (is_frame && speed > 0.0) {
      if (!timed) first_time = frame.time;
      timed = true;
      const auto due =
          start + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>((frame.time - first_time) / speed));
      std::this_thread::sleep_until(due);
    }
    const int sent = raw ? ikpose_link_send_raw(&link, (line + "\n").data(), line.size() + 1)
                         : ikpose_link_send_frame(&link, &frame);
    if (sent != 0) {
      const std::string what = link.error;
      ikpose_link_close(&link);
      return Fail(what);
    }
    ++frames;
  }
  if (ikpose_link_close(&link) != 0) return Fail(link.error);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("sent %ld frames in %.3f s\n", frames, seconds);
  return 0;
}
