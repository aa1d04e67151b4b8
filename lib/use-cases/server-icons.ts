/**
 * Server icons served from the app's own origin (`GET /api/w/<slug>/servers/:id/icon?i=N`): the browser
 * never loads a URL a server names. A `data:` icon is decoded here; an http(s) icon is fetched
 * server-side through the SSRF guard, at most `MAX_ICON_BYTES`, and kept only when it is a PNG,
 * JPEG, GIF or WebP by its own bytes (SVG can carry script). Cached per icon URL for an hour.
 */
import { readCapped } from "../http";
import "server-only";
import { getDb } from "../../db/client";
import { AppError } from "../errors";
import { guardedFetchFromEnv } from "../net";
import { singleton } from "../singleton";
import { rasterType } from "./image-type";
import { appPool, workspaceServerDefinition } from "../runtime/engine";
import type { Caller } from "./server-ops";

/** Largest icon accepted, in bytes. */
export const MAX_ICON_BYTES = 256 * 1024;
const CACHE_MS = 60 * 60_000;
const CACHE_ENTRIES = 200;
const FETCH_TIMEOUT_MS = 10_000;

type Icon = { type: string; bytes: Uint8Array };
const cache = () => singleton("host.iconCache", () => new Map<string, { at: number; icon: Icon }>());

async function fetchIcon(src: string): Promise<Uint8Array> {
  const fetch = guardedFetchFromEnv();
  try {
    const response = await fetch(src, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "follow" });
    if (!response.ok || !response.body) throw new AppError("server.upstream", `The icon answered ${response.status}.`);
    return await readCapped(
      response.body,
      MAX_ICON_BYTES,
      () => new AppError("server.upstream", `The icon is larger than ${MAX_ICON_BYTES} bytes.`),
    );
  } finally {
    await fetch.close();
  }
}

/** The bytes of a base64 `data:` icon URL, or null when `src` is not one. */
export function dataIconBytes(src: string): Buffer | null {
  const match = /^data:[^;,]*;base64,([A-Za-z0-9+/=]+)$/.exec(src);
  return match ? Buffer.from(match[1], "base64") : null;
}

/** Icon `index` of the caller's connected server, as bytes with their checked type. */
export async function serverIcon(caller: Caller, serverId: string, index: number): Promise<Icon> {
  const server = await workspaceServerDefinition(getDb(), caller, serverId);
  const src = appPool().session(caller.id, server).status().serverInfo?.icons?.[index]?.src;
  if (!src) throw new AppError("server.not_found", "No such icon (the server is not connected, or sent none).");
  const hit = cache().get(src);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.icon;
  let bytes: Uint8Array;
  if (src.startsWith("data:")) {
    const decoded = dataIconBytes(src);
    if (!decoded) throw new AppError("server.upstream", "The icon is not a base64 data URL.");
    bytes = decoded;
  } else if (/^https?:\/\//.test(src)) {
    bytes = await fetchIcon(src);
  } else {
    throw new AppError("server.upstream", "The icon URL is neither data: nor http(s).");
  }
  const type = rasterType(bytes);
  if (!type || bytes.byteLength > MAX_ICON_BYTES) throw new AppError("server.upstream", "The icon is not a PNG, JPEG, GIF or WebP image.");
  const icon = { type, bytes };
  const entries = cache();
  if (entries.size >= CACHE_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(src, { at: Date.now(), icon });
  return icon;
}
