"""ivy.onnx from Python: a model of ONNX's test data imported, run against its stored output
and the closed form, differentiated with respect to its parameters (closed-form gradients),
fine-tuned; a Python function exported, checked by importing it again and against PyTorch's
own ONNX export of the same function; bad files and calls are errors."""

import os

import numpy as np
import pytest

import ivy

try:
    from ivy import onnx
except ImportError:
    if os.environ.get("IVY_REQUIRE_ALL") == "1":
        raise
    pytest.skip("ivy was built without the ONNX frontend", allow_module_level=True)
DATA = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Linear"


def linear():
    if not os.path.exists(DATA):
        pytest.skip("ONNX's test data (libonnx-testdata) is not installed")
    return onnx.load(DATA + "/model.onnx")


def test_load_describes_and_runs_the_model(backend):
    m = linear()
    assert m.opset == 6
    assert [i["shape"] for i in m.inputs] == [(4, 10)]
    assert m.operator_counts() == {"Gemm": 1}
    p = m.parameters()
    assert sorted(p) == ["1", "2"] and m.num_parameters == 8 * 10 + 8
    x = np.arange(40, dtype=np.float32).reshape(4, 10) / 10
    y = np.asarray(m(ivy.asarray(x)))
    w, b = np.asarray(p["1"]), np.asarray(p["2"])
    np.testing.assert_allclose(y, x @ w.T + b, rtol=1e-5)
    by_name = m.run({m.inputs[0]["name"]: ivy.asarray(x)})
    np.testing.assert_allclose(np.asarray(by_name[m.outputs[0]["name"]]), y, rtol=0)


def test_gradients_with_respect_to_the_parameters(backend):
    m = linear()
    x = ivy.asarray(np.arange(40, dtype=np.float32).reshape(4, 10) / 10)
    g = ivy.grad(lambda p: ivy.sum(m.apply(p, x)))(m.parameters())
    # d sum(x W^T + b) / dW[i, j] = sum_n x[n, j]; / db[i] = N
    np.testing.assert_allclose(np.asarray(g["1"]), np.broadcast_to(np.asarray(x).sum(0), (8, 10)), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(g["2"]), np.full(8, 4.0), rtol=0)
    # apply leaves the model's own parameters as they were
    np.testing.assert_array_equal(np.asarray(m.parameters()["2"]), np.asarray(linear().parameters()["2"]))


def test_fine_tuning_lowers_the_loss(backend):
    m = linear()
    rng = np.random.default_rng(0)
    x = ivy.asarray(rng.standard_normal((4, 10)).astype(np.float32))
    t = ivy.asarray(rng.standard_normal((4, 8)).astype(np.float32))
    loss = lambda p: ivy.mean(ivy.square(m.apply(p, x) - t))
    p = m.parameters()
    first = float(loss(p))
    for _ in range(50):
        g = ivy.grad(loss)(p)
        p = {k: p[k] - 0.1 * g[k] for k in p}
    m.set_parameters(p)
    assert float(ivy.mean(ivy.square(m(x) - t))) < 0.5 * first


def test_export_round_trips_and_matches_pytorch(backend, tmp_path):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    w = rng.standard_normal((5, 3)).astype(np.float32)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    fn = lambda a: ivy.tanh(ivy.matmul(a, ivy.asarray(w))) * 2.0 + 1.0
    path = tmp_path / "fn.onnx"
    onnx.export(fn, [ivy.asarray(x)], path, opset=13, input_names=["a"], output_names=["y"])
    m = onnx.load(str(path))
    assert [i["name"] for i in m.inputs] == ["a"] and [o["name"] for o in m.outputs] == ["y"]
    got = np.asarray(m(ivy.asarray(x)))
    np.testing.assert_allclose(got, np.tanh(x @ w) * 2 + 1, rtol=1e-5, atol=1e-6)
    # PyTorch's own export of the same function, imported by ivy, agrees
    class F(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("w", torch.from_numpy(w))

        def forward(self, a):
            return torch.tanh(a @ self.w) * 2.0 + 1.0
    tpath = tmp_path / "torch.onnx"
    torch.onnx.export(F(), (torch.from_numpy(x),), str(tpath), opset_version=13)
    np.testing.assert_allclose(np.asarray(onnx.load(str(tpath))(ivy.asarray(x))), got, rtol=1e-5, atol=1e-6)
    data = onnx.export(fn, [ivy.asarray(x)])
    assert isinstance(data, bytes) and np.allclose(np.asarray(onnx.load_from_bytes(data)(ivy.asarray(x))), got)


def test_bad_files_and_calls_are_errors(backend, tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage")
    with pytest.raises(ValueError, match=r"\[onnx.import\]"):
        onnx.load(str(bad))
    with pytest.raises(ValueError, match=r"\[onnx.import\]"):
        onnx.load(str(tmp_path / "missing.onnx"))
    m = linear()
    with pytest.raises(ValueError, match=r"\[onnx.run\]"):
        m(ivy.zeros((3, 10)))
    with pytest.raises(ValueError, match=r"\[onnx.export\]"):
        onnx.export(lambda a: ivy.linalg.inv(a), [ivy.eye(3)])
    assert "inv" in onnx.unexportable_primitives()
    assert 13 in onnx.supported_operators()["Softmax"]
