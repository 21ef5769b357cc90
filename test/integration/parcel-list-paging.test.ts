import { randomUUID } from "node:crypto";
import { expectError, Merchant, merchants, PARCEL } from "../e2e/merchant-helpers";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 48, deep pages: the list's page numbers (now a deferred join) and its cursor (`after`,
 * `nextCursor`) give the same parcels in the same order, newest first, with the filters, within
 * the key's organisation, on each database engine.
 */

interface Item {
  id: string;
  status: string;
  createdAt: string;
}

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  const { system } = inProcessSystem(databaseEnv);
  const m = merchants(system);
  let a: Merchant;
  let b: Merchant;
  let created: string[];
  let cancelled: string[];

  const walk = async (who: Merchant, query: string, first?: string): Promise<Item[][]> => {
    const pages: Item[][] = [];
    let after = first;
    for (;;) {
      const res = await who.live("GET", `/parcels?${query}${after ? `&after=${after}` : ""}`);
      expect(res.status).toBe(200);
      pages.push(res.body.items);
      if (res.body.nextCursor === null) return pages;
      after = res.body.nextCursor;
    }
  };

  beforeAll(async () => {
    a = await m.create("Liste Profonde", 100_000);
    b = await m.create("Autre Liste", 100_000);
    created = [];
    for (let i = 0; i < 3; i++) {
      const batch = await Promise.all(Array.from({ length: 15 }, () => a.live("POST", "/parcels", PARCEL)));
      created.push(...batch.map(r => r.body.id as string));
    }
    cancelled = created.slice(5, 12);
    for (const id of cancelled) expect((await a.live("POST", `/parcels/${id}/cancel`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await b.live("POST", "/parcels", PARCEL)).status).toBe(201);
  }, 60_000);

  test("the cursor walks the list page after page, as the page numbers do, and says where it ends", async () => {
    const byNumber: Item[] = [];
    for (let page = 0; page < 5; page++) {
      const res = await a.live("GET", `/parcels?size=10&page=${page}`);
      expect(res.body).toMatchObject({ page, size: 10, totalElements: 45, totalPages: 5 });
      expect(res.body.nextCursor === null).toBe(page === 4);
      byNumber.push(...res.body.items);
    }
    const pages = await walk(a, "size=10");
    expect(pages.map(p => p.length)).toEqual([10, 10, 10, 10, 5]);
    const byCursor = pages.flat();
    expect(byCursor.map(p => p.id)).toEqual(byNumber.map(p => p.id));
    expect(new Set(byCursor.map(p => p.id))).toEqual(new Set(created));
    for (let i = 1; i < byCursor.length; i++) expect(byCursor[i - 1].createdAt >= byCursor[i].createdAt).toBe(true);
    // The page number's answer names the page after it too: its cursor continues where it stopped.
    const second = await a.live("GET", "/parcels?size=10&page=1");
    const third = (await walk(a, "size=10", second.body.nextCursor))[0];
    expect(third.map(p => p.id)).toEqual(byNumber.slice(20, 30).map(p => p.id));
  });

  test("with the status and direction filters", async () => {
    const onlyCancelled = (await walk(a, "size=3&status=CANCELLED")).flat();
    expect(onlyCancelled.map(p => p.id).sort()).toEqual([...cancelled].sort());
    expect(onlyCancelled.every(p => p.status === "CANCELLED")).toBe(true);
    const outbound = (await walk(a, "size=20&direction=OUTBOUND&status=CREATED")).flat();
    expect(outbound).toHaveLength(38);
    expect((await walk(a, "size=20&direction=RETURN")).flat()).toEqual([]);
  });

  test("a cursor reads within the key's organisation and mode only", async () => {
    const fromA = (await a.live("GET", "/parcels?size=1")).body.nextCursor;
    const seenByB = (await walk(b, "size=2", fromA)).flat();
    expect(seenByB.every(p => !created.includes(p.id))).toBe(true);
    expect((await walk({ ...a, live: a.sandbox }, "size=5", fromA)).flat()).toEqual([]);
  });

  test("a cursor the API did not give is refused; with a cursor, the page number is ignored", async () => {
    for (const bad of ["nope", "bm9wZQ", "x".repeat(200), Buffer.from(`2026-13-45T00:00:00.000000Z_${randomUUID()}`).toString("base64url")])
      expectError(await a.live("GET", `/parcels?after=${bad}`), 400, "VALIDATION_FAILED", "after");
    const cursor = (await a.live("GET", "/parcels?size=1")).body.nextCursor;
    const withPage = await a.live("GET", `/parcels?after=${cursor}&page=3&size=2`);
    expect(withPage.body).toMatchObject({ page: 0, size: 2, totalElements: 45 });
    expect(withPage.body.items.map((p: Item) => p.id)).toEqual((await walk(a, "size=2", cursor))[0].map(p => p.id));
  });
}

describe("the parcel list's pages and cursor on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://paging-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "the parcel list's pages and cursor on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop };
  })
);
