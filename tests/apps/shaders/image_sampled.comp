#version 450
// image_sampled.comp - image.comp with its read through a sampler: each invocation fetches the
// texel 32 rows below its own (texelFetch) and writes its own, over the top 16 rows.
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D img;
layout(set = 0, binding = 1) uniform usampler2D tex;
void main()
{
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	uint v = texelFetch(tex, ivec2(p.x, p.y + 32), 0).x;
	imageStore(img, p, uvec4(v + 1u));
}
