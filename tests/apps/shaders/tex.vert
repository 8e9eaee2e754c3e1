#version 450
// tex.vert - a vertex shader's texture reads, which tier 3 records with the vertex index: each
// vertex of a full-screen triangle samples at level 0 at (0.25 x index, 0.5) and fetches texel
// (index, 1).
layout(set = 0, binding = 0) uniform sampler2D tex;
void main() {
    vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    vec4 t = textureLod(tex, vec2(0.25 * float(gl_VertexIndex), 0.5), 0.0) +
             texelFetch(tex, ivec2(gl_VertexIndex, 1), 0);
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0) + 0.0 * t;
}
