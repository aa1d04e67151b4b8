import { health } from "@/lib/use-cases/account";

/** Liveness and database reachability, without sign-in. */
export async function GET() {
  const { status, body } = await health();
  return Response.json(body, { status });
}
