import type { ServiceSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { AppError } from "../../lib/errors";
import { widgetAsset, WIDGET_PATH } from "./widget/assets";
import { EXAMPLE_CONTENT_SECURITY_POLICY, EXAMPLE_PATH, examplePageHtml } from "./widget/example-page";

type HttpMeta = { $responseType?: string; $responseHeaders?: Record<string, string> };

const hidden = (operationId: string, summary: string) => ({
  operationId,
  summary,
  tag: "Widget",
  responseDescription: summary,
  hidden: true
});

/**
 * The checkout's relay-point picker (issue 28, docs/merchants/checkout-picker.md): the component
 * and the Leaflet files it may load, for pages of any origin, and an example checkout. What the
 * component calls is the public search (`GET /api/public/v1/relay-points`).
 */
export const WidgetMixin: Partial<ServiceSchema> = {
  actions: {
    widgetAsset: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: `GET ${WIDGET_PATH}/:file`,
      api: "open",
      endpoint: hidden("getWidgetAsset", "A file of the relay-point picker"),
      handler(ctx) {
        const asset = typeof ctx.params.file === "string" ? widgetAsset(ctx.params.file) : null;
        if (!asset) throw new AppError("NOT_FOUND", "No such file");
        ctx.meta.$responseType = asset.type;
        ctx.meta.$responseHeaders = asset.headers;
        return asset.body;
      }
    }),

    widgetExample: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: `GET ${EXAMPLE_PATH}`,
      api: "open",
      endpoint: hidden("getWidgetExample", "An example checkout with the relay-point picker"),
      handler(ctx) {
        ctx.meta.$responseType = "text/html; charset=utf-8";
        ctx.meta.$responseHeaders = {
          "Content-Security-Policy": EXAMPLE_CONTENT_SECURITY_POLICY,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-cache"
        };
        return examplePageHtml(ctx.params);
      }
    })
  }
};
