// Linear-blend skinning. Inputs: bind-space position and normal, texture coordinate, four joint
// indices and weights per vertex. The palette (model matrix x inverse bind matrix per joint)
// lives in a texture buffer, four RGBA32F texels per matrix, so the joint count has no small
// fixed limit. Rigid meshes use one joint with weight 1. Outputs model-space position (also
// captured by transform feedback in the GPU-vs-CPU test) and normal, and how much the
// highlighted joint (u_highlight_joint, an index into this mesh's skin; -1 for none) weighs the
// vertex, for the hover tint.
#version 330 core
layout(location = 0) in vec3 a_position_bind;
layout(location = 1) in vec3 a_normal_bind;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in uvec4 a_joints;
layout(location = 4) in vec4 a_weights;

uniform samplerBuffer u_palette;
uniform int u_palette_offset;  // first palette entry of this mesh's skin
uniform mat4 u_view_proj;
uniform int u_highlight_joint;

out vec3 v_position_ms;
out vec3 v_normal_ms;
out vec2 v_uv;
out float v_highlight;

mat4 PaletteMatrix(uint joint) {
  int base = (u_palette_offset + int(joint)) * 4;
  return mat4(texelFetch(u_palette, base), texelFetch(u_palette, base + 1),
              texelFetch(u_palette, base + 2), texelFetch(u_palette, base + 3));
}

void main() {
  mat4 skin = a_weights.x * PaletteMatrix(a_joints.x) + a_weights.y * PaletteMatrix(a_joints.y) +
              a_weights.z * PaletteMatrix(a_joints.z) + a_weights.w * PaletteMatrix(a_joints.w);
  vec4 position_ms = skin * vec4(a_position_bind, 1.0);
  v_position_ms = position_ms.xyz;
  // The cofactor matrix is the inverse transpose times the determinant: after normalising it
  // keeps normals right under non-uniform scale, without a per-vertex matrix inverse.
  mat3 m = mat3(skin);
  mat3 cofactor = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
  v_normal_ms = normalize(cofactor * a_normal_bind);
  v_uv = a_uv;
  v_highlight = 0.0;
  if (u_highlight_joint >= 0) {
    uvec4 h = uvec4(uint(u_highlight_joint));
    v_highlight = dot(a_weights, vec4(equal(a_joints, h)));
  }
  gl_Position = u_view_proj * position_ms;
}
