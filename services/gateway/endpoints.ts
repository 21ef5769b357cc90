import type { ScopeRequirement } from "../../lib/api-keys";
import { API_BASE_PATH, ApiKind, CompiledEndpoint, HttpMethod, ServiceDocs, toTemplatePath } from "../../lib/endpoint";

/**
 * The endpoints the gateway serves, read from the service registry: every action that declares
 * `rest`, `api` and `endpoint` (lib/endpoint.ts), whichever node runs it. This is the gateway's
 * only source of routes and documentation; it imports no service's code.
 */

export interface RoutedEndpoint {
  /** `parcels.create` */
  action: string;
  api: ApiKind;
  scope?: ScopeRequirement;
  endpoint: CompiledEndpoint;
}

export type { ServiceDocs };

/** The part of `registry.getServiceList({ withActions: true })` we read. */
export interface RegistryService {
  name: string;
  settings?: { openapi?: ServiceDocs } & Record<string, unknown>;
  actions?: Record<
    string,
    { name?: string; visibility?: string; rest?: unknown; api?: ApiKind; scope?: ScopeRequirement; endpoint?: CompiledEndpoint }
  >;
}

export function endpointsOf(services: readonly RegistryService[]): RoutedEndpoint[] {
  const found = new Map<string, RoutedEndpoint>();
  for (const service of services) {
    for (const [name, action] of Object.entries(service.actions ?? {})) {
      if (!action.endpoint || !action.api) continue;
      if (action.visibility !== undefined && action.visibility !== "published") continue;
      // Several instances of one service declare the same endpoints: one entry each.
      found.set(name, { action: name, api: action.api, scope: action.scope, endpoint: action.endpoint });
    }
  }
  return [...found.values()];
}

export function serviceDocsOf(services: readonly RegistryService[]): ServiceDocs[] {
  const seen = new Set<string>();
  const docs: ServiceDocs[] = [];
  for (const service of services) {
    if (seen.has(service.name) || !service.settings?.openapi) continue;
    seen.add(service.name);
    docs.push(service.settings.openapi);
  }
  return docs;
}

/** The full path of an endpoint, in OpenAPI form: its API's base path, then its own path with `{name}` parameters. */
export function fullTemplatePath(api: ApiKind, path: string): string {
  const base = API_BASE_PATH[api].replace(/\/$/, "");
  return toTemplatePath(base + path) || "/";
}

/**
 * Route order, made explicit: segment by segment, a literal segment is tried before a parameter
 * (so a literal such as `/items/latest` is never read as an item id `/items/{id}`), then by method.
 */
export function compareRoutes(a: { path: string; method: HttpMethod }, b: { path: string; method: HttpMethod }): number {
  const sa = a.path.split("/");
  const sb = b.path.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith(":") || sa[i].startsWith("{");
    const pb = sb[i].startsWith(":") || sb[i].startsWith("{");
    if (pa !== pb) return pa ? 1 : -1;
    if (!pa && sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  if (sa.length !== sb.length) return sa.length - sb.length;
  return a.method.localeCompare(b.method);
}
