/**
 * Typed refusals of the sandbox. They extend the engine's `LaunchRefusedError`, so the engine
 * treats them like any other refused launch; callers that care dispatch on `code`.
 */
import { LaunchRefusedError } from "../launch";

/** Why the sandbox refused a launch. */
export type SandboxRefusalCode =
  | "unavailable" // bubblewrap (or util-linux) is missing or cannot create namespaces here
  | "network-hosts" // a host allow-list was asked for; only off/on are implemented
  | "path" // a read-only path or the executable would expose protected data
  | "cwd" // `cwd` escapes the sandbox home
  | "env" // an environment name bubblewrap cannot set
  | "identity"; // a user or server id that is not a safe directory name

/** A stdio server may not start under the sandbox; `fix` says what an administrator can do. */
export class SandboxRefusedError extends LaunchRefusedError {
  readonly code: SandboxRefusalCode;
  readonly fix: string | undefined;
  constructor(code: SandboxRefusalCode, message: string, fix?: string) {
    super(fix ? `${message} Fix: ${fix}` : message);
    this.name = "SandboxRefusedError";
    this.code = code;
    this.fix = fix;
  }
}
