/** `POST /api/servers/test` body: a config to try (and the saved server whose masked secrets it keeps). */
export { connectionTestSchema as testBody } from "@/lib/use-cases/test-connection";
