#!/usr/bin/env node
// Runs every model that tests/onnx/export_tests.cpp exported (DIR/<case>/model.onnx with its
// inputs, ivy's eager outputs and case.json) in onnxruntime, and compares: shapes and dtypes
// always; values exactly for integers and booleans, within the case's rtol (and atol, where
// case.json gives one) for floats (NaN
// equals NaN, infinities by sign), except for random cases. Exits 1 when any case fails.
//
// GAPS (optional) lists the cases onnxruntime has no kernel for (tests/onnx/ort_gaps.txt): those
// must fail with onnxruntime's "Could not find an implementation" for the listed operator.
//
//   NODE_PATH=build/npm/node_modules node tools/onnx_ort_check.js build/onnx_export_models tests/onnx/ort_gaps.txt
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const arrays = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array, float16: Uint16Array,
};

function load(file, dtype) {
  const T = arrays[dtype];
  if (!T) throw new Error(`dtype ${dtype} has no typed array here`);
  const b = fs.readFileSync(file);
  const copy = new Uint8Array(b.length);
  copy.set(b);
  return new T(copy.buffer, 0, b.length / T.BYTES_PER_ELEMENT);
}

function compare(got, want, spec, rtol, random, atolGiven) {
  if (got.type !== spec.dtype) return `dtype ${got.type}, ivy ${spec.dtype}`;
  const dims = Array.from(got.dims).map(Number);
  if (JSON.stringify(dims) !== JSON.stringify(spec.dims)) return `dims [${dims}], ivy [${spec.dims}]`;
  if (random) return null;
  const g = got.data;
  const floating = spec.dtype === 'float32' || spec.dtype === 'float64';
  const atol = atolGiven !== undefined ? atolGiven : spec.dtype === 'float64' ? 1e-12 : 1e-6;
  for (let i = 0; i < want.length; ++i) {
    const a = g[i], b = want[i];
    if (!floating) {
      if (BigInt.asIntN(64, BigInt(a)) !== BigInt.asIntN(64, BigInt(b))) return `element ${i}: ${a}, ivy ${b}`;
      continue;
    }
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    if (a === b) continue;
    if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a - b) > atol + rtol * Math.abs(b))
      return `element ${i}: ${a}, ivy ${b}`;
  }
  return null;
}

async function main() {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir)) {
    console.error(`usage: onnx_ort_check.js DIR (DIR ${dir} does not exist: run the onnx_export ctest first)`);
    process.exit(2);
  }
  const gaps = new Map();
  if (process.argv[3]) {
    for (const line of fs.readFileSync(process.argv[3], 'utf8').split('\n')) {
      const f = line.replace(/#.*/, '').trim().split(/\s+/);
      if (f.length === 2) gaps.set(f[0], f[1]);
    }
  }
  const cases = fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'case.json'))).sort();
  const failures = [];
  let known = 0;
  for (const name of cases) {
    const d = path.join(dir, name);
    const gap = gaps.get(name.replace(/_opset\d+$/, ''));
    const meta = JSON.parse(fs.readFileSync(path.join(d, 'case.json'), 'utf8'));
    try {
      const session = await ort.InferenceSession.create(path.join(d, 'model.onnx'), { intraOpNumThreads: 1, interOpNumThreads: 1 });
      const feeds = {};
      (meta.inputs || []).forEach((spec, i) => {
        feeds[spec.name] = new ort.Tensor(spec.dtype, load(path.join(d, `in_${i}.bin`), spec.dtype), spec.dims);
      });
      const out = await session.run(feeds);
      if (gap) failures.push(`${name}: runs in onnxruntime now: remove it from the list of gaps`);
      (meta.outputs || []).forEach((spec, i) => {
        const want = load(path.join(d, `out_${i}.bin`), spec.dtype);
        const why = compare(out[spec.name], want, spec, meta.rtol, meta.random, meta.atol);
        if (why) failures.push(`${name}: output ${i}: ${why}`);
      });
    } catch (e) {
      const msg = String(e.message || e).split('\n')[0];
      if (gap && msg.includes(`Could not find an implementation for ${gap}(`)) ++known;
      else failures.push(`${name}: ${msg}`);
    }
  }
  for (const f of failures) console.log(`FAILED ${f}`);
  const failedCases = new Set(failures.map((f) => f.split(':')[0])).size;
  console.log(`onnxruntime ${ort.env.versions ? ort.env.versions.common : ''}: ${cases.length} exported models, ` +
              `${cases.length - failedCases - known} equal to ivy, ${known} without an onnxruntime kernel (listed), ${failedCases} differ`);
  process.exit(failures.length || cases.length === 0 ? 1 : 0);
}

main();
