#version 450
// color.frag - a solid color from push constants: each draw of the geometry test its own.
layout(push_constant) uniform Push { vec4 color; } pc;
layout(location = 0) out vec4 color;
void main() { color = pc.color; }
