#!/usr/bin/python3
"""Real models for the ONNX importer, exported by PyTorch (Debian's python3-torch 1.13 and
python3-torchvision 0.14) into OUT_DIR at test time (never committed; rerun only when this
script changes): torchvision resnet18 and mobilenet_v2, a TransformerEncoderLayer (d_model 64,
4 heads, batch_first), a 2-layer LSTM and a 2-layer GRU, each at opsets 13 and 17 with a dynamic
batch axis, in inference mode, and resnet18 also in training mode (BatchNormalization on batch
statistics). Weights are seeded random; every norm layer gets random affine parameters and
running statistics calibrated on random batches (with the default initialization batch norm
and layer norm are identities, and an importer that dropped them would pass).

For each model and batch size (1 and 8): the input and PyTorch's output as raw little-endian
float32 (NAME_bB_in.bin, NAME_bB_out.bin) with their shapes in index.json. For the fine-tuning
check, resnet18 in training mode is exported again in float64 at opset 13, with PyTorch's
float64 gradients of loss = sum(out * R) (R fixed random) for every parameter, by ONNX
initializer name (grad_<name>.bin), and the losses of 20 Adam steps (lr 1e-3) on that loss.

  gen_real_models.py OUT_DIR
"""
import json
import os
import sys

import torch
import torchvision

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
with open(__file__, "rb") as f:
    SOURCE = f.read()
STAMP = os.path.join(OUT, "generated_by.py")
if os.path.exists(STAMP) and os.path.exists(os.path.join(OUT, "index.json")):
    with open(STAMP, "rb") as f:
        if f.read() == SOURCE:
            print("gen_real_models: %s is current" % OUT)
            sys.exit(0)
torch.manual_seed(0)
torch.set_num_threads(2)
index = {"models": []}


def calibrate(model, make_input):
    """Random affine parameters for every norm layer, running statistics from random batches."""
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.LayerNorm)):
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = None  # cumulative average over the calibration batches
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(make_input(8))
    model.eval()


def save(name, t):
    t.detach().contiguous().numpy().astype("<f4").tofile(os.path.join(OUT, name))


def export(name, model, make_input, opsets=(13, 17), training=False, seq_dims=None):
    for opset in opsets:
        file = "%s_op%d.onnx" % (name, opset)
        x = make_input(2)
        axes = {"x": {0: "batch"}, "y": {0: "batch"}}
        mode = torch.onnx.TrainingMode.TRAINING if training else torch.onnx.TrainingMode.EVAL
        torch.onnx.export(model, (x,), os.path.join(OUT, file), opset_version=opset, input_names=["x"],
                          output_names=["y"], dynamic_axes=axes, training=mode,
                          do_constant_folding=not training)
        entry = {"name": "%s_op%d" % (name, opset), "file": file, "opset": opset, "training": training, "cases": []}
        for batch in (1, 8):
            x = make_input(batch)
            if training:
                model.train()
            with torch.no_grad():
                y = model(x)
            if isinstance(y, tuple):
                y = y[0]
            if training:
                model.eval()
            tag = "%s_op%d_b%d" % (name, opset, batch)
            save(tag + "_in.bin", x)
            save(tag + "_out.bin", y)
            entry["cases"].append({"batch": batch, "input": tag + "_in.bin", "input_shape": list(x.shape),
                                   "output": tag + "_out.bin", "output_shape": list(y.shape)})
        index["models"].append(entry)


def image(n):
    return torch.randn(n, 3, 64, 64)


resnet = torchvision.models.resnet18(num_classes=10)
calibrate(resnet, image)
export("resnet18", resnet, image)

mobilenet = torchvision.models.mobilenet_v2(num_classes=10)
calibrate(mobilenet, image)
export("mobilenet_v2", mobilenet, image)

encoder = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True)
calibrate(encoder, lambda n: torch.randn(n, 10, 64))
export("transformer", encoder, lambda n: torch.randn(n, 10, 64))


class Recurrent(torch.nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.rnn = cell(input_size=16, hidden_size=32, num_layers=2, batch_first=True)

    def forward(self, x):
        return self.rnn(x)[0]


for kind, cell in (("lstm", torch.nn.LSTM), ("gru", torch.nn.GRU)):
    m = Recurrent(cell).eval()
    export(kind, m, lambda n: torch.randn(n, 7, 16))

# training mode: batch norm on the batch's statistics, every parameter under its own name
train_net = torchvision.models.resnet18(num_classes=10)
calibrate(train_net, image)
export("resnet18_train", train_net, image, opsets=(13,), training=True)

# fine-tuning: gradients of sum(out * R) and 20 Adam steps, in training mode, from one batch,
# in float64: with its calibrated batch norms, PyTorch's own float32 gradients of this network
# are up to 1 % (of the largest) from its float64 ones, far above the rtol 1e-4 checked
train_net = train_net.double()
x = image(4).double()
torch.onnx.export(train_net, (x,), os.path.join(OUT, "resnet18_train_f64_op13.onnx"), opset_version=13,
                  input_names=["x"], output_names=["y"], training=torch.onnx.TrainingMode.TRAINING,
                  do_constant_folding=False)
save64 = lambda name, t: t.detach().contiguous().numpy().astype("<f8").tofile(os.path.join(OUT, name))
save64("finetune_in.bin", x)
r = torch.randn(4, 10).double()
save64("finetune_r.bin", r)
train_net.train()
params = dict(train_net.named_parameters())
loss = (train_net(x) * r).sum()
grads = torch.autograd.grad(loss, list(params.values()))
index["finetune"] = {"model": "resnet18_train_f64_op13.onnx", "input": "finetune_in.bin", "input_shape": list(x.shape),
                     "weights": "finetune_r.bin", "weights_shape": list(r.shape), "loss": loss.item(), "grads": {}}
for (name, p), g in zip(params.items(), grads):
    save64("grad_%s.bin" % name, g)
    index["finetune"]["grads"][name] = {"file": "grad_%s.bin" % name, "shape": list(g.shape)}
opt = torch.optim.Adam(train_net.parameters(), lr=1e-3)
losses = []
for _ in range(20):
    opt.zero_grad()
    loss = (train_net(x) * r).sum()
    losses.append(loss.item())
    loss.backward()
    opt.step()
index["finetune"]["adam_lr"] = 1e-3
index["finetune"]["adam_losses"] = losses

with open(os.path.join(OUT, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
with open(STAMP, "wb") as f:
    f.write(SOURCE)
print("gen_real_models: %d models in %s" % (len(index["models"]), OUT))
