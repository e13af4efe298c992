#version 330 core
// Hull faces: world position and the (flat) face normal for lighting.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uModel;     // rigid transform of the body
uniform mat4 uViewProj;  // projection * view

out vec3 vNormal;

void main() {
  vNormal = mat3(uModel) * aNormal;  // rotation only: no inverse-transpose needed
  gl_Position = uViewProj * uModel * vec4(aPosition, 1.0);
}
