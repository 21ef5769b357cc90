import type { RequestOptions } from "./options.js";
import type { WithResponse } from "./response-info.js";

/** A page of a numbered list, as the API answers it. */
export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
  /** Where the next page starts, on a list that has a cursor (the parcels); null on its last page. */
  nextCursor?: string | null;
}

export interface ListOptions extends RequestOptions {
  /** Stop `for await` (and toArray) after this many items in all, whatever the list holds. Default 10 000. */
  maxItems?: number;
}

export const DEFAULT_MAX_ITEMS = 10_000;

/**
 * A list of the API, page after page: `await list` (or `list.firstPage()`) for one page, or
 * `for await (const item of list)` for every item, the pages fetched one at a time as the loop
 * reaches them, up to `maxItems` in all.
 */
export class PageList<T> implements AsyncIterable<T>, PromiseLike<WithResponse<Page<T>>> {
  constructor(
    /** A page by its number, or (`after`) the one after a cursor. */
    private readonly fetchPage: (page: number, after?: string) => Promise<WithResponse<Page<T>>>,
    private readonly startPage: number,
    private readonly maxItems: number
  ) {}

  firstPage(): Promise<WithResponse<Page<T>>> {
    return this.fetchPage(this.startPage);
  }

  /** `await list` is the first page. */
  then<A = WithResponse<Page<T>>, B = never>(
    onFulfilled?: ((page: WithResponse<Page<T>>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let yielded = 0;
    // A list with a cursor is walked by it: each page costs the same however deep (issue 48).
    let after: string | undefined;
    for (let page = this.startPage; yielded < this.maxItems; page++) {
      const current = await this.fetchPage(page, after);
      for (const item of current.items) {
        if (yielded >= this.maxItems) return;
        yielded++;
        yield item;
      }
      if (current.nextCursor === null) return;
      after = current.nextCursor;
      if (current.items.length === 0 || (after === undefined && page + 1 >= current.totalPages)) return;
    }
  }

  /** Every item (up to `maxItems`) in one array. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
