// The codec name alone, so that registering the codec loader does not load the codec.
/** The name the offsets layout codec is registered under (an extension of this project). */
export const VLEN_OFFSETS_CODEC = "z.vlen-offsets";
