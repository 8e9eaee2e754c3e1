#version 450
// words.frag - a fragment shader that reads its uniforms a component at a time at constant
// offsets: a colour (one run of four loads in one line) and, in a branch, a scale (a run of its
// own).
layout(set = 0, binding = 0) uniform U { vec4 v[16]; } u;
layout(location = 0) in vec4 tint;
layout(location = 0) out vec4 color;
void main() {
    vec4 c = vec4(u.v[10].x, u.v[10].y, u.v[10].z, u.v[10].w) * tint;
    if (gl_FragCoord.x < 200.0)
        c.rgb *= u.v[11].x + u.v[11].y;
    color = c;
}
