import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { APP_VERSION } from "@/lib/env";
import { SecretKeyError } from "@/lib/crypto";

/** Liveness and database reachability, without sign-in. */
export async function GET() {
  try {
    getDb().get(sql`select 1`);
    return Response.json({ ok: true, version: APP_VERSION, database: "ok" });
  } catch (error) {
    const message = error instanceof SecretKeyError ? error.message : "The database cannot be opened.";
    return Response.json({ ok: false, version: APP_VERSION, database: "error", message }, { status: 503 });
  }
}
