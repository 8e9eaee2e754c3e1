#version 450
// ubo_novi.vert - reads a uniform buffer but not gl_VertexIndex, so tier 3's pass must add
// the VertexIndex input (and list it in the entry point's interface) to record it.
layout(set = 0, binding = 0) uniform U { mat4 mvp; vec4 pos[3]; } u;
void main() { gl_Position = u.mvp * u.pos[1]; }
