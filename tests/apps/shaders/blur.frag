#version 450
// blur.frag - a horizontal blur of the light pass's output: three fetches a pixel, its own
// texel and its left and right neighbours (clamped at the edges).
layout(set = 0, binding = 0) uniform sampler2D lit;
layout(location = 0) out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy), s = textureSize(lit, 0) - 1;
    color = (texelFetch(lit, ivec2(max(p.x - 1, 0), p.y), 0) + texelFetch(lit, p, 0) +
             texelFetch(lit, ivec2(min(p.x + 1, s.x), p.y), 0)) / 3.0;
}
