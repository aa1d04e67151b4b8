/**
 * The claims a single sign-on trusts (docs/sso.md#claims-to-roles): the validated ID token's, plus the
 * mapped claim (for example `groups`) from the provider's userinfo endpoint when the ID token lacks it
 * (many providers are set up to send groups only there). Who the person is (`sub`, `email`,
 * `email_verified`) always stays the ID token's.
 */

/**
 * `idClaims` with `claim` added from `userinfo()` when the ID token lacks it (no request otherwise).
 * A failing userinfo request throws: the sign-in fails rather than read the groups as none and take
 * the person's workspaces away.
 */
export async function withUserinfoClaim(
  idClaims: Record<string, unknown>,
  claim: string | null,
  userinfo: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  if (!claim || idClaims[claim] !== undefined) return idClaims;
  const answered = await userinfo();
  return answered[claim] === undefined ? idClaims : { ...idClaims, [claim]: answered[claim] };
}
