import type { Call, HttpClient, Query } from "../core/http.js";
import type { RequestOptions } from "../core/options.js";
import { DEFAULT_MAX_ITEMS, type ListOptions, type Page, PageList } from "../core/pagination.js";
import { withResponse, type WithResponse } from "../core/response-info.js";

export const API = "/api/partner/v1";

/** What every resource shares: one call, its result with `lastResponse`, and numbered lists. */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}

  protected async call<T>(call: Call): Promise<WithResponse<T>> {
    const { data, info } = await this.http.request<T>(call);
    return withResponse(data, info);
  }

  protected read<T>(path: string, query?: Query, options?: RequestOptions): Promise<WithResponse<T>> {
    return this.call<T>({ method: "GET", path, query, options });
  }

  protected send<T>(path: string, body: unknown, options?: RequestOptions): Promise<WithResponse<T>> {
    return this.call<T>({ method: "POST", path, body: body ?? {}, options });
  }

  /** A numbered list: its pages of `size` (default 100, the most the API gives) from `page` (default 0). */
  protected pages<T>(path: string, query: Query & { page?: number; size?: number }, options: ListOptions = {}): PageList<T> {
    const { maxItems = DEFAULT_MAX_ITEMS, ...requestOptions } = options;
    const size = query.size ?? 100;
    const fetchPage = (page: number, after?: string) =>
      this.read<Page<T>>(path, after === undefined ? { ...query, page, size } : { ...query, page: undefined, after, size }, requestOptions);
    return new PageList<T>(fetchPage, query.page ?? 0, maxItems);
  }
}

export function segment(value: string): string {
  return encodeURIComponent(value);
}
