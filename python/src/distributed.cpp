// ivy.distributed: ivy::distributed's collectives for Python (the same functions, over ivy
// arrays and Containers; no mpi4py). Reduction ops by name: "sum", "mean", "max", "min",
// "prod". Collectives release the GIL while they wait.
#include <pybind11/stl.h>

#include "common.hpp"
#include "ivy/distributed.hpp"

namespace ivy_py {

namespace {
namespace dist = ivy::distributed;

dist::ReduceOp op_of(const std::string& name) {
  for (dist::ReduceOp op : {dist::ReduceOp::sum, dist::ReduceOp::mean, dist::ReduceOp::max, dist::ReduceOp::min,
                            dist::ReduceOp::prod})
    if (name == dist::reduce_op_name(op)) return op;
  throw ivy::ValueError("[distributed] unknown reduction '" + name + "': expected sum, mean, max, min or prod");
}
using Release = py::call_guard<py::gil_scoped_release>;
}  // namespace

void bind_distributed(py::module_& parent) {
  py::module_ m = parent.def_submodule("distributed", "ivy::distributed: collectives over Open MPI");
  m.def("init", &dist::init, Release(), "Starts MPI when launched by mpirun/srun (else a world of one); idempotent.");
  m.def("finalize", &dist::finalize, Release());
  m.def("initialized", &dist::initialized);
  m.def("uses_mpi", &dist::uses_mpi);
  m.def("rank", &dist::rank);
  m.def("world_size", &dist::world_size);
  m.def("describe", &dist::describe);
  m.def("barrier", &dist::barrier, Release());
  m.def("report_failure", &dist::report_failure, py::arg("what"), Release());
  m.def("broken_reason", &dist::broken_reason);
  m.def(
      "all_reduce", [](const ivy::Array& x, const std::string& op) { return dist::all_reduce(x, op_of(op)); },
      py::arg("x"), py::arg("op") = "sum", Release());
  m.def(
      "all_reduce",
      [](const ivy::Container& c, const std::string& op, std::size_t bucket_bytes) {
        return dist::all_reduce(c, op_of(op), bucket_bytes);
      },
      py::arg("x"), py::arg("op") = "sum", py::arg("bucket_bytes") = dist::kDefaultBucketBytes, Release());
  m.def(
      "broadcast", [](const ivy::Array& x, int root) { return dist::broadcast(x, root); }, py::arg("x"),
      py::arg("root") = 0, Release());
  m.def(
      "broadcast", [](const ivy::Container& c, int root) { return dist::broadcast(c, root); }, py::arg("x"),
      py::arg("root") = 0, Release());
  m.def("all_gather", &dist::all_gather, py::arg("x"), Release());
  m.def(
      "reduce_scatter", [](const ivy::Array& x, const std::string& op) { return dist::reduce_scatter(x, op_of(op)); },
      py::arg("x"), py::arg("op") = "sum", Release());
  py::class_<dist::DistributedSampler>(m, "DistributedSampler",
                                       "PyTorch's DistributedSampler rule: this rank's indices of an epoch")
      .def(py::init<std::int64_t, bool, std::uint64_t, bool, int, int>(), py::arg("n"), py::arg("shuffle") = true,
           py::arg("seed") = 0, py::arg("drop_last") = false, py::arg("rank") = -1, py::arg("world_size") = -1)
      .def("set_epoch", &dist::DistributedSampler::set_epoch)
      .def("indices", &dist::DistributedSampler::indices)
      .def("permutation", &dist::DistributedSampler::permutation)
      .def_property_readonly("num_samples", &dist::DistributedSampler::num_samples)
      .def_property_readonly("total_size", &dist::DistributedSampler::total_size)
      .def("__iter__", [](const dist::DistributedSampler& s) { return py::iter(py::cast(s.indices())); })
      .def("__len__", &dist::DistributedSampler::num_samples);
}

}  // namespace ivy_py
