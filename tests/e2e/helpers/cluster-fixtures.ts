/**
 * Playwright's `test` for the cluster specs (Postgres runs only, playwright.config.ts): one cluster
 * per worker — two replicas of the built app on a fresh Postgres database and a throw-away Redis,
 * behind the round-robin proxy (tests/helpers/cluster.ts) — and every page and API request of a
 * test goes through the proxy (`baseURL`). The instance's first account (the administrator) is
 * registered with the setup code when the cluster starts.
 */
import { test as base } from "@playwright/test";
import { type Cluster, startCluster } from "../../helpers/cluster";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { freshDatabaseEnv } from "./database";
import { type RunningServer, startEverythingHttp } from "./everything-server";

/** The administrator the cluster was set up with. */
export const CLUSTER_ADMIN = { name: "Cluster Admin", email: "cluster-admin@example.com", password: "cluster admin password 1" };

/** The reconnect quota of the cluster (per user and server, per minute). */
export const CLUSTER_RECONNECTS_PER_MINUTE = 6;

/** What the cluster specs get: the cluster, its Redis, and a real server-everything. */
export interface ClusterWorld {
  cluster: Cluster;
  redis: TestRedis;
  everything: RunningServer;
}

export const test = base.extend<object, { world: ClusterWorld }>({
  world: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring, and this one has none.
    async ({}, use) => {
      const redis = await startRedis();
      const { DATABASE_URL } = await freshDatabaseEnv("cluster");
      if (!DATABASE_URL) throw new Error("the cluster specs run on Postgres only (E2E_DB=postgres)");
      const llm = `http://127.0.0.1:${process.env.E2E_LLM_PORT ?? 3198}/v1`;
      const cluster = await startCluster({
        databaseUrl: DATABASE_URL,
        redisUrl: redis.url,
        env: {
          SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1,localhost",
          SWITCHBOARD_REGISTRATIONS_PER_ADDRESS: "500",
          SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
          SWITCHBOARD_LLM_MODEL: "scripted",
          SWITCHBOARD_LLM_BASE_URL: llm,
          // The rolling restart keeps 64 calls in flight for half a minute; the quota spec counts reconnects.
          SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE: "100000",
          SWITCHBOARD_QUOTA_RECONNECTS_PER_MINUTE: String(CLUSTER_RECONNECTS_PER_MINUTE),
        },
      });
      const registered = await fetch(`${cluster.base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: cluster.base },
        body: JSON.stringify({ ...CLUSTER_ADMIN, setupCode: cluster.setupCode() }),
      });
      if (registered.status !== 201) throw new Error(`registering the administrator: ${registered.status} ${await registered.text()}`);
      const everything = await startEverythingHttp();
      await use({ cluster, redis, everything });
      await everything.stop();
      await cluster.stop();
      await redis.stop();
    },
    { scope: "worker", timeout: 240_000 },
  ],
  baseURL: async ({ world }, use) => use(world.cluster.base),
});

export { expect } from "@playwright/test";
