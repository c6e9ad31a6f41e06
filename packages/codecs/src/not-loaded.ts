import { nameErrorClass } from "@z/errors";
import { UnknownCodecError } from "./errors.js";

/**
 * A built-in codec whose module is not loaded yet: every codec beyond `bytes`, `transpose`
 * and `crc32c` loads on first use. Opening and creating arrays load the codecs their metadata
 * names; synchronous lookups (`resolveCodec`, `CodecPipeline.create`) need
 * `await loadCodecs([name])` first. `load()` does that.
 * @category Errors
 */
export class CodecNotLoadedError extends UnknownCodecError {
  static {
    nameErrorClass(CodecNotLoadedError, "CodecNotLoadedError");
  }
  constructor(
    codec: string,
    where: string,
    private readonly loadModule: () => Promise<void>,
  ) {
    super(codec, where);
    this.message =
      `Codec "${codec}"${where ? ` in ${where}` : ""} is not loaded: it loads on first use. ` +
      `Await loadCodecs(["${codec}"]) before building it synchronously (opening or creating ` +
      "an array does this).";
  }

  /** Loads the codec's module; then building it may be tried again. */
  load(): Promise<void> {
    return this.loadModule();
  }
}
