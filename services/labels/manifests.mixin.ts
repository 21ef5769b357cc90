import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { call } from "../../lib/contract";
import { AppError } from "../../lib/errors";
import { Joi } from "../../lib/joi";
import { verifyManifestSignature } from "../../lib/label-url";
import { PDF_CONTENT_TYPE } from "../../lib/labels/page-formats";
import type { ConfigVars } from "../../mixins/config.mixin";
import type { ManifestUrlParts, RenderedLabel } from "./labels.contract";

interface ManifestsVars extends ConfigVars {
  labelUrlSecret: string;
}

const RenderManifestSchema = Joi.object<ManifestUrlParts, true>({
  manifestId: Joi.string().max(100).allow("").required(),
  expires: Joi.string().max(32).allow("").default(""),
  signature: Joi.string().max(200).allow("").default("")
});

/**
 * Issue 44: a manifest's A4 PDF, behind its pre-signed URL (lib/label-url.ts, the labels' HMAC and
 * expiry). The signature is checked before any lookup, as for a label; the document is rendered
 * from the manifest as made (logistics keeps its lines, which never change) and the sender's name.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ManifestsVars>> = {
  actions: {
    // call labels.renderManifest --manifestId <uuid> --expires <unix s> --signature <hex>
    renderManifest: defineAction<ManifestUrlParts, ManifestsVars>({
      visibility: "public",
      schema: RenderManifestSchema,
      async handler(ctx): Promise<RenderedLabel> {
        const { manifestId, expires, signature } = ctx.params;
        const verdict = verifyManifestSignature(manifestId, expires, signature, this.labelUrlSecret);
        if (verdict !== "valid")
          throw new AppError("LABEL_URL_INVALID", verdict === "expired" ? "manifest URL expired" : "manifest URL is not valid");
        const manifest = await call(ctx, "logistics.manifestDocument", { id: manifestId });
        const sender = await call(ctx, "auth.getOrganization", { organizationId: manifest.organizationId });
        // pdfkit and the fonts load with the first document, as the labels' renderers do.
        const { renderManifestPdf } = await import("./render/pdf-manifest");
        const pdf = await renderManifestPdf(manifest, sender.name);
        return {
          contentBase64: pdf.toString("base64"),
          contentType: PDF_CONTENT_TYPE,
          fileName: `manifest-${manifest.number}.pdf`,
          cached: false
        };
      }
    })
  }
};

export const ManifestDocumentsMixin = mixin as Partial<ServiceSchema>;
