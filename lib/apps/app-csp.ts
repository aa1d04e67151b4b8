/**
 * The Content-Security-Policy of an MCP App's frame (docs/mcp-apps.md#the-frame): no network at all
 * unless the app's resource declares origins in `_meta.ui.csp`, and then only those. `sandbox
 * allow-scripts` gives the document an opaque origin even when opened outside its iframe. Loopback
 * origins (the user's own machine) only for an app of a server that is itself on loopback: any other
 * server's app could otherwise script the user's local services.
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
  /** The host's proof that loopback origins were granted (lib/apps/loopback-grant.ts); never the app's. */
  loopbackGrant: z.string().max(200).optional(),
});

/** The origin lists of the metadata. */
export const CSP_LISTS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;

/** Options of `sanitizeAppCsp`. */
export interface SanitizeOptions {
  /** Keep loopback origins (the app's server is itself on loopback). Default false. */
  loopback?: boolean;
}

/** Declared CSP metadata. */
export type AppCsp = z.infer<typeof appCspSchema>;

/** Only well-formed origins survive; anything else (keywords, `*`, paths, quotes, `;`) is dropped. */
export function safeOrigins(list: readonly string[] | undefined): string[] {
  return [...new Set((list ?? []).filter((o) => ORIGIN.test(o)))];
}

/** Whether a well-formed origin names this machine: localhost, `*.localhost`, 127/8 or 0.0.0.0 (browsers reach all of them locally). */
export function isLoopbackOrigin(origin: string): boolean {
  const host = origin
    .replace(/^[a-z]+:\/\//i, "")
    .replace(/:\d+$/, "")
    .replace(/^\*\./, "")
    .toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "0.0.0.0";
}

/**
 * The declared metadata with every list reduced to safe origins (what the frame URL carries), and
 * loopback origins dropped unless `options.loopback`. A `loopbackGrant` is never carried over.
 */
export function sanitizeAppCsp(input: unknown, options: SanitizeOptions = {}): AppCsp {
  const parsed = appCspSchema.safeParse(input ?? {});
  if (!parsed.success) return {};
  const out: AppCsp = {};
  for (const key of CSP_LISTS) {
    const list = safeOrigins(parsed.data[key]).filter((origin) => options.loopback || !isLoopbackOrigin(origin));
    if (list.length) out[key] = list;
  }
  return out;
}

/** Whether any list of `csp` names a loopback origin. */
export function hasLoopbackOrigin(csp: AppCsp): boolean {
  return CSP_LISTS.some((key) => (csp[key] ?? []).some(isLoopbackOrigin));
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
