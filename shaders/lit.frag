// Shading that shows form: one key light plus hemisphere ambient (sky above, ground below),
// on the material's base colour times its texture. Inputs: model-space position and normal,
// texture coordinate, and the hover highlight's weight (0..1), which tints toward orange.
#version 330 core
in vec3 v_position_ms;
in vec3 v_normal_ms;
in vec2 v_uv;
in float v_highlight;

uniform vec4 u_base_color;
uniform sampler2D u_base_texture;
uniform bool u_has_texture;
uniform vec3 u_light_dir_ms;  // towards the light, normalised
uniform vec3 u_eye_ms;
uniform vec3 u_up_ms;         // the model's up axis, for the hemisphere

out vec4 frag_color;

void main() {
  vec3 n = normalize(v_normal_ms);
  if (!gl_FrontFacing) n = -n;  // thin or open meshes stay lit from behind
  vec4 base = u_base_color;
  if (u_has_texture) base *= texture(u_base_texture, v_uv);
  float key = max(dot(n, u_light_dir_ms), 0.0);
  float sky = 0.5 + 0.5 * dot(n, u_up_ms);
  vec3 ambient = mix(vec3(0.22, 0.20, 0.18), vec3(0.45, 0.50, 0.58), sky);
  vec3 view = normalize(u_eye_ms - v_position_ms);
  float rim = pow(1.0 - max(dot(n, view), 0.0), 3.0) * 0.15;
  vec3 color = base.rgb * (ambient + vec3(1.0, 0.96, 0.9) * key * 0.85) + rim;
  color = mix(color, vec3(1.0, 0.45, 0.1) * (0.35 + 0.65 * key), 0.6 * clamp(v_highlight, 0.0, 1.0));
  frag_color = vec4(pow(color, vec3(1.0 / 2.2)), base.a);
}
