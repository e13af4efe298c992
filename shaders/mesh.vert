#version 330 core
// Hull faces, instanced: one draw per hull mesh, each instance with its own model matrix (a rigid
// transform) and colour. World position and the flat face normal go to the lighting.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in mat4 aModel;  // locations 2-5, per instance
layout(location = 6) in vec4 aColor;  // per instance, linear RGB in [0, 1]

uniform mat4 uViewProj;  // projection * view

out vec3 vNormal;
out vec3 vColor;

void main() {
  vNormal = mat3(aModel) * aNormal;  // rotation only: no inverse-transpose needed
  vColor = aColor.rgb;
  gl_Position = uViewProj * aModel * vec4(aPosition, 1.0);
}
