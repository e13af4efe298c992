#version 330 core
// One directional light, Lambert diffuse plus a sky/ground ambient term; the polygon's outline
// drawn about a pixel wide where an edge coordinate nears 0 (screen-space width from fwidth).
in vec3 vNormal;
in vec3 vColor;
in vec3 vEdge;

uniform vec3 uLightDir;   // unit vector towards the light
uniform vec4 uEdgeColor;  // outline colour
uniform float uOutline;   // 1 draws the outlines, 0 does not

out vec4 fragColor;

void main() {
  vec3 n = normalize(vNormal);
  float diffuse = max(dot(n, uLightDir), 0.0);
  float sky = 0.5 + 0.5 * n.y;
  vec3 ambient = mix(vec3(0.18, 0.17, 0.16), vec3(0.34, 0.36, 0.40), sky);
  vec3 shaded = vColor * (ambient + 0.75 * diffuse);
  vec3 pixels = vEdge / max(fwidth(vEdge), vec3(1e-6));  // distance to each edge in pixels
  float edge = 1.0 - clamp(min(min(pixels.x, pixels.y), pixels.z), 0.0, 1.0);
  fragColor = vec4(mix(shaded, uEdgeColor.rgb, edge * uOutline), 1.0);
}
