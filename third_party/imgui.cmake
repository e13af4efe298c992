# Dear ImGui 1.86 from Debian's libimgui-dev: the prebuilt libimgui.a already holds the SDL2
# (imgui_impl_sdl) and OpenGL3 (imgui_impl_opengl3) backends; their headers are in
# /usr/include/imgui/backends. Also SDL2. Imported targets, so their headers are SYSTEM and never
# trip -Werror.
#   tumble::imgui  Dear ImGui core + SDL2/OpenGL3 backends (+ SDL2)
if(TARGET tumble::imgui)
  return()
endif()

find_package(PkgConfig REQUIRED)
find_package(SDL2 REQUIRED CONFIG)
pkg_check_modules(TUMBLE_IMGUI REQUIRED IMPORTED_TARGET GLOBAL imgui)

find_path(TUMBLE_IMGUI_BACKENDS_DIR imgui_impl_sdl.h PATHS ${TUMBLE_IMGUI_INCLUDE_DIRS}
          PATH_SUFFIXES backends REQUIRED NO_DEFAULT_PATH)

add_library(tumble_imgui INTERFACE)
add_library(tumble::imgui ALIAS tumble_imgui)
target_include_directories(tumble_imgui SYSTEM INTERFACE ${TUMBLE_IMGUI_BACKENDS_DIR})
# The OpenGL3 backend loads libGL itself with dlopen (its bundled imgl3w loader).
target_link_libraries(tumble_imgui INTERFACE PkgConfig::TUMBLE_IMGUI SDL2::SDL2 ${CMAKE_DL_LIBS})
