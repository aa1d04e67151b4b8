/**
 * The host-side start of a sandboxed server, before bubblewrap: join the whole-sandbox control
 * group, say on stderr what is not enforced, and for `network: true` move into a fresh network
 * namespace served by slirp4netns with the blocked routes. Every step keeps the same pid (exec),
 * so the group and the namespace hold everything bwrap starts, and the engine's process-group
 * kill ends slirp4netns too.
 */
import { EGRESS_TOOLS } from "./egress";

// $1 cgroup.procs files (":"-separated), $2 note for stderr, $3 blocked routes ("" = no egress setup), $4 ip.
const SCRIPT = [
  "files=$1; note=$2; routes=$3; ip=$4; shift 4",
  '[ -z "$note" ] || echo "switchboard sandbox: $note" >&2',
  'IFS=:; for f in $files; do echo $$ > "$f" || { echo "switchboard sandbox: cannot join $f" >&2; exit 97; }; done; unset IFS',
  '[ -z "$routes" ] && exec "$@"',
  "orig=$(readlink /proc/$$/ns/net)",
  // Waits for the exec below to switch namespaces, then serves the new one (host loopback off).
  `( while [ "$(readlink /proc/$$/ns/net)" = "$orig" ]; do sleep 0.02; done; exec ${EGRESS_TOOLS.slirp4netns} --configure --mtu=65520 --disable-host-loopback $$ tap0 >/dev/null 2>&1 ) &`,
  `exec ${EGRESS_TOOLS.unshare} --net -- /bin/sh -c "$INNER" sandbox-net "$routes" "$ip" "$@"`,
].join("\n");

const INNER = [
  "routes=$1; ip=$2; shift 2; i=0",
  'while ! "$ip" route show default 2>/dev/null | grep -q tap0; do i=$((i+1)); [ $i -gt 500 ] && { echo "switchboard sandbox: the network did not come up" >&2; exit 98; }; sleep 0.02; done',
  'for r in $routes; do "$ip" route add unreachable "$r" || exit 99; done',
  'exec "$@"',
].join("\n");

/** What the launcher does before running bwrap. */
export interface LauncherPlan {
  procsFiles: string[];
  notEnforced: string[];
  /** Routes to block in a fresh slirp4netns namespace; null = keep the current network setup. */
  egress: { routes: string[]; ip: string } | null;
}

/** The launch `{command, args, env}` that runs `bwrap bwrapArgs` through the launcher. */
export function launcherCommand(plan: LauncherPlan, bwrapPath: string, bwrapArgs: string[]) {
  return {
    command: "/bin/sh",
    args: [
      "-c",
      SCRIPT,
      "sandbox-launch",
      plan.procsFiles.join(":"),
      plan.notEnforced.join("; "),
      plan.egress ? plan.egress.routes.join(" ") : "",
      plan.egress?.ip ?? "",
      bwrapPath,
      ...bwrapArgs,
    ],
    // The inner script travels in the environment (bwrap clears it with --clearenv).
    env: { INNER, PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
  };
}
