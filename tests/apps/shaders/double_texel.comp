#version 450
// double_texel.comp - x = 2x + 1 over a storage texel buffer (double.comp through a view).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimageBuffer data;
void main()
{
	int i = int(gl_GlobalInvocationID.x);
	imageStore(data, i, imageLoad(data, i) * 2u + 1u);
}
