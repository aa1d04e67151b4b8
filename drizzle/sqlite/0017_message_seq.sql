ALTER TABLE `messages` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The messages already stored keep the order they were listed in (by rowid, which Postgres lacks).
UPDATE `messages` SET `seq` = `rowid`;
