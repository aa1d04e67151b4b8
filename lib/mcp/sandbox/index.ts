/**
 * The stdio sandbox (bubblewrap): `createSandboxWrapper` turns a launch into a sandboxed one,
 * `checkSandbox` says whether this host can sandbox, `describeLaunch` explains a config to users.
 */
export { createSandboxWrapper, type SandboxOptions } from "./wrapper";
export { checkSandbox, resetSandboxCheck, type SandboxStatus, type CheckSandboxOptions } from "./check";
export { describeLaunch, type LaunchDescription } from "./describe";
export { DEFAULT_LIMITS, SANDBOX_LIMIT_ENV, sandboxLimitsFromEnv, type SandboxLimits } from "./limits";
export { SandboxRefusedError, type SandboxRefusalCode } from "./errors";
export { SANDBOX_HOME } from "./paths";
