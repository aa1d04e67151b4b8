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
  /\bxox[abposre]-[A-Za-z0-9_-]{8,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  // A bare JWT (header.payload.signature, the first two base64url JSON objects): OAuth and OIDC tokens.
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  // Stripe secret and restricted keys (publishable `pk_` keys are public by design).
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,}/g,
  /\bAIza[A-Za-z0-9_-]{30,}/g, // Google API key
  /\bya29\.[A-Za-z0-9_-]{10,}/g, // Google OAuth access token
  /\bnpm_[A-Za-z0-9]{30,}/g, // npm access token
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab personal access token
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face token
];

/** Patterns whose first group is kept (the label) and the rest replaced. */
const LABELLED: RegExp[] = [
  /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  /(\bBasic\s+)[A-Za-z0-9+/=]{8,}/g,
  // Cookie and Set-Cookie header values, to the end of the line (every cookie in them).
  // (A JSON string ends at its quote or an escape, so JSON text around it stays intact.)
  /(\b(?:Set-)?Cookie:[ \t]*)[^\r\n"\\]+/gi,
  // key=value forms: token=, key=, API_KEY=, password=, secret= (also in JSON-ish `key: value`)
  /(\b[A-Za-z0-9_]*(?:token|api[_-]?key|apikey|key|password|passwd|secret)\b\s*[=:]\s*)(?!\[REDACTED\])[^\s&,;"']+/gi,
  // JSON string values of secret-looking fields ("password", "db_password", "apiKey", "client_secret", …)
  /("[A-Za-z0-9_.-]*(?:pass(?:word|wd|phrase)|pwd|secret|token|api[_-]?key|private[_-]?key|credentials?|cookie)"\s*:\s*")(?:[^"\\]|\\.)*/gi,
  // the same inside JSON text that was itself put in a JSON string (a logged body): \"password\":\"…
  /(\\"[A-Za-z0-9_.-]*(?:pass(?:word|wd|phrase)|pwd|secret|token|api[_-]?key|private[_-]?key|credentials?|cookie)\\"\s*:\s*\\")[^"\\]*/gi,
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

/** A JSON key whose string value is a credential whatever it looks like ("password", "db_password", "apiKey", …). */
const SECRET_KEY = /(?:pass(?:word|wd|phrase)|pwd|secret|token|api[_-]?key|private[_-]?key|credentials?|cookie)$/i;

/**
 * Redact every string inside a JSON value (a tool's structured result): strings as `redact()` does,
 * and the whole string value of a secret-looking key. Keys and non-string values are kept; the
 * base64 `data`/`blob` of a media item is left alone (binary, and patterns would only mangle it).
 */
export function redactJson<T>(value: T, secrets: Iterable<string> = []): T {
  const exact = [...secrets];
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return redact(item, exact);
    if (Array.isArray(item)) return item.map(walk);
    if (!item || typeof item !== "object") return item;
    const media = typeof (item as { mimeType?: unknown }).mimeType === "string";
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(item)) {
      if (typeof child === "string" && SECRET_KEY.test(key)) out[key] = child ? MASK : child;
      else if (media && (key === "data" || key === "blob")) out[key] = child;
      else out[key] = walk(child);
    }
    return out;
  };
  return walk(value) as T;
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
