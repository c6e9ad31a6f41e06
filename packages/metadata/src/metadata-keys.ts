/** The names of the metadata documents. */
export const METADATA_KEYS = {
  /** v3 node metadata. */
  zarrJson: "zarr.json",
  /** v2 array metadata. */
  zarray: ".zarray",
  /** v2 group metadata. */
  zgroup: ".zgroup",
  /** v2 attributes. */
  zattrs: ".zattrs",
  /** v2 consolidated metadata. */
  zmetadata: ".zmetadata",
} as const;
