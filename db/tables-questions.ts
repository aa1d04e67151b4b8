/**
 * Questions waiting for a user (docs/architecture.md#questions-waiting-for-a-user): an elicitation
 * or a sampling review a server asked through one replica's MCP connection. The row makes it
 * listable and answerable from any replica; the replica named in `replica` holds the request that
 * waits for the answer. The question and the answer can hold what a user types (passwords, codes),
 * so both are encrypted (`_enc`). Rows are short-lived: settled or not, they are deleted an hour
 * after they expire. Merged into db/tables.ts like the other table groups.
 */
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ColumnKit } from "./columns/sqlite";

/** The tables of db/tables.ts a question refers to. */
interface QuestionRefs {
  users: { id: AnySQLiteColumn };
  workspaces: { id: AnySQLiteColumn };
}

/** What a question is: a server's elicitation, or one step of a sampling review. */
export const QUESTION_KINDS = ["elicitation", "sampling"] as const;
/** Where a question stands: waiting, or settled one way (once; a settled row never changes state again). */
export const QUESTION_STATES = ["pending", "answered", "withdrawn", "expired"] as const;

/** The pending-question table over the column kit `k`. */
export function defineQuestionTables(k: ColumnKit, refs: QuestionRefs) {
  /**
   * One question: whose it is (deleting the user deletes it), the workspace of the server that asked
   * (null when the server is not stored, as for a test pool), the server, what is asked (sealed
   * JSON, bounded by lib/runtime/question-desk.ts), the replica holding the waiting request, and
   * once settled how (`reason` says why a question was withdrawn) and, while the holder has not
   * taken it yet, the sealed answer.
   */
  const pendingQuestions = k.table(
    "pending_questions",
    {
      id: k.id(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => refs.users.id, { onDelete: "cascade" }),
      workspaceId: k.text("workspace_id").references(() => refs.workspaces.id, { onDelete: "cascade" }),
      // Not a reference: a removed server's questions are withdrawn (lib/runtime/engine.ts), and a
      // pool may ask for a server that is not stored.
      serverId: k.text("server_id").notNull(),
      kind: k.enum("kind", QUESTION_KINDS).notNull(),
      payloadEnc: k.text("payload_enc").notNull(),
      replica: k.text("replica").notNull(),
      state: k.enum("state", QUESTION_STATES).notNull(),
      /** Why a question was withdrawn: `cancelled`, `released`, `replica_gone`, `replica_stopped`. */
      reason: k.text("reason"),
      answerEnc: k.text("answer_enc"),
      createdAt: k.createdAt(),
      expiresAt: k.timestamp("expires_at").notNull(),
      settledAt: k.timestamp("settled_at"),
    },
    (t) => [
      k.index("pending_questions_user_idx").on(t.userId, t.state),
      k.index("pending_questions_replica_idx").on(t.replica, t.state),
      k.index("pending_questions_expires_idx").on(t.expiresAt),
    ],
  );
  return { pendingQuestions };
}
