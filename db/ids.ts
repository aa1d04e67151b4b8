import { randomUUID } from "node:crypto";

/** A new random primary key. */
export function newId(): string {
  return randomUUID();
}
