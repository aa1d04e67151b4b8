/**
 * The suite's stdio administrator: an instance administrator with an authenticator app, the only
 * one allowed to create stdio servers (docs/second-factors.md#policies). The shared `ADMIN` keeps no
 * factor, so the administrators' policy is set off explicitly and `ADMIN` is never sent to enrol.
 */
import { type APIRequestContext, type Browser, expect, type Page, request as playwrightRequest } from "@playwright/test";
import { generate } from "otplib";
import fs from "node:fs";
import path from "node:path";
import { ADMIN, newAccount } from "../pages/app";
import type { Signed } from "../pages/workspaces";

/** What later specs (and workers) need to sign the stdio administrator in again. */
interface StdioAdminState {
  name: string;
  email: string;
  password: string;
  secret: string;
  /** The last TOTP time step used: each step's code counts once, so the next sign-in takes a later one. */
  lastStep: number;
}

const STEP_SECONDS = 30;
const BASE = `http://localhost:${Number(process.env.E2E_PORT ?? 3111)}`;

function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
  return dir;
}

const statePath = () => path.join(dataDir(), "e2e-stdio-admin.json");
const lockPath = () => path.join(dataDir(), "e2e-stdio-admin.lock");

/** Run `work` holding a lock file, so parallel workers create the administrator once and never share a time step. */
async function locked<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lockPath(), "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() - started > 120_000) throw new Error("stdio admin: lock held for 2 minutes");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockPath(), { force: true });
  }
}

function readState(): StdioAdminState | null {
  try {
    return JSON.parse(fs.readFileSync(statePath(), "utf8")) as StdioAdminState;
  } catch {
    return null;
  }
}

function writeState(state: StdioAdminState): void {
  fs.writeFileSync(`${statePath()}.tmp`, JSON.stringify(state));
  fs.renameSync(`${statePath()}.tmp`, statePath());
}

/**
 * A TOTP code for a step later than `state.lastStep` that the server accepts now (it allows one step
 * of drift), waiting for the clock when the last one used is already ahead; notes the step in `state`.
 */
async function nextCode(state: StdioAdminState): Promise<string> {
  let now = Math.floor(Date.now() / 1000 / STEP_SECONDS);
  while (state.lastStep >= now + 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    now = Math.floor(Date.now() / 1000 / STEP_SECONDS);
  }
  const step = Math.max(now, state.lastStep + 1);
  state.lastStep = step;
  return generate({ secret: state.secret, epoch: step * STEP_SECONDS });
}

/** One step of next-auth's credentials callback (`{email, password}` or `{code}`). */
async function credentials(client: APIRequestContext, fields: Record<string, string>) {
  const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
  return client.post("/api/auth/callback/credentials", { form: { csrfToken, ...fields, json: "true" } });
}

/** Create the stdio administrator through the API: registered, promoted by `ADMIN`, policy off, TOTP enrolled. */
async function create(): Promise<StdioAdminState> {
  const account = newAccount("stdio-admin");
  const admin = await playwrightRequest.newContext({ baseURL: BASE });
  const own = await playwrightRequest.newContext({ baseURL: BASE });
  try {
    expect((await credentials(admin, { email: ADMIN.email, password: ADMIN.password })).status()).toBe(200);
    // Explicitly off before any administrator enrols: unset, it would turn on and send ADMIN to enrol.
    const policy = await admin.put("/api/admin/mfa-policy", { data: { requiredForAdmins: false, requiredForEveryone: false } });
    expect(policy.status(), await policy.text()).toBe(200);
    expect((await own.post("/api/auth/register", { data: account })).status()).toBe(201);
    const { users } = await (await admin.get(`/api/admin/users?q=${encodeURIComponent(account.email)}`)).json();
    const id = users.find((u: { email: string }) => u.email === account.email).id;
    expect((await admin.patch(`/api/admin/users/${id}`, { data: { isAdmin: true } })).status()).toBe(200);

    expect((await credentials(own, { email: account.email, password: account.password })).status()).toBe(200);
    const started = await own.post("/api/account/factors/totp", { data: {} });
    expect(started.status(), await started.text()).toBe(200);
    const { factorId, secret } = (await started.json()) as { factorId: string; secret: string };
    const state: StdioAdminState = { ...account, secret, lastStep: 0 };
    const confirmed = await own.post("/api/account/factors/totp/confirm", { data: { factorId, code: await nextCode(state) } });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    writeState(state);
    return state;
  } finally {
    await Promise.all([admin.dispose(), own.dispose()]);
  }
}

/**
 * Sign the stdio administrator in on `page` (password, then a TOTP code) through the API its
 * browser context shares, creating them on first use; then opens the app's home page.
 */
export async function signInStdioAdmin(page: Page): Promise<StdioAdminState> {
  const state = await locked(async () => {
    const known = readState() ?? (await create());
    const owed = await credentials(page.request, { email: known.email, password: known.password });
    expect(owed.status()).toBe(401);
    expect((await owed.json()).code).toBe("auth.second_factor_required");
    const code = await nextCode(known);
    // Spent whatever the answer: a step the server may have recorded is never offered again.
    writeState(known);
    expect((await credentials(page.request, { code })).status()).toBe(200);
    return known;
  });
  await page.goto("/");
  await expect(page.getByTestId("current-user")).toContainText(state.name);
  return state;
}

/** The stdio administrator signed in with a browser context of their own (like `signedInAdmin`). */
export async function signedInStdioAdmin(browser: Browser): Promise<Signed> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const state = await signInStdioAdmin(page);
  const session = (await (await context.request.get("/api/auth/session")).json()) as { user?: { id?: string } };
  return {
    page,
    api: context.request,
    account: { name: state.name, email: state.email, password: state.password },
    id: session.user?.id ?? "",
    close: () => context.close(),
  };
}
