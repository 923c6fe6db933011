# llama.cpp: a source checkout added as a subdirectory (the default, fetched by
# scripts/setup.sh into third_party/llama.cpp, or any checkout given with
# -DTIERGATE_LLAMA_DIR=), or an installed package when TIERGATE_LLAMA_DIR is empty.
# Only the targets Tiergate needs are built: libllama, and llama-server and
# llama-bench as the reference upstream and benchmark in tests.
if(TIERGATE_LLAMA_DIR)
  if(NOT EXISTS "${TIERGATE_LLAMA_DIR}/include/llama.h")
    message(FATAL_ERROR "TIERGATE_LLAMA_DIR=${TIERGATE_LLAMA_DIR} is not a llama.cpp checkout "
                        "(no include/llama.h). Run scripts/setup.sh, or point it at a checkout.")
  endif()
  set(BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_TOOLS ${TIERGATE_BUILD_LLAMA_TOOLS} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_SERVER ${TIERGATE_BUILD_LLAMA_TOOLS} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_COMMON ${TIERGATE_BUILD_LLAMA_TOOLS} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_APP OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_UI OFF CACHE BOOL "" FORCE)
  set(LLAMA_USE_PREBUILT_UI OFF CACHE BOOL "" FORCE)
  set(LLAMA_CURL OFF CACHE BOOL "" FORCE)
  set(LLAMA_OPENSSL OFF CACHE BOOL "" FORCE)
  set(LLAMA_TOOLS_INSTALL OFF CACHE BOOL "" FORCE)
  add_subdirectory("${TIERGATE_LLAMA_DIR}" "${CMAKE_BINARY_DIR}/llama.cpp" EXCLUDE_FROM_ALL SYSTEM)
  # No AMX kernels: in this llama.cpp release they crash with SIGILL on the
  # first quantized (q8_0, q4_k, ...) matrix product on CPUs whose kernel
  # gates AMX state per thread (the tile configuration is not loaded on the
  # worker threads; upstream pull request 26954). -march=native would turn
  # them on wherever the CPU reports AMX; the AVX-512/AVX2 kernels serve instead.
  if(TARGET ggml-cpu AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    target_compile_options(ggml-cpu PRIVATE -mno-amx-tile -mno-amx-int8 -mno-amx-bf16)
  endif()
  # The reference binaries the integration tests and benchmarks start, built
  # with everything else (off in the sanitizer build, which runs unit tests only).
  set(TIERGATE_HAVE_LLAMA_TOOLS ${TIERGATE_BUILD_LLAMA_TOOLS})
  if(TIERGATE_BUILD_LLAMA_TOOLS)
    add_custom_target(llama_reference_tools ALL DEPENDS llama-server llama-bench)
  endif()
else()
  find_package(llama REQUIRED)
  set(TIERGATE_HAVE_LLAMA_TOOLS OFF)
endif()
