/**
 * Lost access, as the browser learns it: an API answer with one of the access codes (docs/errors.md)
 * becomes a window event that the page's `AccessNotice` shows, whichever component made the call.
 */
import type { ErrorCode } from "@/lib/errors";

/**
 * The codes that mean the caller's access changed under them. `workspace.deleted` comes only with
 * the live event stream (a deleted workspace leaves nothing to answer a later request with).
 */
export const ACCESS_CODES = ["workspace.removed", "workspace.role_changed", "workspace.deleted", "auth.account_disabled"] as const;

/** One of `ACCESS_CODES`. */
export type AccessCode = (typeof ACCESS_CODES)[number];

/** What the notice shows: the code and the server's sentence (who, what, when). */
export interface AccessLoss {
  code: AccessCode;
  message: string;
}

const EVENT = "switchboard:access-lost";

/** Whether `code` is one of the access codes. */
export function isAccessCode(code: string | null | undefined): code is AccessCode {
  return !!code && (ACCESS_CODES as readonly string[]).includes(code);
}

/** Tell the page its access changed, when `code` says so; other codes are left to the caller. */
export function reportAccessLoss(code: ErrorCode | string | null | undefined, message: string): void {
  if (!isAccessCode(code) || typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent<AccessLoss>(EVENT, { detail: { code, message } }));
}

/** The access code a raw error body (`{code, message}` text) carries, or null. */
export function accessCodeOf(text: string): AccessCode | null {
  try {
    const code = (JSON.parse(text) as { code?: unknown })?.code;
    return typeof code === "string" && isAccessCode(code) ? code : null;
  } catch {
    return null;
  }
}

/** Report the access code in a raw error body (`{code, message}` text), if it carries one. */
export function reportAccessLossInBody(text: string): void {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body?.code === "string" && typeof body.message === "string") reportAccessLoss(body.code, body.message);
  } catch {
    // Not an API error body: nothing to report.
  }
}

/** Listen for access losses; returns the function that stops listening. */
export function onAccessLoss(listener: (loss: AccessLoss) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<AccessLoss>).detail);
  window.addEventListener(EVENT, handler);
  return () => window.removeEventListener(EVENT, handler);
}
