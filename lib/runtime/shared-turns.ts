/**
 * This replica's shared turn buffer (lib/agent/shared-turn-buffer.ts) in cluster mode: chunks in the
 * coordination, Stop heard on its control channel, and a sweep that keeps the answers of turns whose
 * replica died, marked interrupted, in the chat's messages. Single-node mode never makes it.
 */
import { getDb } from "../../db/client";
import { saveInterruptedAnswer } from "../agent/interrupted-answer";
import { SharedTurnBuffer } from "../agent/shared-turn-buffer";
import { coordination } from "../cluster";
import { replicaAlive, replicaId } from "../cluster/replicas";
import { singleton } from "../singleton";

/** This process's shared turn buffer, made on first use: it listens for Stop and sweeps from then on. */
export function sharedTurns(): SharedTurnBuffer {
  return singleton("turns.shared", () => {
    const turns = new SharedTurnBuffer(coordination(), {
      replicaId: replicaId(),
      replicaAlive,
      keepInterrupted: async ({ chatId }, chunks, complete) => {
        await saveInterruptedAnswer(getDb(), chatId, chunks, complete);
      },
    });
    turns.listen().catch(() => {});
    turns.startSweeping();
    return turns;
  });
}

/** Whether turns go through the coordination (cluster mode) rather than this process's memory. */
export function sharedTurnsOn(): boolean {
  return coordination().clustered;
}

/**
 * Start hearing Stop and sweeping for interrupted turns when the replica starts (instrumentation.ts),
 * so a turn whose replica died is kept even when nobody has the chat open. Nothing in single-node mode.
 */
export function startSharedTurns(): void {
  if (sharedTurnsOn()) sharedTurns();
}

/**
 * Before a chat's page reads its transcript: keep the chat's turn as interrupted if its replica died,
 * so the page shows that answer at once. Cluster mode only; never fails the page (Redis away: the
 * page shows what the database holds).
 */
export async function settleChatTurn(chatId: string): Promise<void> {
  if (!sharedTurnsOn()) return;
  await sharedTurns()
    .settle(chatId)
    .catch(() => false);
}
