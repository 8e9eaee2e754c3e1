// hlsl_pos.hlsl - an HLSL vertex shader (as vkd3d and DXVK translate Direct3D's): glslang
// gives its SV_Position a variable of its own, not a gl_PerVertex member.
float4 main(float4 pos : POSITION) : SV_Position { return pos * 0.5; }
