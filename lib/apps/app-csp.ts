/**
 * The Content-Security-Policy of an MCP App's frame (docs/mcp-apps.md#the-frame): no network at all
 * unless the app's resource declares origins in `_meta.ui.csp`, and then only those. `sandbox
 * allow-scripts` gives the document an opaque origin even when opened outside its iframe.
 */
import { z } from "zod";

/** An origin an app may declare: https/wss (http/ws only for loopback), optionally `*.` subdomains; no path. */
const ORIGIN = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$|^(http|ws):\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/i;

const origins = z.array(z.string().max(300)).max(32).optional();

/** The declared CSP metadata of an app resource (`McpUiResourceCsp`); unknown keys are ignored. */
export const appCspSchema = z.object({
  connectDomains: origins,
  resourceDomains: origins,
  frameDomains: origins,
  baseUriDomains: origins,
});

/** Declared CSP metadata. */
export type AppCsp = z.infer<typeof appCspSchema>;

/** Only well-formed origins survive; anything else (keywords, `*`, paths, quotes, `;`) is dropped. */
export function safeOrigins(list: readonly string[] | undefined): string[] {
  return [...new Set((list ?? []).filter((o) => ORIGIN.test(o)))];
}

/** The declared metadata with every list reduced to safe origins (what the frame URL carries). */
export function sanitizeAppCsp(input: unknown): AppCsp {
  const parsed = appCspSchema.safeParse(input ?? {});
  if (!parsed.success) return {};
  const out: AppCsp = {};
  for (const key of ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const) {
    const list = safeOrigins(parsed.data[key]);
    if (list.length) out[key] = list;
  }
  return out;
}

/** The frame's policy: inline script and style (apps are single HTML files), data:/blob: media, declared origins only. */
export function appFrameCsp(csp: AppCsp, appOrigin: string): string {
  const resources = safeOrigins(csp.resourceDomains).join(" ");
  const withResources = (base: string) => (resources ? `${base} ${resources}` : base);
  const connect = safeOrigins(csp.connectDomains);
  const frames = safeOrigins(csp.frameDomains);
  const base = safeOrigins(csp.baseUriDomains);
  return [
    "sandbox allow-scripts",
    "default-src 'none'",
    withResources("script-src 'unsafe-inline'"),
    withResources("style-src 'unsafe-inline'"),
    withResources("img-src data: blob:"),
    withResources("font-src data:"),
    withResources("media-src data: blob:"),
    `connect-src ${connect.length ? connect.join(" ") : "'none'"}`,
    `frame-src ${frames.length ? frames.join(" ") : "'none'"}`,
    `base-uri ${base.length ? base.join(" ") : "'none'"}`,
    "form-action 'none'",
    "object-src 'none'",
    // Only the app's own pages may embed the frame.
    `frame-ancestors ${appOrigin}`,
  ].join("; ");
}
