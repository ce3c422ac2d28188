#include "asset/weights.h"

#include <algorithm>
#include <cmath>

namespace ikpose::asset {

VertexInfluences KeepFourLargest(std::vector<std::pair<float, int>> influences) {
  VertexInfluences out;
  std::erase_if(influences, [](const std::pair<float, int>& i) {
    return !(i.first > 0.f) || !std::isfinite(i.first) || i.second < 0;
  });
  std::sort(influences.begin(), influences.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  out.dropped = influences.size() > 4;
  if (influences.size() > 4) influences.resize(4);
  float sum = 0.f;
  for (const auto& [weight, joint] : influences) sum += weight;
  if (influences.empty() || !(sum > 0.f) || !std::isfinite(sum)) return out;
  out.count = static_cast<int>(influences.size());
  for (int i = 0; i < out.count; ++i) {
    out.joints[i] = static_cast<unsigned>(influences[static_cast<std::size_t>(i)].second);
    out.weights[i] = influences[static_cast<std::size_t>(i)].first / sum;
  }
  return out;
}

}  // namespace ikpose::asset
