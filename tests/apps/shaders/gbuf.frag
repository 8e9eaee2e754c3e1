#version 450
// gbuf.frag - a deferred renderer's G-buffer fill: albedo, normal and material, each RGBA8.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 albedo;
layout(location = 1) out vec4 normal;
layout(location = 2) out vec4 material;
void main() {
    albedo = vec4(uv, 0.25, 1.0);
    normal = vec4(0.5, 0.5, 1.0, 0.0);
    material = vec4(fract(uv * 8.0), 0.5, 1.0);
}
