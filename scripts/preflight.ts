// Prepares the data directory and the database before the server starts: generated secrets,
// migrations and the key check. Exits 1 with one clear message when the key does not match the data
// or the database (Postgres) cannot be reached or migrated, or when a setting checked here (trusted
// proxies, single sign-on providers) is malformed.
import path from "node:path";
import { closeDb, databaseReady, describeOpenDatabase, getDb } from "../db/client";
import { DatabaseOpsError } from "../db/ops/errors";
import { SecretKeyError, readOrCreateSecretFile } from "../lib/crypto";
import { dataDir } from "../lib/env";
import { ensureSetupCode, setupCodeLogLine } from "../lib/auth/setup-code";
import { ssoProvidersFromEnv } from "../lib/auth/sso/env-providers";
import { TrustedProxiesError, parseTrustedProxies } from "../lib/security/client-address";
import { describePublicUrl } from "../lib/security/public-url";

// An async function rather than top-level await: tsx runs this file as CommonJS.
async function preflight(): Promise<void> {
  try {
    if (!process.env.NEXTAUTH_SECRET) readOrCreateSecretFile(path.join(dataDir(), "nextauth.secret"));
    await databaseReady();
    const setup = await ensureSetupCode(getDb());
    const database = describeOpenDatabase();
    await closeDb();
    console.log(`switchboard: data directory ${dataDir()} ready (database: ${database})`);
    console.log(`switchboard: ${describePublicUrl()}`);
    // Checked here so a malformed entry stops the start with its message (the front door reads it too).
    const proxies = process.env.SWITCHBOARD_TRUSTED_PROXIES?.trim();
    parseTrustedProxies(proxies);
    console.log(`switchboard: client addresses from ${proxies ? `X-Forwarded-For behind ${proxies}` : "the socket (no trusted proxies)"}`);
    // A half-configured single sign-on provider (or a malformed role mapping) stops the start with its
    // variable named (docs/sso.md); Next would only log a failing instrumentation hook and serve on.
    try {
      ssoProvidersFromEnv(process.env);
    } catch (error) {
      console.error(`switchboard: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
    // Printed at every start while no account exists, so the code is in the log whoever looks.
    if (setup) console.log(setupCodeLogLine(setup.code));
  } catch (error) {
    if (error instanceof SecretKeyError || error instanceof TrustedProxiesError || error instanceof DatabaseOpsError) {
      console.error(`switchboard: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

let finished = false;
// A start whose event loop ran dry while it still awaited something (a socket nobody references)
// would end with exit 0 and the server would start on a half-prepared database: say so and fail.
process.on("beforeExit", () => {
  if (finished) return;
  console.error("switchboard: the start stopped half-way (preflight was left waiting on nothing); this is a bug, please report it");
  process.exit(1);
});

preflight().then(
  () => {
    finished = true;
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
