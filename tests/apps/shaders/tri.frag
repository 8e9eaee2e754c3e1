#version 450
// tri.frag - a solid color.
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0, 0.25, 0.0, 1.0); }
