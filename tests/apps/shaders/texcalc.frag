#version 450
// texcalc.frag - texture coordinates the SPIR-V reader must tell apart: computed (binding 0),
// a swizzle of an input (binding 1, direct), a dependent read (binding 2), one image sampled
// two ways (binding 3).
layout(set = 0, binding = 0) uniform sampler2D a;
layout(set = 0, binding = 1) uniform sampler2D b;
layout(set = 0, binding = 2) uniform sampler2D c;
layout(set = 0, binding = 3) uniform sampler2D d;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 st;
layout(location = 0) out vec4 color;
void main() {
    vec4 x = texture(a, uv * 2.0);
    vec4 y = texture(b, st.wz);
    vec4 z = texture(c, y.xy);
    vec4 w = texture(d, uv) + texture(d, st.xy);
    color = x + y + z + w;
}
