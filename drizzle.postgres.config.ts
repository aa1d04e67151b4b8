import { defineConfig } from "drizzle-kit";

// The Postgres migrations (docs/database.md); drizzle.config.ts is SQLite's. `npm run db:generate` runs both.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-postgres.ts",
  out: "./drizzle/postgres",
});
