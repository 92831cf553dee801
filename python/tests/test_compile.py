"""ivy.compile from Python: results equal the function's own, pytrees, static arguments,
retracing per signature, composition with ivy.grad, data-dependent shapes refused, and the
graph's JSON round trip."""
import math

import pytest

import ivy

def gelu(x):
    return 0.5 * x * (1.0 + ivy.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


def test_compiled_equals_eager(backend):
    x = ivy.linspace(-4.0, 4.0, 101, dtype=ivy.float64)
    f = ivy.compile(gelu)
    assert ivy.allclose(f(x), gelu(x), rtol=1e-15, atol=1e-15)
    assert ivy.allclose(f(x * 0.5), gelu(x * 0.5), rtol=1e-15, atol=1e-15)


def test_pytrees_static_arguments_and_retracing(backend):
    calls = []

    def f(params, x, scale, *, mode):
        calls.append(1)
        y = params["w"] * x + params["b"]
        return {"y": y * scale if mode == "mul" else y + scale, "n": ivy.sum(y)}

    cf = ivy.compile(f, static_argnames="mode")
    p = {"w": ivy.asarray([1.0, 2.0]), "b": ivy.asarray([0.5, -0.5])}
    x = ivy.asarray([3.0, 4.0])
    out = cf(p, x, 2.0, mode="mul")
    assert ivy.array_equal(out["y"], ivy.asarray([7.0, 15.0]))
    assert float(out["n"]) == 11.0
    cf(p, x + 1.0, 2.0, mode="mul")
    assert len(calls) == 1  # same signature: no new trace
    out = cf(p, x, 2.0, mode="add")  # a new static value traces again
    assert ivy.array_equal(out["y"], ivy.asarray([5.5, 9.5]))
    cf(p, x, 3.0, mode="add")  # a new Python scalar leaf too
    cf(p, ivy.asarray([1.0, 2.0, 3.0])[:2], 3.0, mode="add")
    assert len(calls) == 3
    with pytest.raises(TypeError):
        cf(p, x, [1.0], mode={"unhashable": 1})


def test_static_argnums_and_decorator(backend):
    @ivy.compile(static_argnums=1)
    def power(x, k):
        y = x
        for _ in range(k - 1):
            y = y * x
        return y

    x = ivy.asarray([1.0, 2.0, 3.0])
    assert ivy.array_equal(power(x, 3), ivy.asarray([1.0, 8.0, 27.0]))
    assert ivy.array_equal(power(x, 2), ivy.asarray([1.0, 4.0, 9.0]))


def test_grad_of_compiled_and_compiled_grad(backend):
    def loss(x):
        return ivy.sum(gelu(x) * ivy.sin(x))

    x = ivy.linspace(-2.0, 2.0, 9, dtype=ivy.float64)
    want = ivy.grad(loss)(x)
    assert ivy.allclose(ivy.grad(ivy.compile(loss))(x), want, rtol=1e-13, atol=1e-15)
    assert ivy.allclose(ivy.compile(ivy.grad(loss))(x), want, rtol=1e-13, atol=1e-15)


def test_data_dependent_shapes_are_refused(backend):
    f = ivy.compile(lambda x: ivy.sum(x[x > 0]))
    with pytest.raises(ValueError, match=r"\[compile\].*nonzero"):
        f(ivy.asarray([1.0, -2.0, 3.0]))


def test_graph_json_round_trip(backend):
    x = ivy.asarray([[1.0, -2.0], [3.0, 0.5]], dtype=ivy.float32)
    g = ivy.trace(lambda a: [ivy.exp(a) * 2.0 - ivy.mean(a, axis=1, keepdims=True)], [x])
    text = ivy.graph_to_json(g)
    g2 = ivy.graph_from_json(text)
    assert ivy.array_equal(g.run([x])[0], g2.run([x])[0])
    assert ivy.graph_to_json(g2) == text
    assert "digraph" in ivy.graph_to_dot(g)
    with pytest.raises(ValueError, match=r"\[load_graph\]"):
        ivy.graph_from_json(text[: len(text) // 2])


def test_outputs_must_be_arrays(backend):
    with pytest.raises(TypeError, match="outputs must be ivy arrays"):
        ivy.compile(lambda x: 1.0)(ivy.asarray([1.0]))
