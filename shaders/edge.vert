#version 330 core
// Hull edges, instanced like the faces (mesh.vert): one colour for every outline.
layout(location = 0) in vec3 aPosition;
layout(location = 2) in mat4 aModel;  // locations 2-5, per instance

uniform mat4 uViewProj;
uniform vec4 uColor;

out vec4 vColor;

void main() {
  vColor = uColor;
  gl_Position = uViewProj * aModel * vec4(aPosition, 1.0);
}
