#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// sg_demote.frag - an alpha test as Zink compiles discard (a demotion to a helper), then a
// sample and a uniform read: tier 3's subgroup reservation asks OpIsHelperInvocationEXT which
// lanes still record.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform U { vec4 tint; } u;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main()
{
	vec4 c = texture(tex, uv);
	if (c.a < 0.5)
		demote;
	color = c * u.tint + texture(tex, uv * 2.0);
}
