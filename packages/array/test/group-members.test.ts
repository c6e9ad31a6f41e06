import {
  consolidateMetadata,
  copyNode,
  createHierarchy,
  openGroup,
  UnreadableNode,
  ZarrArray,
  ZarrGroup,
} from "@z/array";
import { type GetOptions, isZarrError, MapStore } from "@z/store-core";
import { describe, expect, it } from "vitest";

/**
 * A child that cannot be opened (bad JSON, a codec nobody registered, a read that fails)
 * never makes the listing of its group throw: members() lists it as an UnreadableNode with
 * its own error, arrays() and groups() leave it out, and everything else still opens.
 */

const text = (value: string) => new TextEncoder().encode(value);
const json = (value: unknown) => text(JSON.stringify(value));

/** A v3 array document whose only serializer is a codec no one registered. */
const UNKNOWN_CODEC = {
  zarr_format: 3,
  node_type: "array",
  shape: [4],
  data_type: "int8",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "no.such.codec" }],
  attributes: {},
};

async function hierarchy(zarrFormat: 2 | 3): Promise<Map<string, Uint8Array>> {
  const map = new Map<string, Uint8Array>();
  await createHierarchy(
    map,
    {
      good: { kind: "array", shape: [3], dtype: "int16" },
      sub: { kind: "group" },
    },
    { zarrFormat },
  );
  if (zarrFormat === 3) {
    map.set("broken/zarr.json", text("{ not json"));
    map.set("odd/zarr.json", json(UNKNOWN_CODEC));
  } else {
    map.set("broken/.zarray", text("{ not json"));
    map.set("odd/.zgroup", json({ zarr_format: 5 }));
  }
  return map;
}

describe.each([2, 3] as const)(
  "group listings with children that cannot be opened (v%s)",
  (format) => {
    it("members() lists every child, the unreadable ones with their own errors", async () => {
      const group = await openGroup(await hierarchy(format));
      const members = await group.members();
      expect(members.map(([name]) => name)).toEqual(["broken", "good", "odd", "sub"]);
      const [broken, good, odd, sub] = members.map(([, node]) => node);
      expect(good).toBeInstanceOf(ZarrArray);
      expect(sub).toBeInstanceOf(ZarrGroup);
      for (const [name, node] of [
        ["broken", broken],
        ["odd", odd],
      ] as const) {
        expect(node).toBeInstanceOf(UnreadableNode);
        const unreadable = node as UnreadableNode;
        expect([unreadable.name, unreadable.path]).toEqual([name, name]);
        // The error is the typed one opening that child throws, naming it.
        expect(isZarrError(unreadable.error)).toBe(true);
        await expect(group.get(name)).rejects.toThrow(unreadable.error.message);
        expect(String(unreadable)).toContain(`/${name}: ${unreadable.error.name}`);
      }
      expect((broken as UnreadableNode).error.name).toBe("MetadataError");
      if (format === 3) expect((odd as UnreadableNode).error.name).toBe("UnknownCodecError");
    });

    it("arrays() and groups() list the children that open", async () => {
      const group = await openGroup(await hierarchy(format));
      expect((await group.arrays()).map(([name]) => name)).toEqual(["good"]);
      expect((await group.groups()).map(([name]) => name)).toEqual(["sub"]);
    });

    it("a copy of such a group stops before writing, with the child's error", async () => {
      const group = await openGroup(await hierarchy(format));
      const target = new Map<string, Uint8Array>();
      const error = await copyNode(group, target).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.name).toBe("MetadataError");
      expect(error?.message).toContain("/broken");
      expect(target.size).toBe(0);
    });
  },
);

describe("other unreadable children", () => {
  it("an array listed in consolidated metadata with an unknown codec", async () => {
    const map = await hierarchy(3);
    map.delete("broken/zarr.json");
    map.delete("odd/zarr.json");
    await consolidateMetadata(map);
    const root = JSON.parse(new TextDecoder().decode(map.get("zarr.json")));
    root.consolidated_metadata.metadata.good.codecs = [{ name: "no.such.codec" }];
    map.set("zarr.json", json(root));
    const group = await openGroup(map);
    expect(group.consolidated).toBeDefined();
    const members = await group.members();
    expect(members.map(([name, node]) => [name, node.constructor.name])).toEqual([
      ["good", "UnreadableNode"],
      ["sub", "ZarrGroup"],
    ]);
    expect((members[0][1] as UnreadableNode).error.name).toBe("UnknownCodecError");
  });

  it("a child whose metadata read fails: the read error, the siblings still listed", async () => {
    const map = await hierarchy(3);
    class FailingStore extends MapStore {
      override async get(key: string, options?: GetOptions) {
        if (key === "good/zarr.json") throw new Error("connection reset");
        return super.get(key, options);
      }
    }
    const group = await openGroup(new FailingStore(map));
    const members = await group.members();
    const good = members.find(([name]) => name === "good")?.[1];
    expect(good).toBeInstanceOf(UnreadableNode);
    expect((good as UnreadableNode).error.message).toContain("connection reset");
    expect((await group.groups()).map(([name]) => name)).toEqual(["sub"]);
  });

  it("an abort still rejects the listing", async () => {
    const group = await openGroup(await hierarchy(3));
    const controller = new AbortController();
    controller.abort();
    await expect(group.members({ signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
