#!/usr/bin/python3
"""An independent safetensors writer and reader (json + numpy only), for ivy's interop tests.

    gen_safetensors_fixture.py            writes tests/fixtures/independent.safetensors
    gen_safetensors_fixture.py OUT        writes the fixture to OUT
    gen_safetensors_fixture.py --check F  reads F (e.g. one ivy wrote), validates its layout
                                          and prints every tensor; exit status 1 on a problem

The layout, from the published description: an 8-byte little-endian u64 N, N bytes of UTF-8
JSON header {"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {..}},
then the data buffer (row-major, little-endian; offsets relative to the buffer's start,
covering it exactly). "C64" / "C128" (complex64 / complex128) are ivy's extensions.

The values written here are repeated in tests/test_container.cpp (FixtureFromIndependentWriter);
change both together.
"""
import json
import os
import struct
import sys

import numpy as np

# safetensors code -> numpy dtype (BF16 has none: stored as its raw uint16 bit patterns)
CODES = {
    "BOOL": np.dtype("?"), "U8": np.dtype("<u1"), "I8": np.dtype("<i1"), "U16": np.dtype("<u2"),
    "I16": np.dtype("<i2"), "U32": np.dtype("<u4"), "I32": np.dtype("<i4"), "U64": np.dtype("<u8"),
    "I64": np.dtype("<i8"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2"), "F32": np.dtype("<f4"),
    "F64": np.dtype("<f8"), "C64": np.dtype("<c8"), "C128": np.dtype("<c16"),
}


def fixture_tensors():
    """(name, code, array) in the order this writer lays them out: sorted by name, which
    differs from the order ivy would use, so the reader cannot rely on either."""
    t = {
        "weights/f32": ("F32", np.array([[0.5, -1.25, 3.0], [0.125, -0.0, 1024.5]], dtype="<f4")),
        "weights/f64": ("F64", np.array([1.0 / 3.0, -2.5e-300, 1e300], dtype="<f8")),
        "ints/i32": ("I32", np.array([[-2147483648, -1], [0, 2147483647]], dtype="<i4")),
        "ints/i64": ("I64", np.array([-9223372036854775808, 1234567890123], dtype="<i8")),
        "ints/u8": ("U8", np.array([0, 1, 128, 255], dtype="<u1")),
        "ints/i8": ("I8", np.array([-128, 127], dtype="<i1")),
        "ints/i16": ("I16", np.array([-300], dtype="<i2")),
        "ints/u16": ("U16", np.array([65535, 7], dtype="<u2")),
        "ints/u32": ("U32", np.array([4000000000], dtype="<u4")),
        "flags": ("BOOL", np.array([True, False, True], dtype="?")),
        "half/f16": ("F16", np.array([1.5, -0.25, 65504.0], dtype="<f2")),
        # bfloat16 bit patterns: 0x3FC0 = 1.5, 0xC100 = -8.0, 0x0000 = 0.0
        "half/bf16": ("BF16", np.array([0x3FC0, 0xC100, 0x0000], dtype="<u2")),
        "cplx/c64": ("C64", np.array([1 + 2j, -0.5 - 0.25j], dtype="<c8")),
        "cplx/c128": ("C128", np.array([[1e-3 - 7j]], dtype="<c16")),
        "scalar": ("F32", np.array(42.0, dtype="<f4")),
        "empty": ("F32", np.zeros((0, 3), dtype="<f4")),
    }
    return [(name, code, arr) for name, (code, arr) in sorted(t.items())]


METADATA = {"format": "ivy-test", "writer": "gen_safetensors_fixture.py"}


def write(path, tensors, metadata):
    header = {}
    chunks = []
    offset = 0
    for name, code, arr in tensors:
        raw = np.ascontiguousarray(arr).tobytes()  # dtypes above are little-endian
        header[name] = {"dtype": code, "shape": list(arr.shape), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    header["__metadata__"] = metadata
    text = json.dumps(header).encode("utf-8")  # default separators: spaces after ':' and ','
    text += b" " * ((8 - (8 + len(text)) % 8) % 8)  # the spec's optional space padding
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for c in chunks:
            f.write(c)


def check(path):
    """Reads a safetensors file, validates its layout, prints its tensors; returns 0 or 1."""
    data = open(path, "rb").read()
    if len(data) < 8:
        print(f"{path}: shorter than 8 bytes")
        return 1
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        print(f"{path}: header length {n} past the end of the file")
        return 1
    header = json.loads(data[8:8 + n].decode("utf-8"))
    buf = data[8 + n:]
    meta = header.pop("__metadata__", None)
    if meta is not None:
        print("__metadata__:", json.dumps(meta, sort_keys=True))
    ranges = []
    for name, e in header.items():
        code = e["dtype"]
        begin, end = e["data_offsets"]
        shape = tuple(e["shape"])
        dt = CODES[code]
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        if end - begin != count * dt.itemsize or not 0 <= begin <= end <= len(buf):
            print(f"{path}: {name}: bad data_offsets {e['data_offsets']} for {code}{list(shape)}")
            return 1
        ranges.append((begin, end, name))
        arr = np.frombuffer(buf[begin:end], dtype=dt).reshape(shape)
        if code == "BF16":  # widen the bit patterns to float32
            arr = (arr.astype("<u4") << 16).view("<f4")
        values = arr.tolist()
        print(f"{name}: {code}{list(shape)} = {values}")
    cursor = 0
    for begin, end, name in sorted(ranges):
        if begin != cursor:
            print(f"{path}: {name} starts at {begin}, expected {cursor} (hole or overlap)")
            return 1
        cursor = end
    if cursor != len(buf):
        print(f"{path}: {len(buf) - cursor} bytes after the last tensor")
        return 1
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "--check":
        if len(argv) != 3:
            print(__doc__)
            return 2
        return check(argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(here, "fixtures", "independent.safetensors")
    write(out, fixture_tensors(), METADATA)
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
