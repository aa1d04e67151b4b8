import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { ADMIN, AuthPages, newAccount } from "./app";
import { signUpByApi } from "./chat";

/**
 * Set-up requests are retried on a connection reset only (Playwright's `maxRetries` retries
 * ECONNRESET, never an HTTP status): a keep-alive socket the server closed just as it was reused
 * is not a failure of the app, while every status is still asserted.
 */
export const SETUP = { maxRetries: 2 } as const;

/** A signed-in person with their own browser context; `api` carries their session cookie. */
export interface Signed {
  page: Page;
  api: APIRequestContext;
  account: { name: string; email: string; password: string };
  id: string;
  close(): Promise<void>;
}

/** Register a new account through the shared API sign-up helper, in a browser context of its own. */
export async function signedUp(browser: Browser, prefix: string): Promise<Signed> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = newAccount(prefix);
  await signUpByApi(page, account);
  return { page, api: context.request, account, id: await myId(context.request), close: () => context.close() };
}

/** Sign in as the instance administrator that foundation.spec registered. */
export async function signedInAdmin(browser: Browser): Promise<Signed> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await new AuthPages(page).signIn(ADMIN);
  return { page, api: context.request, account: ADMIN, id: await myId(context.request), close: () => context.close() };
}

async function myId(api: APIRequestContext): Promise<string> {
  const session = (await (await api.get("/api/auth/session", SETUP)).json()) as { user?: { id?: string } };
  const workspaces = (await (await api.get("/api/workspaces", SETUP)).json()) as { personal: boolean }[];
  expect(workspaces.some((w) => w.personal)).toBe(true);
  return session.user?.id ?? "";
}

/** Create a team workspace as `owner`; returns its id and slug. */
export async function createTeam(owner: Signed, name: string): Promise<{ id: string; slug: string }> {
  const response = await owner.api.post("/api/workspaces", { data: { name }, ...SETUP });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; slug: string };
}

/** Invite `who` into the workspace with `role` and accept as them. */
export async function addMember(owner: Signed, workspaceId: string, who: Signed, role: "owner" | "admin" | "member"): Promise<void> {
  const invited = await owner.api.post(`/api/workspaces/${workspaceId}/invitations`, {
    data: { email: who.account.email, role },
    ...SETUP,
  });
  expect(invited.status()).toBe(201);
  const { token } = (await invited.json()) as { token: string };
  expect((await who.api.post(`/api/invitations/${token}/accept`, SETUP)).status()).toBe(200);
}
