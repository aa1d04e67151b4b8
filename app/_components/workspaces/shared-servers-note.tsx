import { OAuthConnect } from "../servers/oauth-connect";
import { MemberValuesForm } from "./member-values-form";

/**
 * Above the server list: the caller's role, whose account each shared server uses (never the
 * credentials), and for owners and admins the Connect for everyone of each shared server.
 */
export function SharedServersNote({
  servers,
  role,
}: {
  servers: {
    id: string;
    name: string;
    credentials: "per_member" | "shared";
    sharedBy?: string | null;
    memberKeys: string[];
    config: { auth?: string };
  }[];
  role: "owner" | "admin" | "member";
}) {
  const shared = servers.filter((s) => s.credentials === "shared");
  const personalKeys = servers.filter((s) => s.credentials === "per_member" && s.memberKeys.length > 0);
  return (
    <div className="mx-auto max-w-5xl px-6 pt-6 text-sm text-muted-foreground">
      <p data-testid="workspace-role">
        Your role here: <strong>{role}</strong>
        {role === "member" ? " — you use this workspace's servers; owners and admins manage them." : "."}
      </p>
      {shared.length > 0 && (
        <ul className="mt-2 space-y-1">
          {shared.map((s) => (
            <li key={s.id} data-testid={`shared-${s.name}`}>
              <strong>{s.name}</strong> is shared:{" "}
              {s.config.auth !== "oauth"
                ? "every member's calls use the credentials its owners and admins configured."
                : s.sharedBy
                  ? `every member's calls use ${s.sharedBy}'s account.`
                  : "waiting: nobody's account is used until an owner or admin uses Connect for everyone."}
              {role !== "member" && (s.config.auth === "oauth" || s.sharedBy) && (
                <span className="ml-2">
                  <OAuthConnect serverId={s.id} state={s.sharedBy ? "connected" : "needs_authorization"} forEveryone />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {personalKeys.map((s) => (
        <MemberValuesForm key={s.id} serverId={s.id} serverName={s.name} keys={s.memberKeys} />
      ))}
    </div>
  );
}
