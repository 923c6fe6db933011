# Warnings as errors for project code only (third-party code keeps its own flags).
add_library(tiergate_options INTERFACE)
target_compile_options(tiergate_options INTERFACE
  -Wall -Wextra -Wpedantic -Werror -Werror=switch -Wshadow=local -Wnon-virtual-dtor)
if(TIERGATE_SANITIZE)
  # GCC's -Wmaybe-uninitialized gives false positives on sanitizer-instrumented
  # code (e.g. inside Boost.Beast's parser); the Release build keeps it.
  # -O1 (after the build type's -O3) keeps this build's compile time and CI
  # budget low; llama.cpp itself stays as in the Release build (ccache hits).
  target_compile_options(tiergate_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                         -fno-sanitize-recover=undefined -Wno-maybe-uninitialized -O1)
  target_link_options(tiergate_options INTERFACE -fsanitize=address,undefined)
endif()

# tiergate_module(NAME SOURCES... DEPS... PUBLIC_DEPS...) declares one layer
# module (the current source dir) as a static library tg_NAME. Its headers live
# in include/tiergate/<module path>/, and only targets that link it see them;
# dependencies are PRIVATE unless the module's own headers need them, so a
# module can include only what it links: a forbidden include fails to build.
function(tiergate_module name)
  cmake_parse_arguments(M "" "" "SOURCES;DEPS;PUBLIC_DEPS" ${ARGN})
  add_library(tg_${name} STATIC ${M_SOURCES})
  target_include_directories(tg_${name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include")
  target_link_libraries(tg_${name} PRIVATE tiergate_options ${M_DEPS} PUBLIC ${M_PUBLIC_DEPS})
endfunction()
