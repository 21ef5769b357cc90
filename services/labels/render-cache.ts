import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { LabelFile } from "./render";

export interface RenderCacheStats {
  /** Documents held, and their total size in bytes. */
  entries: number;
  bytes: number;
  /** Documents rendered, and answers served without a render of their own (from the cache, or joining a render under way). */
  renders: number;
  hits: number;
}

/**
 * Rendered label documents, by a digest of exactly what they print and how (the labels' data,
 * format and start offset): a reprint costs a lookup, not a render, and a change of the parcel,
 * relay point or sender name changes the digest, so a stale label is never served. Two requests
 * for the same document at once share one render. Bounded by total size (a label is a few
 * kilobytes, a document of a hundred a few hundred).
 */
export class RenderCache {
  private readonly files: LRUCache<string, LabelFile>;
  private readonly rendering = new Map<string, Promise<LabelFile>>();
  private renders = 0;
  private hits = 0;

  constructor(maxBytes: number) {
    this.files = new LRUCache<string, LabelFile>({ maxSize: maxBytes, sizeCalculation: file => Math.max(1, file.content.length) });
  }

  async fetch(what: unknown, render: () => Promise<LabelFile>): Promise<{ file: LabelFile; cached: boolean }> {
    const key = createHash("sha256").update(JSON.stringify(what)).digest("base64url");
    // No await before the render is registered: two requests at once must not both start one.
    const kept = this.files.get(key);
    const underWay = kept ? undefined : this.rendering.get(key);
    if (kept || underWay) {
      this.hits++;
      return { file: kept ?? (await underWay!), cached: true };
    }
    this.renders++;
    const rendered = (async () => {
      try {
        const file = await render();
        this.files.set(key, file);
        return file;
      } finally {
        this.rendering.delete(key);
      }
    })();
    this.rendering.set(key, rendered);
    return { file: await rendered, cached: false };
  }

  stats(): RenderCacheStats {
    return { entries: this.files.size, bytes: this.files.calculatedSize, renders: this.renders, hits: this.hits };
  }
}
