# The ONNX frontend (frontends/onnx, target ivy::onnx, header ivy/onnx.hpp): Debian's
# libonnx-dev (ONNX 1.12, built with ONNX_ML=1 and ONNX_NAMESPACE=onnx) over protobuf 3.21.
# ONNX's package config links protobuf::libprotobuf without finding Protobuf itself, so
# Protobuf is found first. ONNX's and protobuf's headers stay inside frontends/onnx/importer.cpp
# and exporter.cpp.
option(IVY_WITH_ONNX "Build the ONNX frontend when libonnx-dev is found" ON)
if(IVY_WITH_ONNX)
  find_package(Protobuf QUIET)
  if(Protobuf_FOUND)
    find_package(ONNX QUIET)
  endif()
  if(TARGET onnx)
    add_library(ivy_onnx SHARED
      frontends/onnx/importer.cpp
      frontends/onnx/exporter.cpp
      frontends/onnx/op_helpers.cpp
      frontends/onnx/ops_elementwise.cpp
      frontends/onnx/ops_tensor.cpp
      frontends/onnx/ops_nn.cpp
      frontends/onnx/ops_resize.cpp
      frontends/onnx/ops_sequence.cpp
      frontends/onnx/ops_rnn.cpp
      frontends/onnx/ops_misc.cpp
      frontends/onnx/ops_random.cpp
      frontends/onnx/ops_quant.cpp
      frontends/onnx/ops_training.cpp
      frontends/onnx/ops_signal.cpp)
    add_library(ivy::onnx ALIAS ivy_onnx)
    set_target_properties(ivy_onnx PROPERTIES EXPORT_NAME onnx INSTALL_RPATH_USE_LINK_PATH TRUE)
    target_link_libraries(ivy_onnx PUBLIC ivy PRIVATE onnx)
    target_include_directories(ivy_onnx PRIVATE src)  # libivy's atomic file writer
    target_compile_definitions(ivy_onnx PUBLIC IVY_HAS_ONNX)
    target_link_options(ivy_onnx PRIVATE -Wl,--no-undefined)
    install(TARGETS ivy_onnx EXPORT ivyTargets
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  else()
    ivy_optional_missing("ONNX and protobuf (the ONNX frontend, ivy::onnx)" "libonnx-dev libprotobuf-dev")
  endif()
endif()
