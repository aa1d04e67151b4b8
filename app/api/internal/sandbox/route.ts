import { serveSandboxHop } from "@/lib/use-cases/sandbox-hop";

/**
 * The internal hop (cluster mode): another replica forwards here a request for a stdio server whose
 * sandbox runs on this one. No session: the request carries the hop's proof, signed under a key only
 * the replicas derive (lib/runtime/internal-hop.ts); the answer streams newline-delimited JSON-RPC.
 */
export const POST = (request: Request) => serveSandboxHop(request);
