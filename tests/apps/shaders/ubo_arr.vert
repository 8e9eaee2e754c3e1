#version 450
// ubo_arr.vert - an array of uniform buffers indexed at run time (by a push constant): tier 3's
// draw records carry the element in their third word.
layout(set = 0, binding = 0) uniform U { vec4 pos[3]; } u[2];
layout(push_constant) uniform P { uint which; } pc;
void main() { gl_Position = u[pc.which].pos[gl_VertexIndex]; }
