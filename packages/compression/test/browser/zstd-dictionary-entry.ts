// Runs in the browser: decodes zstd frames with a dictionary, which loads libzstd's decompressor
// (WebAssembly) on the first call.
import { zstdDecompress } from "../../src/zstd.js";

type Decode = (
  frames: number[][],
  dictionary: number[],
) => Promise<{ decoded: number[][]; corrupt: string }>;

(window as unknown as { __decode: Decode }).__decode = async (frames, dictionary) => {
  const dict = Uint8Array.from(dictionary);
  const decoded: number[][] = [];
  for (const frame of frames)
    decoded.push(
      Array.from(
        await zstdDecompress(Uint8Array.from(frame), { maxSize: 1 << 16, dictionary: dict }),
      ),
    );
  const broken = Uint8Array.from(frames[0]);
  broken[broken.length - 1] ^= 0xff;
  let corrupt = "decoded";
  try {
    await zstdDecompress(broken, { maxSize: 1 << 16, dictionary: dict });
  } catch (error) {
    corrupt = (error as Error).name;
  }
  return { decoded, corrupt };
};
