#include "renderer.h"

#include <algorithm>
#include <array>
#include <cstddef>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "gl_util.h"

namespace tumble::demo {
namespace {

constexpr int kGridHalfExtent = 10;  // metres each way from the origin, one line per metre
constexpr glm::vec3 kLightDirection{0.35f, 0.85f, 0.4f};  // towards the light, normalised below
constexpr glm::vec4 kEdgeColor{0.06f, 0.07f, 0.09f, 1.0f};
constexpr glm::vec3 kClearColor{0.62f, 0.68f, 0.75f};

glm::mat4 modelMatrix(const Transform& t) {
  const glm::mat4 rotation = glm::mat4_cast(glm::quat(t.rotation));
  return glm::translate(glm::mat4(1.0f), glm::vec3(t.position)) * rotation;
}

// The six planes of the view volume of `m` (projection * view), each (n, d) with n . p + d >= 0
// inside (Gribb and Hartmann, "Fast extraction of viewing frustum planes", 2001).
std::array<glm::vec4, 6> frustumPlanes(const glm::mat4& m) {
  const glm::vec4 row[4] = {
      glm::vec4(m[0][0], m[1][0], m[2][0], m[3][0]), glm::vec4(m[0][1], m[1][1], m[2][1], m[3][1]),
      glm::vec4(m[0][2], m[1][2], m[2][2], m[3][2]), glm::vec4(m[0][3], m[1][3], m[2][3], m[3][3])};
  return {row[3] + row[0], row[3] - row[0], row[3] + row[1],
          row[3] - row[1], row[3] + row[2], row[3] - row[2]};
}

// False when the box [lo, hi] placed by `model` is certainly out of view: all its corners outside
// one plane.
bool mayBeVisible(const std::array<glm::vec4, 6>& planes, const glm::mat4& model,
                  const glm::vec3& lo, const glm::vec3& hi) {
  glm::vec4 corner[8];
  for (int i = 0; i < 8; ++i)
    corner[i] = model * glm::vec4((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y,
                                  (i & 4) ? hi.z : lo.z, 1.0f);
  for (const glm::vec4& plane : planes) {
    bool outside = true;
    for (const glm::vec4& c : corner) outside = outside && glm::dot(plane, c) < 0.0f;
    if (outside) return false;
  }
  return true;
}

void pushLine(std::vector<float>& out, const glm::vec3& a, const glm::vec3& b, const glm::vec4& c) {
  for (const glm::vec3& p : {a, b}) {
    out.insert(out.end(), {p.x, p.y, p.z, c.r, c.g, c.b, c.a});
  }
}

}  // namespace

Renderer::~Renderer() {
  clearMeshes();
  if (gridVao_) glDeleteVertexArrays(1, &gridVao_);
  if (gridVbo_) glDeleteBuffers(1, &gridVbo_);
  if (debugVao_) glDeleteVertexArrays(1, &debugVao_);
  if (debugVbo_) glDeleteBuffers(1, &debugVbo_);
  if (instanceVbo_) glDeleteBuffers(1, &instanceVbo_);
  if (meshProgram_) glDeleteProgram(meshProgram_);
  if (edgeProgram_) glDeleteProgram(edgeProgram_);
  if (lineProgram_) glDeleteProgram(lineProgram_);
}

Expected<void> Renderer::init(const std::filesystem::path& shaderDir) {
  shaderDir_ = shaderDir;
  if (auto error = loadPrograms(); !error) return error;
  buildGrid();
  glGenBuffers(1, &instanceVbo_);
  glGenVertexArrays(1, &debugVao_);
  glGenBuffers(1, &debugVbo_);
  glBindVertexArray(debugVao_);
  glBindBuffer(GL_ARRAY_BUFFER, debugVbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 7 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 7 * sizeof(float),
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  checkGl("Renderer::init");
  return tumble::ok();
}

Expected<void> Renderer::reloadShaders() {
  return loadPrograms();
}

Expected<void> Renderer::loadPrograms() {
  auto mesh = loadProgram(shaderDir_, "mesh.vert", "mesh.frag");
  if (!mesh) return Expected<void>::failure(mesh.error());
  auto edge = loadProgram(shaderDir_, "edge.vert", "line.frag");
  if (!edge) {
    glDeleteProgram(*mesh);
    return Expected<void>::failure(edge.error());
  }
  auto line = loadProgram(shaderDir_, "line.vert", "line.frag");
  if (!line) {
    glDeleteProgram(*mesh);
    glDeleteProgram(*edge);
    return Expected<void>::failure(line.error());
  }
  if (meshProgram_) glDeleteProgram(meshProgram_);
  if (edgeProgram_) glDeleteProgram(edgeProgram_);
  if (lineProgram_) glDeleteProgram(lineProgram_);
  meshProgram_ = *mesh;
  edgeProgram_ = *edge;
  lineProgram_ = *line;
  meshViewProj_ = glGetUniformLocation(meshProgram_, "uViewProj");
  meshLight_ = glGetUniformLocation(meshProgram_, "uLightDir");
  meshEdgeColor_ = glGetUniformLocation(meshProgram_, "uEdgeColor");
  meshOutline_ = glGetUniformLocation(meshProgram_, "uOutline");
  edgeViewProj_ = glGetUniformLocation(edgeProgram_, "uViewProj");
  edgeColor_ = glGetUniformLocation(edgeProgram_, "uColor");
  lineModel_ = glGetUniformLocation(lineProgram_, "uModel");
  lineViewProj_ = glGetUniformLocation(lineProgram_, "uViewProj");
  return tumble::ok();
}

void Renderer::buildGrid() {
  std::vector<float> v;
  const float e = static_cast<float>(kGridHalfExtent);
  const glm::vec4 minor{0.42f, 0.45f, 0.50f, 1.0f};
  for (int i = -kGridHalfExtent; i <= kGridHalfExtent; ++i) {
    const float f = static_cast<float>(i);
    // The axes through the origin: X red, Z blue (right-handed, Y up).
    pushLine(v, {-e, 0.0f, f}, {e, 0.0f, f}, i == 0 ? glm::vec4(0.75f, 0.2f, 0.2f, 1.0f) : minor);
    pushLine(v, {f, 0.0f, -e}, {f, 0.0f, e}, i == 0 ? glm::vec4(0.2f, 0.3f, 0.8f, 1.0f) : minor);
  }
  gridVertices_ = static_cast<int>(v.size() / 7);
  glGenVertexArrays(1, &gridVao_);
  glGenBuffers(1, &gridVbo_);
  glBindVertexArray(gridVao_);
  glBindBuffer(GL_ARRAY_BUFFER, gridVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(float)), v.data(),
               GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 7 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 7 * sizeof(float),
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
}

MeshId Renderer::addMesh(const MeshData& mesh) {
  GpuMesh g;
  g.triangleVertices = mesh.triangleVertexCount();
  g.lineVertices = mesh.lineVertexCount();
  g.parts = mesh.parts;
  glGenVertexArrays(1, &g.triangleVao);
  glGenBuffers(1, &g.triangleVbo);
  glBindVertexArray(g.triangleVao);
  glBindBuffer(GL_ARRAY_BUFFER, g.triangleVbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.triangles.size() * sizeof(float)),
               mesh.triangles.data(), GL_STATIC_DRAW);
  constexpr GLsizei kStride = MeshData::kTriangleStride * sizeof(float);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, kStride, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, kStride,
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glEnableVertexAttribArray(7);
  glVertexAttribPointer(7, 3, GL_FLOAT, GL_FALSE, kStride,
                        reinterpret_cast<const void*>(6 * sizeof(float)));
  bindInstanceAttributes(g.triangleVao);

  // Edges use the edge program (instanced, one uniform colour).
  glGenVertexArrays(1, &g.lineVao);
  glGenBuffers(1, &g.lineVbo);
  glBindVertexArray(g.lineVao);
  glBindBuffer(GL_ARRAY_BUFFER, g.lineVbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.lines.size() * sizeof(float)),
               mesh.lines.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  bindInstanceAttributes(g.lineVao);
  glBindVertexArray(0);
  checkGl("Renderer::addMesh");
  meshes_.push_back(g);
  return static_cast<MeshId>(meshes_.size() - 1);
}

// The shared instance buffer feeds attributes 2-5 (model matrix columns) and 6 (colour), one
// step per instance. `vao` must be bound.
void Renderer::bindInstanceAttributes(unsigned vao) const {
  (void)vao;
  glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
  constexpr GLsizei kStride = sizeof(Instance);
  for (GLuint column = 0; column < 4; ++column) {
    glEnableVertexAttribArray(2 + column);
    glVertexAttribPointer(2 + column, 4, GL_FLOAT, GL_FALSE, kStride,
                          reinterpret_cast<const void*>(column * sizeof(glm::vec4)));
    glVertexAttribDivisor(2 + column, 1);
  }
  glEnableVertexAttribArray(6);
  glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, kStride,
                        reinterpret_cast<const void*>(offsetof(Instance, color)));
  glVertexAttribDivisor(6, 1);
}

void Renderer::clearMeshes() {
  for (GpuMesh& g : meshes_) {
    glDeleteVertexArrays(1, &g.triangleVao);
    glDeleteVertexArrays(1, &g.lineVao);
    glDeleteBuffers(1, &g.triangleVbo);
    glDeleteBuffers(1, &g.lineVbo);
  }
  meshes_.clear();
  debugLines_.clear();
}

void Renderer::drawBody(MeshId mesh, const Transform& transform, const glm::vec3& color) {
  if (mesh < 0 || mesh >= static_cast<MeshId>(meshes_.size())) return;
  meshes_[static_cast<size_t>(mesh)].instances.push_back(
      {modelMatrix(transform), glm::vec4(color, 1.0f)});
}

void Renderer::drawLine(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color) {
  pushLine(debugLines_, a, b, color);
}

void Renderer::drawBox(const glm::vec3& lo, const glm::vec3& hi, const glm::vec4& color) {
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int k = 0; k < 4; ++k) {
      glm::vec3 a = lo, b = lo;
      a[u] = b[u] = (k & 1) ? hi[u] : lo[u];
      a[v] = b[v] = (k & 2) ? hi[v] : lo[v];
      b[axis] = hi[axis];
      drawLine(a, b, color);
    }
  }
}

void Renderer::drawCross(const glm::vec3& p, float size, const glm::vec4& color) {
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 d(0.0f);
    d[axis] = size;
    drawLine(p - d, p + d, color);
  }
}

void Renderer::render(const OrbitCamera& camera, int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(kClearColor.r, kClearColor.g, kClearColor.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glFrontFace(GL_CCW);
  const glm::mat4 viewProj = camera.projection(width, height) * camera.view();
  const glm::mat4 identity(1.0f);
  int calls = 0, bodies = 0;

  // One instanced draw per mesh: its instances go into the shared buffer, then the faces with
  // their outlines. Faces are pushed back a little so that lines drawn afterwards (wireframe,
  // debug lines, the grid) win the depth test where they touch a face.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.0f, 1.0f);
  const glm::vec3 light = glm::normalize(kLightDirection);
  const glm::vec3 eye = camera.eye();
  for (GpuMesh& g : meshes_) {
    if (g.instances.empty()) continue;
    const auto count = static_cast<GLsizei>(g.instances.size());
    // Nearest first: hidden fragments then fail the depth test before they are shaded.
    auto distance = [&](const Instance& i) {
      const glm::vec3 d = glm::vec3(i.model[3]) - eye;
      return glm::dot(d, d);
    };
    std::stable_sort(
        g.instances.begin(), g.instances.end(),
        [&](const Instance& a, const Instance& b) { return distance(a) < distance(b); });
    bodies += static_cast<int>(count);
    glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(g.instances.size() * sizeof(Instance)),
                 g.instances.data(), GL_STREAM_DRAW);
    if (drawFaces_) {
      // With the faces on, the face shader draws the outlines too (one pass, no lines to
      // rasterise: on llvmpipe the line pass cost a third of the frame at 2000 boxes).
      glUseProgram(meshProgram_);
      glUniformMatrix4fv(meshViewProj_, 1, GL_FALSE, glm::value_ptr(viewProj));
      glUniform3fv(meshLight_, 1, glm::value_ptr(light));
      glUniform4fv(meshEdgeColor_, 1, glm::value_ptr(kEdgeColor));
      glUniform1f(meshOutline_, drawEdges_ ? 1.0f : 0.0f);
      glBindVertexArray(g.triangleVao);
      calls += drawFaces(g, viewProj);
    } else if (drawEdges_) {
      // Wireframe only: the mesh's lines (a hull's edges, a round shape's core and circles).
      glUseProgram(edgeProgram_);
      glUniformMatrix4fv(edgeViewProj_, 1, GL_FALSE, glm::value_ptr(viewProj));
      glUniform4fv(edgeColor_, 1, glm::value_ptr(kEdgeColor));
      glBindVertexArray(g.lineVao);
      glDrawArraysInstanced(GL_LINES, 0, g.lineVertices, count);
      ++calls;
    }
    g.instances.clear();
  }
  glDisable(GL_POLYGON_OFFSET_FILL);
  checkGl("Renderer::render bodies");

  glUseProgram(lineProgram_);
  glUniformMatrix4fv(lineViewProj_, 1, GL_FALSE, glm::value_ptr(viewProj));
  glUniformMatrix4fv(lineModel_, 1, GL_FALSE, glm::value_ptr(identity));
  glBindVertexArray(gridVao_);
  glDrawArrays(GL_LINES, 0, gridVertices_);
  ++calls;
  if (!debugLines_.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, debugVbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(debugLines_.size() * sizeof(float)),
                 debugLines_.data(), GL_STREAM_DRAW);
    glBindVertexArray(debugVao_);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(debugLines_.size() / 7));
    ++calls;
    debugLines_.clear();
  }
  glBindVertexArray(0);
  glUseProgram(0);
  checkGl("Renderer::render lines");
  lastBodyCount_ = bodies;
  lastDrawCalls_ = calls;
}

int Renderer::drawFaces(const GpuMesh& g, const glm::mat4& viewProj) const {
  const auto count = static_cast<GLsizei>(g.instances.size());
  if (g.parts.empty()) {
    glDrawArraysInstanced(GL_TRIANGLES, 0, g.triangleVertices, count);
    return 1;
  }
  // A terrain: the camera sees a fraction of it, and what it does not see would still be
  // transformed and clipped (llvmpipe spent most of a 256 x 256 field's frame there).
  const auto planes = frustumPlanes(viewProj);
  int calls = 0;
  int first = 0, end = 0;  // the run of visible parts being gathered (vertices)
  auto flush = [&] {
    if (end > first) {
      glDrawArraysInstanced(GL_TRIANGLES, first, end - first, count);
      ++calls;
    }
  };
  for (const MeshData::Part& part : g.parts) {
    const bool visible = std::any_of(
        g.instances.begin(), g.instances.end(),
        [&](const Instance& i) { return mayBeVisible(planes, i.model, part.lo, part.hi); });
    if (!visible) continue;
    if (part.first != end) {
      flush();
      first = part.first;
    }
    end = part.first + part.count;
  }
  flush();
  return calls;
}

}  // namespace tumble::demo
