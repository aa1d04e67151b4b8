/**
 * The one failure of the database commands (db/ops): a single line that names what failed and the
 * fix, printed as is by the command line (no stack, no connection string with its password).
 */

/** A database operation that cannot go on; `message` is one line meant for the operator. */
export class DatabaseOpsError extends Error {
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, " "));
    this.name = "DatabaseOpsError";
  }
}
