/**
 * Reading a byte stream under a size cap, shared by request bodies (lib/http.ts) and the answers of
 * short outbound exchanges (lib/net/capped-response.ts): past the cap reading stops at once.
 */

/**
 * Read a byte stream to its end, but stop and throw `tooLarge()` as soon as it passes `maxBytes`
 * (the rest is never read, so an oversized body or download costs at most the cap).
 */
export async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined); // the error is the answer; the rest is not read
      throw tooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}
