/**
 * The HTTP openers: Streamable HTTP (answers read from the Node request lane, lib/mcp/http-transport.ts),
 * falling back to legacy HTTP+SSE when the server refuses it, and HTTP+SSE itself for `/sse` URLs.
 * Both send the OAuth token of the (user, server) and watch for scope challenges (step-up).
 */
import { createClient } from "./client-factory";
import { createSseTransport, createStreamableTransport, shouldFallBackToSse, type HttpTransportOptions } from "./http-transport";
import { cappedFetch, LimitedTransport } from "./limits";
import { observeScopeChallenges, recordsStepUp, StepUpRequiredError } from "./step-up";
import { closeQuietly, type OpenContext, type OpenedTransport, type TransportOpener } from "./transport-opener";

/** Open a Streamable HTTP server, or fall back to HTTP+SSE when it refuses the transport. */
export const openStreamableHttp: TransportOpener = async (context) => {
  const { http, limitedFetch } = await httpSettings(context);
  const { options, guard } = context;
  // Streamable HTTP reads answers from the Node request lane (lib/mcp/http-transport.ts).
  const transport = createStreamableTransport({ ...http, fetch: limitedFetch(true) });
  context.track(transport);
  const client = createClient({ ...options.identity, ...options.hooks });
  try {
    await context.connect(client, transport, context.remembered);
    return { client, transport, kind: "streamable_http", guard };
  } catch (error) {
    if (!shouldFallBackToSse(error)) throw error;
    options.logger.info("Streamable HTTP refused; falling back to legacy HTTP+SSE", { server: options.identity.server.name });
    await closeQuietly(transport, options.logger);
    context.signal.throwIfAborted();
  }
  return sseOver(context, http);
};

/** Open a legacy HTTP+SSE server. */
export const openSse: TransportOpener = async (context) => sseOver(context, (await httpSettings(context)).http);

async function sseOver(context: OpenContext, http: HttpTransportOptions): Promise<OpenedTransport> {
  const { options, guard } = context;
  const transport = createSseTransport(http);
  context.track(transport);
  const client = createClient({ ...options.identity, ...options.hooks });
  // HTTP+SSE predates the 2026 revision: no probe.
  await client.connect(new LimitedTransport(transport, guard), { ...context.rpc, prior: { kind: "legacy" } });
  return { client, transport, kind: "sse", guard };
}

/** URL, headers, OAuth and the capped fetch, once a pending step-up has been ruled out. */
async function httpSettings(context: OpenContext) {
  const { options, guard } = context;
  const { server } = options.identity;
  const provider = await options.transport.authProvider;
  // A wider scope the user has not granted yet: the old token would connect, and the status would
  // say "connected" while the tool that needs the scope keeps failing. Ask for Connect instead.
  const pendingScope = recordsStepUp(provider) ? await provider.pendingStepUp() : undefined;
  if (pendingScope) throw new StepUpRequiredError(server.name, pendingScope);
  const limitedFetch = (streamingLane: boolean) => {
    const capped = cappedFetch(options.transport.fetch ?? globalThis.fetch, guard, { streamingLane });
    return recordsStepUp(provider) ? observeScopeChallenges(capped, provider, options.hooks.scopeChallenge) : capped;
  };
  const http: HttpTransportOptions = {
    url: server.config.url!,
    headers: server.config.headers,
    fetch: limitedFetch(false),
    authProvider: provider,
  };
  return { http, limitedFetch };
}
