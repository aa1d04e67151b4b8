import { describe, expect, it } from "vitest";
import { DatabaseOpsError } from "@/db/ops/errors";
import { DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT_MS, postgresPoolConfig, tlsOptions } from "@/db/postgres-settings";

const URL_BASE = "postgres://app:pw@db.example:5433/switchboard";
const noFile = () => {
  throw new Error("ENOENT: no such file");
};

describe("postgresPoolConfig", () => {
  it("defaults: the pool size, a statement timeout, no TLS, the URL as given", () => {
    const config = postgresPoolConfig(URL_BASE, {});
    expect(config).toMatchObject({
      max: DEFAULT_POOL_SIZE,
      statement_timeout: DEFAULT_STATEMENT_TIMEOUT_MS,
      ssl: false,
      allowExitOnIdle: true,
    });
    expect(config.connectionString).toBe(URL_BASE);
  });

  it("takes the pool size and the statement timeout from the settings; 0 turns the timeout off", () => {
    expect(postgresPoolConfig(URL_BASE, { poolSize: "25", statementTimeoutMs: "5000" })).toMatchObject({
      max: 25,
      statement_timeout: 5000,
    });
    expect(postgresPoolConfig(URL_BASE, { statementTimeoutMs: "0" })).not.toHaveProperty("statement_timeout");
  });

  it.each([
    [{ poolSize: "0" }, /SWITCHBOARD_DB_POOL_SIZE must be a whole number from 1 to 1000 \(got "0"\)/],
    [{ poolSize: "ten" }, /SWITCHBOARD_DB_POOL_SIZE/],
    [{ statementTimeoutMs: "-1" }, /SWITCHBOARD_DB_STATEMENT_TIMEOUT_MS must be a whole number/],
  ])("refuses %o with one line naming the setting", (settings, message) => {
    expect(() => postgresPoolConfig(URL_BASE, settings)).toThrow(DatabaseOpsError);
    expect(() => postgresPoolConfig(URL_BASE, settings)).toThrow(message);
  });

  it("takes libpq's TLS parameters out of the URL (node-postgres would read them with other meanings)", () => {
    const config = postgresPoolConfig(`${URL_BASE}?sslmode=require&application_name=sb`, {});
    expect(config.ssl).toEqual({ rejectUnauthorized: false });
    expect(config.connectionString).toBe(`${URL_BASE}?application_name=sb`);
  });

  it("refuses a URL that is not one, without echoing it (it may hold a password)", () => {
    expect(() => postgresPoolConfig("postgres://app:pw@[bad", {})).toThrow(/DATABASE_URL is not a valid URL/);
    expect(() => postgresPoolConfig("postgres://app:pw@[bad", {})).not.toThrow(/pw/);
  });
});

describe("tlsOptions (sslmode as libpq means it)", () => {
  const params = (query: string) => new URLSearchParams(query);
  const ca = Buffer.from("CA");

  it("disable or absent: no TLS", () => {
    expect(tlsOptions(params(""))).toBe(false);
    expect(tlsOptions(params("sslmode=disable"))).toBe(false);
  });

  it("require: encrypted, the certificate not checked; with sslrootcert it is checked against it", () => {
    expect(tlsOptions(params("sslmode=require"))).toEqual({ rejectUnauthorized: false });
    const withRoot = tlsOptions(params("sslmode=require&sslrootcert=/ca.pem"), () => ca);
    expect(withRoot).toMatchObject({ rejectUnauthorized: true, ca });
    expect((withRoot as { checkServerIdentity?: () => unknown }).checkServerIdentity?.()).toBeUndefined();
  });

  it("verify-ca checks the chain but not the host name; verify-full checks both", () => {
    const verifyCa = tlsOptions(params("sslmode=verify-ca&sslrootcert=/ca.pem"), () => ca) as { checkServerIdentity?: unknown };
    expect(verifyCa).toMatchObject({ rejectUnauthorized: true, ca });
    expect(typeof verifyCa.checkServerIdentity).toBe("function");
    const full = tlsOptions(params("sslmode=verify-full"));
    expect(full).toEqual({ rejectUnauthorized: true });
  });

  it("refuses prefer/allow and unknown modes, and a root certificate it cannot read, in one line", () => {
    expect(() => tlsOptions(params("sslmode=prefer"))).toThrow(
      /sslmode=prefer is not supported: use disable, require, verify-ca or verify-full/,
    );
    expect(() => tlsOptions(params("sslmode=bogus"))).toThrow(DatabaseOpsError);
    expect(() => tlsOptions(params("sslmode=verify-full&sslrootcert=/missing.pem"), noFile)).toThrow(
      /sslrootcert \/missing.pem cannot be read: ENOENT/,
    );
  });
});
