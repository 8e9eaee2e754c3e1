#version 450
// tri.frag - a solid color. It declares the texture binding the scene's set has but never
// reads it: capture must not count the texture for its draw (static use, from the SPIR-V).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0, 0.25, 0.0, 1.0); }
