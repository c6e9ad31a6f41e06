import type { FailFn } from "./flatbuffers.js";

/**
 * A MessagePack reader for spec version 1 metadata values: JSON-like values (maps with string
 * keys, arrays, strings, numbers, booleans, nil; bin as bytes; 64-bit integers beyond 2^53 as
 * BigInt). Every length is checked against the input and nesting is bounded.
 */
export function decodeMsgpack(bytes: Uint8Array, fail: FailFn): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder("utf-8", { fatal: true });
  let pos = 0;
  const need = (n: number) => {
    if (pos + n > bytes.length)
      fail(`a MessagePack value needs ${n} bytes at ${pos} of ${bytes.length}`);
  };
  const u = (n: 1 | 2 | 4) => {
    need(n);
    const v = n === 1 ? view.getUint8(pos) : n === 2 ? view.getUint16(pos) : view.getUint32(pos);
    pos += n;
    return v;
  };
  const big = (signed: boolean) => {
    need(8);
    const v = signed ? view.getBigInt64(pos) : view.getBigUint64(pos);
    pos += 8;
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(v)
      : v;
  };
  const str = (n: number) => {
    need(n);
    try {
      return text.decode(bytes.subarray(pos, (pos += n)));
    } catch {
      return fail("a MessagePack string is not valid UTF-8");
    }
  };
  const bin = (n: number) => {
    need(n);
    return bytes.slice(pos, (pos += n));
  };
  const value = (depth: number): unknown => {
    if (depth > 64) fail("MessagePack values nest deeper than 64 levels");
    const t = u(1);
    if (t <= 0x7f) return t;
    if (t >= 0xe0) return t - 0x100;
    if ((t & 0xf0) === 0x80) return map(t & 0x0f, depth);
    if ((t & 0xf0) === 0x90) return array(t & 0x0f, depth);
    if ((t & 0xe0) === 0xa0) return str(t & 0x1f);
    switch (t) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return bin(u(1));
      case 0xc5:
        return bin(u(2));
      case 0xc6:
        return bin(u(4));
      case 0xca:
        need(4);
        pos += 4;
        return view.getFloat32(pos - 4);
      case 0xcb:
        need(8);
        pos += 8;
        return view.getFloat64(pos - 8);
      case 0xcc:
        return u(1);
      case 0xcd:
        return u(2);
      case 0xce:
        return u(4);
      case 0xcf:
        return big(false);
      case 0xd0:
        need(1);
        return view.getInt8(pos++);
      case 0xd1:
        need(2);
        pos += 2;
        return view.getInt16(pos - 2);
      case 0xd2:
        need(4);
        pos += 4;
        return view.getInt32(pos - 4);
      case 0xd3:
        return big(true);
      case 0xd9:
        return str(u(1));
      case 0xda:
        return str(u(2));
      case 0xdb:
        return str(u(4));
      case 0xdc:
        return array(u(2), depth);
      case 0xdd:
        return array(u(4), depth);
      case 0xde:
        return map(u(2), depth);
      case 0xdf:
        return map(u(4), depth);
      default:
        return fail(`MessagePack type byte 0x${t.toString(16)} is not a JSON-like value`);
    }
  };
  const array = (n: number, depth: number) => {
    // Each element takes at least a byte, so a count beyond the input is refused up front.
    need(n);
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(value(depth + 1));
    return out;
  };
  const map = (n: number, depth: number) => {
    need(2 * n);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const key = value(depth + 1);
      if (typeof key !== "string") fail("a MessagePack map key is not a string");
      Object.defineProperty(out, key, {
        value: value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  const result = value(0);
  if (pos !== bytes.length) fail(`${bytes.length - pos} bytes follow the MessagePack value`);
  return result;
}
