import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "../../../bench/args";

describe("npm run bench arguments", () => {
  it("runs the goals table with fetch on both sides by default", () => {
    expect(parseBenchArgs([])).toEqual({ mode: "goals", client: "fetch", db: "sqlite" });
    expect(parseBenchArgs(["--client", "both"])).toEqual({ mode: "goals", client: "both", db: "sqlite" });
  });

  it("adds Postgres beside SQLite with --db postgres, runs a load mode on it, and refuses another database", () => {
    expect(parseBenchArgs(["--db", "postgres"])).toEqual({ mode: "goals", client: "fetch", db: "postgres" });
    expect(() => parseBenchArgs(["--db", "mysql"])).toThrow("--db takes sqlite or postgres, not mysql");
    expect(parseBenchArgs(["--load", "10x2", "--db", "postgres"])).toMatchObject({ mode: "load", db: "postgres" });
    expect(parseBenchArgs(["--users", "10", "--db", "postgres"])).toMatchObject({ mode: "crowd", db: "postgres" });
    expect(() => parseBenchArgs(["--load", "10x2", "--db", "mysql"])).toThrow("--db takes sqlite or postgres, not mysql");
  });

  it("keeps the spread load mode as it was", () => {
    expect(parseBenchArgs(["--load", "1000x3", "--seconds", "20"])).toEqual({
      mode: "load",
      users: 1000,
      servers: 3,
      inflight: 64,
      seconds: 20,
      client: "node-http",
      db: "sqlite",
    });
  });

  it("reads every-user-active load with C in flight per user and a 64-user baseline", () => {
    expect(parseBenchArgs(["--users", "1000", "--servers", "3", "--inflight", "1"])).toEqual({
      mode: "crowd",
      users: 1000,
      servers: 3,
      inflightPerUser: 1,
      seconds: 30,
      baselineUsers: 64,
      idleMinutes: 5,
      client: "node-http",
      db: "sqlite",
    });
    expect(parseBenchArgs(["--users", "10", "--baseline", "4", "--idle-minutes", "0.5", "--client", "fetch"])).toMatchObject({
      users: 10,
      baselineUsers: 4,
      idleMinutes: 0.5,
      client: "fetch",
    });
    expect(parseBenchArgs(["--users", "1000", "--profile", "/tmp/p"])).toMatchObject({ profileDir: "/tmp/p" });
    // Fewer users than the default baseline: the baseline is all of them.
    expect(parseBenchArgs(["--users", "20"])).toMatchObject({ baselineUsers: 20 });
  });

  it("reads the gateway run: rounds, sequential calls per side and round, calls in flight", () => {
    expect(parseBenchArgs(["--gateway", "6"])).toEqual({ mode: "gateway", rounds: 6, calls: 500, inflight: 64 });
    expect(parseBenchArgs(["--gateway", "3", "--calls", "200", "--inflight", "16"])).toEqual({
      mode: "gateway",
      rounds: 3,
      calls: 200,
      inflight: 16,
    });
    expect(() => parseBenchArgs(["--gateway", "6", "--db", "postgres"])).toThrow("--db does not apply to --gateway");
    expect(() => parseBenchArgs(["--gateway", "0"])).toThrow("--gateway takes a whole number of at least 1, not 0");
  });

  it("reads the usage run: rounds, calls per round, seeded calls", () => {
    expect(parseBenchArgs(["--usage", "12"])).toEqual({ mode: "usage", rounds: 12, calls: 2000, seeded: 1_000_000 });
    expect(parseBenchArgs(["--usage", "6", "--calls", "500", "--seeded", "1000"])).toEqual({
      mode: "usage",
      rounds: 6,
      calls: 500,
      seeded: 1000,
    });
    expect(() => parseBenchArgs(["--usage", "6", "--db", "postgres"])).toThrow("--db does not apply to --usage");
    expect(() => parseBenchArgs(["--usage", "0"])).toThrow("--usage takes a whole number of at least 1, not 0");
  });

  it("reads the cluster run: replicas, calls in flight, the failover's length", () => {
    expect(parseBenchArgs(["--cluster", "2"])).toEqual({ mode: "cluster", replicas: 2, inflight: 64, seconds: 12 });
    expect(parseBenchArgs(["--cluster", "3", "--inflight", "32", "--seconds", "20"])).toEqual({
      mode: "cluster",
      replicas: 3,
      inflight: 32,
      seconds: 20,
    });
    expect(() => parseBenchArgs(["--cluster", "1"])).toThrow("--cluster takes at least 2 replicas");
    expect(() => parseBenchArgs(["--cluster", "2", "--db", "postgres"])).toThrow("--db does not apply to --cluster");
  });

  it("refuses what it cannot run, naming the argument", () => {
    expect(() => parseBenchArgs(["--users", "0"])).toThrow("--users takes a whole number of at least 1, not 0");
    expect(() => parseBenchArgs(["--users", "10", "--baseline", "11"])).toThrow("cannot exceed --users");
    expect(() => parseBenchArgs(["--load", "1000"])).toThrow("--load takes UxS");
    expect(() => parseBenchArgs(["--load", "10x3", "--baseline", "2"])).toThrow("--baseline does not apply to --load");
    expect(() => parseBenchArgs(["--client", "both", "--users", "5"])).toThrow("--client takes fetch or node-http, not both");
    expect(() => parseBenchArgs(["--inflight"])).toThrow("--inflight needs a value");
    expect(() => parseBenchArgs(["--user", "5"])).toThrow("unknown bench argument --user");
    expect(() => parseBenchArgs(["--inflight", "4"])).toThrow("--inflight does not apply to the goals run");
  });
});
