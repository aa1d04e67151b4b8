/**
 * Two replicas behind a round-robin proxy (tests/e2e/helpers/cluster-fixtures.ts), on one Postgres
 * and one Redis: requests land on both, the administration lists both, a sign-out on one is honoured
 * by the other at once, and a replica killed with SIGKILL leaves the other serving every request.
 * Postgres runs only (playwright.config.ts).
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { CLUSTER_ADMIN, expect, test } from "./helpers/cluster-fixtures";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, signUpByApi } from "./pages/chat";

/** The replica that answered, from the header every answer carries. */
const replicaOf = (headers: Record<string, string>) => headers["x-switchboard-replica"];

/** Sign `account` in through the page's request context (the cookie lands in the page's browser). */
async function signIn(page: Page, account: { email: string; password: string }) {
  const request = page.context().request;
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  const signedIn = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
  });
  expect(signedIn.ok()).toBe(true);
}

/** The status of `GET /api/servers` with `request`'s cookies, answered by replica `name`. */
async function statusOn(
  world: { cluster: { proxy: { pin(rule: (() => string) | null): void } } },
  name: string,
  request: APIRequestContext,
) {
  world.cluster.proxy.pin(() => name);
  try {
    const response = await request.get("/api/servers");
    expect(replicaOf(response.headers())).toBe(name);
    return response.status();
  } finally {
    world.cluster.proxy.pin(null);
  }
}

test("requests land on both replicas, and Administration lists both as live", async ({ page, world }) => {
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const response = await page.request.get("/api/health");
    expect(response.status()).toBe(200);
    seen.add(replicaOf(response.headers()));
  }
  expect([...seen].sort()).toEqual(["a", "b"]);

  await signIn(page, CLUSTER_ADMIN);
  await page.goto("/admin");
  const rows = page.getByTestId("admin-replica");
  await expect(rows).toHaveCount(2);
  for (const id of ["a", "b"]) await expect(rows.filter({ hasText: id }).first()).toContainText("live");
  expect((await (await page.request.get("/api/admin/replicas")).json()).clustered).toBe(true);
});

test("a sign-out on one replica: the other refuses the cookie within a second", async ({ page, world }) => {
  const account = newAccount("cluster-signout");
  await signUpByApi(page, account);
  const request = page.context().request;
  expect(await statusOn(world, "b", request)).toBe(200);
  world.cluster.proxy.pin(() => "a");
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  const cookies = await page.context().cookies();
  const signedOut = await request.post("/api/auth/signout", { form: { csrfToken, json: "true" } });
  world.cluster.proxy.pin(null);
  expect(replicaOf(signedOut.headers())).toBe("a");
  // The captured cookie, replayed against the other replica.
  await page.context().addCookies(cookies);
  const started = Date.now();
  await expect.poll(() => statusOn(world, "b", request), { timeout: 1_000, intervals: [50] }).toBe(401);
  expect(Date.now() - started).toBeLessThan(1_000);
});

test("kill -9 of one replica: every request is served by the other; restarted, it serves again", async ({ page, world }) => {
  await signUpByApi(page, newAccount("cluster-kill"));
  const request = page.context().request;
  const id = await addHttpServerByApi(page, "everything", world.everything.url);
  const call = async () => {
    const response = await request.post(`/api/servers/${id}/tools/call`, { data: { name: "echo", arguments: { message: "hi" } } });
    return { status: response.status(), replica: replicaOf(response.headers()) };
  };
  const [a] = world.cluster.replicas;
  await a.kill("SIGKILL");
  const after = await Promise.all(Array.from({ length: 8 }, call));
  expect(after.map((r) => r.status)).toEqual(Array(8).fill(200));
  expect(new Set(after.map((r) => r.replica))).toEqual(new Set(["b"]));

  await a.restart();
  await world.cluster.proxy.check();
  const back = await Promise.all(Array.from({ length: 8 }, call));
  expect(back.map((r) => r.status)).toEqual(Array(8).fill(200));
  expect(new Set(back.map((r) => r.replica))).toEqual(new Set(["a", "b"]));
});
