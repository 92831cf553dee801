// The quickstart from the README: the Ivy paper's section 3 (backend choice), in C++.
#include <iostream>

#include "ivy/ivy.hpp"
#ifdef IVY_HAS_TORCH
#include "ivy/backends/torch.hpp"
#endif

int main() {
  std::cout << "backends built:";
  for (auto b : ivy::available_backends()) std::cout << " " << b;
  std::cout << "\ndefault backend: " << ivy::default_backend() << "\n\n";

  // An array on the default backend (xtensor).
  ivy::Array x = ivy::asarray({-1.5f, 0.25f, 0.75f, 2.0f});

  // 1. inferred from the inputs: x lives on the default backend
  std::cout << "inferred:  " << ivy::clip(x, 0.0, 1.0) << "\n";

  // 2. per call: an explicit backend argument runs this call there
  std::cout << "per call:  " << ivy::clip(x, 0.0, 1.0, "torch") << "\n";

  // 3. global: new arrays are created on the globally chosen backend
  ivy::set_backend("torch");
  ivy::Array y = ivy::asarray({-1.5f, 0.25f, 0.75f, 2.0f});
  std::cout << "global:    " << ivy::clip(y, 0.0, 1.0) << "\n";
  ivy::unset_backend();

  // 4. scoped (the paper's `with` block): innermost scope wins, restored on exit
  {
    ivy::BackendScope scope("torch");
    ivy::Array z = ivy::linspace(-1.0, 2.0, 4);
    std::cout << "scoped:    " << ivy::clip(z, 0.0, 1.0) << "\n";
  }

  // Arrays move between backends without copying where the layout allows.
  std::cout << "to_backend: " << ivy::to_backend(x, "torch").backend() << "\n";

#ifdef IVY_HAS_TORCH
  // 5. the framework-specific namespace: LibTorch tensors in, LibTorch tensors out.
  at::Tensor t = at::tensor({-1.5, 0.25, 0.75, 2.0}).set_requires_grad(true);
  at::Tensor c = ivy::torch::clip(t, 0.0, 1.0);
  c.sum().backward();  // LibTorch's own autograd flows through ivy
  std::cout << "native torch: " << c << "\ngrad: " << t.grad() << "\n";
#endif
  return 0;
}
