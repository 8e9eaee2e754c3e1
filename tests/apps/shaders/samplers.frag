#version 450
// samplers.frag - the samples tier 3 records with a prefix: through an array of textures indexed
// by a value the module does not hold (a specialization constant: lavapipe has no dynamic
// indexing of sampled images, and the pass takes any index that is not an OpConstant as one
// known only at run time), of an arrayed texture, of a cube and of a volume; and a projective one, recorded
// divided; and two with gradients, whose texel-scaled squared length they record.
layout(set = 0, binding = 0) uniform sampler2D heap[3];
layout(set = 0, binding = 1) uniform sampler2DArray arr;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform sampler3D vol;
layout(set = 0, binding = 4) uniform samplerCubeArray cubes;
layout(constant_id = 0) const uint I = 0;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = texture(heap[I], uv) + texture(arr, vec3(uv, 2.0)) +
            texture(cube, vec3(1.0, uv.y * 2.0 - 1.0, uv.x * 2.0 - 1.0)) +
            textureProj(heap[1], vec3(uv, 2.0)) +
            textureGrad(heap[0], uv, vec2(0.25, 0.0), vec2(0.0, 0.5)) +
            textureGrad(arr, vec3(uv, 1.0), dFdx(uv) * 4.0, dFdy(uv) * 2.0) +
            texture(vol, vec3(uv, 0.75)) + texture(cubes, vec4(-1.0, uv * 2.0 - 1.0, 1.0));
}
