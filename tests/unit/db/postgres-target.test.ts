/** How the database commands name a Postgres target and why it cannot be reached: one line, no password. */
import { describe, expect, it } from "vitest";
import { connectionCause, describeAddress, isPostgresUrl, postgresAddress } from "@/db/ops/postgres-target";

describe("postgresAddress", () => {
  it.each([
    ["postgres://u:secret@db.example.com:6543/switchboard", "db.example.com:6543/switchboard"],
    ["postgresql://u@10.0.0.5/app?sslmode=require", "10.0.0.5:5432/app"],
    ["postgres://alice@[::1]:5433", "::1:5433/alice"],
    ["postgres://localhost", "localhost:5432/postgres"],
  ])("%s → %s, never the password", (url, shown) => {
    const described = describeAddress(postgresAddress(url));
    expect(described).toBe(shown);
    expect(described).not.toContain("secret");
  });

  it("tells Postgres URLs from others", () => {
    expect(isPostgresUrl("postgres://x")).toBe(true);
    expect(isPostgresUrl("POSTGRESQL://x")).toBe(true);
    expect(isPostgresUrl("mysql://x")).toBe(false);
    expect(isPostgresUrl("./data/switchboard.db")).toBe(false);
  });
});

describe("connectionCause", () => {
  it("words the common failures, also inside the AggregateError of a dual-stack host name", () => {
    expect(connectionCause(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }))).toMatch(
      /^connection refused/,
    );
    const both = new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:1"), { code: "ECONNREFUSED" })], "");
    expect(connectionCause(both)).toMatch(/^connection refused/);
    expect(connectionCause(Object.assign(new Error("getaddrinfo ENOTFOUND db"), { code: "ENOTFOUND" }))).toBe("no such host");
    expect(connectionCause(Object.assign(new Error('password authentication failed for user "x"'), { code: "28P01" }))).toBe(
      "password authentication failed",
    );
    expect(connectionCause(new Error("Connection terminated due to connection timeout"))).toBe("timed out");
    expect(connectionCause(new Error("first line\nsecond line"))).toBe("first line");
  });
});
