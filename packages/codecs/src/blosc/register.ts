// Registers the blosc codecs; filled in by the blosc implementation.
export {};
