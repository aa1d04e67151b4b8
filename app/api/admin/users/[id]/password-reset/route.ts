import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { idParam, route } from "@/lib/http";
import { issuePasswordResetLink } from "@/lib/use-cases/mail-links";

type Context = { params: Promise<{ id: string }> };

/**
 * Issue a one-time password-reset link for user `id` (1 hour, single use; audited) → 201
 * `{emailed: true, email, expiresAt}` when mail is set up, else `{emailed: false, email, url, expiresAt}`.
 */
export const POST = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  return Response.json(await issuePasswordResetLink(admin, await idParam(context), request), {
    status: 201,
    headers: { "cache-control": "no-store" },
  });
});
