// Runs in the page: a fetch that records what it asked for and how many body bytes came back,
// for comparing with what the test server logged.

/** One request the page made. */
export interface PageRequest {
  method: string;
  url: string;
  range: string | null;
  status: number;
  bytes: number;
}

/** The browser's fetch, recording each request (and its body size) into `log`. */
export function recordingFetch(log: PageRequest[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    // A clone to count the body, so the store still reads the original stream.
    const bytes = request.method === "HEAD" ? 0 : (await response.clone().arrayBuffer()).byteLength;
    log.push({
      method: request.method,
      url: request.url,
      range: request.headers.get("range"),
      status: response.status,
      bytes,
    });
    return response;
  };
}
