#version 450
// instr.comp - buffer accesses of every shape capture tier 3's pass instruments: a signed
// index read from a buffer (a dependent read), a struct array with padding (std430 stride 32)
// loaded whole, a uniform buffer member, a store at a computed index, an atomic.
layout(local_size_x = 16) in;
struct Item { vec4 pos; uint id; float w; };
layout(set = 0, binding = 0) readonly buffer In { uint n; uint pad[3]; Item items[]; } src;
layout(set = 0, binding = 1) buffer Out { uint count; uint pad2[3]; uint v[]; } dst;
layout(set = 0, binding = 2) uniform U { uvec4 scale; } u;
layout(set = 0, binding = 3) readonly buffer Idx { int idx[]; } ix;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	int j = ix.idx[i];
	Item it = src.items[j];
	dst.v[i * u.scale.x] = it.id + floatBitsToUint(it.w) + floatBitsToUint(it.pos.y);
	atomicAdd(dst.count, 1u);
}
