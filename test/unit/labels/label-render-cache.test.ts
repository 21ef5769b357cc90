import type { LabelFile } from "../../../services/labels/render";
import { RenderCache } from "../../../services/labels/render-cache";

const file = (text: string): LabelFile => ({ content: Buffer.from(text), contentType: "text/plain; charset=utf-8", extension: "zpl" });

describe("the label render cache", () => {
  it("renders a document once and serves it from the cache after, by what it prints and how", async () => {
    const cache = new RenderCache(1024 * 1024);
    const render = jest.fn(async () => file("^XA^XZ"));
    const what = { print: { format: "zpl", startOffset: 0 }, labels: [{ trackingNumber: "RP123456785DZ" }] };
    expect(await cache.fetch(what, render)).toEqual({ file: file("^XA^XZ"), cached: false });
    expect(await cache.fetch(JSON.parse(JSON.stringify(what)), render)).toEqual({ file: file("^XA^XZ"), cached: true });
    await cache.fetch({ ...what, print: { format: "a4", startOffset: 1 } }, render);
    expect(render).toHaveBeenCalledTimes(2);
    expect(cache.stats()).toEqual({ entries: 2, bytes: 12, renders: 2, hits: 1 });
  });

  it("gives requests that arrive during a render that render, and caches no failure", async () => {
    const cache = new RenderCache(1024 * 1024);
    let finish: (f: LabelFile) => void = () => undefined;
    const render = jest.fn(() => new Promise<LabelFile>(resolve => (finish = resolve)));
    const answers = Promise.all([cache.fetch("same", render), cache.fetch("same", render), cache.fetch("same", render)]);
    finish(file("done"));
    expect((await answers).map(a => a.cached)).toEqual([false, true, true]);
    expect(render).toHaveBeenCalledTimes(1);

    const failing = jest.fn(async (): Promise<LabelFile> => {
      throw new Error("font missing");
    });
    await expect(cache.fetch("broken", failing)).rejects.toThrow("font missing");
    await expect(cache.fetch("broken", failing)).rejects.toThrow("font missing");
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it("stays within its size, dropping the least recently used documents", async () => {
    const cache = new RenderCache(10);
    await cache.fetch("a", async () => file("aaaaaa"));
    await cache.fetch("b", async () => file("bbbbbb"));
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 6 });
    expect((await cache.fetch("a", async () => file("aaaaaa"))).cached).toBe(false);
  });
});
