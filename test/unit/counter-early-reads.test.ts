import { dayPaths, pagePath, startEarlyReads, takeEarlyReads } from "../../web/counter/early-reads";
import * as courier from "../../web/courier/early-reads";

/**
 * The counter app's early reads (web/counter/early-reads.ts): prefetch.js asks for the day while
 * main.js downloads, and only the page's first loadDay may use those answers. A later read that
 * took them would show the shop its day as it was before what it did since (a parcel just
 * received shown as still coming, and kept so in the offline copy).
 */
describe("the counter app's early reads", () => {
  const asked: { url: string; authorization: string | undefined }[] = [];
  const realFetch = globalThis.fetch;
  const slot = globalThis as { __counterEarlyReads?: unknown; __courierEarlyReads?: unknown };

  beforeEach(() => {
    asked.length = 0;
    delete slot.__counterEarlyReads;
    delete slot.__courierEarlyReads;
    // Records what would go to the relay API; nothing leaves the test.
    globalThis.fetch = ((url: string, init: RequestInit) => {
      asked.push({ url, authorization: (init.headers as Record<string, string>).Authorization });
      return Promise.resolve(new Response("{}"));
    }) as typeof fetch;
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
    jest.useRealTimers();
  });

  test("asks, with the agent key, for exactly what the first loadDay reads, and gives them once", () => {
    startEarlyReads("rp_agent_x");
    const day = dayPaths();
    const expected = [day.me, pagePath(day.parcels, 0), day.cash, day.handedToday];
    expect(asked).toEqual(expected.map(path => ({ url: `/api/relay/v1${path}`, authorization: "ApiKey rp_agent_x" })));
    expect([...takeEarlyReads().keys()]).toEqual(expected);
    expect(takeEarlyReads().size).toBe(0);
  });

  test("a prefetch that runs after the first loadDay looked starts nothing", () => {
    expect(takeEarlyReads().size).toBe(0);
    startEarlyReads("rp_agent_x");
    expect(asked).toEqual([]);
    expect(takeEarlyReads().size).toBe(0);
  });

  test("answers older than 20 seconds are not used", () => {
    jest.useFakeTimers({ now: new Date("2026-11-27T09:00:00Z") });
    startEarlyReads("rp_agent_x");
    jest.setSystemTime(new Date("2026-11-27T09:00:21Z"));
    expect(takeEarlyReads().size).toBe(0);
  });

  test("the courier app's (same rules, web/shared/early-reads.ts): its run and cash with the courier key, given once, apart from the counter's", () => {
    courier.startEarlyReads("rp_staff_x");
    expect(asked).toEqual(["/run", "/cash"].map(path => ({ url: `/api/courier/v1${path}`, authorization: "ApiKey rp_staff_x" })));
    expect(takeEarlyReads().size).toBe(0);
    expect([...courier.takeEarlyReads().keys()]).toEqual([courier.RUN_PATHS.run, courier.RUN_PATHS.cash]);
    expect(courier.takeEarlyReads().size).toBe(0);
    courier.startEarlyReads("rp_staff_x");
    expect(asked).toHaveLength(2);
  });
});
