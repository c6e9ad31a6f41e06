# zarr-python 2 (Debian's python3-zarr, run by /usr/bin/python3) side of the benchmark: one
# operation per call, timed here (not the interpreter's start), results as JSON on stdout.
# Every read is compared with the volume after its timing; a difference exits with status 3.
#
#   python3 zarr_python2.py '{"op": "...", ...}'
#
# op "probe": versions. op "write": writes the volume (a raw little-endian float32 file) as a
# v2 array. op "read": the whole array. op "regions": reads boxes ([start, size] pairs), each
# through a newly opened array. op "rss-read": one full read in this fresh process, with the
# peak resident set above the one before the read. op "read-large": the whole of a large uint16
# cube (see large-values.mjs), checked plane by plane against the generating formula.
import json
import resource
import sys
import time

import numcodecs
import numpy as np
import zarr

MiB = 1024 * 1024


def compressor(codec):
    if codec == "none":
        return None
    if codec == "gzip":
        return numcodecs.GZip(level=5)
    if codec == "zstd":
        return numcodecs.Zstd(level=3)
    if codec == "blosc":
        return numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    raise SystemExit(f"unknown codec {codec}")


def volume(args):
    return np.fromfile(args["volume"], dtype="<f4").reshape(args["shape"])


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / MiB


def peak_rss_mib():
    # VmHWM starts afresh at exec; ru_maxrss keeps the parent's peak from before it.
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check(got, expected, what):
    if got.shape != expected.shape or not np.array_equal(got, expected):
        print(f"zarr-python 2: wrong result for {what}", file=sys.stderr)
        raise SystemExit(3)


def main():
    args = json.loads(sys.argv[1])
    op = args["op"]
    if op == "probe":
        return {"zarr": zarr.__version__, "numcodecs": numcodecs.__version__}
    if op == "write":
        data = volume(args)
        arr = zarr.open(
            zarr.DirectoryStore(args["dir"]),
            mode="w",
            shape=data.shape,
            chunks=args["chunks"],
            dtype="<f4",
            compressor=compressor(args["codec"]),
            fill_value=0,
        )
        t0 = time.perf_counter()
        arr[...] = data
        return {"seconds": time.perf_counter() - t0}
    if op == "read":
        arr = zarr.open(zarr.DirectoryStore(args["dir"]), mode="r")
        t0 = time.perf_counter()
        got = arr[...]
        seconds = time.perf_counter() - t0
        check(got, volume(args), "the full read")
        return {"seconds": seconds}
    if op == "read-into":
        # A full read into an output read into once before (its pages already touched).
        arr = zarr.open(zarr.DirectoryStore(args["dir"]), mode="r")
        out = np.empty(arr.shape, dtype=arr.dtype)
        arr.get_basic_selection(Ellipsis, out=out)
        out[...] = 0
        t0 = time.perf_counter()
        arr.get_basic_selection(Ellipsis, out=out)
        seconds = time.perf_counter() - t0
        check(out, volume(args), "the full read into a reused output")
        return {"seconds": seconds}
    if op == "regions":
        data = volume(args)
        store = zarr.DirectoryStore(args["dir"])
        seconds = 0.0
        for start, size in args["regions"]:
            box = tuple(slice(s, s + n) for s, n in zip(start, size))
            t0 = time.perf_counter()
            got = zarr.open(store, mode="r")[box]
            seconds += time.perf_counter() - t0
            check(got, data[box], f"the region at {start}")
        return {"seconds": seconds}
    if op == "rss-read":
        arr = zarr.open(zarr.DirectoryStore(args["dir"]), mode="r")
        base = rss_mib()
        got = arr[...]
        peak = peak_rss_mib()
        return {"peakRssMiB": peak - base, "outputMiB": got.nbytes / MiB}
    if op == "read-large":
        arr = zarr.open(zarr.DirectoryStore(args["dir"]), mode="r")
        base = rss_mib()
        t0 = time.perf_counter()
        got = arr[...]
        seconds = time.perf_counter() - t0
        peak = peak_rss_mib()
        check_large(got, args["edge"])
        return {"seconds": seconds, "peakRssMiB": peak - base}
    raise SystemExit(f"unknown op {op}")


def check_large(got, edge):
    # (x + y*y // 32 + z**3) % 65536, as the zarrs benchmark suite generates it; one z plane at a
    # time, so the check does not hold a second copy of the cube.
    if got.shape != (edge, edge, edge) or got.dtype != np.uint16:
        print(f"zarr-python 2: wrong shape or dtype {got.shape} {got.dtype}", file=sys.stderr)
        raise SystemExit(3)
    x = np.arange(edge, dtype=np.int64)
    rows = (x * x // 32)[:, None] + x[None, :]
    for z in range(edge):
        expected = ((rows + z**3) % 65536).astype(np.uint16)
        if not np.array_equal(got[z], expected):
            print(f"zarr-python 2: wrong values in plane z={z} of the large array", file=sys.stderr)
            raise SystemExit(3)


print(json.dumps(main()))
