/**
 * How a stdio server process is launched. The engine builds a `StdioLaunch` from the config and
 * passes it through a `LaunchWrapper` before spawning; the sandbox is such a wrapper.
 */
import type { ServerConfig } from "./config";

/** The exact program, arguments, environment and working directory of a stdio server. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Which limit of the wrapper ended the process, read when it exits (the sandbox's counters); null when none. */
  explainExit?: (exit: { code: number | null; signal: string | null }) => string | null;
  /**
   * Resolves once what the launch held beyond its processes is given back, after they have ended
   * (the sandbox's home image detached from its loop device): a placement's hold is given back only
   * then (lib/mcp/placement.ts). Never rejects.
   */
  released?: () => Promise<void>;
}

/** Who a launch is for: the sandbox keys its private home by (user, server). */
export interface LaunchContext {
  userId: string;
  serverId: string;
  serverName: string;
  config: ServerConfig;
}

/**
 * Turns a plain launch into the one actually spawned (e.g. wrapped in bubblewrap). It throws a
 * `LaunchRefusedError` when the server must not start (e.g. the sandbox is unavailable).
 */
export type LaunchWrapper = (launch: StdioLaunch, context: LaunchContext) => Promise<StdioLaunch>;

/** A stdio server may not start; the message says why and what to do. */
export class LaunchRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LaunchRefusedError";
  }
}

/** The identity wrapper: runs the command as configured (CLI on the user's own machine, tests). */
export const unwrappedLaunch: LaunchWrapper = async (launch) => launch;
