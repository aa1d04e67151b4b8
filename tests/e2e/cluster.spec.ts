/**
 * Two replicas behind a round-robin proxy (tests/e2e/helpers/cluster-fixtures.ts), on one Postgres
 * and one Redis: requests land on both, the administration lists both, a sign-out or a member's
 * removal on one is honoured by the other at once, a quota counts across both, a replica killed
 * with SIGKILL leaves the other serving every request, Redis restarting costs clear 503s at worst,
 * and a rolling restart under load fails no request. Postgres runs only (playwright.config.ts).
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { CLUSTER_ADMIN, CLUSTER_RECONNECTS_PER_MINUTE, expect, test } from "./helpers/cluster-fixtures";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, signUpByApi } from "./pages/chat";
import { addMember, createTeam, SETUP, signedUp } from "./pages/workspaces";

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
  const after = await Promise.all(Array.from({ length: 8 }, call)).catch((error: Error) => {
    throw new Error(`${error.message}; the proxy saw: ${world.cluster.proxy.failures.join(" | ")}`);
  });
  expect(after.map((r) => r.status)).toEqual(Array(8).fill(200));
  expect(new Set(after.map((r) => r.replica))).toEqual(new Set(["b"]));

  await a.restart();
  await world.cluster.proxy.check();
  const back = await Promise.all(Array.from({ length: 8 }, call));
  expect(back.map((r) => r.status)).toEqual(Array(8).fill(200));
  expect(new Set(back.map((r) => r.replica))).toEqual(new Set(["a", "b"]));
});

test("a quota of N across both replicas: the N+1th request gets 429 whichever replica it lands on", async ({ page, world }) => {
  await signUpByApi(page, newAccount("cluster-quota"));
  const request = page.context().request;
  const id = await addHttpServerByApi(page, "everything", world.everything.url);
  const landed = new Set<string>();
  for (let i = 0; i < CLUSTER_RECONNECTS_PER_MINUTE; i++) {
    const response = await request.post(`/api/servers/${id}/reconnect`);
    expect(response.status()).toBe(200);
    landed.add(replicaOf(response.headers()));
  }
  expect([...landed].sort()).toEqual(["a", "b"]);
  for (const name of ["a", "b"]) {
    world.cluster.proxy.pin(() => name);
    const over = await request.post(`/api/servers/${id}/reconnect`);
    world.cluster.proxy.pin(null);
    expect(replicaOf(over.headers())).toBe(name);
    expect(over.status()).toBe(429);
    expect((await over.json()).code).toBe("quota.exceeded");
  }
});

test("a member removed on one replica loses the other at once", async ({ browser, world }) => {
  const owner = await signedUp(browser, "cluster-owner");
  const mate = await signedUp(browser, "cluster-mate");
  const team = await createTeam(owner, "Cluster Team");
  await addMember(owner, team.id, mate, "member");
  const onB = async () => {
    world.cluster.proxy.pin(() => "b");
    try {
      const response = await mate.api.get(`/api/w/${team.slug}/servers`);
      expect(replicaOf(response.headers())).toBe("b");
      return response.status();
    } finally {
      world.cluster.proxy.pin(null);
    }
  };
  expect(await onB()).toBe(200);
  world.cluster.proxy.pin(() => "a");
  const removed = await owner.api.delete(`/api/workspaces/${team.id}/members/${mate.id}`, SETUP);
  world.cluster.proxy.pin(null);
  expect(removed.status()).toBe(204);
  expect(replicaOf(removed.headers())).toBe("a");
  // The other replica's membership cache follows the database's change notice.
  const started = Date.now();
  await expect.poll(onB, { timeout: 1_000, intervals: [50] }).toBe(403);
  expect(Date.now() - started).toBeLessThan(1_000);
  await Promise.all([owner.close(), mate.close()]);
});

test("Redis restarted while the cluster serves: clear 503s at worst, then recovery without a restart, nothing lost", async ({
  page,
  world,
}) => {
  await signUpByApi(page, newAccount("cluster-redis"));
  const request = page.context().request;
  const id = await addHttpServerByApi(page, "everything", world.everything.url);
  await world.redis.kill();
  const during = await Promise.all(Array.from({ length: 6 }, () => request.get("/api/servers")));
  for (const response of during) {
    expect([200, 503]).toContain(response.status());
    if (response.status() === 503) expect((await response.json()).code).toBe("cluster.unavailable");
  }
  await world.redis.start();
  await expect
    .poll(async () => (await Promise.all(Array.from({ length: 4 }, () => request.get("/api/servers")))).map((r) => r.status()), {
      timeout: 15_000,
    })
    .toEqual([200, 200, 200, 200]);
  const { servers } = (await (await request.get("/api/servers")).json()) as { servers: { id: string }[] };
  expect(servers.map((s) => s.id)).toContain(id);
  const call = await request.post(`/api/servers/${id}/tools/call`, { data: { name: "echo", arguments: { message: "back" } } });
  expect(call.status()).toBe(200);
});

test("rolling restart of both replicas under 64 calls in flight: no failed request, no lost acknowledged write", async ({
  browser,
  world,
}) => {
  test.setTimeout(240_000);
  // Eight people, eight calls in flight each (the per-user quota of concurrent calls is 16).
  const people = await Promise.all(Array.from({ length: 8 }, (_, i) => signedUp(browser, `cluster-roll-${i}`)));
  const servers = await Promise.all(people.map((p) => addHttpServerByApi(p.page, "everything", world.everything.url)));
  let running = true;
  const failures: string[] = [];
  const acknowledged: { who: number; chatId: string }[] = [];
  let calls = 0;
  const worker = async (who: number, lane: number) => {
    const { api } = people[who];
    while (running) {
      // Every eighth request of a lane is a write: a new chat, checked afterwards.
      if (lane === 0 && calls % 8 === 0) {
        const created = await api.post("/api/chats", { data: { title: `roll ${calls}` } }).catch((e: Error) => e);
        if (created instanceof Error || created.status() !== 201)
          failures.push(`chat: ${created instanceof Error ? created.message : created.status()}`);
        else acknowledged.push({ who, chatId: ((await created.json()) as { id: string }).id });
      }
      const response = await api
        .post(`/api/servers/${servers[who]}/tools/call`, { data: { name: "echo", arguments: { message: "roll" } } })
        .catch((e: Error) => e);
      if (response instanceof Error) failures.push(response.message);
      else if (response.status() !== 200) failures.push(`call: ${response.status()} ${await response.text()}`);
      calls++;
    }
  };
  const load = people.flatMap((_, who) => Array.from({ length: 8 }, (_, lane) => worker(who, lane)));
  await new Promise((r) => setTimeout(r, 2_000));
  for (const replica of world.cluster.replicas) {
    await replica.restart();
    await world.cluster.proxy.check();
    await new Promise((r) => setTimeout(r, 2_000));
  }
  running = false;
  await Promise.all(load);
  expect(failures).toEqual([]);
  expect(calls).toBeGreaterThan(200);
  for (const { who, chatId } of acknowledged) expect((await people[who].api.get(`/api/chats/${chatId}`)).status()).toBe(200);
  expect(acknowledged.length).toBeGreaterThan(5);
  await Promise.all(people.map((p) => p.close()));
});
