// The codec configurations benchmarked: the same v3 codec metadata for both libraries.

const bytes = { name: "bytes", configuration: { endian: "little" } };

/**
 * name -> {codecs, zarritaWrites}. `zarritaWrites` is false where zarrita cannot encode
 * (its gzip codec only decodes), so its write is reported as "n/a".
 */
export const CODEC_CONFIGS = {
  none: { codecs: [bytes], zarritaWrites: true },
  gzip: { codecs: [bytes, { name: "gzip", configuration: { level: 5 } }], zarritaWrites: false },
  zstd: {
    codecs: [bytes, { name: "zstd", configuration: { level: 3, checksum: false } }],
    zarritaWrites: true,
  },
  blosc: {
    codecs: [
      bytes,
      {
        name: "blosc",
        configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
      },
    ],
    zarritaWrites: true,
  },
};

/**
 * What a blosc chunk's header says about how it was written: the shuffle mode and whether
 * the data is stored uncompressed (memcpyed). v3 metadata spells shuffle as a string, and a
 * writer that passes it to c-blosc unconverted writes unshuffled chunks; this detects it.
 */
export function bloscHeaderFlags(chunk) {
  if (!chunk || chunk.length < 16) return undefined;
  const flags = chunk[2];
  const shuffle = flags & 0x04 ? "bitshuffle" : flags & 0x01 ? "shuffle" : "noshuffle";
  return { shuffle, memcpyed: (flags & 0x02) !== 0, typesize: chunk[3] };
}
