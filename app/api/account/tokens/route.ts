import { parseJson, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { createMyToken, myTokens } from "@/lib/use-cases/personal-tokens";
import { createTokenBody } from "./schema";

/** The caller's personal access tokens (never a secret). */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json({ tokens: await myTokens(user) });
});

/** Make a personal access token (recent sign-in required); the answer carries its secret, this once. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await parseJson(request, createTokenBody);
  return Response.json(await createMyToken(user, body), { status: 201, headers: { "cache-control": "no-store" } });
});
