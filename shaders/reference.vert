// The reference image's quad. Inputs: model-space corner and its texture coordinate;
// u_view_proj maps model space to clip space.
#version 330 core
layout(location = 0) in vec3 a_position_ms;
layout(location = 1) in vec2 a_uv;
uniform mat4 u_view_proj;
out vec2 v_uv;
void main() {
  v_uv = a_uv;
  gl_Position = u_view_proj * vec4(a_position_ms, 1.0);
}
