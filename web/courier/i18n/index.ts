import { createI18n } from "../../shared/i18n";
import { ar } from "./ar";
import { en } from "./en";
import { fr, MessageKey } from "./fr";

/** The courier app's words (fr, ar, en: French first, the others typed against its keys) in the shared translator (web/shared/i18n.ts). */
export const { language, setLanguage, applyDocumentLanguage, t, amount } = createI18n<MessageKey>(
  { fr, ar, en },
  { storageKey: "courier.language", titleKey: "appName" }
);

export { clock, LANGUAGE_NAMES, LANGUAGES, type Language } from "../../shared/i18n";

/** The message of a courier API error code, or the generic one for a code the app does not know. */
export function errorText(code: string): string {
  const key = `err_${code}` as MessageKey;
  return key in fr ? t(key) : t("err_UNKNOWN");
}

export type { MessageKey };
