#version 450
// double.comp - x = 2x + 1 over a storage buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; } data;
void main() { data.v[gl_GlobalInvocationID.x] = data.v[gl_GlobalInvocationID.x] * 2u + 1u; }
