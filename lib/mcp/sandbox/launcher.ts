/**
 * The host-side start of a sandboxed server, before bubblewrap: join the whole-sandbox control
 * group, say on stderr what is not enforced, mount the size-capped home image in a private mount
 * namespace, and for `network: true` move into a fresh network namespace served by slirp4netns
 * with the blocked routes. Every step keeps the same pid (exec), so the group and the namespaces
 * hold everything bwrap starts. slirp4netns ends when the last process of the sandbox has ended.
 */
import type { GroupCounters } from "./cgroups";
import { EGRESS_TOOLS } from "./egress";

/** The fd the seccomp program reaches bubblewrap on (7, 8 and 9 are the launcher's own). */
export const SECCOMP_FD = 6;

// $1 cgroup.procs files (":"-separated), $2 note for stderr, $3 blocked routes ("" = no egress
// setup), $4 ip, $5 home image ("" = none), $6 where to mount it, $7 seccomp program ("" = none).
const SCRIPT = [
  "files=$1; note=$2; routes=$3; ip=$4; image=$5; home=$6; seccomp=$7; shift 7",
  '[ -z "$note" ] || echo "switchboard sandbox: $note" >&2',
  // The filter reaches bubblewrap as an inherited fd (SECCOMP_FD, bwrap --seccomp), read there once.
  `[ -z "$seccomp" ] || exec ${SECCOMP_FD}<"$seccomp" || { echo "switchboard sandbox: cannot read the seccomp filter" >&2; exit 93; }`,
  'IFS=:; for f in $files; do echo $$ > "$f" || { echo "switchboard sandbox: cannot join $f" >&2; exit 97; }; done; unset IFS',
  // One sandbox at a time per home image: fd 9 holds the lock for the life of the process tree.
  'if [ -n "$image" ]; then exec 9<"$image" && flock -w 15 9 || { echo "switchboard sandbox: the home is still in use by an earlier start" >&2; exit 96; }; fi',
  'ns=""; [ -n "$image" ] && ns="--mount --propagation private"',
  '[ -n "$routes" ] && ns="$ns --net"',
  '[ -z "$ns" ] && exec "$@"',
  "orig=$(readlink /proc/$$/ns/net)",
  // slirp4netns ends with the sandbox however the sandbox ends (closed, crashed, killed, or the app
  // killed): it watches fd 7 (--exit-fd), the read end of a FIFO whose other end, fd 8, this pid
  // keeps until bwrap, which hands it to its init process only (--sync-fd, see INNER). When the
  // sandbox is gone, fd 7 hangs up and slirp4netns exits. Nothing else would end it: its tap
  // device keeps the namespace alive. (A FIFO because sh cannot make a pipe; it is unlinked at once.)
  'if [ -n "$routes" ]; then d=$(mktemp -d) && mkfifo -m 0600 "$d/exit" && exec 8<>"$d/exit" 7<"$d/exit"; ok=$?; [ -z "$d" ] || rm -rf -- "$d"',
  '  [ "$ok" = 0 ] || { echo "switchboard sandbox: cannot create the exit pipe of the network" >&2; exit 94; }',
  // Waits for the exec below to switch namespaces, then serves the new one (host loopback off).
  `  ( exec 8>&-; while [ "$(readlink /proc/$$/ns/net)" = "$orig" ]; do sleep 0.02; done; exec ${EGRESS_TOOLS.slirp4netns} --exit-fd=7 --configure --mtu=65520 --disable-host-loopback $$ tap0 >/dev/null 2>&1 ) &`,
  "  exec 7<&-; fi",
  `exec ${EGRESS_TOOLS.unshare} $ns -- /bin/sh -c "$INNER" sandbox-ns "$routes" "$ip" "$image" "$home" "$@"`,
].join("\n");

// In the sandbox's own mount namespace the home image is mounted only for this process tree: it
// is unmounted (and its loop device freed) when the last process ends, however it ends.
const INNER = [
  "routes=$1; ip=$2; image=$3; home=$4; shift 4; i=0",
  // A loop device still backing the image belongs to a start that is ending: never mount twice.
  'if [ -n "$image" ]; then while [ -n "$(losetup -j "$image")" ]; do i=$((i+1)); [ $i -gt 300 ] && { echo "switchboard sandbox: the home image is still attached" >&2; exit 96; }; sleep 0.05; done',
  '  mount -o loop,nosuid,nodev "$image" "$home" && chmod 0700 "$home" || { echo "switchboard sandbox: cannot mount the home image" >&2; exit 95; }; fi',
  'i=0; [ -z "$routes" ] && exec "$@"',
  'while ! "$ip" route show default 2>/dev/null | grep -q tap0; do i=$((i+1)); [ $i -gt 500 ] && { echo "switchboard sandbox: the network did not come up" >&2; exit 98; }; sleep 0.02; done',
  'for r in $routes; do "$ip" route add unreachable "$r" || exit 99; done',
  // bwrap's init (pid 1 of the sandbox) keeps fd 8, the FIFO slirp4netns watches, until the
  // sandbox ends; bwrap closes it for the server, which therefore cannot end or prolong its network.
  'bwrap=$1; shift; exec "$bwrap" --sync-fd 8 "$@"',
].join("\n");

/** What the launcher does before running bwrap. */
export interface LauncherPlan {
  procsFiles: string[];
  notEnforced: string[];
  /** Routes to block in a fresh slirp4netns namespace; null = keep the current network setup. */
  egress: { routes: string[]; ip: string } | null;
  /** A size-capped home image to mount at `mountPoint` (the host home bwrap binds); null = none. */
  home?: { image: string; mountPoint: string } | null;
  /** The seccomp program file opened as SECCOMP_FD for bwrap; null = no filter. */
  seccomp?: string | null;
  /** The control group's counters, to name the limit that ended the server. */
  counters?: GroupCounters;
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
      plan.home?.image ?? "",
      plan.home?.mountPoint ?? "",
      plan.seccomp ?? "",
      bwrapPath,
      ...bwrapArgs,
    ],
    // The inner script travels in the environment (bwrap clears it with --clearenv).
    env: { INNER, PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
  };
}
