#version 450
// sample.comp - a compute shader's texture reads tier 3 records: a sample at an explicit level
// and a fetch through an array of textures by a specialization-constant index.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D heap[2];
layout(set = 0, binding = 2) buffer Out { vec4 o[]; };
layout(constant_id = 0) const uint I = 0;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    vec2 uv = (vec2(g) + 0.5) / 16.0;
    o[g.y * 16 + g.x] = textureLod(tex, uv, 1.0) + texelFetch(heap[I], ivec2(g), 0);
}
