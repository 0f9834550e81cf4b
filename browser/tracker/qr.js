// A QR code of a link, drawn as SVG (dark modules on a white square with a quiet zone, whatever the
// colour scheme, so a camera reads it). The code itself comes from uqr (MIT, bundled: about 10 kB).

import { encode } from "uqr";

const SVG = "http://www.w3.org/2000/svg";
const QUIET = 4; // modules of white around the code, as the standard asks
// Byte-mode capacity of the largest QR code at the lowest error correction: longer links get no code.
export const QR_MAX_BYTES = 2953;

// An <svg> of `text` as a QR code, labelled `label`; null when the text is too long for one.
export function qrSvg(text, label) {
  if (new TextEncoder().encode(text).length > QR_MAX_BYTES) return null;
  const code = encode(text, { ecc: "L", border: 0 });
  const size = code.size + 2 * QUIET;
  let d = "";
  code.data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (row[x + run]) run++;
      d += `M${x + QUIET} ${y + QUIET}h${run}v1h-${run}z`;
      x += run;
    }
  });
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("class", "mt-qr");
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.qrVersion = String(code.version);
  svg.dataset.qrText = String(text.length);
  const back = document.createElementNS(SVG, "rect");
  for (const [k, v] of [["width", size], ["height", size], ["fill", "#fff"]]) back.setAttribute(k, String(v));
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
