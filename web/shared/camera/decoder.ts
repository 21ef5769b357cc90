/**
 * The fallback decoder where the browser has no BarcodeDetector for Code 128 and QR (Firefox,
 * Huawei phones, most WebViews): the barcode-detector ponyfill over zxing-wasm, loaded only then,
 * its .wasm from the app's own folder (copied there by the app's build-sw.mjs and precached), never a CDN.
 */
import { BarcodeDetector, prepareZXingModule } from "barcode-detector/ponyfill";

prepareZXingModule({
  overrides: {
    locateFile: (path: string, prefix: string) =>
      path.endsWith(".wasm") ? new URL("zxing_reader.wasm", import.meta.url).href : prefix + path
  }
});

export function fallbackDetector(formats: string[]): { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> } {
  return new BarcodeDetector({
    formats: formats as ConstructorParameters<typeof BarcodeDetector>[0] extends { formats?: infer F } ? F : never
  });
}
