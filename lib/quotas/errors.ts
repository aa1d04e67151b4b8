/**
 * The error every quota answers with: HTTP 429, a `Retry-After` in seconds, and a message naming
 * the limit and the variable that raises it.
 */
import { isBrandedInstance } from "../error-brand";
import { AppError } from "../errors";
import { QUOTA_ENV, type Quotas } from "./settings";

/** Over a quota; `retryAfterSeconds` becomes the `Retry-After` header. */
export class QuotaError extends AppError {
  static readonly brand: string = "switchboard.QuotaError";
  static [Symbol.hasInstance](value: unknown): value is QuotaError {
    return isBrandedInstance(this, value);
  }
  constructor(
    readonly quota: keyof Quotas,
    limit: number,
    what: string,
    readonly retryAfterSeconds: number,
  ) {
    super("quota.exceeded", `Limit reached: ${what} (${limit}; the administrator can raise ${QUOTA_ENV[quota]}).`);
  }
}
