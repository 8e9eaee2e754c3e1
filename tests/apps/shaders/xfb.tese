#version 450
// xfb.tese - a tessellation evaluation shader in point mode, for the transform-feedback
// rewrite's unit test.
layout(quads, point_mode) in;
void main() { gl_Position = vec4(gl_TessCoord.xy, 0.5, 1.0); }
