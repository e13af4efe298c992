# stb from Debian's libstb-dev: libstb.so already holds stb_image and stb_image_write (no
# *_IMPLEMENTATION define needed). Defines tumble::stb with its headers as SYSTEM.
if(TARGET tumble::stb)
  return()
endif()
find_package(PkgConfig REQUIRED)
pkg_check_modules(TUMBLE_STB REQUIRED IMPORTED_TARGET GLOBAL stb)
add_library(tumble::stb ALIAS PkgConfig::TUMBLE_STB)
