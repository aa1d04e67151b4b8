/**
 * vitest setup file of the integration project: on a Postgres run (`SWITCHBOARD_TEST_DB=postgres`),
 * point `DATABASE_URL` at a new migrated database before the test file is imported, since the tables
 * of db/schema.ts are chosen at import. On a SQLite run it does nothing.
 */
import { newTestDatabase } from "./test-database";

const url = newTestDatabase();
if (url) process.env.DATABASE_URL = url;
