/**
 * The first-run setup code: while an instance has no account, registering the first one (who
 * becomes the administrator) needs a one-time code the server writes to `<data dir>/setup-code`
 * (mode 0600) and prints in its log. Whoever merely reaches a fresh instance cannot take it over.
 *
 * The code is derived from the instance key and a random nonce kept in the database
 * (`instance_meta`), not drawn per process: every replica of a cluster (one database, one key)
 * prints and accepts the same code, whichever of them the registration reaches. Using it deletes
 * the nonce in one statement, so exactly one registration takes it, across processes; a fresh
 * instance later (its only account deleted) gets a new nonce and so a new code.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/client";
import { instanceKey } from "../../db/key-check";
import { getInstanceMeta, setInstanceMetaOnce, takeInstanceMeta } from "../../db/queries/instance-meta";
import { hasAnyUser } from "../../db/queries/users";
import { dataDir } from "../env";

const FILE_NAME = "setup-code";
/** The `instance_meta` key holding the current code's nonce. */
const NONCE_KEY = "setup_code_nonce";
// Crockford-style alphabet: no 0/O, 1/I/L to misread from a log.
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** Where the code lives. */
export function setupCodePath(dir = dataDir()): string {
  return path.join(dir, FILE_NAME);
}

/** The code for `nonce` under the instance key: 15 characters from the alphabet, in three groups. */
function derive(nonce: string): string {
  const bytes = createHmac("sha256", instanceKey().key).update(`switchboard setup code\n${nonce}`).digest();
  const chars = Array.from(bytes.subarray(0, 15), (b) => ALPHABET[b % ALPHABET.length]).join("");
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
 * On a fresh instance, the setup code (`created` true when this call wrote the file); once an
 * account exists, removes any leftover file and returns null.
 */
export async function ensureSetupCode(db: Db, dir = dataDir()): Promise<{ code: string; created: boolean } | null> {
  const file = setupCodePath(dir);
  if (await hasAnyUser(db)) {
    fs.rmSync(file, { force: true });
    return null;
  }
  // Processes starting at once agree on one nonce: the first insert wins, the others read it.
  const code = derive(await setInstanceMetaOnce(db, NONCE_KEY, randomBytes(16).toString("hex")));
  if (readCode(file) === code) return { code, created: false };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${code}\n`, { mode: 0o600 });
  return { code, created: true };
}

/** Normalise what a person typed (case, spaces, dashes) for comparison. */
function canonical(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, "");
}

/** Check and use up the code: true for the one caller whose code matched and who removed its nonce. */
export async function consumeSetupCode(db: Db, given: string | undefined, dir = dataDir()): Promise<boolean> {
  const nonce = await getInstanceMeta(db, NONCE_KEY);
  if (!nonce || !given) return false;
  const a = Buffer.from(canonical(derive(nonce)));
  const b = Buffer.from(canonical(given));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  if (!(await takeInstanceMeta(db, NONCE_KEY, nonce))) return false;
  fs.rmSync(setupCodePath(dir), { force: true });
  return true;
}

/** A log line announcing the code. */
export function setupCodeLogLine(code: string, dir = dataDir()): string {
  return (
    `switchboard: no account yet. The first account becomes the administrator and needs this setup code: ${code} ` +
    `(also in ${setupCodePath(dir)})`
  );
}
