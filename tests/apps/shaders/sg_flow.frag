#version 450
// sg_flow.frag - control flow tier 3's subgroup reservation has to keep valid when it splits a
// block: a buffer read in a loop's condition (a loop header once optimized: not split), a
// sample after a separate texture and sampler are combined (the sampled image made again in
// the split block), a short-circuit && after a sample (an OpPhi naming the split block), and
// a fetch, an explicit-level sample and a uniform read (the coalesced kinds).
layout(set = 0, binding = 0) uniform texture2D img;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) buffer B { float v[]; } b;
layout(set = 0, binding = 3) uniform U { vec4 tint; } u;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main()
{
	vec4 acc = vec4(0);
	float s = 0;
	int i = 0;
	while (b.v[i] > 0.0 && i < 8) {
		acc += texture(sampler2D(img, smp), uv + float(i) * 0.01);
		s += b.v[i + 8];
		i++;
	}
	bool c = uv.x > 0.5 && texture(sampler2D(img, smp), uv).x > 0.25;
	vec4 f = texelFetch(sampler2D(img, smp), ivec2(gl_FragCoord.xy), 0);
	vec4 l = textureLod(sampler2D(img, smp), uv, 1.5);
	color = acc + f + l + u.tint + vec4(s + (c ? 1.0 : 0.0));
}
