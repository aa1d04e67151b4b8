/**
 * Our own stdio Transport for the SDK `Client` (the SDK's closes the link on a >10 MiB message and
 * cannot kill grandchildren): spawns the (possibly sandbox-wrapped) launch in its own process
 * group, speaks newline-delimited JSON-RPC, survives garbage lines and over-long results, and keeps
 * a bounded stderr tail.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/client";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/core";
import { redactForDisplay } from "../redact";
import { EngineError, LIMIT_EXCEEDED_RPC_CODE, MESSAGE_TOO_LARGE_RPC_CODE } from "./errors";
import { checkJsonShape, describeRefusal } from "./limits";
import type { StdioLaunch } from "./launch";
import { LineSplitter, type OversizedLine } from "./line-splitter";
import { guessResponseId, PEEK_BYTES, startsAsServerMessage } from "./limits/response-id";
import { LogThrottle } from "./log-throttle";
import { silentLogger, type Logger } from "./logger";
import { RingBuffer } from "./ring-buffer";

/** Default cap on one JSON-RPC message from a child. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Options of a `ChildProcessTransport`. */
export interface ChildProcessTransportOptions {
  launch: StdioLaunch;
  /** Default 16 MiB. */
  maxMessageBytes?: number;
  /** Deepest JSON nesting of one message; default 64. */
  maxJsonDepth?: number;
  /** Most keys + array elements of one message; default 100,000. */
  maxJsonMembers?: number;
  /** Default 64 KiB. */
  stderrBytes?: number;
  /** SIGTERM → SIGKILL grace; default 3000 ms. */
  killGraceMs?: number;
  /** Default silent. */
  logger?: Logger;
  /** Exact values to redact from stderr and logs (the server's env values). */
  secrets?: string[];
  /** Entries added to each request's `params._meta` as it is sent (the host's trace context). Default: none. */
  requestMeta?: () => Record<string, string> | undefined;
  /**
   * Runs once the child has ended, however it ended, after its whole process group was killed and the
   * launch let go of what it held (`StdioLaunch.released`): the placement's hold is given back
   * (lib/mcp/placement.ts). `close()` resolves only after it. Default: none.
   */
  afterEnd?: () => Promise<void>;
}

type RequestId = string | number;

/** How the child ended, once it has. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The launch's limit that ended it (the sandbox's memory, processes or CPU time), when one did. */
  cause?: string;
}

/** A Transport over a child process's stdin/stdout. */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * A message was discarded for a cap and no request in flight could be named as the one it
   * answered (the connect sets this: whatever it waits for is that message).
   */
  onUnattributedDiscard?: (code: number, message: string) => void;

  private child: ChildProcess | null = null;
  private readonly stderr: RingBuffer;
  private readonly inFlight = new Set<RequestId>();
  private readonly maxBytes: number;
  private readonly logger: Logger;
  private exit: ExitInfo | null = null;
  /** Set by `close()` before the child had exited. */
  private stopRequested = false;
  private closedNotified = false;
  /** Set once `close()` was called: it runs `afterEnd` itself, after its last kill. */
  private closeCalled = false;
  private ending: Promise<void> | null = null;
  /** Whether the over-cap line being discarded already failed its request. */
  private overflowAnswered = false;
  private readonly logThrottle = new LogThrottle();
  private readonly closed: Promise<void>;
  private resolveClosed!: () => void;

  constructor(private readonly options: ChildProcessTransportOptions) {
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.stderr = new RingBuffer(options.stderrBytes ?? 64 * 1024);
    this.logger = options.logger ?? silentLogger;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** PID of the child (the process-group leader), once spawned. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * How the child exited on its own, or null while it runs or when the host stopped it (`close()`
   * came first: the SIGTERM is ours, not the server's exit).
   */
  get exitInfo(): ExitInfo | null {
    return this.stopRequested ? null : this.exit;
  }

  /** Redacted tail of the child's stderr. */
  stderrTail(maxLength = 4000): string {
    const text = this.stderr.text();
    return redactForDisplay(text.length > maxLength ? text.slice(-maxLength) : text, this.options.secrets ?? [], maxLength + 100);
  }

  /** Spawn the child; rejects with `command_not_found` when the executable does not exist. */
  start(): Promise<void> {
    if (this.child) throw new Error("ChildProcessTransport already started");
    const { command, args, env, cwd } = this.options.launch;
    return new Promise((resolve, reject) => {
      // detached: the child leads its own process group, so close() can end grandchildren too (npx → node).
      // The cast: Next augments ProcessEnv with a required NODE_ENV; the child gets exactly `env`.
      const child = spawn(command, args, {
        env: env as NodeJS.ProcessEnv,
        cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      let spawned = false;
      const splitter = new LineSplitter(
        this.maxBytes,
        (line) => this.handleLine(line),
        (line) => this.handleOversized(line),
        (head) => this.handleOverflow(head),
      );
      child.stdout!.on("data", (chunk: Buffer) => splitter.push(chunk));
      child.stderr!.on("data", (chunk: Buffer) => this.stderr.write(chunk));
      child.stdin!.on("error", (error) => this.onerror?.(error));
      child.once("spawn", () => {
        spawned = true;
        resolve();
      });
      child.on("error", (error: NodeJS.ErrnoException) => {
        if (spawned) return this.onerror?.(error);
        this.finish({ code: null, signal: null });
        reject(spawnError(error, this.options.launch));
      });
      child.once("exit", (code, signal) => {
        const cause = this.options.launch.explainExit?.({ code, signal }) ?? undefined;
        this.exit = cause ? { code, signal, cause } : { code, signal };
        // 'close' waits for stdio to drain; a grandchild holding the pipe must not delay the news.
        setTimeout(() => this.finish(this.exit!), 1000).unref();
      });
      child.once("close", () => this.finish(this.exit ?? { code: null, signal: null }));
    });
  }

  /** Write one message as a line; requests are tracked so an over-long reply can fail the right one. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exit || !stdin.writable) throw new EngineError("connection_closed", "the server process is not running");
    let sent = message;
    if ("method" in message && "id" in message && message.id !== undefined) {
      this.inFlight.add(message.id);
      sent = withMeta(message, this.options.requestMeta?.());
    }
    const ok = stdin.write(`${JSON.stringify(sent)}\n`);
    if (!ok) await new Promise<void>((resolve) => stdin.once("drain", resolve));
  }

  /** Stop the child and its process group: SIGTERM, then SIGKILL after the grace period. */
  async close(): Promise<void> {
    this.closeCalled = true;
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.finish({ code: null, signal: null });
      return await this.afterEnded();
    }
    if (!this.exit) this.stopRequested = true;
    child.stdin?.end();
    signalGroup(child.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), this.options.killGraceMs ?? 3000);
    timer.unref();
    await this.closed;
    clearTimeout(timer);
    // The leader is gone; grandchildren that ignored SIGTERM must not outlive the connection.
    signalGroup(child.pid, "SIGKILL");
    await this.afterEnded();
  }

  private finish(exit: ExitInfo): void {
    if (this.closedNotified) return;
    this.closedNotified = true;
    this.exit = exit;
    this.inFlight.clear();
    this.resolveClosed();
    // Ended on its own (close() runs it after its own last kill).
    if (!this.closeCalled) void this.afterEnded();
    this.onclose?.();
  }

  /** Run `afterEnd` once, after the process group is gone; never rejects. */
  private afterEnded(): Promise<void> {
    if (!this.options.afterEnd) return Promise.resolve();
    if (!this.ending) {
      const pid = this.child?.pid;
      try {
        if (pid !== undefined) signalGroup(pid, "SIGKILL");
      } catch {
        // Not ours to signal any more: nothing of it is left to stop.
      }
      const { afterEnd } = this.options;
      const released = this.options.launch.released ?? (() => Promise.resolve());
      this.ending = released()
        .then(() => afterEnd())
        .catch((error: unknown) => this.logger.warn("after the child ended", { error: String(error) }));
    }
    return this.ending;
  }

  private handleLine(line: string): void {
    // Bound the parse first: a million keys or a deep nest would block or overflow whoever parses it.
    const refusal = checkJsonShape(line, this.options.maxJsonDepth ?? 64, this.options.maxJsonMembers ?? 100_000);
    if (refusal) {
      this.failLine(line, LIMIT_EXCEEDED_RPC_CODE, `${describeRefusal(refusal)}; it was discarded`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.dropLine(line, "not JSON");
      return;
    }
    const result = JSONRPCMessageSchema.safeParse(parsed);
    if (!result.success) {
      this.dropLine(line, "not a JSON-RPC message");
      return;
    }
    const message = result.data;
    if (!("method" in message) && "id" in message && message.id !== undefined) this.inFlight.delete(message.id);
    this.onmessage?.(message);
  }

  private dropLine(line: string, why: string): void {
    // MCP stdio: stdout is protocol only, but servers print banners; dropping keeps the link alive.
    // Rate-limited: a server printing garbage without end must not fill the app's log.
    const { log, held } = this.logThrottle.take("garbage");
    if (!log) return;
    this.logger.warn(`dropped a stdout line from the server (${why})`, {
      pid: this.pid,
      preview: redactForDisplay(line, this.options.secrets ?? [], 200),
      ...(held > 0 ? { alsoDroppedSinceLastWarning: held } : {}),
    });
  }

  /**
   * A line passed the cap (it may never end): the request whose id its start shows fails now; with
   * no id there, its end may show one (`handleOversized`).
   */
  private handleOverflow(head: string): void {
    const id = guessResponseId({ head, tail: "" });
    this.overflowAnswered = id !== undefined && this.failRequest(id, MESSAGE_TOO_LARGE_RPC_CODE, this.overCapMessage());
    // While connecting, whatever the connect waits for may be this line: it fails now, not at its timeout.
    if (id === undefined && !startsAsServerMessage(head)) this.onUnattributedDiscard?.(MESSAGE_TOO_LARGE_RPC_CODE, this.overCapMessage());
  }

  private overCapMessage(bytes?: number): string {
    const sent = bytes === undefined ? "" : ` (the server sent ${bytes} bytes)`;
    return `result exceeds ${this.maxBytes} bytes${sent}; it was discarded (raise SWITCHBOARD_MCP_MAX_MESSAGE_BYTES to allow more)`;
  }

  /** The over-cap line ended: the next line starts after its newline. */
  private handleOversized(line: OversizedLine): void {
    this.logger.warn(`discarded a ${line.bytes}-byte message over the ${this.maxBytes}-byte cap`, { pid: this.pid });
    const answered = this.overflowAnswered;
    this.overflowAnswered = false;
    if (answered) return;
    const id = guessResponseId(line);
    if (id !== undefined) this.failRequest(id, MESSAGE_TOO_LARGE_RPC_CODE, this.overCapMessage(line.bytes));
  }

  private failLine(line: string, code: number, message: string): void {
    this.logger.warn(`discarded a message: ${message}`, { pid: this.pid });
    const head = line.slice(0, PEEK_BYTES);
    const id = guessResponseId({ head, tail: line.slice(-PEEK_BYTES) });
    if (id !== undefined) this.failRequest(id, code, message);
    else if (!startsAsServerMessage(head)) this.onUnattributedDiscard?.(code, message);
  }

  /**
   * Fail the request a discarded message answered, when it is in flight; never another one (a
   * guess would fail an unrelated call). False when no request has that id.
   */
  private failRequest(id: RequestId, code: number, message: string): boolean {
    if (!this.inFlight.has(id)) return false;
    this.inFlight.delete(id);
    this.onmessage?.({ jsonrpc: "2.0", id, error: { code, message } });
    return true;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the group is already gone, which is the goal.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function spawnError(error: NodeJS.ErrnoException, launch: StdioLaunch): EngineError {
  if (error.code === "ENOENT") {
    const where = launch.cwd ? ` (or the working directory "${launch.cwd}" does not exist)` : "";
    return new EngineError(
      "command_not_found",
      `command not found: "${launch.command}"${where}. Install it or use an absolute path in \`command\`.`,
      { cause: error },
    );
  }
  if (error.code === "EACCES") {
    return new EngineError("command_not_found", `command "${launch.command}" is not executable (permission denied)`, { cause: error });
  }
  return new EngineError("server_error", `could not start "${launch.command}": ${error.message}`, { cause: error });
}

/** The request with `meta` merged into its `params._meta` (a copy; the SDK's message is left as it was). */
function withMeta(message: JSONRPCMessage, meta: Record<string, string> | undefined): JSONRPCMessage {
  if (!meta) return message;
  const params = ("params" in message && message.params && typeof message.params === "object" ? message.params : {}) as Record<
    string,
    unknown
  >;
  const own = params._meta && typeof params._meta === "object" ? (params._meta as Record<string, unknown>) : {};
  return { ...message, params: { ...params, _meta: { ...own, ...meta } } } as JSONRPCMessage;
}
