import { named } from "../../lib/db/statement";
import { isPlainRead, mayWrite, WriteGeneration } from "../../lib/db/write-generation";

describe("write generation (what lets the embedded system trust a cached read)", () => {
  test("plain SELECTs are reads; anything else, and a SELECT that locks rows, may write", () => {
    expect(isPlainRead("SELECT * FROM parcels.parcels WHERE id = $1")).toBe(true);
    expect(isPlainRead("  select count(*) from x")).toBe(true);
    for (const sql of [
      "INSERT INTO parcels.outbox VALUES ($1)",
      "UPDATE parcels.parcels SET status = $2",
      "DELETE FROM parcels.relay_lease",
      "WITH due AS (SELECT id FROM x) UPDATE x SET a = 1 FROM due",
      "SELECT * FROM parcels.parcels WHERE id = $1 FOR UPDATE",
      "SELECT * FROM x FOR NO KEY UPDATE SKIP LOCKED",
      "SELECT * FROM x for share",
      "SELECTION"
    ]) {
      expect({ sql, read: isPlainRead(sql) }).toEqual({ sql, read: false });
    }
  });

  test("a named statement that says it writes is a write, though its text reads like a plain SELECT", () => {
    expect(mayWrite(named("test_reads_rows", "SELECT id FROM x WHERE id = $1"))).toBe(false);
    expect(mayWrite(named("test_writes_through_a_function", "SELECT * FROM x.do_writes($1)", { writes: true }))).toBe(true);
    expect(mayWrite("UPDATE x SET a = 1")).toBe(true);
    expect(mayWrite("SELECT 1")).toBe(false);
  });

  test("a write moves the generation when it starts and again when it ends, failed or not", async () => {
    const writes = new WriteGeneration();
    const before = writes.current();
    let during = -1;
    await writes.around(async () => {
      during = writes.current();
    });
    expect(during).toBeGreaterThan(before);
    expect(writes.current()).toBeGreaterThan(during);
    const afterFirst = writes.current();
    await expect(writes.around(() => Promise.reject(new Error("constraint")))).rejects.toThrow("constraint");
    expect(writes.current()).toBeGreaterThan(afterFirst);
  });
});
