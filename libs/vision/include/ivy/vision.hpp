// ivy::vision: camera geometry, optical flow, images, rendering and signed distances over
// ivy:: functions (every backend, differentiable where the math is). docs/vision.md and
// docs/vision-images.md list the conventions and functions.
#pragma once

#include "ivy/vision/image.hpp"
#include "ivy/vision/implicit.hpp"
#include "ivy/vision/mesh.hpp"
#include "ivy/vision/optical_flow.hpp"
#include "ivy/vision/padding.hpp"
#include "ivy/vision/projective_geometry.hpp"
#include "ivy/vision/quantization.hpp"
#include "ivy/vision/sdf.hpp"
#include "ivy/vision/single_view_geometry.hpp"
#include "ivy/vision/smoothing.hpp"
#include "ivy/vision/two_view_geometry.hpp"
#include "ivy/vision/voxel_grids.hpp"
