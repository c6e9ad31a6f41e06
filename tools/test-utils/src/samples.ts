/**
 * Deterministic sample values for a data type, the same in every run, with the awkward cases
 * included: negative numbers, extremes of the range, NaN and infinities for floats.
 */
export function sampleValues(dtype: string, n: number): (number | bigint | boolean)[] {
  const out: (number | bigint | boolean)[] = [];
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  for (let i = 0; i < n; i++) {
    const r = next();
    switch (dtype) {
      case "bool":
        out.push(r % 3 === 0);
        break;
      case "int8":
        out.push(i === 0 ? -128 : (r % 256) - 128);
        break;
      case "uint8":
        out.push(i === 0 ? 255 : r % 256);
        break;
      case "int16":
        out.push(i === 0 ? -32768 : (r % 65536) - 32768);
        break;
      case "uint16":
        out.push(i === 0 ? 65535 : r % 65536);
        break;
      case "int32":
        out.push(i === 0 ? -2147483648 : r - 1073741824);
        break;
      case "uint32":
        out.push(i === 0 ? 4294967295 : r * 2);
        break;
      case "int64":
        out.push(i === 0 ? -(2n ** 63n) : BigInt(r) * 4294967296n - 2n ** 62n);
        break;
      case "uint64":
        out.push(i === 0 ? 2n ** 64n - 1n : BigInt(r) * 8589934592n);
        break;
      case "float16":
        out.push(
          i === 0
            ? Number.NaN
            : i === 1
              ? -65504
              : i === 2
                ? Number.POSITIVE_INFINITY
                : ((r % 2000) - 1000) / 8,
        );
        break;
      case "float32":
      case "float64":
        out.push(
          i === 0
            ? Number.NaN
            : i === 1
              ? Number.NEGATIVE_INFINITY
              : i === 2
                ? -0
                : (r - 1e9) / 1024,
        );
        break;
      default:
        throw new Error(`No sample values for ${dtype}`);
    }
  }
  return out;
}
