#version 450
// words.comp - a compute shader that reads its uniforms a component at a time at constant
// offsets: a matrix from bytes 16..79 and a scale at byte 0 (one run of 17 loads across two
// lines), then writes each invocation's product to its own word of a storage buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform U { vec4 v[16]; } u;
layout(set = 0, binding = 1) buffer Out { float o[]; } dst;
void main() {
    mat4 m = mat4(u.v[1].x, u.v[1].y, u.v[1].z, u.v[1].w, u.v[2].x, u.v[2].y, u.v[2].z, u.v[2].w,
                  u.v[3].x, u.v[3].y, u.v[3].z, u.v[3].w, u.v[4].x, u.v[4].y, u.v[4].z, u.v[4].w);
    uint i = gl_GlobalInvocationID.x;
    vec4 p = m * vec4(float(i), 1.0, 2.0, 1.0) * u.v[0].x;
    dst.o[i] = p.x + p.y + p.z + p.w;
}
