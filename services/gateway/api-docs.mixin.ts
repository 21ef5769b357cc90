import type { Context, ServiceSchema } from "moleculer";
import { AppError } from "../../lib/errors";
import {
  buildBackofficeDocument,
  buildPartnerDocument,
  docsAsset,
  docsPageHtml,
  DOCS_CONTENT_SECURITY_POLICY,
  OpenApiDocument
} from "../../lib/openapi";
import { configOf } from "../../lib/runtime";

interface ApiDocsVars {
  partnerApiDocument: OpenApiDocument;
  backofficeApiDocument: OpenApiDocument;
}

/** The gateway's documentation actions (SPEC §4.8); their routes are declared with the others in the gateway. */
const mixin: Partial<ServiceSchema<{}, {}, ApiDocsVars>> = {
  actions: {
    /** GET /v3/api-docs/partner: the OpenAPI 3.1 document, built once from the actions' own Joi schemas. */
    partnerApiDocs: {
      visibility: "published",
      handler(ctx: Context<unknown, Record<string, unknown>>) {
        ctx.meta.$responseHeaders = { "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*" };
        return this.partnerApiDocument;
      }
    },

    /** GET /v3/api-docs/backoffice (back-office token). */
    backofficeApiDocs: {
      visibility: "published",
      handler(ctx: Context<unknown, Record<string, unknown>>) {
        ctx.meta.$responseHeaders = { "Cache-Control": "no-store" };
        return this.backofficeApiDocument;
      }
    },

    /** GET /docs: Swagger UI, from our own server only. */
    docsPage: {
      visibility: "published",
      handler(ctx: Context<unknown, Record<string, unknown>>) {
        ctx.meta.$responseType = "text/html; charset=utf-8";
        ctx.meta.$responseHeaders = {
          "Content-Security-Policy": DOCS_CONTENT_SECURITY_POLICY,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-cache"
        };
        return docsPageHtml();
      }
    },

    /** GET /docs/<asset>: the few swagger-ui-dist files the page loads. */
    docsAsset: {
      visibility: "published",
      handler(ctx: Context<Record<string, unknown>, Record<string, unknown>>) {
        const asset = typeof ctx.params.file === "string" ? docsAsset(ctx.params.file) : null;
        if (!asset) throw new AppError("NOT_FOUND", "No such file");
        ctx.meta.$responseType = asset.type;
        ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" };
        return asset.body;
      }
    }
  },

  created() {
    const { publicBaseUrl } = configOf(this.broker);
    this.partnerApiDocument = buildPartnerDocument({ serverUrl: publicBaseUrl });
    this.backofficeApiDocument = buildBackofficeDocument({ serverUrl: publicBaseUrl });
  }
};

export const ApiDocsMixin = mixin as Partial<ServiceSchema>;
