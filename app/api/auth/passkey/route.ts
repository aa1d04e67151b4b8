import { parseJson, route } from "@/lib/http";
import { passkeySignInOptions } from "@/lib/use-cases/passkeys";
import { passkeyOptionsBody } from "./schema";

/**
 * Options for `navigator.credentials.get` at sign-in, `{purpose: "sign-in" | "second-factor"}`.
 * Public by design: nobody is signed in; the answer goes to next-auth's credentials callback.
 */
export const POST = route(async (request: Request) => {
  const body = await parseJson(request, passkeyOptionsBody);
  return Response.json(await passkeySignInOptions(request, body), { headers: { "cache-control": "no-store" } });
});
