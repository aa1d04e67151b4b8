import { route } from "@/lib/http";
import { metricsExposition } from "@/lib/use-cases/metrics";

/** The Prometheus scrape endpoint: a bearer token instead of a session (docs/telemetry.md#prometheus). */
export const GET = route(async (request: Request) => metricsExposition(request));
