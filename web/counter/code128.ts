/**
 * A Code 128 (code set B) drawn as SVG, for the return parcel's number on screen, large, for the
 * courier's scanner (ISO/IEC 15417: start B, the data, a modulo-103 check, stop, 10-module quiet
 * zones). Set B covers the tracking numbers' letters and digits.
 */
const PATTERNS =
  "212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 " +
  "123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 " +
  "232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 " +
  "313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 " +
  "111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 " +
  "111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 " +
  "114311 411113 411311 113141 114131 311141 411131 211412 211214 211232 2331112";
const TABLE = PATTERNS.split(" ");
const START_B = 104;
const STOP = 106;
const QUIET = 10;

export function code128Widths(text: string): number[] {
  const codes = [...text].map(char => {
    const code = char.charCodeAt(0) - 32;
    if (code < 0 || code > 95) throw new Error("Code 128 B takes printable ASCII only");
    return code;
  });
  const check = codes.reduce((sum, code, index) => sum + code * (index + 1), START_B) % 103;
  return [START_B, ...codes, check, STOP].flatMap(code => [...TABLE[code]].map(Number));
}

export function code128Svg(text: string, label: string): SVGSVGElement {
  const widths = code128Widths(text);
  const total = widths.reduce((a, b) => a + b, 0) + 2 * QUIET;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${total} 40`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("barcode");
  const background = document.createElementNS(ns, "rect");
  Object.entries({ x: "0", y: "0", width: String(total), height: "40", fill: "#fff" }).forEach(([k, v]) => background.setAttribute(k, v));
  svg.append(background);
  let x = QUIET;
  widths.forEach((width, index) => {
    if (index % 2 === 0) {
      const bar = document.createElementNS(ns, "rect");
      Object.entries({ x: String(x), y: "0", width: String(width), height: "40", fill: "#000" }).forEach(([k, v]) =>
        bar.setAttribute(k, v)
      );
      svg.append(bar);
    }
    x += width;
  });
  return svg;
}
