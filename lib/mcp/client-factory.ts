/**
 * Builds the SDK `Client` for one (user, server): clientInfo "switchboard", the capabilities we
 * really support, and the handlers for elicitation, logging and list_changed notifications.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ServerDefinition } from "./config";
import type { ListKind } from "./discovery";
import type { ElicitationHandler, LoggingMessageHandler } from "./types";

/** Handlers the client forwards to the host. */
export interface ClientHooks {
  userId: string;
  server: ServerDefinition;
  clientVersion: string;
  onElicitation?: ElicitationHandler;
  onLoggingMessage?: LoggingMessageHandler;
  onListChanged: (kind: ListKind) => void;
}

/** A fresh SDK client; elicitation is declared only when the host can answer it. */
export function createClient(hooks: ClientHooks): Client {
  const client = new Client(
    { name: "switchboard", version: hooks.clientVersion },
    { capabilities: hooks.onElicitation ? { elicitation: { form: {}, url: {} } } : {} },
  );
  const { onElicitation, onLoggingMessage, userId, server } = hooks;
  if (onElicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => onElicitation(userId, server, request.params, extra.signal));
  }
  if (onLoggingMessage) {
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => onLoggingMessage(userId, server, notification.params));
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.onListChanged("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => hooks.onListChanged("resources"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => hooks.onListChanged("prompts"));
  return client;
}
