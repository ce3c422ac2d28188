#include "anim/chains.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <utility>

#include <glm/gtc/quaternion.hpp>

#include "ik/transform.h"

namespace ikpose::anim {

namespace {

using Words = std::vector<std::string>;

bool Has(const Words& words, std::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

int SideOfWord(std::string_view w) {
  if (w == "left" || w == "l" || w == "lt" || w == "lft") return -1;
  if (w == "right" || w == "r" || w == "rt" || w == "rgt") return 1;
  return 0;
}

// Words with the side words and numbers removed; `side` gets the side they gave.
Words RoleWords(std::string_view name, int* side) {
  Words out;
  int found = 0;
  bool conflict = false;
  for (std::string w : NameWords(name)) {
    int s = SideOfWord(w);
    if (s == 0) {
      // Glued lower-case prefixes: "leftfoot", "rightupleg".
      for (const auto& [prefix, prefix_side] :
           {std::pair<std::string_view, int>{"left", -1}, {"right", 1}}) {
        if (w.size() > prefix.size() && w.compare(0, prefix.size(), prefix) == 0) {
          s = prefix_side;
          w = w.substr(prefix.size());
          out.push_back(w);
          break;
        }
      }
    }
    if (s != 0) {
      if (found != 0 && found != s) conflict = true;
      found = s;
      continue;
    }
    if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0]))) continue;
    out.push_back(w);
  }
  *side = conflict ? 0 : found;
  return out;
}

bool IsFoot(const Words& w) {
  return Has(w, "foot") || Has(w, "ankle");
}
bool IsHand(const Words& w) {
  return Has(w, "hand") || Has(w, "wrist");
}
bool IsLowerLeg(const Words& w) {
  return Has(w, "shin") || Has(w, "calf") || Has(w, "knee") || Has(w, "crus") ||
         Has(w, "lowerleg") || (Has(w, "leg") && (Has(w, "lower") || Has(w, "low")));
}
bool IsLowerArm(const Words& w) {
  return Has(w, "forearm") || Has(w, "lowerarm") || Has(w, "elbow") ||
         (Has(w, "arm") && (Has(w, "lower") || Has(w, "low") || Has(w, "fore")));
}

struct Analysis {
  const Skeleton& skeleton;
  const Pose& rest;
  std::vector<char> candidate;  // joints (or every non-mesh node when nothing is a joint)
  std::vector<Words> words;
  std::vector<int> side;
  std::vector<int> depth;
  std::vector<std::vector<int>> children;

  Analysis(const Skeleton& s, const Pose& r) : skeleton(s), rest(r) {
    const int n = s.size();
    children.resize(n);
    for (int i = 0; i < n; ++i) {
      if (s.parents[i] >= 0) children[s.parents[i]].push_back(i);
    }
    const bool any_joint = s.JointCount() > 0;
    candidate.resize(n);
    words.resize(n);
    side.resize(n);
    depth.resize(n);
    for (int i = 0; i < n; ++i) {
      candidate[i] = any_joint ? s.IsJoint(i) : (s.flags[i] & kBoneHasMesh) == 0;
      words[i] = RoleWords(s.names[i], &side[i]);
      depth[i] = s.parents[i] < 0 ? 0 : depth[s.parents[i]] + 1;
    }
  }
  glm::vec3 P(int bone) const { return PositionMs(rest, bone); }
  bool Ok(int bone) const { return bone >= 0 && candidate[bone]; }
};

LimbChain MakeChain(const Analysis& a, Limb limb, int upper, int lower, int end,
                    const char* found_by) {
  LimbChain chain;
  chain.name = std::string(LimbName(limb));
  chain.upper = upper;
  chain.lower = lower;
  chain.end = end;
  chain.found_by = found_by;
  MeasureChain(a.skeleton, a.rest, chain);
  return chain;
}

bool UsesAny(const ChainSet& set, int a, int b, int c) {
  for (const LimbChain& chain : set.limbs) {
    if (!chain.valid()) continue;
    for (int bone : {chain.upper, chain.lower, chain.end}) {
      if (bone == a || bone == b || bone == c) return true;
    }
  }
  return false;
}

Limb LimbOf(bool leg, int side) {
  if (leg) return side < 0 ? Limb::kLeftLeg : Limb::kRightLeg;
  return side < 0 ? Limb::kLeftArm : Limb::kRightArm;
}

// Pass 1: end joint named foot/hand, its parent and grandparent on the same side.
void ByNames(const Analysis& a, ChainSet& set, std::array<std::string, 4>& near_miss) {
  const Skeleton& s = a.skeleton;
  std::array<int, 4> best_depth;
  best_depth.fill(std::numeric_limits<int>::max());
  for (int e = 0; e < s.size(); ++e) {
    if (!a.Ok(e) || a.side[e] == 0) continue;
    const bool foot = IsFoot(a.words[e]);
    const bool hand = !foot && IsHand(a.words[e]);
    if (!foot && !hand) continue;
    const Limb limb = LimbOf(foot, a.side[e]);
    const int p = s.parents[e];
    const int g = p >= 0 ? s.parents[p] : -1;
    const bool parent_same_role = p >= 0 && (foot ? IsFoot(a.words[p]) : IsHand(a.words[p]));
    if (parent_same_role) continue;  // a toe or finger bone named after the foot/hand
    const bool p_ok = a.Ok(p) && a.side[p] == a.side[e];
    const bool g_ok = a.Ok(g) && a.side[g] == a.side[e];
    if (!p_ok || !g_ok) {
      std::string& note = near_miss[static_cast<int>(limb)];
      if (note.empty()) {
        note = std::string(LimbName(limb)) + ": " + s.names[e] + " has " +
               (p_ok ? "only 1 bone" : "no bone") + " of its side above it (parent " +
               (p >= 0 ? s.names[p] : std::string("none")) + "): a chain shorter than 2 bones";
      }
      continue;
    }
    if (a.depth[e] < best_depth[static_cast<int>(limb)]) {
      best_depth[static_cast<int>(limb)] = a.depth[e];
      set[limb] = MakeChain(a, limb, g, p, e, "names");
    }
  }
}

// Pass 2: a shin with no foot below it and a foot bone elsewhere (IK-target rigs), and a
// forearm with no hand bone (its tip is the child where most of its children start).
void ByNamesWithoutEnd(const Analysis& a, ChainSet& set) {
  const Skeleton& s = a.skeleton;
  for (int k = 0; k < s.size(); ++k) {
    if (!a.Ok(k) || a.side[k] == 0) continue;
    const int h = s.parents[k];
    if (!a.Ok(h) || a.side[h] != a.side[k]) continue;
    const float upper_length = glm::length(a.P(k) - a.P(h));
    if (upper_length <= 0.f) continue;
    if (IsLowerLeg(a.words[k])) {
      const Limb limb = LimbOf(true, a.side[k]);
      if (set[limb].valid()) continue;
      int best = -1;
      float best_distance = 3.f * upper_length;
      for (int f = 0; f < s.size(); ++f) {
        if (!a.Ok(f) || a.side[f] != a.side[k] || !IsFoot(a.words[f])) continue;
        if (s.IsAncestorOrSelf(f, k) || s.IsAncestorOrSelf(k, f)) continue;
        const int fp = s.parents[f];
        if (fp >= 0 && IsFoot(a.words[fp])) continue;
        const float d = glm::length(a.P(f) - a.P(k));
        if (d > 0.f && d < best_distance) {
          best = f;
          best_distance = d;
        }
      }
      if (best >= 0 && !UsesAny(set, h, k, best))
        set[limb] = MakeChain(a, limb, h, k, best, "names");
    } else if (IsLowerArm(a.words[k])) {
      const Limb limb = LimbOf(false, a.side[k]);
      if (set[limb].valid()) continue;
      std::vector<int> kids;
      for (int c : a.children[k]) {
        if (a.Ok(c)) kids.push_back(c);
      }
      if (kids.empty()) continue;
      // The child position shared by most children (ties: the first child).
      const float tolerance = 0.01f * upper_length;
      int tip = -1;
      int tip_count = 0;
      for (int c : kids) {
        int count = 0;
        for (int other : kids) count += glm::length(a.P(other) - a.P(c)) <= tolerance ? 1 : 0;
        if (count > tip_count) {
          tip = c;
          tip_count = count;
        }
      }
      // None: positions that are not numbers (a hostile file) match nothing, not even
      // themselves.
      if (tip < 0) continue;
      if (glm::length(a.P(tip) - a.P(k)) > 0.f && !UsesAny(set, h, k, tip)) {
        set[limb] = MakeChain(a, limb, h, k, tip, "names");
      }
    }
  }
}

// The branch from `bone` down: at each step the candidate child with the most descendants.
std::vector<int> MainBranch(const Analysis& a, const std::vector<int>& subtree_size, int bone) {
  std::vector<int> branch{bone};
  for (int current = bone;;) {
    int next = -1;
    for (int c : a.children[current]) {
      if (!a.Ok(c)) continue;
      if (next < 0 || subtree_size[c] > subtree_size[next]) next = c;
    }
    if (next < 0) break;
    branch.push_back(next);
    current = next;
  }
  return branch;
}

struct Pair {
  int parent = -1;
  std::vector<int> first;  // corresponding joints of the two branches
  std::vector<int> second;
  float end_height = 0.f;
};

// Do two branches mirror each other across a plane? Compares the first `n` joints.
bool Mirrored(const Analysis& a, const std::vector<int>& x, const std::vector<int>& y, int n) {
  float length = 0.f;
  for (int i = 1; i < n; ++i) {
    const float lx = glm::length(a.P(x[i]) - a.P(x[i - 1]));
    const float ly = glm::length(a.P(y[i]) - a.P(y[i - 1]));
    if (std::abs(lx - ly) > 0.1f * std::max(lx, ly) + 1e-6f) return false;
    length += lx;
  }
  if (length <= 0.f) return false;
  glm::vec3 difference(0.f);
  glm::vec3 middle(0.f);
  for (int i = 0; i < n; ++i) {
    difference += a.P(x[i]) - a.P(y[i]);
    middle += 0.5f * (a.P(x[i]) + a.P(y[i]));
  }
  middle /= static_cast<float>(n);
  if (glm::length(difference) < 0.05f * length) return false;  // on top of each other
  const glm::vec3 normal = glm::normalize(difference);
  for (int i = 0; i < n; ++i) {
    const glm::vec3 p = a.P(x[i]);
    const glm::vec3 mirrored = p - 2.f * glm::dot(p - middle, normal) * normal;
    if (glm::length(mirrored - a.P(y[i])) > 0.1f * length) return false;
  }
  return true;
}

// Index of the first joint of the best triple: the longest shorter bone.
int BestTriple(const Analysis& a, const std::vector<int>& branch) {
  int best = -1;
  float best_score = 0.f;
  for (std::size_t i = 0; i + 2 < branch.size(); ++i) {
    const float l1 = glm::length(a.P(branch[i + 1]) - a.P(branch[i]));
    const float l2 = glm::length(a.P(branch[i + 2]) - a.P(branch[i + 1]));
    const float score = std::min(l1, l2);
    if (score > best_score * 1.0001f) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

glm::vec3 Horizontal(glm::vec3 v) {
  v.y = 0.f;
  return v;
}

// Facing direction from the legs found: toes point forward, knees bend forward.
glm::vec3 EstimateForward(const Analysis& a, const ChainSet& set) {
  glm::vec3 sum(0.f);
  for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
    const LimbChain& c = set[limb];
    if (!c.valid()) continue;
    const glm::vec3 hip = a.P(c.upper);
    const glm::vec3 knee = a.P(c.lower);
    const glm::vec3 foot = EndPositionMs(c, a.rest);
    const float scale = c.upper_length + c.lower_length;
    for (int toe : a.children[c.end]) {
      if (!a.Ok(toe)) continue;
      const glm::vec3 d = Horizontal(a.P(toe) - foot);
      if (glm::length(d) > 0.02f * scale) sum += glm::normalize(d);
      break;
    }
    const glm::vec3 axis = foot - hip;
    const float axis_length2 = glm::dot(axis, axis);
    if (axis_length2 > 0.f) {
      const glm::vec3 along = hip + glm::dot(knee - hip, axis) / axis_length2 * axis;
      const glm::vec3 d = Horizontal(knee - along);
      if (glm::length(d) > 0.01f * scale) sum += glm::normalize(d);
    }
  }
  if (glm::length(sum) < 1e-6f) return {0.f, 0.f, 1.f};
  return glm::normalize(sum);
}

// Pass 3: mirrored sibling branches.
void ByStructure(const Analysis& a, ChainSet& set, std::array<std::string, 4>& near_miss) {
  const Skeleton& s = a.skeleton;
  const int n = s.size();
  std::vector<int> subtree(n, 0);
  for (int i = n - 1; i >= 0; --i) {
    subtree[i] += a.candidate[i] ? 1 : 0;
    if (s.parents[i] >= 0) subtree[s.parents[i]] += subtree[i];
  }
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&a](int x, int y) { return a.depth[x] < a.depth[y]; });

  std::vector<Pair> limbs;
  std::vector<Pair> short_limbs;
  std::vector<int> taken;  // first joints of accepted branches
  const auto inside_taken = [&](int bone) {
    for (int t : taken) {
      if (s.IsAncestorOrSelf(t, bone)) return true;
    }
    return false;
  };
  for (int p : order) {
    if (inside_taken(p)) continue;
    std::vector<int> kids;
    for (int c : a.children[p]) {
      if (a.Ok(c)) kids.push_back(c);
    }
    for (std::size_t i = 0; i < kids.size(); ++i) {
      for (std::size_t j = i + 1; j < kids.size(); ++j) {
        if (inside_taken(kids[i]) || inside_taken(kids[j])) continue;
        const std::vector<int> x = MainBranch(a, subtree, kids[i]);
        const std::vector<int> y = MainBranch(a, subtree, kids[j]);
        const int count = static_cast<int>(std::min(x.size(), y.size()));
        if (count < 2 || !Mirrored(a, x, y, std::min(count, 4))) continue;
        Pair pair;
        pair.parent = p;
        pair.first.assign(x.begin(), x.begin() + count);
        pair.second.assign(y.begin(), y.begin() + count);
        pair.end_height = 0.5f * (a.P(x[count - 1]).y + a.P(y[count - 1]).y);
        if (count >= 3) {
          limbs.push_back(pair);
          taken.push_back(kids[i]);
          taken.push_back(kids[j]);
        } else {
          short_limbs.push_back(pair);
        }
      }
    }
  }

  // Legs: the pair reaching lowest; arms: the shallowest of the others. Names that say
  // hind/fore (quadrupeds) or leg/arm words overrule the geometry.
  const auto role = [&a](const Pair& pair) {
    int says = 0;
    for (std::size_t i = 0; i < pair.first.size() && i < 3 && says == 0; ++i) {
      const Words& w = a.words[pair.first[i]];
      if (Has(w, "hind") || Has(w, "rear") || Has(w, "back")) {
        says = 1;
      } else if (Has(w, "fore") || Has(w, "front")) {
        says = -1;
      } else if (Has(w, "leg") || Has(w, "thigh") || Has(w, "foot") || Has(w, "knee") ||
                 Has(w, "calf") || Has(w, "shin")) {
        says = 1;
      } else if (Has(w, "arm") || Has(w, "hand") || Has(w, "shoulder") || Has(w, "clavicle") ||
                 Has(w, "elbow") || Has(w, "wrist")) {
        says = -1;
      }
    }
    return says;
  };
  int legs = -1;
  for (int i = 0; i < static_cast<int>(limbs.size()); ++i) {
    if (legs < 0) {
      legs = i;
      continue;
    }
    const int ri = role(limbs[i]);
    const int rl = role(limbs[legs]);
    if (ri > rl || (ri == rl && limbs[i].end_height < limbs[legs].end_height)) legs = i;
  }
  int arms = -1;
  for (int i = 0; i < static_cast<int>(limbs.size()); ++i) {
    if (i == legs) continue;
    if (arms < 0) {
      arms = i;
      continue;
    }
    const int ri = role(limbs[i]);
    const int ra = role(limbs[arms]);
    if (ri < ra || (ri == ra && a.depth[limbs[i].parent] < a.depth[limbs[arms].parent])) arms = i;
  }

  // Triples first (sides need the legs' facing direction).
  struct Found {
    bool leg;
    std::array<int, 3> first;
    std::array<int, 3> second;
  };
  std::vector<Found> found;
  for (int which : {legs, arms}) {
    if (which < 0) continue;
    const Pair& pair = limbs[which];
    const int t = BestTriple(a, pair.first);
    if (t < 0) continue;
    found.push_back({which == legs,
                     {pair.first[t], pair.first[t + 1], pair.first[t + 2]},
                     {pair.second[t], pair.second[t + 1], pair.second[t + 2]}});
  }

  // Facing: from the legs already found by name, else from the structural legs.
  ChainSet probe = set;
  for (const Found& f : found) {
    if (!f.leg || probe[Limb::kLeftLeg].valid()) continue;
    probe[Limb::kLeftLeg] = MakeChain(a, Limb::kLeftLeg, f.first[0], f.first[1], f.first[2], "");
    probe[Limb::kRightLeg] =
        MakeChain(a, Limb::kRightLeg, f.second[0], f.second[1], f.second[2], "");
  }
  set.forward_ms = EstimateForward(a, probe);
  const glm::vec3 left = glm::cross(glm::vec3(0.f, 1.f, 0.f), set.forward_ms);

  for (const Found& f : found) {
    // Which branch is the left one: the names if they say, else the rest pose.
    bool first_is_left = glm::dot(a.P(f.first[2]) - a.P(f.second[2]), left) > 0.f;
    const int side_first = a.side[f.first[0]];
    const int side_second = a.side[f.second[0]];
    if (side_first != 0 && side_second == -side_first) first_is_left = side_first < 0;
    const auto& l = first_is_left ? f.first : f.second;
    const auto& r = first_is_left ? f.second : f.first;
    const Limb left_limb = f.leg ? Limb::kLeftLeg : Limb::kLeftArm;
    const Limb right_limb = f.leg ? Limb::kRightLeg : Limb::kRightArm;
    if (!set[left_limb].valid() && !UsesAny(set, l[0], l[1], l[2])) {
      set[left_limb] = MakeChain(a, left_limb, l[0], l[1], l[2], "structure");
    }
    if (!set[right_limb].valid() && !UsesAny(set, r[0], r[1], r[2])) {
      set[right_limb] = MakeChain(a, right_limb, r[0], r[1], r[2], "structure");
    }
  }

  // Branches of one bone where a limb was expected (e.g. a hip with a leg and no knee).
  std::sort(short_limbs.begin(), short_limbs.end(),
            [](const Pair& x, const Pair& y) { return x.end_height < y.end_height; });
  const auto note_short = [&](const Pair& pair, bool leg) {
    bool first_is_left = glm::dot(a.P(pair.first[1]) - a.P(pair.second[1]), left) > 0.f;
    const int side_first = a.side[pair.first[0]];
    if (side_first != 0 && a.side[pair.second[0]] == -side_first) first_is_left = side_first < 0;
    for (int k = 0; k < 2; ++k) {
      const bool is_left = (k == 0) == first_is_left;
      const std::vector<int>& branch = k == 0 ? pair.first : pair.second;
      const Limb limb = LimbOf(leg, is_left ? -1 : 1);
      std::string& note = near_miss[static_cast<int>(limb)];
      if (!note.empty()) continue;
      note = std::string(LimbName(limb)) + ": " + s.names[branch[0]] + " -> " + s.names[branch[1]] +
             " is only 1 bone: a chain shorter than 2 bones";
    }
  };
  std::size_t next = 0;
  if (legs < 0 && next < short_limbs.size()) note_short(short_limbs[next++], true);
  if (arms < 0 && next < short_limbs.size()) note_short(short_limbs[next++], false);
}

}  // namespace

std::string_view LimbName(Limb limb) {
  switch (limb) {
    case Limb::kLeftArm:
      return "left_arm";
    case Limb::kRightArm:
      return "right_arm";
    case Limb::kLeftLeg:
      return "left_leg";
    case Limb::kRightLeg:
      return "right_leg";
  }
  return "unknown";
}

std::vector<std::pair<std::size_t, std::size_t>> NameWordSpans(std::string_view name) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t begin = std::string_view::npos;
  const auto flush = [&](std::size_t end) {
    if (begin != std::string_view::npos && end > begin) spans.emplace_back(begin, end);
    begin = std::string_view::npos;
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      flush(i);
      continue;
    }
    if (begin != std::string_view::npos) {
      const unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      const bool next_lower =
          i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1]));
      if ((std::isupper(c) && std::islower(prev)) ||
          (std::isupper(c) && std::isupper(prev) && next_lower) ||
          (std::isdigit(c) != 0) != (std::isdigit(prev) != 0)) {
        flush(i);
      }
    }
    if (begin == std::string_view::npos) begin = i;
  }
  flush(name.size());
  return spans;
}

std::vector<std::string> NameWords(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  if (colon != std::string_view::npos) name = name.substr(colon + 1);
  std::vector<std::string> words;
  for (const auto& [begin, end] : NameWordSpans(name)) {
    std::string word(name.substr(begin, end - begin));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    words.push_back(std::move(word));
  }
  return words;
}

int NameSide(std::string_view name) {
  int side = 0;
  RoleWords(name, &side);
  return side;
}

glm::vec3 EndPositionMs(const LimbChain& chain, const Pose& pose) {
  if (chain.end_is_child) return PositionMs(pose, chain.end);
  return glm::vec3(pose.models_ms[chain.lower] * glm::vec4(chain.end_offset_ls, 1.f));
}

void MeasureChain(const Skeleton& skeleton, const Pose& rest, LimbChain& chain) {
  const glm::vec3 a = PositionMs(rest, chain.upper);
  const glm::vec3 b = PositionMs(rest, chain.lower);
  const glm::vec3 c = PositionMs(rest, chain.end);
  chain.end_is_child = skeleton.parents[chain.end] == chain.lower;
  chain.end_offset_ls = chain.end_is_child
                            ? rest.locals_ls[chain.end].translation
                            : glm::vec3(ik::TransformPoint(
                                  ik::Inverse(ik::AffineFromMat4(rest.models_ms[chain.lower])), c));
  chain.upper_length = glm::length(b - a);
  chain.lower_length = glm::length(c - b);
}

ChainSet DetectChains(const Skeleton& skeleton, const Pose& rest) {
  ChainSet set;
  const Analysis a(skeleton, rest);
  std::array<std::string, 4> near_miss;
  ByNames(a, set, near_miss);
  ByNamesWithoutEnd(a, set);
  bool all = true;
  for (const LimbChain& c : set.limbs) all = all && c.valid();
  if (!all) {
    ByStructure(a, set, near_miss);
  } else {
    set.forward_ms = EstimateForward(a, set);
  }
  for (Limb limb : kLimbs) {
    if (!set[limb].valid() && !near_miss[static_cast<int>(limb)].empty()) {
      set.notes.push_back(near_miss[static_cast<int>(limb)]);
    }
  }
  SetNaturalBends(skeleton, rest, set);
  return set;
}

void SetNaturalBends(const Skeleton& skeleton, const Pose& rest, ChainSet& set) {
  const auto usable = [&](int bone) {
    return skeleton.IsJoint(bone) || skeleton.JointCount() == 0;
  };
  for (Limb limb : kLimbs) {
    LimbChain& c = set[limb];
    if (!c.valid()) continue;
    const bool is_leg = limb == Limb::kLeftLeg || limb == Limb::kRightLeg;
    const glm::vec3 end_ms = EndPositionMs(c, rest);
    // The foot's direction: to its child furthest along the facing (the toe).
    glm::vec3 toe_dir(0.f);
    if (is_leg) {
      float best = 0.f;
      for (int child : skeleton.Children(c.end)) {
        if (!usable(child)) continue;
        const glm::vec3 d = PositionMs(rest, child) - end_ms;
        const float ahead = glm::dot(Horizontal(d), set.forward_ms);
        if (ahead > best) {
          best = ahead;
          toe_dir = d;
        }
      }
    }
    const glm::mat3 parent_rotation =
        glm::mat3_cast(RotationMs(rest, skeleton.parents[static_cast<std::size_t>(c.upper)]));
    c.natural = RestNaturalBend(PositionMs(rest, c.upper), PositionMs(rest, c.lower), end_ms,
                                parent_rotation, is_leg, set.forward_ms, toe_dir);
  }
}

bool ResolveChain(const Skeleton& skeleton, const Pose& rest, const ChainSet& chains,
                  std::string_view name, LimbChain* chain, std::string* error) {
  for (Limb limb : kLimbs) {
    if (name != LimbName(limb)) continue;
    if (!chains[limb].valid()) {
      *error = "no " + std::string(name) + " chain was detected on this model";
      return false;
    }
    *chain = chains[limb];
    return true;
  }
  for (const LimbChain& c : chains.limbs) {
    if (c.valid() && skeleton.names[c.end] == name) {
      *chain = c;
      return true;
    }
  }
  const int end = skeleton.Find(name);
  if (end < 0) {
    *error = "no chain or bone named '" + std::string(name) + "'";
    return false;
  }
  const int lower = skeleton.parents[end];
  const int upper = lower >= 0 ? skeleton.parents[lower] : -1;
  if (upper < 0) {
    *error = "bone '" + std::string(name) + "' has no parent and grandparent to form a chain";
    return false;
  }
  LimbChain custom;
  custom.name = std::string(name);
  custom.upper = upper;
  custom.lower = lower;
  custom.end = end;
  custom.found_by = "custom";
  MeasureChain(skeleton, rest, custom);
  if (custom.upper_length <= 0.f || custom.lower_length <= 0.f) {
    *error = "chain '" + std::string(name) + "' has a zero-length bone (" + skeleton.names[upper] +
             " -> " + skeleton.names[lower] + " -> " + skeleton.names[end] + ")";
    return false;
  }
  *chain = custom;
  return true;
}

}  // namespace ikpose::anim
