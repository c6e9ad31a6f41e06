/**
 * Azurite answers a range that starts at or past the end of a blob (`bytes=512-` of a 512-byte
 * blob, `bytes=0-` of an empty one) with 206 and an impossible `Content-Range: bytes 512-511/512`,
 * where the Blob service answers 416. This turns such an answer into the 416 (with
 * `Content-Range: bytes *\/<size>`) the service sends, which reads as "no bytes in range".
 */
export function normalizeEmptyRangeAnswer(response: Response): Response {
  if (response.status !== 206) return response;
  const match = /^bytes (\d+)-(-?\d+)\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
  if (!match || Number(match[2]) >= Number(match[1])) return response;
  void response.body?.cancel();
  return new Response(null, {
    status: 416,
    statusText: "Range Not Satisfiable",
    headers: { "content-range": `bytes */${match[3]}` },
  });
}
