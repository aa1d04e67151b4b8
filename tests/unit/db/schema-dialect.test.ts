import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("db/schema.ts: the tables of the database this process runs on", () => {
  it("hands out the SQLite tables when DATABASE_URL is unset", async () => {
    vi.stubEnv("DATABASE_URL", "");
    const schema = await import("@/db/schema");
    expect(schema.TABLES_DIALECT).toBe("sqlite");
    expect(is(schema.users, SQLiteTable)).toBe(true);
    expect(schema.users).toBe((await import("@/db/schema-sqlite")).users);
  });

  it("hands out their Postgres twins when DATABASE_URL names Postgres", async () => {
    vi.stubEnv("DATABASE_URL", "postgresql://app@db.example/switchboard");
    const schema = await import("@/db/schema");
    expect(schema.TABLES_DIALECT).toBe("postgres");
    expect(is(schema.users, PgTable)).toBe(true);
    expect(schema.auditLog).toBe((await import("@/db/schema-postgres")).auditLog);
  });
});
