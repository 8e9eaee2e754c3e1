#version 450
// image.comp - storage image traffic for capture tier 3: each invocation reads a texel 32 rows
// below its own and writes its own, over the top 16 rows of a 64 x 64 image.
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
void main()
{
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	uint v = imageLoad(img, ivec2(p.x, p.y + 32)).x;
	imageStore(img, p, uvec4(v + 1u));
}
