/**
 * The server's icons as the gateway passes them to its client (docs/gateway.md#what-a-request-goes-through),
 * sanitised as the app shows them: only `data:` icons whose own bytes are a PNG, JPEG, GIF or WebP
 * image of at most `MAX_ICON_BYTES` (an SVG can carry script), re-labelled with the type their
 * bytes have; an http(s) icon is left out, because the app never has a client load a URL a server
 * names (in the browser it serves such icons from its own origin, behind a session a gateway
 * client does not have).
 */
import type { Icon } from "@modelcontextprotocol/server";
import { rasterType } from "../image-type";
import { dataIconBytes, MAX_ICON_BYTES } from "../server-icons";

// A server's list is its own claim: a few icons are enough for any client.
const MAX_ICONS = 4;
// `sizes` entries as the specification writes them ("48x48", "any").
const SIZE = /^(\d{1,4}x\d{1,4}|any)$/;

/** The icons of `icons` a client may be given, rebuilt from their checked bytes. */
export function gatewayIcons(icons: readonly Icon[] | undefined): Icon[] {
  const kept: Icon[] = [];
  for (const icon of icons ?? []) {
    if (kept.length >= MAX_ICONS) break;
    // Longer than the cap could ever decode to: not decoded at all.
    if (icon.src.length > MAX_ICON_BYTES * 2) continue;
    const bytes = dataIconBytes(icon.src);
    const type = bytes && rasterType(bytes);
    if (!bytes || !type || bytes.byteLength > MAX_ICON_BYTES) continue;
    const sizes = (icon.sizes ?? []).filter((size) => typeof size === "string" && SIZE.test(size));
    kept.push({ src: `data:${type};base64,${bytes.toString("base64")}`, mimeType: type, ...(sizes.length ? { sizes } : {}) });
  }
  return kept;
}
