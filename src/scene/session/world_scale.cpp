#include "scene/session/world_scale.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace ikpose::scene {

namespace {

// "19x" or "0.56x": two digits are enough to tell a unit mistake from a size choice.
std::string Times(float ratio) {
  char text[32];
  std::snprintf(text, sizeof text, ratio >= 10.0f ? "%.0fx" : "%.2gx", static_cast<double>(ratio));
  return text;
}

std::string Number(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value));
  return text;
}

}  // namespace

std::vector<SizeWarning> SizeWarnings(const PosingSession& session) {
  std::vector<SizeWarning> out;
  const float height = session.facts()->height;
  if (!(height > 0.0f)) return out;
  const bool ladder_shown = session.edits.ladder_enabled && session.edits.ladder.Valid();
  if (ladder_shown) {
    float leg = 0.0f;
    for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
      const anim::LimbChain& c = session.chain(limb);
      if (c.valid()) leg = std::max(leg, c.upper_length + c.lower_length);
    }
    const Ladder& l = session.edits.ladder;
    if (leg > 0.0f &&
        (l.rung_spacing > kRungsApartOfLeg * leg || l.first_rung_height > kFirstRungOfLeg * leg)) {
      out.push_back({-1, "the ladder's rungs are out of the character's reach: " +
                             Times(l.rung_spacing / height) + " its height apart (spacing " +
                             Number(l.rung_spacing) + ", first rung " +
                             Number(l.first_rung_height) + ", for a character " + Number(height) +
                             " model units tall with a leg of " + Number(leg) + ")"});
    }
  }
  if (!session.ladder_note().empty()) out.push_back({-1, session.ladder_note()});
  if (session.edits.ground && session.edits.floor && !session.facts()->floor_note.empty())
    out.push_back({-1, session.facts()->floor_note});
  if (!session.edits.world) return out;
  const std::vector<Prop>& props = session.edits.world->props();
  for (std::size_t i = 0; i < props.size(); ++i) {
    if (ladder_shown && session.ladder_prop() == static_cast<int>(i)) continue;  // said above
    const anim::Bounds& b = session.edits.world->PropBounds(i);
    if (b.empty()) continue;
    const glm::vec3 size = b.max - b.min;
    const float largest = std::max({size.x, size.y, size.z});
    const std::string name = std::filesystem::path(props[i].path).filename().string();
    const std::string hint = ": in other units? its \"scale\" sizes it";
    if (size.y > kPropTooTall * height) {
      out.push_back({static_cast<int>(i), "prop " + name + " is " + Times(size.y / height) +
                                              " the character's height (" + Number(size.y) +
                                              " model units tall for a character " +
                                              Number(height) + " tall)" + hint});
    } else if (largest < kPropTooSmall * height) {
      out.push_back({static_cast<int>(i), "prop " + name + " is " + Times(height / largest) +
                                              " smaller than the character (" + Number(largest) +
                                              " model units across for a character " +
                                              Number(height) + " tall)" + hint});
    }
  }
  return out;
}

}  // namespace ikpose::scene
