/**
 * The engine's fetch when the host gives none (the command line, the engine's own tests): the
 * global fetch, unguarded as it is, with the Node request lane beside it (lib/net/node-request.ts,
 * without a policy) so Streamable HTTP reads its answers without web streams there too. The web
 * app always passes its SSRF-guarded fetch instead (lib/runtime/engine.ts).
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { createNodeRequester } from "../net/node-request";

let shared: FetchLike | undefined;

/** The process's one default fetch (its lane keeps the keep-alive connections). */
export function defaultEngineFetch(): FetchLike {
  shared ??= Object.assign((url: string | URL, init?: RequestInit) => globalThis.fetch(url, init), { request: createNodeRequester() });
  return shared;
}
