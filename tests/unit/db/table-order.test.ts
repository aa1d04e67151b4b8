/** The copy order of `db copy` comes from the schema's foreign keys: every table after the tables it references. */
import { getTableName } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { tablesInDependencyOrder } from "@/db/ops/table-order";
import * as schema from "@/db/schema-sqlite";

describe("tablesInDependencyOrder", () => {
  it("lists every table once, each after every table its foreign keys point to", () => {
    const order = tablesInDependencyOrder();
    const names = order.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([schema.users, schema.mcpServers, schema.auditLog, schema.appContexts].map(getTableName)));
    for (const [i, table] of order.entries()) {
      for (const fk of getTableConfig(table.sqlite).foreignKeys) {
        const parent = getTableName(fk.reference().foreignTable);
        expect(names.indexOf(parent), `${table.name} → ${parent}`).toBeLessThan(i);
      }
    }
    expect(names.indexOf("server_credentials")).toBeGreaterThan(names.indexOf("mcp_servers"));
  });

  it("pairs each SQLite table with its Postgres twin of the same name", () => {
    for (const table of tablesInDependencyOrder()) expect(getTableName(table.postgres)).toBe(table.name);
  });
});
