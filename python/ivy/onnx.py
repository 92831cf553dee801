"""ivy.onnx: ONNX models in and out.

    model = ivy.onnx.load("model.onnx")            # a callable, trainable module
    y = model(x)                                   # inputs in the model's order
    params = model.parameters()                    # {ONNX initializer name: array}
    g = ivy.grad(lambda p: ivy.sum(model.apply(p, x)))(params)
    ivy.onnx.export(fn, [x], "fn.onnx", opset=17)  # any function of arrays, traced

Exported models have the traced shapes; the primitives ONNX cannot express are listed by
unexportable_primitives(). Needs ivy built with the ONNX frontend (Debian's libonnx-dev).
"""
try:
    from ._ivy.onnx import Model, load, load_from_bytes, export_graph, save_graph, supported_operators, unexportable_primitives
except ImportError as e:  # the module was built without the ONNX frontend
    raise ImportError("ivy.onnx needs ivy built with the ONNX frontend (Debian's libonnx-dev)") from e

from ._ivy import trace as _trace

__all__ = ["Model", "load", "load_from_bytes", "export", "export_graph", "save_graph", "supported_operators",
           "unexportable_primitives"]


def export(fn, example_inputs, path=None, opset=17, input_names=None, output_names=None):
    """Traces fn (arrays -> an array or a list / tuple of arrays) on example_inputs and writes
    the ONNX model to path (atomically); without path, returns the model's bytes."""
    def flat(*xs):
        r = fn(*xs)
        return list(r) if isinstance(r, (list, tuple)) else [r]
    graph = _trace(flat, list(example_inputs))
    if path is None:
        return export_graph(graph, opset, input_names, output_names)
    save_graph(graph, str(path), opset, input_names, output_names)
    return None
