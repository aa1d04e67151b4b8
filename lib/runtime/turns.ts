/**
 * The chat turns running in this process, by user and workspace, so that losing access to a
 * workspace (removal, disabled account, deleted workspace) stops them at once.
 */

interface Turn {
  userId: string;
  workspaceId: string;
  controller: AbortController;
}

const slot = globalThis as { __switchboardTurns?: Set<Turn> };
slot.__switchboardTurns ??= new Set<Turn>();
const turns = slot.__switchboardTurns;

/** A running turn: its signal aborts on `stop()`, `stopTurns` or the optional request signal; `end()` forgets it. */
export interface TrackedTurn {
  signal: AbortSignal;
  end(): void;
  /** Stop the turn now (the user pressed Stop). */
  stop(): void;
}

/**
 * Register a turn of `userId` in `workspaceId`. The chat passes no `requestSignal`: its turns outlive
 * the request that started them (docs/chat.md#runs-that-survive-navigation) and stop only on Stop.
 */
export function trackTurn(userId: string, workspaceId: string, requestSignal?: AbortSignal): TrackedTurn {
  const turn: Turn = { userId, workspaceId, controller: new AbortController() };
  turns.add(turn);
  const end = () => turns.delete(turn);
  const stop = (reason: unknown = new Error("stopped by the user")) => {
    turn.controller.abort(reason);
    end();
  };
  requestSignal?.addEventListener("abort", () => stop(requestSignal.reason));
  return { signal: turn.controller.signal, end, stop: () => stop() };
}

/** Stop the turns of a user in a workspace (every user's when `userId` is null; every workspace's when `workspaceId` is null). */
export function stopTurns(userId: string | null, workspaceId: string | null): void {
  for (const turn of turns) {
    if ((userId === null || turn.userId === userId) && (workspaceId === null || turn.workspaceId === workspaceId)) {
      turn.controller.abort(new Error("access to the workspace ended"));
      turns.delete(turn);
    }
  }
}

/** Pass a turn's stream through, forgetting the turn when it ends. */
export function endWithStream<T>(stream: ReadableStream<T>, turn: TrackedTurn): ReadableStream<T> {
  return stream.pipeThrough(
    new TransformStream<T, T>({
      flush: () => turn.end(),
    }),
  );
}
