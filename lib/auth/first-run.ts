/**
 * Whether the instance is fresh (no account yet) for the sign-in and sign-up pages. Makes sure a
 * setup code exists and is in the log even when the server was started without `npm start`.
 */
import type { Db } from "../../db/client";
import { ensureSetupCode, setupCodeLogLine } from "./setup-code";

/** True while no account exists; prints the setup code the first time one is created. */
export async function isFreshInstance(db: Db): Promise<boolean> {
  const setup = await ensureSetupCode(db);
  if (setup?.created) console.log(setupCodeLogLine(setup.code));
  return !!setup;
}
