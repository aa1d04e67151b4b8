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
  /\bsbp_[A-Za-z0-9_-]{32,}/g, // Switchboard personal access token (lib/auth/personal-tokens.ts)
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

/** What a credential part of a URL is replaced by: the edit form's mask, valid inside a URL. */
export const URL_MASK = "********";

// Query parameters named like a credential (`api_key`, `key`, `token`, `access_token`, `secret`,
// `sig`, `signature`, `password`, `auth`, `code`, …): their values are masked in every URL.
const SECRET_PARAM = /(?:token|key|secret|passw(?:or)?d|pwd|^sig$|signature|^auth$|authorization|credential|session|^code$)/i;
// A path segment after one of these (`/s/<token>/mcp`, `/token/<token>`) is the credential.
const TOKEN_PREFIX_SEGMENT = /^(?:s|t|k|token|tokens|key|keys|secret|secrets|sig)$/i;

// A segment that looks like a random token: long, URL-safe, letters and digits mixed.
function isTokenSegment(segment: string, previous: string | undefined): boolean {
  if (previous !== undefined && TOKEN_PREFIX_SEGMENT.test(previous) && segment.length >= 8) return true;
  return segment.length >= 24 && /^[A-Za-z0-9_~.%-]+$/.test(segment) && /\d/.test(segment) && /[A-Za-z]/.test(segment);
}

// The raw pieces of an http(s) URL, as written (no normalisation, so masking changes nothing else).
function splitUrl(url: string): { origin: string; path: string; query: string | null; hash: string } | null {
  try {
    new URL(url);
  } catch {
    return null;
  }
  const afterScheme = url.indexOf("//") + 2;
  const restAt = url.slice(afterScheme).search(/[/?#]/);
  const origin = restAt < 0 ? url : url.slice(0, afterScheme + restAt);
  const rest = url.slice(origin.length);
  const hashAt = rest.indexOf("#");
  const beforeHash = hashAt < 0 ? rest : rest.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  return {
    origin,
    path: queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt),
    query: queryAt < 0 ? null : beforeHash.slice(queryAt + 1),
    hash: hashAt < 0 ? "" : rest.slice(hashAt),
  };
}

function isSecretPair(pair: string): boolean {
  const eq = pair.indexOf("=");
  return eq > 0 && eq < pair.length - 1 && SECRET_PARAM.test(safeDecode(pair.slice(0, eq)));
}

/**
 * The parts of an http(s) URL that are credentials: values of key-like query parameters, token-like
 * path segments, a userinfo password; with `whole` (a URL marked secret) everything after the
 * origin. A text that is not a URL has none.
 */
export function urlSecretParts(url: string, whole = false): string[] {
  const pieces = splitUrl(url);
  if (!pieces) return [];
  const password = new URL(url).password;
  const parts: string[] = password ? [password] : [];
  const rest = url.slice(pieces.origin.length);
  if (whole && rest.length > 1) parts.push(rest);
  const segments = pieces.path.split("/");
  segments.forEach((segment, i) => {
    if (segment && isTokenSegment(segment, segments[i - 1])) parts.push(segment);
  });
  for (const pair of pieces.query?.split("&") ?? []) if (isSecretPair(pair)) parts.push(pair.slice(pair.indexOf("=") + 1));
  return parts;
}

/**
 * The URL with its credential parts (`urlSecretParts`) replaced by `URL_MASK`, everything else as
 * written. The origin (scheme, host, port) stays readable: it is not secret, and a server's stored
 * secrets are bound to it. With `whole`, all after the origin is one mask.
 */
export function maskUrlSecrets(url: string, whole = false): string {
  const pieces = splitUrl(url);
  if (!pieces) return url;
  if (whole) return url.length - pieces.origin.length > 1 ? `${pieces.origin}/${URL_MASK}` : url;
  const segments = pieces.path.split("/");
  const path = segments.map((segment, i) => (segment && isTokenSegment(segment, segments[i - 1]) ? URL_MASK : segment)).join("/");
  const query = pieces.query
    ?.split("&")
    .map((pair) => (isSecretPair(pair) ? `${pair.slice(0, pair.indexOf("="))}=${URL_MASK}` : pair))
    .join("&");
  return `${pieces.origin}${path}${query === undefined ? "" : `?${query}`}${pieces.hash}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`]+/gi;

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
  out = out.replace(URL_IN_TEXT, (url) => maskUrlSecrets(url));
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

/**
 * The secret values of a server config: header values, env values, the OAuth client secret, and
 * the credential parts of its URL (all after the origin when it is marked `secret_url`).
 */
export function secretValuesOf(config: {
  url?: string;
  secret_url?: boolean;
  headers?: Record<string, string>;
  env?: Record<string, string>;
  oauth?: { client_secret?: string };
}): string[] {
  return [
    ...Object.values(config.headers ?? {}),
    ...Object.values(config.env ?? {}),
    ...(config.oauth?.client_secret ? [config.oauth.client_secret] : []),
    ...(config.url ? urlSecretParts(config.url, config.secret_url === true) : []),
  ];
}
