/**
 * Rules for showing server- and model-supplied content in the browser (docs/security.md#untrusted-server-content):
 * links only http(s); media only as data: URLs we build ourselves from base64 with an allow-listed
 * type. Node-free so client components can import it.
 */

import { safeHref } from "../net/safe-link";

/** The href to render for a link (lib/net's one rule: absolute http(s) only). */
export { safeHref };

/** Image types shown inline. No SVG: it is a document that can carry script and external loads. */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"];

/** Audio types played inline. */
export const AUDIO_TYPES: readonly string[] = [
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/mpeg",
  "audio/mp3",
  "audio/ogg",
  "audio/webm",
  "audio/flac",
  "audio/aac",
  "audio/mp4",
];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A data: URL for an image or audio blob, or undefined when the type is not allowed or the data is not base64. */
export function mediaDataUrl(kind: "image" | "audio", mimeType: string | undefined, base64: string | undefined): string | undefined {
  const type = mimeType?.trim().toLowerCase();
  const allowed = kind === "image" ? IMAGE_TYPES : AUDIO_TYPES;
  if (!type || !allowed.includes(type) || typeof base64 !== "string") return undefined;
  const data = base64.replace(/\s+/g, "");
  if (!data || !BASE64.test(data)) return undefined;
  return `data:${type};base64,${data}`;
}

/** react-markdown `urlTransform`: keep http(s) links, drop everything else. */
export function markdownUrl(url: string): string {
  return safeHref(url) ?? "";
}
