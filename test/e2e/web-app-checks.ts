import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { ROOT } from "../helpers/processes";
import { CounterSystem, launchChromium, startCounterSystem } from "./counter-system";

/**
 * What the browser tests of both phone apps (the counter app, the courier app) set up and check the
 * same way: a started system with a Chromium for the describe block, and every file the gateway
 * serves for an app sent compressed with an ETag (decision 0049).
 */

/**
 * A system started as `npm start` runs it and a Chromium, for the enclosing describe block
 * (beforeAll, afterAll): `started` hands them to the block's variables.
 */
export function useSystemAndBrowser(started: (system: CounterSystem, browser: Browser) => void): void {
  let system: CounterSystem | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    system = await startCounterSystem();
    browser = await launchChromium();
    started(system, browser);
  }, 200_000);
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });
}

/**
 * Every file of dist/web/<app> (the whole folder, not a sample: a chunk or a file a later build adds
 * goes the same way) sent as the browser asks, Brotli else gzip (PNG as it is: compressed already),
 * with an ETag that revalidates to 304. `mustHave`: files the folder must hold.
 */
export async function expectEveryFileCompressed(base: string, app: "counter" | "courier", mustHave: string[]): Promise<void> {
  const names = fs.readdirSync(path.join(ROOT, "dist", "web", app)).filter(name => !name.endsWith(".map"));
  expect(names).toEqual(expect.arrayContaining(mustHave));
  const seen: { name: string; codings: (string | null)[]; etag: boolean; revalidated: number }[] = [];
  for (const name of names) {
    const get = async (headers: Record<string, string>) => {
      const answer = await fetch(`${base}/${app}/${name}`, { headers });
      await answer.arrayBuffer();
      return answer;
    };
    const br = await get({ "Accept-Encoding": "gzip, deflate, br" });
    const gzip = await get({ "Accept-Encoding": "gzip" });
    const etag = br.headers.get("etag") ?? "";
    // As a browser revalidates: fetch() would otherwise add "Cache-Control: no-cache" to a conditional request, which asks for the bytes.
    const again = await get({ "Accept-Encoding": "gzip, deflate, br", "If-None-Match": etag, "Cache-Control": "max-age=0" });
    seen.push({
      name,
      codings: [br.headers.get("content-encoding"), gzip.headers.get("content-encoding")],
      etag: etag !== "",
      revalidated: again.status
    });
  }
  const png = (name: string) => name.endsWith(".png");
  expect(seen).toEqual(names.map(name => ({ name, codings: png(name) ? [null, null] : ["br", "gzip"], etag: true, revalidated: 304 })));
}
