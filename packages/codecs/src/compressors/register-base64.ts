// Registers numcodecs' base64 codec (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { Base64Codec } from "./base64.js";

provideCodec("numcodecs.base64", () => new Base64Codec());
