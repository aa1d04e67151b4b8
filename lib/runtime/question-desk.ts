/**
 * Questions waiting for a user, on any replica (docs/architecture.md#questions-waiting-for-a-user).
 * A server's elicitation or sampling review waits on the MCP connection of the replica that holds
 * it (the in-memory queues of elicitations.ts and sampling.ts); the desk writes each one down as a
 * row of `pending_questions`, so any replica lists it and takes its answer:
 * - answering is one conditional update (pending → answered): of two answers exactly one wins, the
 *   other is a 409 `pending.answered`;
 * - the holder settles its waiting request directly when the answer lands on it; otherwise the
 *   answering replica publishes the id on the `questions` channel and the holder takes the answer
 *   from the row. The holder also looks at its rows every `SWEEP_MS`, so an answer whose message
 *   was lost (Redis down a moment) still arrives;
 * - a question whose holder's heartbeat lapsed is withdrawn (409 `pending.withdrawn`, and the tab
 *   that showed it says so): nothing is ever answered into a replica that is gone. A missing
 *   heartbeat counts once it stayed missing for `REPLICA_TTL_MS` (a Redis that restarted empty
 *   shows no heartbeat until each replica's next beat: that must not withdraw every question);
 *   meanwhile the question stays listed and an answer waits to see which it is. A replica withdraws
 *   its own questions when it stops and, in case it died, when it starts again.
 * In single-node mode every question is this process's: answers settle in memory, no message is sent.
 */
import type { Db } from "../../db/client";
import { getDb } from "../../db/client";
import {
  answerQuestion,
  finishAnswered,
  insertQuestion,
  listQuestions,
  type QuestionHead,
  questionHead,
  questionHeads,
  type QuestionKind,
  type QuestionScope,
  settleQuestion,
  takeAnswer,
  type WithdrawReason,
  withdrawQuestions,
} from "../../db/queries/questions";
import { type Coordination, coordination } from "../cluster";
import { REPLICA_TTL_MS, replicaAlive, replicaId } from "../cluster/replicas";
import { AppError } from "../errors";
import { redact } from "../redact";
import { singleton } from "../singleton";
import type { PendingRecord, PendingRequests, Settled } from "./pending-requests";
import { describeDatabaseFailure } from "../../db/unavailable";
import { clusterUnavailable, NOTIFY, notFound, settledError, type WithdrawnQuestion, withdrawnMessage } from "./question-notices";

/** The channel on which a settled question's id goes to the replica holding it. */
export const QUESTIONS_CHANNEL = "questions";
/** The largest question shown (characters of its JSON): a larger one is refused without asking. */
export const QUESTION_PAYLOAD_MAX_CHARS = 1_000_000;
/** How often a holder in cluster mode looks at its questions' rows (an answer whose message was lost). */
export const SWEEP_MS = 2_000;
/** How long a question withdrawn because its replica went away is still reported to its user's tabs. */
export const WITHDRAWN_NOTICE_MS = 10 * 60_000;

/** Whether a question's holder lives (see `QuestionDesk.holderState`). */
type HolderState = "alive" | "gone" | "unknown" | "unreachable";

// How often an answer looks again at a holder whose heartbeat is missing.
const LOOK_MS = 500;

/** What a desk runs on; tests give two desks in one process their own replica and coordination. */
export interface DeskDeps {
  db: () => Db;
  coordination: () => Coordination;
  replica: () => string;
  /** Whether replica `id` is alive; throws `cluster.unavailable` when that cannot be known. */
  alive: (id: string) => Promise<boolean>;
}

/** A question as its user's tabs list it: its kind and the view its dialog shows. */
export interface ListedQuestionView {
  kind: QuestionKind;
  view: { id: string; createdAt: number } & Record<string, unknown>;
}

/** What every queue's view carries (elicitations.ts and sampling.ts). */
type QuestionView = { serverId: string; serverName?: string };
type AnyQueue = PendingRequests<QuestionView, unknown>;

const warn = (what: string, error: unknown) => console.warn(`[switchboard] questions: ${what}:`, redact(describeDatabaseFailure(error)));

/** The pending questions of this replica's queues, as rows any replica lists and answers. */
export class QuestionDesk {
  private readonly queues = new Map<QuestionKind, AnyQueue>();
  /** Each parked question's insert, which its later writes follow. */
  private readonly inserts = new Map<string, Promise<void>>();
  /** Writes under way (awaited before the database closes). */
  private readonly writes = new Set<Promise<unknown>>();
  private readonly collecting = new Set<string>();
  private started: Promise<void> | null = null;
  private listening: Promise<(() => Promise<void>) | null> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Replicas seen without a heartbeat: since when, and when last looked at. */
  private readonly unseen = new Map<string, { since: number; last: number }>();

  constructor(private readonly deps: DeskDeps) {}

  /** Record `queue`'s questions of `kind` as rows and settle them with answers from any replica. */
  attach<View extends QuestionView, Answer>(kind: QuestionKind, queue: PendingRequests<View, Answer>): void {
    this.queues.set(kind, queue as unknown as AnyQueue);
    const record: PendingRecord<View> = {
      parked: (request) => this.park(kind, request),
      settled: (id, how) => this.settledHere(id, how),
    };
    queue.recordTo(record);
  }

  /** Once per desk: withdraw the questions a previous run of this replica left (it cannot answer them). */
  private start(): Promise<void> {
    this.started ??= (async () => {
      // Single-node: every question belongs to this process, so any left pending is a previous run's.
      const scope: QuestionScope = this.clustered() ? { replica: this.deps.replica() } : {};
      await withdrawQuestions(this.deps.db(), scope, "replica_stopped");
    })().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  private clustered(): boolean {
    return this.deps.coordination().clustered;
  }

  private async park(kind: QuestionKind, request: { id: string; userId: string; view: QuestionView; expiresAt: number }): Promise<void> {
    if (this.stopped) throw new Error("the app is shutting down: ask again in a moment");
    const size = JSON.stringify(request.view).length;
    if (size > QUESTION_PAYLOAD_MAX_CHARS) {
      throw new Error(`the question is too large to show (${size} characters; at most ${QUESTION_PAYLOAD_MAX_CHARS})`);
    }
    const insert = this.start().then(() =>
      insertQuestion(this.deps.db(), {
        id: request.id,
        userId: request.userId,
        serverId: request.view.serverId,
        kind,
        payload: request.view,
        replica: this.deps.replica(),
        expiresAt: new Date(request.expiresAt),
      }),
    );
    this.inserts.set(request.id, insert);
    await this.track(insert);
    if (this.clustered()) this.watch();
  }

  /** A question settled in this replica's queue: its row says how (unless it was settled elsewhere first). */
  private settledHere(id: string, how: Settled): void {
    const insert = this.inserts.get(id) ?? Promise.resolve();
    this.inserts.delete(id);
    const db = this.deps.db();
    const write = insert.then(
      async () => {
        if (how === "answered") await finishAnswered(db, id);
        else if (how === "expired") await settleQuestion(db, id, "expired");
        else await settleQuestion(db, id, "withdrawn", how === "cancelled" ? "cancelled" : "released");
      },
      () => undefined, // never written: nothing to update
    );
    void this.track(write).catch((error: unknown) => warn("recording a settled question failed", error));
    if (this.heldCount() === 0) this.unwatch();
  }

  private track<T>(write: Promise<T>): Promise<T> {
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write)).catch(() => {});
    return write;
  }

  private heldCount(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.heldIds().length;
    return count;
  }

  private queueHolding(id: string): AnyQueue | undefined {
    for (const queue of this.queues.values()) if (queue.holds(id)) return queue;
    return undefined;
  }

  /** Cluster mode, while questions wait here: hear of answers given elsewhere, and look at the rows now and then. */
  private watch(): void {
    this.listening ??= this.deps
      .coordination()
      .subscribe(QUESTIONS_CHANNEL, (id) => {
        if (this.queueHolding(id)) void this.collect(id);
      })
      .catch((error: unknown) => {
        // Redis is away: the sweep below still finds answers; subscribing is tried again next time.
        warn("subscribing to answers failed", error);
        this.listening = null;
        return null;
      });
    if (!this.sweeper) {
      this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
      this.sweeper.unref();
    }
  }

  private unwatch(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** Settle every question held here whose row was settled elsewhere. */
  async sweep(): Promise<void> {
    const held = [...this.queues.values()].flatMap((queue) => queue.heldIds());
    if (held.length === 0) return this.unwatch();
    try {
      const heads = await questionHeads(this.deps.db(), held);
      await Promise.all(heads.filter((h) => h.state !== "pending").map((h) => this.collect(h.id, h)));
    } catch (error) {
      warn("looking for answers failed", error);
    }
  }

  /** A question held here was settled on its row: deliver the answer, or withdraw the request. */
  private async collect(id: string, known?: QuestionHead): Promise<void> {
    const queue = this.queueHolding(id);
    if (!queue || this.collecting.has(id)) return;
    this.collecting.add(id);
    try {
      const row = known ?? (await questionHead(this.deps.db(), id));
      if (!row || row.state === "pending") return;
      if (row.state === "answered") {
        // No answer left on an answered row (taken already): the request must not wait out its time.
        queue.settleHeld(id, await takeAnswer(this.deps.db(), id));
      } else queue.settleHeld(id, null);
    } catch (error) {
      warn("taking an answer failed", error);
    } finally {
      this.collecting.delete(id);
    }
  }

  /**
   * `userId`'s questions, oldest first, from every replica; one whose holder is gone is withdrawn
   * here and reported in `withdrawn` instead (with those withdrawn in the last `WITHDRAWN_NOTICE_MS`).
   */
  async list(userId: string): Promise<{ questions: ListedQuestionView[]; withdrawn: WithdrawnQuestion[] }> {
    await this.start();
    const db = this.deps.db();
    const rows = await listQuestions(db, userId, new Date(Date.now() - WITHDRAWN_NOTICE_MS), NOTIFY);
    const liveness = new Map<string, Promise<HolderState>>();
    const questions: ListedQuestionView[] = [];
    const withdrawn: WithdrawnQuestion[] = [];
    for (const row of rows) {
      const payload = row.payload as Record<string, unknown>;
      let reason = row.reason;
      if (row.state === "pending") {
        // This replica's own row whose request settled a moment ago (its row is being written): not shown.
        if (row.replica === this.deps.replica() && !this.queueHolding(row.id)) continue;
        if (!liveness.has(row.replica)) liveness.set(row.replica, this.holderState(row.replica));
        // Shown while its holder lives or cannot be told gone yet (answering it then is a clear 503).
        if ((await liveness.get(row.replica)) !== "gone") {
          questions.push({ kind: row.kind, view: { ...payload, id: row.id, createdAt: row.createdAt.getTime() } });
          continue;
        }
        await this.withdrawGone(row.id);
        reason = "replica_gone";
      }
      withdrawn.push({ id: row.id, kind: row.kind, serverName: String(payload.serverName ?? ""), message: withdrawnMessage(reason) });
    }
    return { questions, withdrawn };
  }

  /**
   * Whether the replica holding a question lives: `gone` once its heartbeat stayed missing for
   * `REPLICA_TTL_MS` (two looks; in single-node mode at once, as no store can lose heartbeats), `unknown`
   * while it is missing for less, or while Redis cannot be reached (`unreachable`).
   */
  private async holderState(replica: string): Promise<HolderState> {
    if (replica === this.deps.replica()) return "alive";
    let alive: boolean;
    try {
      alive = await this.deps.alive(replica);
    } catch (error) {
      if (error instanceof AppError && error.code === "cluster.unavailable") return "unreachable";
      throw error;
    }
    const now = Date.now();
    for (const [id, seen] of this.unseen) if (now - seen.last > WITHDRAWN_NOTICE_MS) this.unseen.delete(id);
    if (alive) {
      this.unseen.delete(replica);
      return "alive";
    }
    if (!this.clustered()) return "gone";
    const seen = this.unseen.get(replica);
    // A look long after the last one starts the count again: the heartbeat may have come back between.
    if (!seen || now - seen.last > REPLICA_TTL_MS) {
      this.unseen.set(replica, { since: now, last: now });
      return "unknown";
    }
    seen.last = now;
    return now - seen.since >= REPLICA_TTL_MS ? "gone" : "unknown";
  }

  /**
   * The holder's state for an answer: a heartbeat missing for less than `REPLICA_TTL_MS` is looked at
   * again every `LOOK_MS` until it is back or counts as gone, so the answer waits a few seconds at
   * most and is then delivered or refused for good.
   */
  private async settledHolderState(replica: string): Promise<Exclude<HolderState, "unknown">> {
    for (;;) {
      const state = await this.holderState(replica);
      if (state !== "unknown") return state;
      await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
    }
  }

  private async withdrawGone(id: string): Promise<void> {
    if (await settleQuestion(this.deps.db(), id, "withdrawn", "replica_gone")) await this.notify(id);
  }

  /**
   * Answer one of `userId`'s questions of `kind`: delivered to the replica holding it. Throws 404
   * `pending.not_found` (none such, or expired), 409 `pending.answered` (another answer won), 409
   * `pending.withdrawn` (its holder is gone, or it was withdrawn), 503 `cluster.unavailable` (the
   * holder's liveness cannot be checked; nothing was recorded). While the holder's heartbeat is
   * missing but not for long enough to call it gone, it waits (`settledHolderState`).
   */
  async answer(userId: string, kind: QuestionKind, id: string, answer: unknown): Promise<void> {
    await this.start();
    const db = this.deps.db();
    const row = await questionHead(db, id);
    if (!row || row.userId !== userId || row.kind !== kind) throw notFound();
    if (row.state !== "pending" || row.expiresAt.getTime() <= Date.now()) throw settledError(row);
    const local = row.replica === this.deps.replica();
    const queue = this.queues.get(kind);
    const holder = await this.settledHolderState(row.replica);
    if (holder === "unreachable") throw clusterUnavailable();
    if (local ? !queue?.holds(id) : holder === "gone") {
      // The request it answers no longer waits anywhere: say so rather than record an answer nobody takes.
      await settleQuestion(db, id, "withdrawn", local ? "cancelled" : "replica_gone");
      throw settledError((await questionHead(db, id)) ?? row);
    }
    if (!(await answerQuestion(db, id, answer))) throw settledError((await questionHead(db, id)) ?? row);
    if (local) {
      if (queue?.settleHeld(id, answer)) return;
      // It settled in between (the server gave up, or its time ran out): keep no answer nobody takes.
      await finishAnswered(db, id);
      throw new AppError("pending.withdrawn", withdrawnMessage("cancelled"));
    }
    await this.notify(id);
  }

  /** Tell the holder of `id` its row changed; when the message cannot go, its sweep finds the row. */
  private async notify(id: string): Promise<void> {
    if (!this.clustered()) return;
    await this.deps
      .coordination()
      .publish(QUESTIONS_CHANNEL, id)
      .catch((error: unknown) => warn("telling the holder failed (its sweep will find the answer)", error));
  }

  /**
   * Withdraw the pending questions in `scope` on every replica (this one's at once, the others' by
   * message or their sweep); answers how many of them other replicas held.
   */
  async withdraw(scope: QuestionScope, reason: WithdrawReason): Promise<number> {
    await this.start();
    const rows = await withdrawQuestions(this.deps.db(), scope, reason);
    let elsewhere = 0;
    for (const { id, replica } of rows) {
      const queue = this.queueHolding(id);
      if (queue) queue.settleHeld(id, null);
      else if (replica !== this.deps.replica()) {
        elsewhere++;
        await this.notify(id);
      }
    }
    return elsewhere;
  }

  /**
   * This replica stops: its questions are withdrawn (their users are told the connection closed and
   * to ask again), their servers get the abort answer, and the desk's writes finish.
   */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.unwatch();
    try {
      await withdrawQuestions(this.deps.db(), { replica: this.deps.replica() }, "replica_stopped");
    } catch (error) {
      warn("withdrawing this replica's questions failed", error);
    }
    for (const queue of this.queues.values()) queue.withdraw(() => true);
    await Promise.allSettled([...this.writes]);
    const unsubscribe = await this.listening;
    this.listening = null;
    await unsubscribe?.().catch(() => {});
  }
}

/** The desk's slot (lib/singleton.ts). */
export const QUESTION_DESK = "host.questions";

/** The process-wide desk, on this replica's database, coordination and heartbeat. */
export function questionDesk(): QuestionDesk {
  return singleton(QUESTION_DESK, () => new QuestionDesk({ db: getDb, coordination, replica: replicaId, alive: replicaAlive }));
}
