import { CameraSession, startCamera } from "./camera/camera";
import { h, notice } from "./dom";

/**
 * The one way a screen takes a parcel number (or a code): a focused field that a keyboard-wedge
 * scanner types into (its keys, then Enter) or a person types into, beside the camera button and
 * the torch. Manual entry and the torch stay visible whatever the camera does.
 */

/** The field's own words, which each app takes from its message catalogue. */
export type ScanText = "camera" | "stopCamera" | "torch" | "cameraUnavailable" | "ok";

export interface ScanFieldOptions {
  id: string;
  label: string;
  onValue(value: string): void;
  /** For codes rather than tracking numbers. */
  maxLength?: number;
  focus?: boolean;
}

let session: CameraSession | null = null;

/** Called when the screen changes: the camera is never left running behind another screen. */
export function stopCamera(): void {
  session?.stop();
  session = null;
}

export function scanField(options: ScanFieldOptions, t: (key: ScanText) => string): HTMLElement {
  const input = h("input", {
    id: options.id,
    name: options.id,
    type: "text",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    enterkeyhint: "go",
    maxlength: options.maxLength ?? 40,
    dir: "ltr",
    class: "scan-input"
  });
  const video = h("video", { class: "camera", hidden: true, "aria-label": t("camera") });
  const status = h("div", { class: "camera-status" });
  const cameraButton = h("button", { type: "button", class: "secondary", "aria-pressed": "false" }, t("camera"));
  const torchButton = h("button", { type: "button", class: "secondary", "aria-pressed": "false" }, t("torch"));

  const take = (value: string) => {
    const clean = value.trim();
    if (!clean) return;
    input.value = "";
    options.onValue(clean);
  };

  const showCameraOff = () => {
    video.hidden = true;
    cameraButton.textContent = t("camera");
    cameraButton.setAttribute("aria-pressed", "false");
  };

  const openCamera = async () => {
    stopCamera();
    status.replaceChildren();
    try {
      video.hidden = false;
      cameraButton.textContent = t("stopCamera");
      cameraButton.setAttribute("aria-pressed", "true");
      session = await startCamera(video, value => {
        session = null;
        showCameraOff();
        take(value);
      });
    } catch {
      showCameraOff();
      status.replaceChildren(notice("error", t("cameraUnavailable")));
      input.focus();
    }
  };

  cameraButton.addEventListener("click", () => {
    if (session) {
      stopCamera();
      showCameraOff();
    } else void openCamera();
  });
  torchButton.addEventListener("click", async () => {
    if (!session) await openCamera();
    const switched = (await session?.toggleTorch()) ?? false;
    torchButton.setAttribute("aria-pressed", String(switched && torchButton.getAttribute("aria-pressed") !== "true"));
  });

  const form = h(
    "form",
    {
      class: "scan",
      onsubmit: (event: Event) => {
        event.preventDefault();
        take(input.value);
      }
    },
    h("label", { for: options.id }, options.label),
    h("div", { class: "scan-row" }, input, h("button", { type: "submit", class: "primary" }, t("ok"))),
    h("div", { class: "scan-tools" }, cameraButton, torchButton),
    video,
    status
  );
  if (options.focus !== false) queueMicrotask(() => input.focus());
  return form;
}
