import { isZarrError } from "@z/errors";
import type { JsonObject } from "@z/metadata";
import { jsonMutation } from "@z/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OmeMetadataError, parseOmeMetadata } from "../src/index.js";
import { sample04, sample05 } from "./samples.js";

function errorOf(attrs: unknown): OmeMetadataError {
  try {
    parseOmeMetadata(attrs as JsonObject);
  } catch (e) {
    expect(e).toBeInstanceOf(OmeMetadataError);
    return e as OmeMetadataError;
  }
  throw new Error("parsed without an error");
}

describe("parseOmeMetadata", () => {
  it("reads 0.4 attributes: axes, datasets, composed transformations, omero", () => {
    const meta = parseOmeMetadata(sample04());
    expect(meta.version).toBe("0.4");
    const [ms] = meta.multiscales;
    expect(ms.name).toBe("cells");
    expect(ms.type).toBe("mean");
    expect(ms.axes).toEqual([
      { name: "c", type: "channel" },
      { name: "y", type: "space", unit: "micrometer" },
      { name: "x", type: "space", unit: "micrometer" },
    ]);
    expect(ms.datasets.map((d) => d.path)).toEqual(["0", "1"]);
    // dataset then multiscale: scale s_m * s_d, translation s_m * t_d + t_m
    expect(ms.datasets[0].scale).toEqual([1, 1, 0.5]);
    expect(ms.datasets[0].translation).toEqual([0, 21, 43]);
    expect(ms.datasets[1].scale).toEqual([1, 2, 1]);
    expect(ms.datasets[1].translation).toEqual([0, 1, 3]);
    expect(ms.datasets[0].coordinateTransformations).toHaveLength(2);
    expect(meta.omero?.channels).toEqual([
      {
        label: "DAPI",
        color: "0000FF",
        window: { min: 0, max: 255, start: 5, end: 200 },
        active: true,
      },
      { label: "GFP", color: "00FF00", active: false },
    ]);
    expect(meta.omero?.rdefs).toEqual({ defaultZ: 0, model: "color" });
  });

  it("reads 0.5 attributes under ome, with its version", () => {
    const v5 = parseOmeMetadata(sample05());
    const v4 = parseOmeMetadata(sample04());
    expect(v5.version).toBe("0.5");
    expect(v5.multiscales[0].version).toBe("0.5");
    expect({ ...v5.multiscales[0], version: "0.4" }).toEqual(v4.multiscales[0]);
    expect(v5.omero).toEqual(v4.omero);
  });

  it("reads 0.3's axis names and 0.2's implied axes, with unit scales", () => {
    const v3 = parseOmeMetadata({
      multiscales: [{ version: "0.3", axes: ["z", "y", "x"], datasets: [{ path: "0" }] }],
    });
    expect(v3.multiscales[0].axes).toEqual([
      { name: "z", type: "space" },
      { name: "y", type: "space" },
      { name: "x", type: "space" },
    ]);
    expect(v3.multiscales[0].datasets[0].scale).toEqual([1, 1, 1]);
    const v2 = parseOmeMetadata({ multiscales: [{ version: "0.2", datasets: [{ path: "0" }] }] });
    expect(v2.multiscales[0].axes.map((a) => a.name)).toEqual(["t", "c", "z", "y", "x"]);
  });

  it("reads labels and image-label", () => {
    expect(parseOmeMetadata({ labels: ["nuclei", "cells"] }).labels).toEqual(["nuclei", "cells"]);
    const label = parseOmeMetadata({
      ...sample04(),
      "image-label": {
        colors: [{ "label-value": 1, rgba: [255, 0, 0, 255] }, { "label-value": 2 }],
        source: { image: "../../" },
      },
    }).imageLabel;
    expect(label).toEqual({
      colors: [{ labelValue: 1, rgba: [255, 0, 0, 255] }, { labelValue: 2 }],
      source: "../../",
    });
  });

  it("names what is wrong and where", () => {
    const short = sample04();
    (short.multiscales as any)[0].datasets[1].coordinateTransformations[0].scale = [1, 1];
    const e = errorOf(short);
    expect(e.message).toBe(
      "multiscales[0].datasets[1].coordinateTransformations: scale must have 3 entries (the axes), found 2",
    );
    expect(e.where).toBe("multiscales[0].datasets[1].coordinateTransformations");
    expect(isZarrError(e, "OmeMetadataError")).toBe(true);

    const v5 = sample05();
    (v5.ome as any).multiscales[0].axes[1].type = "space";
    (v5.ome as any).multiscales[0].axes[0].type = "space";
    (v5.ome as any).multiscales[0].axes.push({ name: "w", type: "space" });
    expect(errorOf(v5).message).toBe(
      'ome.multiscales[0].axes: must have 2 or 3 axes of type "space", found 4',
    );

    const cases: [(a: any) => void, string][] = [
      [(a) => delete a.multiscales[0].axes, "multiscales[0].axes: is required in version 0.4"],
      [
        (a) => (a.multiscales[0].axes[2].name = "y"),
        'multiscales[0].axes[2].name: repeats the axis name "y"',
      ],
      [
        (a) => (a.multiscales[0].datasets = []),
        "multiscales[0].datasets: must list at least one dataset",
      ],
      [
        (a) => (a.multiscales[0].datasets[1].path = "0"),
        'multiscales[0].datasets[1].path: repeats the path "0"',
      ],
      [
        (a) => a.multiscales[0].datasets[0].coordinateTransformations.reverse(),
        "multiscales[0].datasets[0].coordinateTransformations[0]: a translation must follow the scale, and come only once",
      ],
      [
        (a) => (a.multiscales[0].datasets[0].coordinateTransformations[0].scale[1] = 0),
        "multiscales[0].datasets[0].coordinateTransformations[0].scale[1]: must be positive, found 0",
      ],
      [
        (a) => (a.multiscales[0].coordinateTransformations = []),
        "multiscales[0].coordinateTransformations: must hold a scale, found no transformation",
      ],
      [
        (a) => (a.multiscales[0].version = "0.9"),
        'multiscales[0].version: version "0.9" is not supported (0.1 to 0.5 are)',
      ],
      [
        (a) => (a.omero.channels[1].color = "green"),
        'omero.channels[1].color: must be six hexadecimal digits, found "green"',
      ],
      [
        (a) => delete a.omero.channels[0].window.end,
        "omero.channels[0].window.end: must be a finite number, found nothing",
      ],
      [
        (a) => (a.omero.channels[0].active = "yes"),
        'omero.channels[0].active: must be true or false, found string "yes"',
      ],
      [() => undefined, ""],
    ];
    for (const [change, message] of cases) {
      const attrs = sample04();
      change(attrs);
      if (message === "") expect(() => parseOmeMetadata(attrs)).not.toThrow();
      else expect(errorOf(attrs).message).toBe(message);
    }
    expect(errorOf({ foo: 1 }).message).toMatch(/^attributes: hold no OME-Zarr metadata/);
    expect(errorOf({ ome: { multiscales: [] } }).message).toBe("ome.version: is required");
  });

  it("names the group in the message when it is known", () => {
    expect(() => parseOmeMetadata({ ome: {} }, { path: "a/img" })).toThrow(
      'ome.version: is required (in the group "/a/img")',
    );
  });

  it("gives a typed error, never a crash, for random mutations of valid metadata", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(sample04, sample05),
        fc.array(jsonMutation, { minLength: 1, maxLength: 4 }),
        (make, mutations) => {
          let attrs = make() as unknown;
          for (const m of mutations) attrs = m(attrs);
          try {
            const meta = parseOmeMetadata(attrs as JsonObject);
            // What parses is consistent: every level has a scale and translation per axis.
            for (const ms of meta.multiscales)
              for (const d of ms.datasets) {
                expect(d.scale).toHaveLength(ms.axes.length);
                expect(d.translation).toHaveLength(ms.axes.length);
                expect(d.scale.every((s) => s > 0 && Number.isFinite(s))).toBe(true);
              }
          } catch (e) {
            if (!(e instanceof OmeMetadataError)) throw e;
            expect(e.message.length).toBeGreaterThan(e.where.length);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
