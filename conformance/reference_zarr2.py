"""Reference values from zarr-python 2 (and NumPy for .npy files), for the conformance suite.

Reads a JSON list of jobs on stdin, each one of
  {"id": ..., "kind": "zarr", "root": <store folder>, "path": <array path>, "out": <file>}
  {"id": ..., "kind": "npy", "file": <.npy file>, "out": <file>}
writes to each `out` the values read, in the fixtures' expected-value encoding
(`{"reader", "shape", "dtype", "values"}`, values flattened in C order; "NaN", "Infinity",
"-Infinity"; integers beyond 2^53 as strings; bytes as {"b64": ...} without trailing NULs;
complex as [re, im]; datetimes as int64; structured elements as {field: value}),
or `{"reader", "error"}`, and prints {id: "ok" | error} on stdout.

Run by conformance/lib/references.mjs with /usr/bin/python3 (Debian's python3-zarr).
"""
import base64
import json
import math
import os
import sys

import numpy as np
import zarr

LIMIT = 2**53
READER = f"zarr-python {zarr.__version__}"
NPY_READER = f"numpy {np.__version__} (.npy)"


def enc_int(v):
    v = int(v)
    return str(v) if abs(v) > LIMIT else v


def enc_float(v):
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def enc_bytes(v):
    return {"b64": base64.b64encode(bytes(v).rstrip(b"\0")).decode()}


def generic(v):
    """An element of an object array, whatever Python object the object codec gave."""
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return enc_int(v)
    if isinstance(v, (float, np.floating)):
        return enc_float(v)
    if isinstance(v, (complex, np.complexfloating)):
        return [enc_float(v.real), enc_float(v.imag)]
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray, np.bytes_)):
        return enc_bytes(v)
    if isinstance(v, np.ndarray):
        return [generic(x) for x in v.reshape(-1).tolist()] if v.ndim <= 1 else [generic(x) for x in v]
    if isinstance(v, (list, tuple)):
        return [generic(x) for x in v]
    if isinstance(v, dict):
        return {str(k): generic(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return generic(v.item())
    return repr(v)


def encode_flat(flat, dt):
    """Encodes a 1-d array of dtype `dt` as a list."""
    kind = dt.kind
    if dt.fields is not None:
        names = dt.names
        coders = {name: element_coder(dt.fields[name][0]) for name in names}
        return [{name: coders[name](row[name]) for name in names} for row in flat]
    if kind in "iu":
        if flat.size == 0 or (int(flat.max()) <= LIMIT and int(flat.min()) >= -LIMIT):
            return [int(x) for x in flat.tolist()]
        return [enc_int(x) for x in flat.tolist()]
    if kind in "mM":
        ints = np.ascontiguousarray(flat).astype(flat.dtype.newbyteorder("=")).view(np.int64)
        return encode_flat(ints, ints.dtype)
    if kind == "f":
        values = flat.astype(np.float64)
        if np.all(np.isfinite(values)):
            return values.tolist()
        return [enc_float(x) for x in values.tolist()]
    if kind == "c":
        return [[enc_float(x.real), enc_float(x.imag)] for x in flat.tolist()]
    if kind == "b":
        return [bool(x) for x in flat.tolist()]
    if kind == "S":
        return [enc_bytes(x) for x in flat.tolist()]
    if kind == "V":
        return [enc_bytes(x.tobytes() if hasattr(x, "tobytes") else x) for x in flat]
    if kind == "U":
        return [str(x) for x in flat.tolist()]
    return [generic(x) for x in flat]


def element_coder(dt):
    """Encodes one element (a field of a structured element) of dtype `dt`."""
    if dt.subdtype is not None:
        base, _ = dt.subdtype
        return lambda v: encode_flat(np.asarray(v, dtype=base).reshape(-1), base)
    return lambda v: encode_flat(np.asarray([v], dtype=dt), dt)[0]


def dtype_json(dt):
    if dt.fields is not None:
        return [list(field) for field in dt.descr]
    return dt.str


def encode(data, reader):
    data = np.asarray(data)
    flat = data.reshape(-1)
    return {
        "reader": reader,
        "shape": list(data.shape),
        "dtype": dtype_json(data.dtype),
        "values": encode_flat(flat, data.dtype),
    }


def legacy_nested(folder):
    """A v2 array without `dimension_separator` whose chunks sit in nested folders."""
    try:
        with open(os.path.join(folder, ".zarray")) as f:
            meta = json.load(f)
    except OSError:
        return False
    if "dimension_separator" in meta:
        return False
    return any(
        os.path.isdir(os.path.join(folder, name)) and name.isdigit() for name in os.listdir(folder)
    )


def read_zarr(root, path):
    folder = os.path.join(root, path) if path else root
    store = zarr.NestedDirectoryStore(root) if legacy_nested(folder) else zarr.DirectoryStore(root)
    z = zarr.open_array(store=store, path=path or None, mode="r")
    if z.fill_value is None and z.dtype != object and z.shape != ():
        # A v2 array without a fill value: zarr-python 2 leaves missing chunks uninitialised;
        # the fixtures README says to read them as zeros, so read into zeros.
        out = np.zeros(z.shape, dtype=z.dtype)
        z.get_basic_selection(Ellipsis, out=out)
        return out
    return z[...]


def main():
    jobs = json.load(sys.stdin)
    summary = {}
    for job in jobs:
        reader = READER if job["kind"] == "zarr" else NPY_READER
        try:
            if job["kind"] == "zarr":
                result = encode(read_zarr(job["root"], job["path"]), READER)
            else:
                # The golden files are trusted fixtures; object arrays in .npy are pickled.
                result = encode(np.load(job["file"], allow_pickle=True), NPY_READER)
            text = json.dumps(result, allow_nan=False)
            summary[job["id"]] = "ok"
        except Exception as error:  # every failure is a finding to report, not a crash
            message = f"{type(error).__name__}: {error}".splitlines()[0][:300]
            text = json.dumps({"reader": reader, "error": message})
            summary[job["id"]] = message
        with open(job["out"], "w") as f:
            f.write(text)
    json.dump(summary, sys.stdout)


if __name__ == "__main__":
    main()
