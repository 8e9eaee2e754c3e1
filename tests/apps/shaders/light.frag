#version 450
// light.frag - a deferred renderer's light pass: each pixel fetches its own texel of the three
// G-buffer attachments and the depth buffer (one fetch each, no filtering) and shades them.
layout(set = 0, binding = 0) uniform sampler2D gbuf[4]; // albedo, normal, material, depth
layout(location = 0) out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 a = texelFetch(gbuf[0], p, 0), n = texelFetch(gbuf[1], p, 0);
    vec4 m = texelFetch(gbuf[2], p, 0);
    float z = texelFetch(gbuf[3], p, 0).r;
    float l = max(dot(n.xyz * 2.0 - 1.0, normalize(vec3(0.3, 0.4, 1.0))), 0.0);
    color = vec4(a.rgb * l * m.r + vec3(z * 0.1), 1.0);
}
