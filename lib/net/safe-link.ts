/**
 * The one rule for links shown to users: absolute http(s) only (never javascript:, data:, file:,
 * vbscript:). Free of Node imports so browser components use the same rule as the server.
 */

const LINK_SCHEMES = new Set(["http:", "https:"]);

/** Parse an absolute URL; null when it is not one. */
export function parseAbsoluteUrl(url: string | URL): URL | null {
  if (url instanceof URL) return url;
  try {
    // The WHATWG parser strips the leading spaces and control characters browsers also ignore,
    // so " javascript:..." is judged by its real scheme.
    return new URL(url);
  } catch {
    return null; // not absolute: callers treat it as "not a safe link"
  }
}

/** True when `url` is an absolute http(s) URL, safe as an href. */
export function isSafeLinkUrl(url: string | URL): boolean {
  const parsed = parseAbsoluteUrl(url);
  return parsed !== null && LINK_SCHEMES.has(parsed.protocol);
}

/** The href to render for `url`, or undefined when it must not be a link. */
export function safeHref(url: string | null | undefined): string | undefined {
  const parsed = url ? parseAbsoluteUrl(url) : null;
  return parsed && LINK_SCHEMES.has(parsed.protocol) ? parsed.href : undefined;
}
