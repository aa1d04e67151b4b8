/**
 * databaseFailure (db/unavailable.ts) tells the HTTP boundary which database failures are "try again"
 * (503) rather than a 500, through the wrappers drizzle puts around the driver's error.
 */
import { describe, expect, it } from "vitest";
import { databaseFailure, describeDatabaseFailure } from "@/db/unavailable";
import { errorResponse } from "@/lib/http";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: commit\nparams: "), { cause });

describe("databaseFailure", () => {
  it("reads a lost or refused connection, a server shutting down and a pool timeout as unavailable", () => {
    expect(databaseFailure(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe("unavailable");
    expect(databaseFailure(wrapped(withCode("terminating connection due to administrator command", "57P01")))).toBe("unavailable");
    expect(databaseFailure(wrapped(withCode("connection failure", "08006")))).toBe("unavailable");
    expect(databaseFailure(wrapped(new Error("Connection terminated unexpectedly")))).toBe("unavailable");
    expect(databaseFailure(new Error("timeout exceeded when trying to connect"))).toBe("unavailable");
  });

  it("reads lost serialization conflicts, deadlocks and a locked SQLite file as busy", () => {
    expect(databaseFailure(wrapped(withCode("could not serialize access", "40001")))).toBe("busy");
    expect(databaseFailure(wrapped(withCode("deadlock detected", "40P01")))).toBe("busy");
    expect(databaseFailure(withCode("database is locked", "SQLITE_BUSY"))).toBe("busy");
  });

  it("leaves every other error alone: a constraint, a syntax error, a plain bug", () => {
    expect(databaseFailure(wrapped(withCode("duplicate key value", "23505")))).toBeNull();
    expect(databaseFailure(withCode("UNIQUE constraint failed", "SQLITE_CONSTRAINT_UNIQUE"))).toBeNull();
    expect(databaseFailure(new TypeError("x is undefined"))).toBeNull();
    expect(databaseFailure("a string")).toBeNull();
  });
});

describe("the log line", () => {
  it("names the statement and the driver's code and message, never the parameters", () => {
    const failed = Object.assign(
      new Error('Failed query: insert into "users" values ($1, $2)\nparams: alice@example.com,$scrypt$secret-hash'),
      {
        cause: withCode("could not serialize access due to read/write dependencies among transactions", "40001"),
      },
    );
    const line = describeDatabaseFailure(failed);
    expect(line).toBe(
      'Failed query: insert into "users" values ($1, $2) (40001: could not serialize access due to read/write dependencies among transactions)',
    );
    expect(line).not.toContain("secret-hash");
    expect(describeDatabaseFailure(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(
      "connect ECONNREFUSED 127.0.0.1:5432",
    );
  });
});

describe("the HTTP answer", () => {
  it("is a 503 with its code and Retry-After, never a 500", async () => {
    const down = errorResponse(wrapped(withCode("the database system is shutting down", "57P03")));
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(await down.json()).toMatchObject({ code: "database.unavailable" });
    const busy = errorResponse(wrapped(withCode("could not serialize access", "40001")));
    expect(busy.status).toBe(503);
    expect(await busy.json()).toMatchObject({ code: "database.busy" });
  });
});
