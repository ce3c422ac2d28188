# `cmake --install`: the solver (src/ik) and the animation layer it needs (src/anim) as static
# libraries with their headers, the C header <ikpose/ikpose.h>, a CMake package
# (find_package(ikpose): ikpose::ik, ikpose::anim) and a pkg-config file (ikpose.pc). Nothing of
# SDL, GL, ImGui, assimp or JSON: those layers are not installed.
#
# Layout under the prefix:
#   include/ikpose/ikpose.h           the C interface (#include <ikpose/ikpose.h>)
#   include/ikpose/ikpose_link.h      the game's end of the live link (include/ikpose_link.h)
#   include/ikpose/ik/*.h, anim/*.h   the C++ headers, included as "ik/..." and "anim/..."
#   lib/libikpose_ik.a, libikpose_anim.a
#   lib/cmake/ikpose/                 ikposeConfig.cmake, ikposeConfigVersion.cmake, targets
#   lib/pkgconfig/ikpose.pc
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(IKPOSE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ikpose)
set(IKPOSE_INSTALL_PCDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The same names in the build tree, for a project that adds ikpose as a subdirectory.
add_library(ikpose::ik ALIAS ikpose_ik)
add_library(ikpose::anim ALIAS ikpose_anim)
set_target_properties(ikpose_ik PROPERTIES EXPORT_NAME ik)
set_target_properties(ikpose_anim PROPERTIES EXPORT_NAME anim)

# Installed, the C++ headers keep their "ik/..." and "anim/..." include names, and the C header
# is <ikpose/ikpose.h>. The build tree's include folders are set in IkposeTargets and
# src/anim/CMakeLists.txt and stay as they are.
foreach(lib IN ITEMS ikpose_ik ikpose_anim)
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/ikpose>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# The libraries are C++: a program linked by the C compiler (a C-only project) needs the C++
# runtime they were built against and libm named, as ikpose.pc's Libs does.
target_link_libraries(ikpose_ik INTERFACE $<INSTALL_INTERFACE:stdc++> $<INSTALL_INTERFACE:m>)

# A sanitizer build's objects call into the sanitizer runtimes: whoever links the installed
# libraries must link those runtimes too.
set(IKPOSE_INSTALL_LINK_FLAGS "")
if(IKPOSE_SANITIZERS OR IKPOSE_FUZZ)
  set(IKPOSE_INSTALL_LINK_FLAGS "-fsanitize=address,undefined,float-cast-overflow")
  target_link_options(ikpose_ik INTERFACE
    "$<INSTALL_INTERFACE:-fsanitize=address$<COMMA>undefined$<COMMA>float-cast-overflow>")
endif()

install(TARGETS ikpose_ik ikpose_anim EXPORT ikposeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
file(GLOB ikpose_ik_headers ${PROJECT_SOURCE_DIR}/src/ik/*.h)
file(GLOB ikpose_anim_headers ${PROJECT_SOURCE_DIR}/src/anim/*.h)
install(FILES ${ikpose_ik_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ikpose/ik)
install(FILES ${ikpose_anim_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ikpose/anim)
install(FILES ${PROJECT_BINARY_DIR}/include/ikpose/ikpose.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ikpose)
# The game's end of the live link (#include <ikpose/ikpose_link.h>): header only, sockets only.
install(FILES ${PROJECT_SOURCE_DIR}/include/ikpose_link.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ikpose)

install(EXPORT ikposeTargets NAMESPACE ikpose:: DESTINATION ${IKPOSE_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ikposeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ikposeConfig.cmake INSTALL_DESTINATION ${IKPOSE_INSTALL_CMAKEDIR})
# Semantic versioning: any 0.x release answers a request for 0.y; 1.x never answers 2.y.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ikposeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ikposeConfig.cmake
              ${PROJECT_BINARY_DIR}/ikposeConfigVersion.cmake
  DESTINATION ${IKPOSE_INSTALL_CMAKEDIR})

# ikpose.pc finds its prefix from its own folder, so `cmake --install --prefix P` (chosen after
# configuring) gives a working file wherever P is.
file(RELATIVE_PATH IKPOSE_PC_PREFIX_FROM_PCDIR /prefix/${IKPOSE_INSTALL_PCDIR} /prefix)
string(REGEX REPLACE "/$" "" IKPOSE_PC_PREFIX_FROM_PCDIR "${IKPOSE_PC_PREFIX_FROM_PCDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/ikpose.pc.in ${PROJECT_BINARY_DIR}/ikpose.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ikpose.pc DESTINATION ${IKPOSE_INSTALL_PCDIR})
