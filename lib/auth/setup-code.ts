/**
 * The first-run setup code: while an instance has no account, registering the first one (who
 * becomes the administrator) needs a one-time code the server writes to `<data dir>/setup-code`
 * (mode 0600) and prints in its log. Whoever merely reaches a fresh instance cannot take it over.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/client";
import { hasAnyUser } from "../../db/queries/users";
import { dataDir } from "../env";

const FILE_NAME = "setup-code";
// Crockford-style alphabet: no 0/O, 1/I/L to misread from a log.
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** Where the code lives. */
export function setupCodePath(dir = dataDir()): string {
  return path.join(dir, FILE_NAME);
}

function generate(): string {
  const bytes = randomBytes(15);
  const chars = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
  return [0, 5, 10].map((at) => chars.slice(at, at + 5)).join("-");
}

function readCode(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * On a fresh instance, the setup code (created when missing, `created` true then); once an
 * account exists, removes any leftover file and returns null.
 */
export async function ensureSetupCode(db: Db, dir = dataDir()): Promise<{ code: string; created: boolean } | null> {
  const file = setupCodePath(dir);
  if (await hasAnyUser(db)) {
    fs.rmSync(file, { force: true });
    return null;
  }
  const existing = readCode(file);
  if (existing) return { code: existing, created: false };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const code = generate();
  try {
    fs.writeFileSync(file, `${code}\n`, { mode: 0o600, flag: "wx" });
    return { code, created: true };
  } catch (error) {
    // Two processes starting at once: the loser uses the winner's code.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return { code: readCode(file) ?? code, created: false };
    throw error;
  }
}

/** Normalise what a person typed (case, spaces, dashes) for comparison. */
function canonical(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, "");
}

/**
 * Check and use up the code, synchronously (no await between check and removal, so two racing
 * first registrations cannot both pass). True when it matched.
 */
export function consumeSetupCode(given: string | undefined, dir = dataDir()): boolean {
  const file = setupCodePath(dir);
  const stored = readCode(file);
  if (!stored || !given) return false;
  const a = Buffer.from(canonical(stored));
  const b = Buffer.from(canonical(given));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  fs.rmSync(file, { force: true });
  return true;
}

/** A log line announcing the code. */
export function setupCodeLogLine(code: string, dir = dataDir()): string {
  return (
    `switchboard: no account yet. The first account becomes the administrator and needs this setup code: ${code} ` +
    `(also in ${setupCodePath(dir)})`
  );
}
