#version 330 core
// Lines (ground grid, hull edges) with a colour per vertex or a constant colour attribute.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;

uniform mat4 uModel;
uniform mat4 uViewProj;

out vec4 vColor;

void main() {
  vColor = aColor;
  gl_Position = uViewProj * uModel * vec4(aPosition, 1.0);
}
