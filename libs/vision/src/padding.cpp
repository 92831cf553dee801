// ivy::vision omni padding (see include/ivy/vision/padding.hpp).
#include "ivy/vision/padding.hpp"

#include "image_detail.hpp"

namespace ivy::vision {

using namespace image_detail;

Array pad_omni_image(const Array& image, std::int64_t pad_size) {
  const char* fn = "pad_omni_image";
  check_defined(image, fn, "image");
  if (image.ndim() < 3) throw ValueError(P(fn) + "image must have shape [..., H, W, C], got shape " + image.shape().str());
  const auto d = image_dims(image);
  const std::int64_t p = pad_size;
  if (p < 0 || p > d.H || p > d.W)
    throw ValueError(P(fn) + "pad_size must be in [0, min(H, W)] for an image of shape " + image.shape().str() +
                     ", got " + std::to_string(p));
  if (p == 0) return image;
  const std::int64_t half = d.W / 2;
  // across the pole: the edge rows, half a turn around, mirrored vertically
  auto pole = [&](const Array& rows) { return flip(roll(rows, -half, -2), -3); };
  Array top = pole(image.index({Ellipsis, Slice(0, p), Slice(), Slice()}));
  Array bottom = pole(image.index({Ellipsis, Slice(d.H - p, d.H), Slice(), Slice()}));
  Array tall = concat({top, image, bottom}, -3);
  Array left = tall.index({Ellipsis, Slice(d.W - p, d.W), Slice()});
  Array right = tall.index({Ellipsis, Slice(0, p), Slice()});
  return concat({left, tall, right}, -2);
}

}  // namespace ivy::vision
