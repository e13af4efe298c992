#version 330 core
// One directional light, Lambert diffuse plus a sky/ground ambient term.
in vec3 vNormal;
in vec3 vColor;

uniform vec3 uLightDir;  // unit vector towards the light

out vec4 fragColor;

void main() {
  vec3 n = normalize(vNormal);
  float diffuse = max(dot(n, uLightDir), 0.0);
  float sky = 0.5 + 0.5 * n.y;
  vec3 ambient = mix(vec3(0.18, 0.17, 0.16), vec3(0.34, 0.36, 0.40), sky);
  fragColor = vec4(vColor * (ambient + 0.75 * diffuse), 1.0);
}
