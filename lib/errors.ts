/**
 * The error codes the HTTP API answers with, namespaced by family, and the one table that maps each
 * to its HTTP status (docs/errors.md lists them with their meaning). `AppError` is the error the
 * app's own code throws; the other families (engine, network guard, OAuth) keep their own classes
 * and are mapped onto these codes in lib/http.ts. A leaf module: it imports only the error brand.
 */
import { brandError, isBrandedInstance } from "./error-brand";

/** Every code a response body can carry, and its HTTP status. */
export const ERROR_STATUS = {
  "request.invalid": 400,
  "request.invalid_json": 400,
  "request.too_large": 413,
  "auth.unauthorized": 401,
  "auth.forbidden": 403,
  "auth.account_disabled": 403,
  "auth.registration_closed": 403,
  "auth.weak_password": 400,
  "auth.breached_password": 400,
  "auth.email_taken": 409,
  "auth.setup_code": 403,
  "auth.rate_limited": 429,
  "auth.second_factor_required": 401,
  "auth.enrolment_required": 403,
  "auth.reauth_required": 403,
  "auth.invalid_code": 400,
  "auth.factor_not_found": 404,
  "auth.passkey_refused": 400,
  "auth.sso_only": 403,
  "token.invalid": 401,
  "token.revoked": 401,
  "token.expired": 401,
  "token.account_disabled": 401,
  "token.access_lost": 401,
  "token.insufficient_scope": 401,
  "token.not_found": 404,
  "token.client_not_found": 404,
  "token.consent_expired": 400,
  "sso.provider_not_found": 404,
  "sso.provider_exists": 409,
  "sso.invalid_provider": 400,
  "request.unsupported_media_type": 415,
  "server.not_found": 404,
  "server.name_taken": 409,
  "server.invalid_config": 400,
  "server.secret_moved": 400,
  "server.upstream": 502,
  "server.import_invalid": 400,
  "catalog.not_found": 404,
  "catalog.version_not_found": 404,
  "catalog.registry_not_found": 404,
  "catalog.invalid_server_json": 400,
  "catalog.name_taken": 409,
  "catalog.registry_unreachable": 502,
  "chat.not_found": 404,
  "app.not_found": 404,
  "app.invalid": 502,
  "app.tool_not_found": 404,
  "workspace.not_found": 404,
  "workspace.removed": 403,
  "workspace.role_changed": 403,
  "workspace.member_not_found": 404,
  "workspace.last_owner": 409,
  "reset.not_found": 404,
  "reset.used": 409,
  "reset.expired": 409,
  "mail.not_configured": 404,
  "metrics.not_enabled": 404,
  "invitation.not_found": 404,
  "invitation.used": 409,
  "invitation.revoked": 409,
  "invitation.expired": 409,
  "invitation.wrong_email": 403,
  "invitation.already_member": 409,
  "user.not_found": 404,
  "user.self_action": 409,
  "user.last_admin": 409,
  "chat.no_model": 409,
  "quota.exceeded": 429,
  "usage.budget_exceeded": 429,
  "chat.approval_not_pending": 409,
  "tool.not_held": 409,
  "tool.definition_changed": 409,
  "tool.held": 409,
  "tool.denied": 403,
  "pending.not_found": 404,
  "pending.answered": 409,
  "pending.withdrawn": 409,
  "instance.secret_key": 500,
  "database.unavailable": 503,
  "database.busy": 503,
  "cluster.unavailable": 503,
  "cluster.hop_refused": 401,
  "cluster.sandbox_moved": 409,
  "internal.error": 500,
  "engine.config": 400,
  "engine.invalid_arguments": 400,
  "engine.not_found": 404,
  "engine.needs_authorization": 409,
  "engine.disabled": 409,
  "engine.launch_refused": 503,
  "engine.quota_exceeded": 429,
  "engine.limit_exceeded": 502,
  "engine.stream_broken": 502,
  "engine.call_timeout": 504,
  "engine.connect_timeout": 504,
  "engine.command_not_found": 502,
  "engine.package_not_found": 502,
  "engine.unreachable": 502,
  "engine.transport_unavailable": 502,
  "engine.not_connected": 502,
  "engine.cancelled": 502,
  "engine.message_too_large": 502,
  "engine.connection_closed": 502,
  "engine.session_expired": 502,
  "engine.reconnecting": 502,
  "engine.server_error": 502,
  "net.ssrf_blocked": 403,
  "net.insecure_url": 400,
  "net.unsafe_url": 400,
  "net.invalid_allow_list": 500,
  "net.dns_failed": 502,
  "net.redirect_failed": 502,
  "net.too_many_redirects": 502,
  "net.response_too_large": 502,
  "oauth.insecure_url": 400,
  "oauth.pkce_unsupported": 400,
  "oauth.resource_mismatch": 400,
  "oauth.invalid_state": 400,
  "oauth.expired_state": 400,
  "oauth.foreign_state": 400,
  "oauth.state_mismatch": 400,
  "oauth.authorization_denied": 400,
  "oauth.exchange_failed": 400,
  "oauth.no_redirect": 400,
  "oauth.step_up_limit": 400,
  "oauth.not_http_server": 400,
  "oauth.issuer_mismatch": 400,
  "oauth.invalid_metadata": 502,
  "oauth.endpoint_origin_mismatch": 502,
  "oauth.invalid_registration": 502,
  "oauth.invalid_token_response": 502,
  "oauth.upstream_failed": 502,
} as const;

/** A code from ERROR_STATUS. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** The JSON body of every error response. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
}

/** An error that is safe to show: its message is written for the user and holds no secret. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  /** Seconds to wait before trying again (sent as `Retry-After` on a 429). */
  readonly retryAfterSeconds?: number;
  /** The brand `instanceof` checks, which holds across the app's bundles (lib/error-brand.ts). */
  static readonly brand: string = "switchboard.AppError";
  static [Symbol.hasInstance](value: unknown): value is AppError {
    return isBrandedInstance(this, value);
  }
  constructor(code: ErrorCode, message: string, field?: string, retryAfterSeconds?: number) {
    super(message);
    brandError(this, new.target);
    this.name = "AppError";
    this.code = code;
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
