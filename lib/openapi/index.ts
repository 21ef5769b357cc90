/** OpenAPI 3.1 documents of the partner and back-office APIs, and the /docs page that renders the first. */
export { buildPartnerDocument, PARTNER_OPERATIONS, PARTNER_BASE } from "./partner-document";
export { buildBackofficeDocument, BACKOFFICE_OPERATIONS, BACKOFFICE_BASE } from "./backoffice-document";
export { docsAsset, docsPageHtml, DOCS_CONTENT_SECURITY_POLICY, DOCS_PATH, PARTNER_DOCUMENT_PATH, BACKOFFICE_DOCUMENT_PATH } from "./docs-page";
export { EVENT_TYPES } from "./webhooks";
export type { OpenApiDocument } from "./types";
