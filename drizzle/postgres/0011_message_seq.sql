ALTER TABLE "messages" ADD COLUMN "seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Messages already stored (a database filled before this migration) get their order within the chat.
UPDATE "messages" SET "seq" = "ordered"."n" FROM (SELECT "id", row_number() OVER (PARTITION BY "chat_id" ORDER BY "created_at", "id") AS "n" FROM "messages") AS "ordered" WHERE "messages"."id" = "ordered"."id";
