#version 450
// tri.vert - passes 2D positions through at depth 0.5.
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.5, 1.0); }
