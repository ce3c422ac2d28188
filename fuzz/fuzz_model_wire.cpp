// Fuzz target: the importer child's answer (asset/model_wire.h) as the parent reads it, then
// what the parent does with a model it accepted (the rig detection and checks, the bounds).
// Any input must give a model that encodes back to the same bytes, a failure reason of one
// line, or one line saying what is corrupt.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "anim/rig_checks.h"
#include "asset/model_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ikpose::anim::Model model;
  std::string text;
  switch (ikpose::asset::DecodeAnswer(bytes, &model, &text)) {
    case ikpose::asset::WireAnswer::kModel: {
      if (ikpose::asset::EncodeModel(model) != bytes) __builtin_trap();
      const ikpose::anim::Pose rest = ikpose::anim::RestPose(model.skeleton);
      ikpose::anim::ComputeBounds(model, rest);
      ikpose::anim::DetectRig(model);
      ikpose::anim::CheckRig(model.skeleton, rest, model.chains);
      break;
    }
    case ikpose::asset::WireAnswer::kFailure:
    case ikpose::asset::WireAnswer::kCorrupt:
      if (text.empty() || text.find('\n') != std::string::npos) __builtin_trap();
      break;
  }
  return 0;
}
