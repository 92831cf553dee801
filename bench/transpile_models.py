#!/usr/bin/python3
"""Models for bench/transpile (OUT_DIR): torchvision resnet18 and mobilenet_v2 (seeded random
weights, eval mode, 1000 classes, 3x224x224 inputs) as ONNX at opset 17 with a dynamic batch
axis (what ivy imports and onnxruntime runs) and as TorchScript traced and frozen
at batch 1 and 8 (optimized for inference when loaded) (what LibTorch's JIT runs), with one input per batch
size and PyTorch's output for it (raw little-endian float32), so every runtime can be checked
against the same numbers before it is timed.

  transpile_models.py OUT_DIR
"""
import json
import os
import sys

import torch
import torchvision

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
index = []
for name in ("resnet18", "mobilenet_v2"):
    model = getattr(torchvision.models, name)().eval()
    x = torch.randn(2, 3, 224, 224)
    torch.onnx.export(model, (x,), os.path.join(out, name + ".onnx"), opset_version=17, input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    for batch in (1, 8):
        x = torch.randn(batch, 3, 224, 224)
        with torch.no_grad():
            y = model(x)
            # frozen here; bench/transpile.cpp runs optimize_for_inference after loading (a module
            # saved after it does not load in LibTorch 1.13: its MKLDNN constants lose their value)
            ts = torch.jit.freeze(torch.jit.trace(model, (x,)))
        tag = "%s_b%d" % (name, batch)
        ts.save(os.path.join(out, tag + ".pt"))
        x.numpy().astype("<f4").tofile(os.path.join(out, tag + "_in.bin"))
        y.numpy().astype("<f4").tofile(os.path.join(out, tag + "_out.bin"))
        index.append({"model": name, "batch": batch, "onnx": name + ".onnx", "torchscript": tag + ".pt",
                      "input": tag + "_in.bin", "output": tag + "_out.bin", "input_shape": list(x.shape),
                      "output_shape": list(y.shape)})
with open(os.path.join(out, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
