/** Sign-up is throttled per email and per client address; an administrator adding users is not. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { registerUser } from "@/lib/auth/register";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir: string;
const body = (email: string) => ({ email, password: "a long enough password", name: "Someone" });

beforeAll(async () => {
  dir = useTempDataDir();
  await registerTestUser(getDb(), body("first@example.com"));
});
afterAll(() => removeTempDataDir(dir));

describe("registration throttling", () => {
  it("the 6th sign-up for one email within the window gets rate_limited (429) with a Retry-After", async () => {
    for (let i = 0; i < 5; i++) await registerUser(getDb(), body("same@example.com"), { address: `203.0.113.${i}` });
    await expect(registerUser(getDb(), body("same@example.com"), { address: "203.0.113.99" })).rejects.toMatchObject({
      code: "auth.rate_limited",
      status: 429,
      retryAfterSeconds: expect.any(Number),
    });
  });

  it("the 31st sign-up from one address within the hour gets rate_limited", async () => {
    const address = "198.51.100.200";
    for (let i = 0; i < 30; i++)
      await registerUser(getDb(), { ...body(`bulk-${i}@example.com`), password: "x" }, { address }).catch(() => null);
    await expect(registerUser(getDb(), body("bulk-last@example.com"), { address })).rejects.toMatchObject({ code: "auth.rate_limited" });
  });

  it("an administrator adding users is not throttled", async () => {
    for (let i = 0; i < 7; i++) {
      await expect(
        registerUser(getDb(), body(`added-${i}@example.com`), { byAdmin: true, address: "198.51.100.200" }),
      ).resolves.toBeTruthy();
    }
  });
});
