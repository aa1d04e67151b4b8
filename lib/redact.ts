/**
 * Credential redaction (docs/security.md#redaction): every text that can reach a user, the model or a log
 * passes through `redact()` first. Known secret values (a server's own headers and env) are
 * replaced exactly; well-known credential shapes are replaced by pattern.
 */

const MASK = "[REDACTED]";

/** Patterns whose whole match is a credential. */
const WHOLE_MATCH: RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
  /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----/g,
  /\bgithub_pat_[A-Za-z0-9_]{10,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{16,}/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
];

/** Patterns whose first group is kept (the label) and the rest replaced. */
const LABELLED: RegExp[] = [
  /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  /(\bBasic\s+)[A-Za-z0-9+/=]{8,}/g,
  // key=value forms: token=, key=, API_KEY=, password=, secret= (also in JSON-ish `key: value`)
  /(\b[A-Za-z0-9_]*(?:token|api[_-]?key|apikey|key|password|passwd|secret)\b\s*[=:]\s*)(?!\[REDACTED\])[^\s&,;"']+/gi,
  // JSON string values of well-known secret fields
  /("(?:client_secret|access_token|refresh_token|id_token|password|api_key|apiKey|secret|token)"\s*:\s*")[^"]*/g,
  // user:pass@ in URLs
  /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^@\s/]+(?=@)/gi,
];

/** Secrets shorter than this are not replaced verbatim: "1" or "on" would mangle every text. */
const MIN_SECRET_LENGTH = 4;

/**
 * Redact credentials from `text`. `secrets` are exact values to hide (e.g. the server's header and
 * env values); each is replaced wherever it occurs.
 */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  const exact = [...secrets].filter((s) => s && s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const secret of exact) out = out.split(secret).join(MASK);
  for (const pattern of WHOLE_MATCH) out = out.replace(pattern, MASK);
  for (const pattern of LABELLED) out = out.replace(pattern, (_m, label: string) => `${label}${MASK}`);
  return out;
}

/** Redact and cap a text for display (error messages, stderr tails). */
export function redactForDisplay(text: string, secrets: Iterable<string> = [], maxLength = 2000): string {
  const clean = redact(text, secrets);
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}… (${clean.length - maxLength} more characters)` : clean;
}

/** The secret values of a server config: header values, env values and the OAuth client secret. */
export function secretValuesOf(config: {
  headers?: Record<string, string>;
  env?: Record<string, string>;
  oauth?: { client_secret?: string };
}): string[] {
  return [
    ...Object.values(config.headers ?? {}),
    ...Object.values(config.env ?? {}),
    ...(config.oauth?.client_secret ? [config.oauth.client_secret] : []),
  ];
}
