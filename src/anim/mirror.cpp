#include "anim/mirror.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace ikpose::anim {

namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `word` (lower case) written in the letter case of `like`: UPPER, Capitalised or lower.
std::string InCaseOf(std::string word, std::string_view like) {
  const bool all_upper = std::none_of(like.begin(), like.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) != 0;
  });
  const bool first_upper = !like.empty() && std::isupper(static_cast<unsigned char>(like[0]));
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (all_upper || (i == 0 && first_upper)) {
      word[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[i])));
    }
  }
  return word;
}

// How many leading letters of `lower` say a side: the whole word for a side word ("l",
// "right"), the prefix of a word glued to "left"/"right" ("leftfoot": 4); 0 for none.
std::size_t SidePrefix(const std::string& lower) {
  for (const char* word : {"left", "right", "l", "r", "lt", "rt", "lft", "rgt"}) {
    if (lower == word) return lower.size();
  }
  for (const std::string_view prefix : {std::string_view("left"), std::string_view("right")}) {
    if (lower.size() > prefix.size() && lower.compare(0, prefix.size(), prefix) == 0) {
      return prefix.size();
    }
  }
  return 0;
}

// The other side's spelling of a side word (or of a word glued to "left"/"right"), in the
// word's letter case; "" if the word says no side.
std::string OtherSide(std::string_view word) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"left", "right"}, {"l", "r"}, {"lt", "rt"}, {"lft", "rgt"}};
  const std::string lower = Lower(word);
  const std::size_t prefix = SidePrefix(lower);
  if (prefix == 0) return "";
  const std::string side = lower.substr(0, prefix);
  for (const auto& [l, r] : kWords) {
    if (side == l || side == r) {
      return InCaseOf(side == l ? r : l, word.substr(0, prefix)) + std::string(word.substr(prefix));
    }
  }
  return "";
}

// A name's words with the side words marked and a trailing number dropped: the key that pairs
// `b_LeftLeg01_015` with `b_RightLeg01_019`.
std::string LooseKey(std::string_view name) {
  std::vector<std::string> words;
  for (const auto& [b, e] : NameWordSpans(name)) {
    const std::string w = Lower(name.substr(b, e - b));
    words.push_back(SidePrefix(w) > 0 ? "<side>" + w.substr(SidePrefix(w)) : w);
  }
  if (!words.empty() && std::isdigit(static_cast<unsigned char>(words.back()[0]))) {
    words.pop_back();
  }
  std::string key;
  for (const std::string& w : words) key += w + " ";
  return key;
}

struct Builder {
  const Skeleton& skeleton;
  const Pose& rest;
  float height;
  std::vector<char> candidate;
  std::vector<int> depth;
  std::vector<int> child_count;
  MirrorMap map;

  Builder(const Skeleton& s, const Pose& r, float h) : skeleton(s), rest(r), height(h) {
    const int n = s.size();
    const bool any_joint = s.JointCount() > 0;
    candidate.resize(n);
    depth.resize(n);
    child_count.assign(n, 0);
    map.counterpart.resize(n);
    map.side.assign(n, 0);
    for (int i = 0; i < n; ++i) {
      candidate[i] = any_joint ? s.IsJoint(i) : (s.flags[i] & kBoneHasMesh) == 0;
      depth[i] = s.parents[i] < 0 ? 0 : depth[s.parents[i]] + 1;
      map.counterpart[i] = i;
      if (s.parents[i] >= 0 && candidate[i]) ++child_count[s.parents[i]];
    }
  }
  glm::vec3 P(int bone) const { return PositionMs(rest, bone); }
  bool Unpaired(int bone) const { return map.counterpart[bone] == bone && map.side[bone] == 0; }
  void Pair(int left, int right) {
    map.counterpart[left] = right;
    map.counterpart[right] = left;
    map.side[left] = -1;
    map.side[right] = 1;
  }

  void ByNames() {
    std::map<std::string, int> by_name;
    for (int i = 0; i < skeleton.size(); ++i) {
      if (candidate[i]) by_name.emplace(skeleton.names[i], i);
    }
    for (int i = 0; i < skeleton.size(); ++i) {
      const int side = NameSide(skeleton.names[i]);
      if (!candidate[i] || side >= 0 || !Unpaired(i)) continue;  // from each left bone
      const auto found = by_name.find(SwapSideInName(skeleton.names[i]));
      if (found == by_name.end() || found->second == i || !Unpaired(found->second)) continue;
      if (NameSide(skeleton.names[found->second]) != 1) continue;
      Pair(i, found->second);
      ++map.pairs_by_name;
    }
    // The same words, a trailing number aside; only keys that name one bone on each side.
    std::map<std::string, std::pair<std::vector<int>, std::vector<int>>> loose;
    for (int i = 0; i < skeleton.size(); ++i) {
      const int side = NameSide(skeleton.names[i]);
      if (!candidate[i] || side == 0 || !Unpaired(i)) continue;
      auto& entry = loose[LooseKey(skeleton.names[i])];
      (side < 0 ? entry.first : entry.second).push_back(i);
    }
    for (const auto& [key, sides] : loose) {
      if (sides.first.size() != 1 || sides.second.size() != 1) continue;
      Pair(sides.first[0], sides.second[0]);
      ++map.pairs_by_name;
    }
  }

  void ByChains(const ChainSet& chains) {
    for (const auto& [l, r] :
         {std::pair{Limb::kLeftArm, Limb::kRightArm}, std::pair{Limb::kLeftLeg, Limb::kRightLeg}}) {
      if (!chains[l].valid() || !chains[r].valid()) continue;
      const int left[] = {chains[l].upper, chains[l].lower, chains[l].end};
      const int right[] = {chains[r].upper, chains[r].lower, chains[r].end};
      for (int k = 0; k < 3; ++k) {
        if (left[k] == right[k] || !Unpaired(left[k]) || !Unpaired(right[k])) continue;
        Pair(left[k], right[k]);
        ++map.pairs_by_structure;
      }
    }
  }

  // Through the pairs' midpoints, normal along their left-minus-right directions; false with
  // no pair. Robust to a few asymmetric pairs: a median first, then the mean of the pairs that
  // plane makes symmetric (all of them when none is).
  bool FitPlane() {
    std::vector<int> lefts;
    for (int i = 0; i < skeleton.size(); ++i) {
      // Pairs on top of each other (Rigify's pelvis.L/.R) say nothing about the direction.
      if (map.side[i] < 0 && glm::length(P(i) - P(map.counterpart[i])) > 10.f * tolerance()) {
        lefts.push_back(i);
      }
    }
    if (lefts.empty()) return false;
    const auto median = [](std::vector<float> v) {
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      return v[v.size() / 2];
    };
    glm::vec3 normal(0.f);
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<float> values;
      for (int l : lefts) values.push_back(glm::normalize(P(l) - P(map.counterpart[l]))[axis]);
      normal[axis] = median(values);
    }
    if (!(glm::length(normal) > 0.f)) return false;
    normal = glm::normalize(normal);
    std::vector<float> offsets;
    for (int l : lefts) offsets.push_back(glm::dot(normal, 0.5f * (P(l) + P(map.counterpart[l]))));
    map.plane.normal_ms = normal;
    map.plane.point_ms = median(offsets) * normal;
    std::vector<int> inliers;
    for (int l : lefts) {
      if (glm::length(map.plane.Reflect(P(l)) - P(map.counterpart[l])) <= tolerance()) {
        inliers.push_back(l);
      }
    }
    if (inliers.empty()) inliers = lefts;
    glm::vec3 sum(0.f), middle(0.f);
    for (int l : inliers) {
      sum += glm::normalize(P(l) - P(map.counterpart[l]));
      middle += 0.5f * (P(l) + P(map.counterpart[l]));
    }
    map.plane.normal_ms = glm::normalize(sum);
    map.plane.point_ms = middle / static_cast<float>(inliers.size());
    return true;
  }
  float tolerance() const { return kSymmetryTolerancePerMeter * height; }

  // With no pair at all: left = up x forward, through the joints' centroid.
  void GuessPlane(const ChainSet& chains) {
    glm::vec3 left = glm::cross(glm::vec3(0.f, 1.f, 0.f), chains.forward_ms);
    map.plane.normal_ms = glm::length(left) > 0.f ? glm::normalize(left) : glm::vec3(1, 0, 0);
    glm::vec3 sum(0.f);
    int count = 0;
    for (int i = 0; i < skeleton.size(); ++i) {
      if (!candidate[i]) continue;
      sum += P(i);
      ++count;
    }
    if (count > 0) map.plane.point_ms = sum / static_cast<float>(count);
  }

  // The unpaired bone of the same depth and child count nearest to `bone`'s mirror image,
  // within 5% of the height; -1 for none.
  int Nearest(int bone) const {
    const glm::vec3 mirrored = map.plane.Reflect(P(bone));
    int best = -1;
    float best_distance = 0.05f * height;
    for (int c = 0; c < skeleton.size(); ++c) {
      if (!candidate[c] || !Unpaired(c) || depth[c] != depth[bone] ||
          child_count[c] != child_count[bone])
        continue;
      const float d = glm::length(P(c) - mirrored);
      if (d <= best_distance) {
        best = c;
        best_distance = d;
      }
    }
    return best;
  }

  void ByStructure() {
    for (int i = 0; i < skeleton.size(); ++i) {
      if (!candidate[i] || !Unpaired(i)) continue;
      const int c = Nearest(i);
      if (c < 0 || c == i || Nearest(c) != i) continue;
      const bool i_left = map.plane.Distance(P(i)) > map.plane.Distance(P(c));
      Pair(i_left ? i : c, i_left ? c : i);
      ++map.pairs_by_structure;
    }
  }

  void CheckSymmetry() {
    map.tolerance = tolerance();
    for (int i = 0; i < skeleton.size(); ++i) {
      if (!candidate[i] || map.side[i] > 0) continue;  // each pair once, from its left bone
      const int c = map.counterpart[i];
      const float off = glm::length(map.plane.Reflect(P(i)) - P(c));
      if (off > map.tolerance) map.asymmetric.push_back({i, c, off});
    }
  }
};

}  // namespace

std::string_view MirrorModeName(MirrorMode mode) {
  switch (mode) {
    case MirrorMode::kOff:
      return "off";
    case MirrorMode::kLeftToRight:
      return "left-to-right";
    case MirrorMode::kRightToLeft:
      return "right-to-left";
    case MirrorMode::kFlip:
      return "flip";
  }
  return "off";
}

bool ParseMirrorMode(std::string_view text, MirrorMode* mode) {
  for (MirrorMode m :
       {MirrorMode::kOff, MirrorMode::kLeftToRight, MirrorMode::kRightToLeft, MirrorMode::kFlip}) {
    if (text == MirrorModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

std::string SwapSideInName(std::string_view name) {
  std::string out;
  std::size_t copied = 0;
  bool swapped = false;
  for (const auto& [b, e] : NameWordSpans(name)) {
    const std::string other = OtherSide(name.substr(b, e - b));
    if (other.empty()) continue;
    out += name.substr(copied, b - copied);
    out += other;
    copied = e;
    swapped = true;
  }
  if (!swapped) return "";
  out += name.substr(copied);
  return out;
}

MirrorMap BuildMirrorMap(const Skeleton& skeleton, const Pose& rest, const ChainSet& chains,
                         float height) {
  Builder b(skeleton, rest, height > 0.f ? height : 1.f);
  b.ByNames();
  b.ByChains(chains);
  if (!b.FitPlane()) b.GuessPlane(chains);
  b.ByStructure();
  b.FitPlane();  // again, with the structural pairs
  b.CheckSymmetry();
  return std::move(b.map);
}

bool MirrorWrites(const MirrorMap& map, MirrorMode mode, int bone) {
  switch (mode) {
    case MirrorMode::kOff:
      return false;
    case MirrorMode::kLeftToRight:
      return map.side[static_cast<std::size_t>(bone)] > 0;
    case MirrorMode::kRightToLeft:
      return map.side[static_cast<std::size_t>(bone)] < 0;
    case MirrorMode::kFlip:
      return true;
  }
  return false;
}

glm::quat ReflectRotation(const glm::quat& rotation, const glm::vec3& normal) {
  // M R M turns about M a by -angle: (w, v) -> (w, -(v - 2 n (n . v))).
  const glm::vec3 v(rotation.x, rotation.y, rotation.z);
  const glm::vec3 reflected = -(v - 2.f * glm::dot(normal, v) * normal);
  return glm::quat(rotation.w, reflected.x, reflected.y, reflected.z);
}

void MirrorPose(const Skeleton& skeleton, const Pose& rest, const MirrorMap& map, MirrorMode mode,
                Pose& pose) {
  if (mode == MirrorMode::kOff || map.size() != skeleton.size()) return;
  const Pose source = pose;
  const MirrorPlane& plane = map.plane;
  for (int b = 0; b < skeleton.size(); ++b) {
    const auto bi = static_cast<std::size_t>(b);
    const int parent = skeleton.parents[bi];
    if (MirrorWrites(map, mode, b)) {
      const int s = map.counterpart[bi];
      const auto si = static_cast<std::size_t>(s);
      // The source's model-space turn from its rest, reflected, on this bone's rest.
      const glm::quat delta_ms = RotationMs(source, s) * glm::inverse(RotationMs(rest, s));
      const glm::quat rotation_ms =
          ReflectRotation(delta_ms, plane.normal_ms) * RotationMs(rest, b);
      Transform& local = pose.locals_ls[bi];
      local.rotation = glm::normalize(glm::inverse(RotationMs(pose, parent)) * rotation_ms);
      const glm::vec3 moved = source.locals_ls[si].translation - rest.locals_ls[si].translation;
      if (glm::length(moved) >
          1e-5f * std::max(glm::length(rest.locals_ls[si].translation), 1e-3f)) {
        // Where the source's motion (as a rigid delta) takes this bone's mirrored rest joint.
        const glm::mat4 delta = source.models_ms[si] * glm::inverse(rest.models_ms[si]);
        const glm::vec3 joint_ms =
            plane.Reflect(glm::vec3(delta * glm::vec4(plane.Reflect(PositionMs(rest, b)), 1.f)));
        local.translation =
            parent >= 0 ? glm::vec3(glm::inverse(pose.models_ms[static_cast<std::size_t>(parent)]) *
                                    glm::vec4(joint_ms, 1.f))
                        : joint_ms;
      } else {
        local.translation = rest.locals_ls[bi].translation;
      }
    }
    const glm::mat4 local_matrix = ToMatrix(pose.locals_ls[bi]);
    pose.models_ms[bi] = parent >= 0
                             ? pose.models_ms[static_cast<std::size_t>(parent)] * local_matrix
                             : local_matrix;
  }
}

}  // namespace ikpose::anim
