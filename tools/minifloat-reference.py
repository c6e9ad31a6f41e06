"""Writes packages/metadata/test/fixtures/minifloat-reference.json from ml_dtypes, the reference
implementation the zarr-extensions registry names for its small float types.

Run: pip install --target /tmp/mldt ml_dtypes && PYTHONPATH=/tmp/mldt python3 tools/minifloat-reference.py \
  > packages/metadata/test/fixtures/minifloat-reference.json && npx biome format --write packages/metadata/test/fixtures/minifloat-reference.json
For each format: the value of every code, and the code ml_dtypes gives for float32 inputs
(every value, the midpoints between neighbours and the float32 next to them, specials, random).
"""
import json
import sys

import ml_dtypes
import numpy as np

NAMES = [
    "bfloat16", "float8_e3m4", "float8_e4m3", "float8_e5m2", "float8_e4m3fnuz",
    "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn",
    "float6_e3m2fn", "float4_e2m1fn",
]
BITS = {"bfloat16": 16, "float6_e2m3fn": 6, "float6_e3m2fn": 6, "float4_e2m1fn": 4}


def as_json(v):
    v = float(v)
    if np.isnan(v):
        return "NaN"
    if np.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0 and np.signbit(v):
        return "-0"
    return v


rng = np.random.default_rng(20261125)
out = {}
for name in NAMES:
    t = getattr(ml_dtypes, name)
    bits = BITS.get(name, 8)
    raw = np.arange(2**bits, dtype=np.uint16 if bits == 16 else np.uint8)
    values = raw.view(t).astype(np.float32) if bits >= 8 else raw.view(t).astype(np.float32)
    decode = [as_json(v) for v in values]
    finite = np.unique(values[np.isfinite(values)].astype(np.float64))
    mids = (finite[1:] + finite[:-1]) / 2
    inputs = np.concatenate([
        finite, mids,
        np.nextafter(mids.astype(np.float32), np.float32(np.inf)),
        np.nextafter(mids.astype(np.float32), np.float32(-np.inf)),
        [0.0, -0.0, np.nan, np.inf, -np.inf, 1e30, -1e30, 1e-30, -1e-30, 3e38, 1e-45],
        rng.uniform(-2, 2, 200) * float(finite.max()),
        rng.uniform(-2, 2, 100) * float(np.abs(finite[finite != 0]).min()),
    ]).astype(np.float32)  # 3e38 * 2 overflows to inf: fine
    if len(inputs) > 1500:
        inputs = np.concatenate([inputs[-311:], rng.choice(inputs[:-311], 1189, replace=False)])
    codes = inputs.astype(t).view(np.uint16 if bits == 16 else np.uint8).astype(np.int64)
    if bits < 8:
        codes &= 2**bits - 1
    out[name] = {
        # bfloat16 decoding is the float32 of bits << 16: the test checks all codes directly.
        "decode": decode if bits <= 8 else [],
        "encode": [[int(b), int(c)] for b, c in zip(inputs.view(np.uint32), codes)],
    }
json.dump({"source": f"ml_dtypes {ml_dtypes.__version__}", "formats": out}, sys.stdout, separators=(",", ":"))
