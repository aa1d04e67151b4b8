/**
 * The few Switchboard API calls the container smoke test makes, as a person's browser would:
 * register, sign in through next-auth's credentials flow, add a server, call a tool, list servers.
 * Each throws with the status and the `{code, message}` body when the app refuses.
 */

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

/** Sign in; returns the cookie header of the session. */
export async function signIn(base) {
  const csrf = await expectStatus(await fetch(`${base}/api/auth/csrf`), 200, "csrf token");
  const { csrfToken } = await csrf.json();
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const login = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email: ACCOUNT.email, password: ACCOUNT.password, json: "true" }),
  });
  cookies.push(...login.headers.getSetCookie().map((c) => c.split(";")[0]));
  if (!cookies.some((c) => c.includes("session-token"))) throw new Error(`sign-in: no session (HTTP ${login.status})`);
  return cookies.join("; ");
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
