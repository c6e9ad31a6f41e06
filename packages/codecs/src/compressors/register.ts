// Registers the compressors codecs; filled in by the compressors implementation.
export {};
