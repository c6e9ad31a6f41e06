// Registers the filters codecs; filled in by the filters implementation.
export {};
