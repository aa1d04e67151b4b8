/**
 * Per-connection call ordering: with `supports_parallel_tool_calls: false` (the default) a
 * server's tool calls run one after another; with true they run together.
 */

/** Runs tasks one at a time in arrival order, or all at once when `parallel`. */
export class CallQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(public parallel: boolean) {}

  /** Run `task` now (parallel) or after every earlier task settled (serial). */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.parallel) return task();
    const result = this.tail.then(task, task);
    // The chain continues whether the task failed or not; the caller still sees the rejection.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
