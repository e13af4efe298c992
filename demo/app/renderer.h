#pragma once
// Draws bodies (flat-shaded hull, triangle mesh and height field meshes and smooth sphere and
// capsule meshes, shape_mesh.h, with edge outlines, one directional light; the parts of a large
// mesh outside the view left out) and the ground
// grid with OpenGL 3.3 core. Scenes talk to it through meshes and a per-frame draw queue, never
// through GL.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "camera.h"
#include "hull_mesh.h"
#include "tumble/math.h"

namespace tumble::demo {

/// Index of a mesh uploaded with Renderer::addMesh.
using MeshId = int;

class Renderer {
 public:
  Renderer() = default;
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;
  ~Renderer();

  /// Loads the shaders from `shaderDir` and builds the grid. Needs a current GL context.
  /// Returns an error naming a missing shader file or a compile error.
  Expected<void> init(const std::filesystem::path& shaderDir);

  /// Loads the shader files again (hot reload). On an error the old programs stay in use and the
  /// message names the file.
  Expected<void> reloadShaders();

  /// Uploads a mesh; valid until clearMeshes().
  MeshId addMesh(const MeshData& mesh);
  /// Frees every mesh (when the scene changes).
  void clearMeshes();

  /// Queues `mesh` at `transform` with an RGB colour in [0, 1] for the next render().
  void drawBody(MeshId mesh, const Transform& transform, const glm::vec3& color);

  /// Queues a world-space line segment (debug drawing) with an RGBA colour for the next render().
  /// Lines are drawn over the bodies with the depth test on.
  void drawLine(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color);
  /// Queues the 12 edges of an axis-aligned box.
  void drawBox(const glm::vec3& lo, const glm::vec3& hi, const glm::vec4& color);
  /// Queues a small three-axis cross of half-size `size` metres at `p`.
  void drawCross(const glm::vec3& p, float size, const glm::vec4& color);

  /// Whether render() draws the meshes' faces and their edges (outlines on the faces, or the
  /// meshes' lines when the faces are off) (debug toggles); both on by default.
  void setBodyStyle(bool faces, bool edges) {
    drawFaces_ = faces;
    drawEdges_ = edges;
  }

  /// Clears the frame, draws the grid and the queued bodies seen from `camera`, and empties the
  /// queue. `width` x `height` is the framebuffer size in pixels.
  void render(const OrbitCamera& camera, int width, int height);

  /// Bodies drawn by the last render().
  int lastBodyCount() const { return lastBodyCount_; }
  /// Draw calls issued by the last render() (one per mesh kind with instancing, plus lines).
  int lastDrawCalls() const { return lastDrawCalls_; }

 private:
  // Per-instance data: the model matrix (4 columns) and the colour, 20 floats.
  struct Instance {
    glm::mat4 model;
    glm::vec4 color;
  };
  struct GpuMesh {
    unsigned triangleVao = 0, triangleVbo = 0, lineVao = 0, lineVbo = 0;
    int triangleVertices = 0, lineVertices = 0;
    std::vector<MeshData::Part> parts;  // culled one by one (a terrain); empty: drawn whole
    std::vector<Instance> instances;    // this frame's queue
  };

  void buildGrid();
  Expected<void> loadPrograms();
  void bindInstanceAttributes(unsigned vao) const;
  // Draws the faces of `g`'s instances: whole, or the parts some instance may see through
  // `viewProj` (consecutive ones in one call). Returns the draw calls made.
  int drawFaces(const GpuMesh& g, const glm::mat4& viewProj) const;

  std::filesystem::path shaderDir_;
  unsigned meshProgram_ = 0, edgeProgram_ = 0, lineProgram_ = 0;
  int meshViewProj_ = -1, meshLight_ = -1, meshEdgeColor_ = -1, meshOutline_ = -1;
  int edgeViewProj_ = -1, edgeColor_ = -1;
  int lineModel_ = -1, lineViewProj_ = -1;
  unsigned gridVao_ = 0, gridVbo_ = 0;
  int gridVertices_ = 0;
  unsigned instanceVbo_ = 0;  // shared, refilled per mesh per frame
  unsigned debugVao_ = 0, debugVbo_ = 0;
  std::vector<float> debugLines_;  // x y z r g b a per vertex
  std::vector<GpuMesh> meshes_;
  bool drawFaces_ = true, drawEdges_ = true;
  int lastBodyCount_ = 0;
  int lastDrawCalls_ = 0;
};

}  // namespace tumble::demo
