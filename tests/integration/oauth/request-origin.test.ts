/**
 * The redirect URI follows the origin a Connect came from (lib/oauth/web/redirect.ts), under the
 * public-URL rule of the rest of the app: without a configured public URL, a Connect started from
 * 127.0.0.1 comes back to 127.0.0.1 and finishes there; a later Connect from localhost registers
 * again rather than reuse a registration that names the other address; a non-loopback Host is not
 * trusted. Real AS (oidc-provider fixture), real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import { beginAuthorization } from "@/lib/oauth/web/flow";
import { depsForOrigin, oauthRequestOrigin } from "@/lib/oauth/web/redirect";
import { completeDevLogin } from "../../fixtures/oauth/dev-login.mjs";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { addOAuthServer, signUp, startFixture, testDeps, type OAuthFixture, type TestUser } from "./helpers";

const ENV_KEYS = ["SWITCHBOARD_PUBLIC_URL", "NEXTAUTH_URL", "PORT"] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
let dir: string;
let alice: TestUser;
let fixture: OAuthFixture;

/** A request that arrived with this Host header (as the start and callback routes see it). */
const arrivedAt = (host: string) => ({ headers: new Headers({ host }) });

beforeAll(async () => {
  delete process.env.SWITCHBOARD_PUBLIC_URL;
  delete process.env.NEXTAUTH_URL;
  process.env.PORT = "3111";
  dir = useTempDataDir();
  alice = await signUp("alice@example.com");
  fixture = await startFixture();
});
afterAll(async () => {
  await fixture?.close();
  removeTempDataDir(dir);
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

describe("OAuth redirect URI per request origin", () => {
  it("comes back to the loopback address the Connect started from, and registers again for another one", async () => {
    const server = await addOAuthServer(alice, "loopback", fixture.mcpUrl);

    const fromLoopbackIp = depsForOrigin(testDeps(), oauthRequestOrigin(arrivedAt("127.0.0.1:3111")));
    expect(fromLoopbackIp.redirectUrl).toBe("http://127.0.0.1:3111/api/oauth/callback");
    const begun = await beginAuthorization(fromLoopbackIp, alice.id, server);
    if (begun.status !== "redirect") throw new Error("expected a redirect");
    expect(new URL(begun.url).searchParams.get("redirect_uri")).toBe("http://127.0.0.1:3111/api/oauth/callback");
    const back = await completeDevLogin(begun.url, "alice-at-as", fromLoopbackIp.redirectUrl);
    expect(back.origin).toBe("http://127.0.0.1:3111");
    // The callback is served on that origin: its own Host gives the redirect URI the exchange names.
    const atCallback = depsForOrigin(testDeps(), oauthRequestOrigin(arrivedAt(back.host)));
    const done = await oauthCallbackResponse(atCallback, { url: back, userId: alice.id, findServer: () => server });
    expect(done.status).toBe(303);
    expect(fixture.stats.codeGrants).toBe(1);
    expect(fixture.stats.registrations).toBe(1);

    // From localhost the stored registration names 127.0.0.1 only: a new one is made, and the AS accepts it.
    const fromLocalhost = depsForOrigin(testDeps(), oauthRequestOrigin(arrivedAt("localhost:3111")));
    const again = await beginAuthorization(fromLocalhost, alice.id, server);
    if (again.status !== "redirect") throw new Error("expected a redirect");
    expect(new URL(again.url).searchParams.get("redirect_uri")).toBe("http://localhost:3111/api/oauth/callback");
    expect(fixture.stats.registrations).toBe(2);
    const backAgain = await completeDevLogin(again.url, "alice-at-as", fromLocalhost.redirectUrl);
    const doneAgain = await oauthCallbackResponse(depsForOrigin(testDeps(), oauthRequestOrigin(arrivedAt(backAgain.host))), {
      url: backAgain,
      userId: alice.id,
      findServer: () => server,
    });
    expect(doneAgain.status).toBe(303);
    expect(fixture.stats.codeGrants).toBe(2);
  });

  it("does not trust a non-loopback Host, and a configured public URL wins over any Host", () => {
    expect(oauthRequestOrigin(arrivedAt("evil.example:3111"))).toBe("http://localhost:3111");
    process.env.SWITCHBOARD_PUBLIC_URL = "https://sb.example.com/";
    try {
      const deps = depsForOrigin(testDeps(), oauthRequestOrigin(arrivedAt("127.0.0.1:3111")));
      expect(deps.redirectUrl).toBe("https://sb.example.com/api/oauth/callback");
      expect(deps.clientMetadataUrl).toBe("https://sb.example.com/oauth/client-metadata.json");
    } finally {
      delete process.env.SWITCHBOARD_PUBLIC_URL;
    }
  });
});
