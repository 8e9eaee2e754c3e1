#version 450
// words.vert - a vertex shader that reads its uniforms a component at a time at constant
// offsets, as Zink's translations of OpenGL programs do: a matrix from bytes 16..79 of the
// uniform buffer (16 loads across two 64-byte lines), a scale at byte 0 after the position's
// arithmetic and a factor at byte 192 (the same block: with a window of four lines' bytes one
// run of 18 loads across four lines), and a word in a branch (a run of its own). Each vertex of
// quad q = index / 6 lies on a 32 x 32 grid.
layout(set = 0, binding = 0) uniform U { vec4 v[16]; } u;
layout(location = 0) out vec4 tint;
void main() {
    mat4 m = mat4(u.v[1].x, u.v[1].y, u.v[1].z, u.v[1].w, u.v[2].x, u.v[2].y, u.v[2].z, u.v[2].w,
                  u.v[3].x, u.v[3].y, u.v[3].z, u.v[3].w, u.v[4].x, u.v[4].y, u.v[4].z, u.v[4].w);
    int q = gl_VertexIndex / 6, k = gl_VertexIndex % 6;
    int cx = (k == 1 || k == 2 || k == 4) ? 1 : 0, cy = (k == 2 || k == 4 || k == 5) ? 1 : 0;
    vec2 p = (vec2(q % 32 + cx, q / 32 + cy) / 16.0 - 1.0) * u.v[0].x;
    gl_Position = m * vec4(p, 0.0, 1.0) * u.v[12].x;
    tint = vec4(1.0);
    if ((gl_VertexIndex & 7) == 3)
        tint.x = u.v[5].y;
}
