/**
 * A byte cap on the answers of short outbound exchanges (OAuth metadata, registration, token,
 * revocation; docs/security.md#oauth): the body is read under the cap and handed on whole, so a
 * hostile endpoint that answers with megabytes costs at most the cap, never the process's memory.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { NetError, displayUrl } from "./errors";
import { readCapped } from "./read-capped";

/** Largest answer of one OAuth exchange: metadata and token responses are a few kilobytes. */
export const OAUTH_MAX_RESPONSE_BYTES = 256 * 1024;

// Statuses whose Response cannot carry a body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** `inner` with every answer read whole under `maxBytes`; a larger one fails with `net.response_too_large`. */
export function withResponseCap(inner: FetchLike, maxBytes = OAUTH_MAX_RESPONSE_BYTES): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    const where = displayUrl(url);
    const tooLarge = () => new NetError("response_too_large", 502, `${where} answered with more than ${maxBytes} bytes`);
    if (!response.body || NULL_BODY.has(response.status)) return response;
    if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
      await response.body.cancel().catch(() => undefined); // the error is the answer; the rest is not read
      throw tooLarge();
    }
    const bytes = await readCapped(response.body, maxBytes, tooLarge);
    const capped = new Response(new Uint8Array(bytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Redirect and origin checks downstream read where the answer really came from.
    Object.defineProperty(capped, "url", { value: response.url });
    return capped;
  };
}
