/**
 * An unknown email costs the same as a known one with a wrong password: both do one scrypt
 * verification. Measured as a ratio of medians (no absolute times: the machine's load varies).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { checkCredentials } from "@/lib/auth/credentials";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir: string;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeOf(email: string): Promise<number> {
  const t0 = performance.now();
  expect(await checkCredentials(getDb(), email, "not the right password")).toBeNull();
  return performance.now() - t0;
}

beforeAll(async () => {
  dir = useTempDataDir();
  await registerTestUser(getDb(), { email: "known@example.com", password: "a long enough password", name: "Known" });
});
afterAll(() => removeTempDataDir(dir));

describe("sign-in timing", () => {
  it("unknown and known emails take the same time (ratio of medians within 0.67–1.5)", async () => {
    await timeOf("warm-up@example.com");
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so a load spike on the shared machine hits both series alike.
    for (let i = 0; i < 15; i++) {
      known.push(await timeOf("known@example.com"));
      unknown.push(await timeOf(`nobody-${i}@example.com`));
    }
    const ratio = median(unknown) / median(known);
    console.log(
      `sign-in timing: known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`,
    );
    expect(ratio).toBeGreaterThan(0.67);
    expect(ratio).toBeLessThan(1.5);
  });
});
