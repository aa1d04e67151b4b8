/**
 * The lethal-trifecta state of one gateway session (docs/tool-trust.md, docs/gateway.md#the-trifecta-rule):
 * the servers whose content (a tool's result, a resource, a prompt) the gateway has handed its
 * client. The client's model holds that content from then on, as a chat's does, so a following call
 * that could send data out asks even when set to Always allow. A 2025-11-25 session keeps it for its
 * life; a 2026-07-28 request is served by a fresh server, so there it holds that one request only.
 */
import type { ContentSource } from "../../trust/policy";

/** The servers a session has handed content from, each once. */
export class SessionSources {
  private readonly byServer = new Map<string, ContentSource>();

  /** Note content handed from `source`'s server. */
  record(source: ContentSource): void {
    this.byServer.set(source.serverId, source);
  }

  /** Every server the session has handed content from, as the gate takes them. */
  list(): ContentSource[] {
    return [...this.byServer.values()];
  }

  /** Run `read` and note its server once it returned content (a refused or failed read hands none). */
  async after<T>(source: ContentSource, read: () => Promise<T>): Promise<T> {
    const result = await read();
    this.record(source);
    return result;
  }
}
