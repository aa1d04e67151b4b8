import { readJson, route } from "@/lib/http";
import { register } from "@/lib/use-cases/account";
import { sessionUserId } from "@/lib/use-cases/caller";

/**
 * Sign up (open registration, or the first account with the setup code), or an administrator adding
 * a user. Self sign-up answers the same for a new and a taken email, so it reveals no accounts.
 */
export const POST = route(async (request: Request) => {
  // Who is calling first (an administrator adding a user), then the body, capped small.
  const callerId = await sessionUserId();
  const body = await readJson(request, 10_000);
  return Response.json(await register(request, body, callerId), { status: 201 });
});
