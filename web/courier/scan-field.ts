import { scanField as sharedScanField, ScanFieldOptions } from "../shared/scan-field";
import { t } from "./i18n";

/** The shared scan field (web/shared/scan-field.ts: typed, hardware scanner, camera) in the courier app's words. */
export function scanField(options: ScanFieldOptions): HTMLElement {
  return sharedScanField(options, t);
}

export { stopCamera } from "../shared/scan-field";
