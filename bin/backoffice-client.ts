import type { OpenApiDocument, Operation } from "../lib/openapi/types";
import { BACKOFFICE_DOCUMENT_PATH } from "../services/gateway/openapi/docs-page";

/**
 * A back-office client that knows no route: it reads the back-office OpenAPI document from the
 * server (behind the same token) and calls operations by their operationId. The routes are
 * declared once, on the actions that answer them.
 */

export interface OperationCall {
  /** Path parameters by name, then query parameters. */
  params?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface BackofficeClient {
  call<T = unknown>(operationId: string, call?: OperationCall): Promise<{ status: number; body: T }>;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The operations a served OpenAPI document lists, by operationId. */
export async function fetchOperations(
  base: string,
  documentPath: string,
  headers: Record<string, string> = {}
): Promise<Map<string, { method: string; path: string; operation: Operation }>> {
  const res = await fetch(`${base}${documentPath}`, { headers });
  if (!res.ok) throw new Error(`${documentPath} answered ${res.status}: is the token right, is the server at ${base}?`);
  const document = (await res.json()) as OpenApiDocument;
  const operations = new Map<string, { method: string; path: string; operation: Operation }>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) operations.set(operation.operationId, { method: method.toUpperCase(), path, operation });
    }
  }
  return operations;
}

export async function backofficeClient(baseUrl: string, token: string): Promise<BackofficeClient> {
  const base = baseUrl.replace(/\/+$/, "");
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const operations = await fetchOperations(base, BACKOFFICE_DOCUMENT_PATH, headers);

  return {
    async call<T>(operationId: string, { params = {}, body }: OperationCall = {}) {
      const found = operations.get(operationId);
      if (!found) throw new Error(`the server has no back-office operation ${operationId}`);
      const query = new URLSearchParams();
      let path = found.path;
      for (const [name, value] of Object.entries(params)) {
        if (value === undefined) continue;
        if (path.includes(`{${name}}`)) path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
        else query.set(name, String(value));
      }
      const url = `${base}${path}${query.size > 0 ? `?${query}` : ""}`;
      const answer = await fetch(url, { method: found.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await answer.text();
      return { status: answer.status, body: (text ? JSON.parse(text) : null) as T };
    }
  };
}
