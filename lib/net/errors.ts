/**
 * The error family of lib/net. Callers dispatch on `code` (or `instanceof`), never on message
 * text; messages name the URL (without credentials or query) and the reason.
 */
import { brandError, isBrandedInstance } from "../error-brand";

/** Every code lib/net throws. */
export type NetErrorCode =
  | "ssrf_blocked"
  | "insecure_url"
  | "unsafe_url"
  | "invalid_allow_list"
  | "dns_failed"
  | "redirect_failed"
  | "too_many_redirects"
  | "response_too_large";

/** Base class: a code for callers and an HTTP status for the one place errors become responses. */
export class NetError extends Error {
  readonly code: NetErrorCode;
  readonly status: number;
  /** The brand `instanceof` checks, which holds across the app's bundles (lib/error-brand.ts). */
  static readonly brand: string = "switchboard.NetError";
  static [Symbol.hasInstance](value: unknown): value is NetError {
    return isBrandedInstance(this, value);
  }
  constructor(code: NetErrorCode, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    brandError(this, new.target);
    this.name = "NetError";
    this.code = code;
    this.status = status;
  }
}

/**
 * A server-side request refused by the SSRF policy before any socket was opened.
 * `url` is the display form of the refused URL; `reason` says what was wrong with it.
 */
export class BlockedRequestError extends NetError {
  readonly url: string;
  readonly reason: string;
  static readonly brand: string = "switchboard.BlockedRequestError";
  static [Symbol.hasInstance](value: unknown): value is BlockedRequestError {
    return isBrandedInstance(this, value);
  }
  constructor(url: string, reason: string) {
    super("ssrf_blocked", 403, `blocked ${url}: ${reason}`);
    this.name = "BlockedRequestError";
    this.url = url;
    this.reason = reason;
  }
}

/** A URL with a scheme not allowed where it is used (http where https is required, javascript:, …). */
export class UnsafeUrlError extends NetError {
  static readonly brand: string = "switchboard.UnsafeUrlError";
  static [Symbol.hasInstance](value: unknown): value is UnsafeUrlError {
    return isBrandedInstance(this, value);
  }
  constructor(code: "insecure_url" | "unsafe_url", message: string) {
    super(code, 400, message);
    this.name = "UnsafeUrlError";
  }
}

/** `SWITCHBOARD_ALLOWED_HOSTS` (or another allow-list text) has an entry that is not a host or CIDR. */
export class AllowListError extends NetError {
  static readonly brand: string = "switchboard.AllowListError";
  static [Symbol.hasInstance](value: unknown): value is AllowListError {
    return isBrandedInstance(this, value);
  }
  constructor(message: string) {
    super("invalid_allow_list", 500, message);
    this.name = "AllowListError";
  }
}

/**
 * The text used for a URL in messages: scheme, host, port and path. Credentials are never shown
 * and the query is elided, because OAuth URLs carry codes and state there.
 */
export function displayUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return "(invalid URL)";
  }
  const userinfo = parsed.username || parsed.password ? "***@" : "";
  const query = parsed.search ? "?…" : "";
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}`;
}
