import type { ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { ALL_SERVICES, AppConfig } from "../../lib/config";
import { AppError } from "../../lib/errors";
import type { OpenApiDocument } from "../../lib/openapi/types";
import { RegistryService, RoutedEndpoint, serviceDocsOf } from "./endpoints";
import {
  BACKOFFICE_DOCUMENT_PATH,
  docsAsset,
  docsPageHtml,
  DOCS_CONTENT_SECURITY_POLICY,
  DOCS_PATH,
  PARTNER_DOCUMENT_PATH,
  RELAY_DOCUMENT_PATH,
  NETWORK_DOCUMENT_PATH
} from "./openapi/docs-page";
import { ApiDocuments, buildApiDocuments } from "./openapi/documents";

interface ApiDocsVars {
  config: AppConfig;
  broker: ServiceBroker;
  knownEndpoints: Map<string, RoutedEndpoint>;
  /** Built on first read after the endpoints changed. */
  documents: ApiDocuments | null;
  /** Every service seen on the bus with its actions so far: the documents are whole once all are. */
  servicesSeen: Set<string>;
}

interface ApiDocsMethods {
  apiDocuments(): ApiDocuments;
  /** 503 with Retry-After while some service has not yet registered its actions (start-up). */
  requireWholeDocuments(): void;
  onEndpointsChanged(): void;
  refreshEndpoints(): void;
}

type ApiDocsThis = ApiDocsVars & ApiDocsMethods;
type HttpMeta = { $responseType?: string; $responseHeaders?: Record<string, string> };

const hidden = (operationId: string, summary: string) => ({
  operationId,
  summary,
  tag: "Documentation",
  responseDescription: summary,
  hidden: true
});

/** A document anyone may read (no credential: it is what integrators start from). */
const openDocument = (which: "partner" | "relay" | "network", path: string, operationId: string, summary: string) =>
  defineAction<unknown, ApiDocsThis, HttpMeta>({
    rest: `GET ${path}`,
    api: "open",
    endpoint: hidden(operationId, summary),
    handler(ctx): OpenApiDocument {
      this.requireWholeDocuments();
      ctx.meta.$responseHeaders = { "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*" };
      return this.apiDocuments()[which];
    }
  });

/**
 * SPEC §4.8: the partner API's description, generated from the endpoint declarations on the bus
 * (services/gateway/openapi/), the relay API's (the counter app of a relay point), their reference
 * page (Swagger UI served by us), and the back-office document behind the back-office token.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, ApiDocsMethods, ApiDocsVars>> = {
  actions: {
    partnerApiDocs: openDocument("partner", PARTNER_DOCUMENT_PATH, "getPartnerApiDocument", "The partner API's OpenAPI 3.1 document"),

    relayApiDocs: openDocument("relay", RELAY_DOCUMENT_PATH, "getRelayApiDocument", "The relay API's OpenAPI 3.1 document"),

    networkApiDocs: openDocument(
      "network",
      NETWORK_DOCUMENT_PATH,
      "getNetworkApiDocument",
      "The courier and hub APIs' OpenAPI 3.1 document"
    ),

    backofficeApiDocs: defineAction<unknown, ApiDocsThis, HttpMeta>({
      rest: `GET ${BACKOFFICE_DOCUMENT_PATH}`,
      api: "operator",
      endpoint: hidden("getBackofficeApiDocument", "The back-office API's OpenAPI 3.1 document"),
      handler(ctx): OpenApiDocument {
        this.requireWholeDocuments();
        ctx.meta.$responseHeaders = { "Cache-Control": "no-store" };
        return this.apiDocuments().backoffice;
      }
    }),

    docsPage: defineAction<unknown, ApiDocsThis, HttpMeta>({
      rest: `GET ${DOCS_PATH}`,
      api: "open",
      endpoint: hidden("getDocsPage", "The reference page"),
      handler(ctx) {
        ctx.meta.$responseType = "text/html; charset=utf-8";
        ctx.meta.$responseHeaders = {
          "Content-Security-Policy": DOCS_CONTENT_SECURITY_POLICY,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-cache"
        };
        return docsPageHtml();
      }
    }),

    docsAsset: defineAction<Record<string, unknown>, ApiDocsThis, HttpMeta>({
      rest: `GET ${DOCS_PATH}/:file`,
      api: "open",
      endpoint: hidden("getDocsAsset", "A file of the reference page"),
      handler(ctx) {
        const asset = typeof ctx.params.file === "string" ? docsAsset(ctx.params.file) : null;
        if (!asset) throw new AppError("NOT_FOUND", "No such file");
        ctx.meta.$responseType = asset.type;
        ctx.meta.$responseHeaders = {
          "Cache-Control": "public, max-age=3600",
          "X-Content-Type-Options": "nosniff",
          ...(asset.lastModified ? { "Last-Modified": asset.lastModified } : {})
        };
        return asset.body;
      }
    })
  },

  methods: {
    requireWholeDocuments(this: ApiDocsThis): void {
      this.servicesSeen ??= new Set();
      // Distributed, every service runs somewhere; embedded, those SERVICES names run here.
      const expected = this.config.transporter ? ALL_SERVICES : this.config.services;
      if (this.servicesSeen.size < expected.length) {
        for (const service of this.broker.registry.getServiceList({ withActions: true, skipInternal: true })) {
          this.servicesSeen.add(service.name);
        }
      }
      // A document missing a service's endpoints would be cached and generated from as if whole.
      // Once seen, a service's endpoints stay in the documents (knownEndpoints) while it restarts.
      const missing = expected.filter(name => !this.servicesSeen.has(name));
      if (missing.length > 0) {
        throw new AppError("UNAVAILABLE", `The API documents are not complete yet (starting: ${missing.join(", ")}); retry shortly`, {
          retryAfterSeconds: 2
        });
      }
    },

    apiDocuments(this: ApiDocsThis): ApiDocuments {
      this.refreshEndpoints();
      if (!this.documents) {
        const services = this.broker.registry.getServiceList({ withActions: true }) as unknown as RegistryService[];
        this.documents = buildApiDocuments([...this.knownEndpoints.values()], serviceDocsOf(services), {
          serverUrl: this.config.publicBaseUrl
        });
      }
      return this.documents;
    },

    onEndpointsChanged(this: ApiDocsThis) {
      this.documents = null;
    }
  }
};

export const ApiDocsMixin = mixin as Partial<ServiceSchema>;
