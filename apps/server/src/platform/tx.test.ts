import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineOfThisPass } from "../../test/passes.ts";
import type { Database } from "../db/client.ts";
import { isTx, withTransaction } from "./tx.ts";

describe.each(engineOfThisPass)("withTransaction on %s", (_name, open) => {
  let t: { database: Database; dispose(): Promise<void> };
  let database: Database;
  beforeAll(async () => {
    t = await open();
    database = t.database;
    await database.exec("CREATE TABLE tx_probe (id int PRIMARY KEY, note text NOT NULL)");
  });
  afterAll(() => t.dispose());

  const count = async () =>
    Number((await database.query<{ n: number }>("SELECT count(*)::int AS n FROM tx_probe"))[0]?.n);

  it("commits every write together and runs after-commit hooks once, after the commit", async () => {
    const seen: number[] = [];
    const out = await withTransaction(database, async (tx) => {
      expect(isTx(tx)).toBe(true);
      await tx.query("INSERT INTO tx_probe VALUES ($1, $2)", [1, "a"]);
      await tx.query("INSERT INTO tx_probe VALUES ($1, $2)", [2, "b"]);
      tx.afterCommit(async () => {
        seen.push(await count());
      });
      return "done";
    });
    expect(out).toBe("done");
    expect(seen).toEqual([2]);
    expect(await count()).toBe(2);
  });

  it("rolls back every write when the work throws, and skips after-commit hooks", async () => {
    let hookRan = false;
    await expect(
      withTransaction(database, async (tx) => {
        await tx.query("INSERT INTO tx_probe VALUES ($1, $2)", [3, "c"]);
        tx.afterCommit(() => {
          hookRan = true;
        });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(hookRan).toBe(false);
    expect(await count()).toBe(2);
  });

  it("rolls back when a statement fails (constraint), leaving the engine usable", async () => {
    await expect(
      withTransaction(database, async (tx) => {
        await tx.query("UPDATE tx_probe SET note = 'changed' WHERE id = 1");
        await tx.query("INSERT INTO tx_probe VALUES ($1, $2)", [2, "duplicate"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const rows = await database.query<{ note: string }>("SELECT note FROM tx_probe WHERE id = 1");
    expect(rows[0]?.note).toBe("a");
    // The connection went back clean: a new transaction works.
    await withTransaction(database, (tx) => tx.query("UPDATE tx_probe SET note = 'a2' WHERE id = 1"));
    expect((await database.query<{ note: string }>("SELECT note FROM tx_probe WHERE id = 1"))[0]?.note).toBe(
      "a2",
    );
  });

  it("joins an outer transaction when given a Tx, so a failing outer work undoes the inner writes", async () => {
    await expect(
      withTransaction(database, async (outer) => {
        await withTransaction(outer, (inner) => inner.query("INSERT INTO tx_probe VALUES (10, 'inner')"));
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect(await count()).toBe(2);
  });

  it("gives a Drizzle handle bound to the transaction", async () => {
    const { sql } = await import("drizzle-orm");
    await expect(
      withTransaction(database, async (tx) => {
        await tx.db.execute(sql`INSERT INTO tx_probe VALUES (20, 'drizzle')`);
        const rows = await tx.query("SELECT 1 FROM tx_probe WHERE id = 20");
        expect(rows).toHaveLength(1);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await database.query("SELECT 1 FROM tx_probe WHERE id = 20")).toHaveLength(0);
  });

  it("reports an after-commit error without undoing the commit", async () => {
    const errors: unknown[] = [];
    await withTransaction(
      database,
      async (tx) => {
        await tx.query("INSERT INTO tx_probe VALUES (30, 'kept')");
        tx.afterCommit(() => {
          throw new Error("hook failed");
        });
      },
      { onAfterCommitError: (e) => errors.push(e) },
    );
    expect(errors).toHaveLength(1);
    expect(await database.query("SELECT 1 FROM tx_probe WHERE id = 30")).toHaveLength(1);
  });
});
