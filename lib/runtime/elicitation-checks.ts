/**
 * Checks on what a server asks the user (docs/limits.md): a URL elicitation may not send the
 * user's browser to this machine or a private network, and form fields that look like secrets
 * (password, one-time code, token, key) are named so the dialog can warn before anything is typed.
 */
import { classifyAddress, isLocalhostName, normalizeHostname } from "../net/address-policy";

const SECRET_NAME =
  /pass(word|phrase)?|\bpin\b|otp|one[-_ ]?time|2fa|mfa|totp|token|secret|api[-_ ]?key|private[-_ ]?key|credential|^key$|_key$/i;

/** Whether a URL targets loopback, a private or link-local network (or another non-public address). */
export function isPrivateTarget(url: string): boolean {
  const host = normalizeHostname(new URL(url).hostname);
  if (isLocalhostName(host)) return true;
  const verdict = classifyAddress(host);
  // A name (not an IP literal) is judged where it is resolved, by the user's browser.
  return verdict.blocked && verdict.category !== "not-an-ip";
}

/** The fields of a requested form schema whose name, title or format suggests a secret. */
export function secretLookingFields(schema: Record<string, unknown> | undefined): string[] {
  const properties = (schema?.properties ?? {}) as Record<string, { title?: unknown; format?: unknown; description?: unknown }>;
  return Object.entries(properties)
    .filter(([name, field]) => {
      const text = [name, field?.title, field?.description].filter((t): t is string => typeof t === "string");
      return field?.format === "password" || text.some((t) => SECRET_NAME.test(t));
    })
    .map(([name]) => name);
}
