import type { JsonObject } from "@z/metadata";

/** A valid 0.4 image's attributes: 3-D (c, y, x), two levels, a multiscale scale, omero. */
export function sample04(): JsonObject {
  return {
    multiscales: [
      {
        version: "0.4",
        name: "cells",
        axes: [
          { name: "c", type: "channel" },
          { name: "y", type: "space", unit: "micrometer" },
          { name: "x", type: "space", unit: "micrometer" },
        ],
        datasets: [
          {
            path: "0",
            coordinateTransformations: [
              { type: "scale", scale: [1, 0.5, 0.25] },
              { type: "translation", translation: [0, 10, 20] },
            ],
          },
          {
            path: "1",
            coordinateTransformations: [{ type: "scale", scale: [1, 1, 0.5] }],
          },
        ],
        coordinateTransformations: [
          { type: "scale", scale: [1, 2, 2] },
          { type: "translation", translation: [0, 1, 3] },
        ],
        type: "mean",
      },
    ],
    omero: {
      channels: [
        {
          label: "DAPI",
          color: "0000ff",
          window: { min: 0, max: 255, start: 5, end: 200 },
          active: true,
        },
        { label: "GFP", color: "00FF00", active: false },
      ],
      rdefs: { defaultZ: 0, model: "color" },
    },
  };
}

/** The same image as 0.5 writes it: under `ome`, with the version there. */
export function sample05(): JsonObject {
  const v4 = sample04();
  const [ms] = v4.multiscales as JsonObject[];
  const { version: _version, ...rest } = ms;
  return { ome: { version: "0.5", multiscales: [rest], omero: v4.omero } };
}
