/**
 * The camera scan path: the standard BarcodeDetector where the browser lists both Code 128 and QR
 * (a label carries its tracking number in both), otherwise the WASM fallback (decoder.ts), loaded
 * on first use. Frames are read a few times a second; the first value read ends the scan.
 */
const FORMATS = ["code_128", "qr_code"];

interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}

interface NativeDetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
}

async function detector(): Promise<Detector> {
  const Native = (window as unknown as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (Native) {
    const supported = await Native.getSupportedFormats().catch(() => [] as string[]);
    if (FORMATS.every(format => supported.includes(format))) return new Native({ formats: FORMATS });
  }
  const { fallbackDetector } = await import("./decoder");
  return fallbackDetector(FORMATS);
}

export interface CameraSession {
  stop(): void;
  /** False when the phone's camera has no torch to switch. */
  toggleTorch(): Promise<boolean>;
}

export async function startCamera(video: HTMLVideoElement, onCode: (value: string) => void): Promise<CameraSession> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  video.srcObject = stream;
  video.muted = true;
  video.setAttribute("playsinline", "");
  await video.play();
  const found = await detector();
  const [track] = stream.getVideoTracks();
  let running = true;
  let torch = false;

  const stop = () => {
    running = false;
    stream.getTracks().forEach(t => t.stop());
    video.srcObject = null;
  };

  const tick = async () => {
    if (!running) return;
    try {
      if (video.readyState >= 2) {
        const codes = await found.detect(video);
        const value = codes.find(code => code.rawValue.trim())?.rawValue.trim();
        if (value && running) {
          stop();
          onCode(value);
          return;
        }
      }
    } catch {
      // A frame the decoder could not read: the next one may be better.
    }
    setTimeout(() => void tick(), 150);
  };
  void tick();

  return {
    stop,
    async toggleTorch() {
      const capabilities = (track.getCapabilities?.() ?? {}) as MediaTrackCapabilities & { torch?: boolean };
      if (!capabilities.torch) return false;
      torch = !torch;
      await track.applyConstraints({ advanced: [{ torch } as MediaTrackConstraintSet] });
      return true;
    }
  };
}
