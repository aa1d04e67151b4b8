/**
 * The few Switchboard API calls the container smoke test makes, as a person's browser would:
 * register, add an authenticator app, sign in through next-auth's credentials flow, add a server, call a tool, list servers.
 * Each throws with the status and the `{code, message}` body when the app refuses.
 */
import { generate } from "otplib";

/** The account the smoke test registers and signs in with. */
export const ACCOUNT = { name: "smoke", email: "smoke@example.com", password: "a long smoke-test password" };

async function expectStatus(response, status, what) {
  if (response.status === status) return response;
  throw new Error(`${what}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
}

/** Register the first account of a fresh instance with the setup code from its log. */
export async function register(base, setupCode) {
  const response = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...ACCOUNT, setupCode }),
  });
  await expectStatus(response, 201, "register");
}

/** One step of next-auth's credentials callback (`{email, password}` or `{code}`), adding to `cookies`. */
async function credentials(base, cookies, fields) {
  const csrf = await expectStatus(await fetch(`${base}/api/auth/csrf`, { headers: { cookie: cookies.join("; ") } }), 200, "csrf token");
  const { csrfToken } = await csrf.json();
  cookies.push(...csrf.headers.getSetCookie().map((c) => c.split(";")[0]));
  const login = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, ...fields, json: "true" }),
  });
  cookies.push(...login.headers.getSetCookie().map((c) => c.split(";")[0]));
  return login;
}

const TOTP_STEP_SECONDS = 30;

/**
 * The account's authenticator app once it has one: its secret and the last time step whose code was
 * spent (each step's code counts once, and the server accepts one step ahead).
 */
const authenticator = { secret: "", lastStep: 0 };

/** A code for a time step later than the last one spent that the server accepts now. */
async function nextCode() {
  let now = Math.floor(Date.now() / 1000 / TOTP_STEP_SECONDS);
  while (authenticator.lastStep >= now + 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    now = Math.floor(Date.now() / 1000 / TOTP_STEP_SECONDS);
  }
  authenticator.lastStep = Math.max(now, authenticator.lastStep + 1);
  return generate({ secret: authenticator.secret, epoch: authenticator.lastStep * TOTP_STEP_SECONDS });
}

/** Sign in (password, then a TOTP code once the account has an authenticator); returns the session's cookie header. */
export async function signIn(base) {
  const cookies = [];
  let login = await credentials(base, cookies, { email: ACCOUNT.email, password: ACCOUNT.password });
  if (authenticator.secret) {
    if (login.status !== 401) throw new Error(`sign-in: HTTP ${login.status} where the second factor was owed`);
    login = await credentials(base, cookies, { code: await nextCode() });
  }
  if (!cookies.some((c) => c.includes("session-token"))) throw new Error(`sign-in: no session (HTTP ${login.status})`);
  return cookies.join("; ");
}

/**
 * Add an authenticator app to the signed-in account: instance administrators need a second factor
 * before they may create stdio servers (docs/second-factors.md). Later sign-ins owe a code.
 */
export async function enrolAuthenticator(base, cookie) {
  const started = await fetch(`${base}/api/account/factors/totp`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: "{}",
  });
  const { factorId, secret } = await (await expectStatus(started, 200, "start TOTP enrolment")).json();
  authenticator.secret = secret;
  const confirmed = await fetch(`${base}/api/account/factors/totp/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ factorId, code: await nextCode() }),
  });
  await expectStatus(confirmed, 200, "confirm TOTP enrolment");
}

/** Add a server to the caller's personal workspace; returns its id. */
export async function addServer(base, cookie, name, config) {
  const response = await fetch(`${base}/api/servers`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ name, config }),
  });
  return (await (await expectStatus(response, 201, `add server ${name}`)).json()).id;
}

/** Call a tool by its raw name; returns the MCP CallToolResult (a tool error is thrown). */
export async function callTool(base, cookie, serverId, name, args) {
  const response = await fetch(`${base}/api/servers/${serverId}/tools/call`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ name, arguments: args }),
  });
  const result = await (await expectStatus(response, 200, `call ${name}`)).json();
  if (result.isError) throw new Error(`call ${name}: tool error ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

/** The caller's connection status of a server (state, lastError, stderrTail …). */
export async function serverStatus(base, cookie, serverId) {
  const response = await expectStatus(await fetch(`${base}/api/servers/${serverId}/status`, { headers: { cookie } }), 200, "server status");
  return response.json();
}

/** The servers of the caller's personal workspace. */
export async function listServers(base, cookie) {
  const response = await expectStatus(await fetch(`${base}/api/servers`, { headers: { cookie } }), 200, "list servers");
  return (await response.json()).servers;
}
