#version 450
// depth.frag - a depth-only pass writes no color.
void main() {}
