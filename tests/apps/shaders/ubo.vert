#version 450
// ubo.vert - a vertex shader that reads its matrix and its positions from a uniform buffer by
// gl_VertexIndex, as vkcube's does.
layout(set = 0, binding = 0) uniform U { mat4 mvp; vec4 pos[3]; } u;
void main() { gl_Position = u.mvp * u.pos[gl_VertexIndex]; }
