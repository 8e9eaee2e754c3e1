#version 450
// pos4.vert - clip-space positions straight from the vertex buffer (w may differ from 1:
// perspective), moved right by a quarter of the screen per instance.
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos + vec4(0.5 * float(gl_InstanceIndex) * pos.w, 0.0, 0.0, 0.0); }
