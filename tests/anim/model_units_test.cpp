// Lengths shown to people (the panel's centimetres) come from the file's stated units; a
// centimetre file must not show lengths a hundred times too large.
#include <gtest/gtest.h>

#include "anim/model.h"

namespace ikpose::anim {
namespace {

float For(const std::string& units) {
  Model model;
  model.units = units;
  return MetersPerUnit(model);
}

TEST(MetersPerUnit, FollowsTheFilesUnits) {
  EXPECT_FLOAT_EQ(For("m"), 1.0f);
  EXPECT_FLOAT_EQ(For("cm"), 0.01f);  // an FBX with UnitScaleFactor 1: 1.035 units is 1.035 cm
  EXPECT_FLOAT_EQ(For("2.540000 cm"), 0.0254f);  // inches, as the loader writes them
}

TEST(MetersPerUnit, UnknownUnitsAreNotGuessed) {
  EXPECT_EQ(For(""), 0.0f);
  EXPECT_EQ(For("furlong"), 0.0f);
  EXPECT_EQ(For("-3 cm"), 0.0f);
  EXPECT_EQ(For("nan cm"), 0.0f);
}

}  // namespace
}  // namespace ikpose::anim
