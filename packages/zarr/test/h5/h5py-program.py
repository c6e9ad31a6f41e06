import json, sys
import h5py
import numpy as np

path = sys.argv[1]
out = {}
errors = {}

def err(name, fn):
    try:
        fn()
        errors[name] = None
    except Exception as e:  # noqa: BLE001
        errors[name] = type(e).__name__

def props(d):
    return {
        "name": d.name,
        "parent": d.parent.name,
        "shape": list(d.shape),
        "dtype": str(d.dtype),
        "len": len(d),
        "compression": d.compression,
        "compression_opts": d.compression_opts,
        "shuffle": d.shuffle,
        "fillvalue": d.fillvalue.item(),
        "maxshape": list(d.maxshape),
        "attrs": {k: v.item() if hasattr(v, "item") else v for k, v in d.attrs.items()},
    }

with h5py.File(path, "w") as f:
    f.attrs["title"] = "survey"
    f.attrs["version"] = 3
    g = f.create_group("measurements")
    run = g.create_group("run1")
    f.create_group("a/b/c")
    temps = run.create_dataset("temps", data=np.arange(60, dtype="f4").reshape(6, 10), chunks=(4, 4),
                               compression="gzip", compression_opts=6, maxshape=(None, 10), fillvalue=-1)
    temps.attrs["units"] = "K"
    counts = g.create_dataset("counts", shape=(5, 7), dtype="i4", chunks=(2, 3), compression="gzip", shuffle=True)
    counts[1:4, 2:6] = np.arange(12).reshape(3, 4)
    counts[0, :] = 7
    flags = f.create_dataset("flags", data=np.array([True, False, True, True]))
    scalar = f.create_dataset("scalar", data=3.25)
    temps.resize((9, 10))
    out["grown_fill"] = temps[8].tolist()
    temps[6:8, :] = 100 + np.arange(20).reshape(2, 10)
    temps.resize(8, axis=0)
    err("resize_beyond_maxshape", lambda: counts.resize((6, 7)))
    err("resize_wrong_rank", lambda: temps.resize((8,)))
    out["require_ok"] = g.require_dataset("counts", (5, 7), "i2").name
    err("require_shape_mismatch", lambda: g.require_dataset("counts", (5, 8), "i4"))
    err("require_dtype_unsafe", lambda: g.require_dataset("counts", (5, 7), "f8"))
    err("require_exact", lambda: g.require_dataset("counts", (5, 7), "i2", exact=True))
    err("require_group_on_dataset", lambda: g.require_group("counts"))
    out["require_group"] = f.require_group("measurements").name
    err("create_existing_group", lambda: f.create_group("measurements"))
    err("create_existing_dataset", lambda: g.create_dataset("counts", shape=(1,)))
    err("missing", lambda: f["nope"])
    err("maxshape_too_small", lambda: f.create_dataset("bad", shape=(4,), maxshape=(3,)))
    err("data_shape_mismatch", lambda: f.create_dataset("bad2", shape=(3,), data=np.arange(4)))
    out["get_default"] = f.get("nope") is None
    out["temps"] = props(temps)
    out["counts"] = props(counts)
    out["scalar"] = {"shape": list(scalar.shape), "dtype": str(scalar.dtype), "value": scalar[()].item()}
    err("len_scalar", lambda: len(scalar))
    out["flags"] = flags[...].tolist()
    mask = (np.arange(35).reshape(5, 7) % 3) == 0
    out["reads"] = {
        "all": temps[...].ravel().tolist(),
        "slice": temps[1:7:2, 3:9:3].ravel().tolist(),
        "int_row": temps[2].tolist(),
        "element": temps[7, 9].item(),
        "fancy_rows": temps[[0, 2, 5], :].ravel().tolist(),
        "fancy_cols": temps[1:3, [1, 4, 8]].ravel().tolist(),
        "bool_axis": counts[:, np.array([True, False, True, False, False, True, True])].ravel().tolist(),
        "mask": counts[mask].tolist(),
        "iter": [row.tolist() for row in counts],
    }
    temps.resize((10, 10))
    out["reads"]["regrown"] = temps[7:10].ravel().tolist()
    f.move("a/b", "moved")
    f.copy("measurements/run1", "run1_copy")
    f.copy(temps, g, name="temps_again")
    f.copy(g, "shallow", shallow=True)
    f.copy(counts, "bare", without_attrs=True)
    del f["flags"]
    err("delete_missing", lambda: f.__delitem__("flags"))
    err("move_onto_existing", lambda: f.move("scalar", "moved"))
    err("move_missing", lambda: f.move("nothing", "elsewhere"))
    err("copy_onto_existing", lambda: f.copy("scalar", "moved"))
    names = []
    f.visit(names.append)
    out["visit"] = names
    items = []
    f.visititems(lambda n, o: items.append([n, "dataset" if isinstance(o, h5py.Dataset) else "group"]))
    out["visititems"] = items
    out["visit_stop"] = f.visit(lambda n: n if n.endswith("temps") else None)
    out["keys_root"] = list(f.keys())
    out["keys_g"] = list(g.keys())
    out["len_root"] = len(f)
    out["contains"] = ["measurements/run1/temps" in f, "nope" in f, "/measurements" in g, "run1" in g]
    out["copied"] = f["measurements/temps_again"][...].ravel().tolist() == temps[...].ravel().tolist()
    out["copy_attrs"] = dict(f["run1_copy/temps"].attrs)
    out["bare_attrs"] = dict(f["bare"].attrs)
    out["moved_keys"] = list(f["moved"].keys())
    out["attrs_root"] = {k: (v.item() if hasattr(v, "item") else v) for k, v in f.attrs.items()}
    del f.attrs["version"]
    out["attrs_after_delete"] = list(f.attrs.keys())
    err("attr_missing", lambda: f.attrs["version"])
    out["attr_get_default"] = f.attrs.get("version", "none")
    out["attr_contains"] = ["title" in f.attrs, "version" in f.attrs]

with h5py.File(path, "r") as f:
    err("ro_create_group", lambda: f.create_group("x"))
    err("ro_create_dataset", lambda: f.create_dataset("y", shape=(1,)))
    err("ro_write", lambda: f["measurements/counts"].__setitem__((0, 0), 1))
    err("ro_attrs", lambda: f.attrs.__setitem__("k", 1))
    err("ro_resize", lambda: f["measurements/run1/temps"].resize((3, 10)))
    err("ro_delete", lambda: f.__delitem__("scalar"))
    out["ro_mode"] = f.mode
    out["ro_title"] = f.attrs["title"]
err("wx_existing", lambda: h5py.File(path, "w-"))
err("r_missing", lambda: h5py.File(path + ".missing", "r"))
err("rplus_missing", lambda: h5py.File(path + ".missing", "r+"))
with h5py.File(path, "a") as f:
    out["a_keys"] = list(f.keys())
    out["a_mode"] = f.mode
with h5py.File(path, "w") as f:
    out["w_keys"] = list(f.keys())
print(json.dumps({"out": out, "errors": errors}))
