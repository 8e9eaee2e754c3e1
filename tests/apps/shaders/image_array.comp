#version 450
// image_array.comp - an arrayed storage image for capture tier 3: each invocation reads its own
// texel of layer 1 and writes it, plus one, to the same texel of layer 0 (the top quarter).
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DArray img;
void main()
{
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	uint v = imageLoad(img, ivec3(p, 1)).x;
	imageStore(img, ivec3(p, 0), uvec4(v + 1u));
}
