#version 450
// sample_heap.frag - samples the texture rendered in the first pass through an array of two
// textures, by an index the pipeline's specialization gives (app_scene's heap mode: 1).
layout(set = 0, binding = 0) uniform sampler2D tex[2];
layout(constant_id = 0) const uint I = 0;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(tex[I], uv).bgra; }
