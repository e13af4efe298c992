#version 330 core
// Body faces, instanced: one draw per mesh, each instance with its own model matrix (a rigid
// transform) and colour. The normal (a hull's flat face normal, a sphere's or capsule's smooth
// per-vertex normal, interpolated) goes to the lighting, the edge coordinates to the outline
// (hull_mesh.h, shape_mesh.h).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in mat4 aModel;  // locations 2-5, per instance
layout(location = 6) in vec4 aColor;  // per instance, linear RGB in [0, 1]
layout(location = 7) in vec3 aEdge;   // barycentric, +1 opposite the fan's inner diagonals

uniform mat4 uViewProj;  // projection * view

out vec3 vNormal;
out vec3 vColor;
out vec3 vEdge;

void main() {
  vNormal = mat3(aModel) * aNormal;  // rotation only: no inverse-transpose needed
  vColor = aColor.rgb;
  vEdge = aEdge;
  gl_Position = uViewProj * aModel * vec4(aPosition, 1.0);
}
