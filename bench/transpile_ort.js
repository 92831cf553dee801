#!/usr/bin/env node
// onnxruntime's side of bench/transpile: each model of DIR/index.json (transpile_models.py) at
// each batch size, checked against PyTorch's output, then timed (2 intra-op threads, like the
// C++ side): the median of 20 runs after 3 warm-up runs, in ms, as JSON on stdout.
//   NODE_PATH=build/npm/node_modules node bench/transpile_ort.js DIR
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function f32(file) {
  const b = fs.readFileSync(file);
  const c = new Uint8Array(b.length);
  c.set(b);
  return new Float32Array(c.buffer);
}

async function main() {
  const dir = process.argv[2];
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8'));
  const results = [];
  for (const e of index) {
    const session = await ort.InferenceSession.create(path.join(dir, e.onnx), { intraOpNumThreads: 2, interOpNumThreads: 1 });
    const feeds = { x: new ort.Tensor('float32', f32(path.join(dir, e.input)), e.input_shape) };
    const want = f32(path.join(dir, e.output));
    const got = (await session.run(feeds)).y.data;
    let err = 0, top = 0;
    for (let i = 0; i < want.length; ++i) err = Math.max(err, Math.abs(got[i] - want[i])), top = Math.max(top, Math.abs(want[i]));
    if (!(err <= 1e-4 * top)) throw new Error(`${e.model} batch ${e.batch}: onnxruntime differs from PyTorch by ${err / top} x max|y|`);
    for (let i = 0; i < 3; ++i) await session.run(feeds);
    const times = [];
    for (let i = 0; i < 20; ++i) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    results.push({ model: e.model, batch: e.batch, runtime: 'onnxruntime', ms: times[10] });
  }
  console.log(JSON.stringify(results));
}

main().catch((e) => { console.error(String(e)); process.exit(1); });
