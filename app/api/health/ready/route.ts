import { readiness } from "@/lib/use-cases/account";

/**
 * Readiness, without sign-in: 200 while this process takes requests and reaches its database; 503
 * once it has begun to shut down (SIGTERM) or when the database cannot be reached, so a load
 * balancer stops sending it requests (docs/deployment.md#run-with-a-container).
 */
export async function GET() {
  const { status, body } = await readiness();
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}
