# cumap_hip_host: the HIP backend's logic, plain C++ over the HipRuntime
# interface. Built by g++ whether or not CUMAP_HIP is on, because the tests
# (tests/hip) exercise it against a fake runtime on machines without ROCm.
# Included from src/backends/hip (CUMAP_HIP=ON) and tests/hip; first one wins.
include_guard(GLOBAL)

add_library(cumap_hip_host STATIC
  ${CMAKE_CURRENT_LIST_DIR}/cu_mask.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stream_pool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hw_id.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pair_timing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hip_backend.cpp
)
target_include_directories(cumap_hip_host PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(cumap_hip_host PUBLIC cumap_core fmt::fmt)
