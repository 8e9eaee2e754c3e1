#version 450
// sample6.frag - samples the texture six times a pixel, around uv: a draw with six texture
// reads a pixel (ahead.c's "wide" draw, past one storage-buffer-bound record room).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main()
{
	vec4 c = vec4(0.0);
	for (int i = 0; i < 6; i++)
		c += texture(tex, uv + vec2(float(i) / 64.0, 0.0));
	color = (c / 6.0).bgra;
}
