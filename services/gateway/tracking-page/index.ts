export { negotiateLanguage, LANGUAGES, type Lang } from "../../../lib/languages";
export { formatDateTime, formatDzd } from "../../../lib/algiers-format";
export { html, Html } from "./html";
export { TRACK_PATH, trackingPagePath, passPagePath } from "./layout";
export { MESSAGES, type Messages } from "./messages";
export { renderNotFoundPage, renderParcelPage, renderTooManyRequestsPage, renderTrackingFormPage, type PageOptions } from "./pages";
export {
  respondToTrackingPage,
  type QueryValue,
  trackingPageHeaders,
  type TrackingLookup,
  type TrackingPageRequest,
  type TrackingPageResponse
} from "./respond";
export { STYLESHEET_HASH, TRACKING_PAGE_CSP } from "./styles";
export {
  respondToChange,
  respondToChangePage,
  respondToCodeRequest,
  respondToPinResend,
  respondToNotMe,
  type ChangeDeps,
  type ChangeRequest
} from "./respond-change";
export { checkPageFormToken, checkPagePostOrigin, FORM_TOKEN_FIELD, formTokenField, FormTokens } from "./form-guard";
