#version 450
// bindless.comp - an array of storage buffers indexed at run time (by workgroup, from another
// buffer), as descriptor heaps are: tier 3's compute records carry the element.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) readonly buffer Sel { uint which[]; } sel;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint k = sel.which[gl_WorkGroupID.x] & 3u;
	bufs[k].v[i] += 1u;
}
