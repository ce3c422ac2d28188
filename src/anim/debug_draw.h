// DebugDraw: a list of coloured line segments that any layer can add shapes to (lines,
// spheres, circles, axes, crosses; and filled quads) and that the renderer draws in one call. It
// holds no GL state, so the UI and the app record overlays without touching OpenGL.
#pragma once

#include <cmath>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::anim {

struct DebugVertex {
  glm::vec3 position_ms;
  glm::vec4 color;
};

class DebugDraw {
 public:
  void Clear() {
    vertices_.clear();
    triangles_.clear();
  }
  const std::vector<DebugVertex>& vertices() const { return vertices_; }
  // Filled shapes, three vertices a triangle, drawn before the lines.
  const std::vector<DebugVertex>& triangles() const { return triangles_; }

  // A filled quad, corners in order round it.
  void Quad(const glm::vec3& a_ms, const glm::vec3& b_ms, const glm::vec3& c_ms,
            const glm::vec3& d_ms, const glm::vec4& color) {
    for (const glm::vec3* p : {&a_ms, &b_ms, &c_ms, &a_ms, &c_ms, &d_ms}) {
      triangles_.push_back({*p, color});
    }
  }

  void Line(const glm::vec3& from_ms, const glm::vec3& to_ms, const glm::vec4& color) {
    vertices_.push_back({from_ms, color});
    vertices_.push_back({to_ms, color});
  }

  // A circle of `radius` around `center_ms` in the plane whose normal is `normal_ms`.
  void Circle(const glm::vec3& center_ms, const glm::vec3& normal_ms, float radius,
              const glm::vec4& color, int segments = 48) {
    glm::vec3 u;
    glm::vec3 v;
    Basis(normal_ms, &u, &v);
    glm::vec3 previous = center_ms + radius * u;
    for (int i = 1; i <= segments; ++i) {
      const float angle = 6.28318530718f * static_cast<float>(i) / static_cast<float>(segments);
      const glm::vec3 point = center_ms + radius * (std::cos(angle) * u + std::sin(angle) * v);
      Line(previous, point, color);
      previous = point;
    }
  }

  // Three great circles: reads as a sphere from any side.
  void Sphere(const glm::vec3& center_ms, float radius, const glm::vec4& color, int segments = 24) {
    Circle(center_ms, {1, 0, 0}, radius, color, segments);
    Circle(center_ms, {0, 1, 0}, radius, color, segments);
    Circle(center_ms, {0, 0, 1}, radius, color, segments);
  }

  // Red, green, blue for a frame's x, y, z axes.
  void Axes(const glm::mat4& frame_ms, float length) {
    const glm::vec3 origin(frame_ms[3]);
    for (int axis = 0; axis < 3; ++axis) {
      glm::vec4 color(0, 0, 0, 1);
      color[axis] = 1.0f;
      Line(origin, origin + length * glm::normalize(glm::vec3(frame_ms[axis])), color);
    }
  }

  void Cross(const glm::vec3& center_ms, float size, const glm::vec4& color) {
    for (int axis = 0; axis < 3; ++axis) {
      glm::vec3 d(0);
      d[axis] = size;
      Line(center_ms - d, center_ms + d, color);
    }
  }

 private:
  static void Basis(const glm::vec3& normal, glm::vec3* u, glm::vec3* v) {
    const glm::vec3 n = glm::normalize(normal);
    const glm::vec3 helper = std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    *u = glm::normalize(glm::cross(n, helper));
    *v = glm::cross(n, *u);
  }

  std::vector<DebugVertex> vertices_;
  std::vector<DebugVertex> triangles_;
};

}  // namespace ikpose::anim
