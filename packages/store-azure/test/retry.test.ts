import http from "node:http";
import type { AddressInfo } from "node:net";
import { AzureBlobStore } from "@z/store-azure";
import { HttpError } from "@z/store-http";
import { type Azurite, startAzurite } from "@z/test-utils";
import { afterAll, beforeAll, expect, test } from "vitest";

/*
 * Retries: a proxy in front of Azurite answers "503 Server Busy" (the Blob service's throttling
 * answer) to the first requests it sees, then forwards; signed requests are re-signed on each try.
 */

let azurite: Azurite;
let proxy: http.Server;
let proxyEndpoint: string;
let busyAnswersLeft = 0;
const seen: string[] = [];

beforeAll(async () => {
  azurite = await startAzurite();
  const target = new URL(azurite.endpoint);
  proxy = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (busyAnswersLeft > 0) {
      busyAnswersLeft--;
      request.resume();
      response.writeHead(503, "Server Busy", { "content-type": "application/xml" });
      response.end("<Error><Code>ServerBusy</Code><Message>busy</Message></Error>");
      return;
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyEndpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/devstoreaccount1`;
  const admin = new AzureBlobStore({
    container: "retry",
    connectionString: azurite.connectionString,
  });
  await admin.createContainer();
  await admin.set("a/b", new Uint8Array([1, 2, 3]));
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await azurite.stop();
});

const store = (retries: number) =>
  new AzureBlobStore({
    container: "retry",
    connectionString: `${azurite.connectionString.replace(azurite.endpoint, proxyEndpoint)}`,
    retries,
    retryDelay: 1,
  });

test("503 answers to reads, writes and listings are retried until the service answers", async () => {
  const s = store(3);
  seen.length = 0;
  busyAnswersLeft = 2;
  expect(await s.get("a/b")).toEqual(new Uint8Array([1, 2, 3]));
  expect(seen.length).toBe(3);
  busyAnswersLeft = 2;
  await s.set("a/c", new Uint8Array([4]));
  busyAnswersLeft = 3;
  expect(await s.listDir("a/")).toEqual({ keys: ["a/b", "a/c"], prefixes: [] });
  expect(seen.filter((line) => line.includes("comp=list")).length).toBe(4);
});

test("a service busy beyond the retries fails with the last status", async () => {
  const s = store(1);
  busyAnswersLeft = 5;
  const failure = await s.get("a/b").catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(HttpError);
  expect((failure as HttpError).status).toBe(503);
  expect((failure as HttpError).message).toMatch(/gave up after 2 attempts/);
  busyAnswersLeft = 5;
  const listing = await s.listDir("").catch((e: unknown) => e);
  expect((listing as HttpError).status).toBe(503);
  busyAnswersLeft = 0;
});
