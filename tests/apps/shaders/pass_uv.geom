#version 450
// pass_uv.geom - a pass-through geometry shader that carries the texture coordinates and
// touches no memory: tier 3 instruments the rest of its pipeline (features geom).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec2 uv_in[];
layout(location = 0) out vec2 uv;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        uv = uv_in[i];
        EmitVertex();
    }
    EndPrimitive();
}
