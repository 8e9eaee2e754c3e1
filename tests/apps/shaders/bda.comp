#version 450
// bda.comp - buffer device addresses for capture tier 3: each of 4096 invocations reads the word
// at 128 i of a source (every other line of it) and writes word i of a destination, both
// reached through addresses in push constants, bound to no descriptor.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(push_constant) uniform P { Words src; Words dst; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    pc.dst.v[i] = pc.src.v[i * 32u] + 1u;
}
