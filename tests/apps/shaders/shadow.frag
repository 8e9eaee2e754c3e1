#version 450
// shadow.frag - samples a depth image (a shadow map) and blends a color by it.
layout(set = 0, binding = 0) uniform sampler2D shadow;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float d = texture(shadow, uv).r;
    color = vec4(d, 1.0 - d, 0.5, 0.5);
}
