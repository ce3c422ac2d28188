// The reference image: its texture (u_image, RGBA, rows top first) times u_tint (alpha is the
// opacity the panel sets).
#version 330 core
in vec2 v_uv;
uniform sampler2D u_image;
uniform vec4 u_tint;
out vec4 frag_color;
void main() {
  frag_color = texture(u_image, v_uv) * u_tint;
}
