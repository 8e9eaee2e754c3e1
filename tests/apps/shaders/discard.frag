#version 450
// discard.frag - discards some fragments and writes depth, for the SPIR-V reader's unit test.
layout(location = 0) out vec4 color;
void main() {
    if (gl_FragCoord.x < 8.0) discard;
    gl_FragDepth = 0.25;
    color = vec4(1.0);
}
