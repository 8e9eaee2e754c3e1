#version 450
// drawid.vert - fullscreen.vert's triangle, reading the draw's index in its multi-draw
// (gl_DrawID, SPIR-V's DrawIndex) without changing where it lands: a sub-draw of a multi-draw
// that reads it cannot be sent down on its own.
#extension GL_ARB_shader_draw_parameters : require
layout(location = 0) out vec2 uv;
void main() {
    uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(uv * 2.0 - 1.0, min(float(gl_DrawIDARB), 0.0), 1.0);
}
