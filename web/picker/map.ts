import type { PublicRelayPoint } from "./search";

/**
 * The optional map: only when the shop names a tile server (`tiles`), Leaflet is loaded then,
 * from our own server (its ES module and stylesheet under /widget/v1/), never before. The list
 * stays the primary way to choose; a marker click chooses as a click on the list does.
 */

type LeafletModule = typeof import("leaflet");

export const LEAFLET_VERSION = "1.9.4";

let loading: Promise<LeafletModule> | null = null;

function loadLeaflet(apiBase: string): Promise<LeafletModule> {
  // A URL known only at run time: esbuild leaves the import to the browser.
  const url = `${apiBase}/widget/v1/leaflet-${LEAFLET_VERSION}.esm.js`;
  loading ??= import(/* @vite-ignore */ url) as Promise<LeafletModule>;
  return loading;
}

export interface PickerMap {
  show(
    points: readonly PublicRelayPoint[],
    chosen: string | null,
    choosable: (p: PublicRelayPoint) => boolean,
    nameOf: (p: PublicRelayPoint) => string
  ): void;
}

/**
 * A tooltip's content as a node holding text: Leaflet puts a string into innerHTML, and a point's
 * name is the directory's text, shown inside a shop's own checkout beside its customer's fields.
 */
function textLabel(text: string): HTMLElement {
  const label = document.createElement("span");
  label.dir = "auto";
  label.textContent = text;
  return label;
}

export async function createMap(
  root: ShadowRoot,
  container: HTMLElement,
  options: { apiBase: string; tiles: string; attribution: string; onChoose: (code: string) => void }
): Promise<PickerMap> {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = `${options.apiBase}/widget/v1/leaflet-${LEAFLET_VERSION}.css`;
  root.prepend(link);
  const L = await loadLeaflet(options.apiBase);
  // Keyboard users have the list: the map takes no arrow keys from the page.
  const map = L.map(container, { keyboard: false, scrollWheelZoom: false }).setView([36.75, 3.06], 6);
  L.tileLayer(options.tiles, { attribution: options.attribution, maxZoom: 19 }).addTo(map);
  const layer = L.layerGroup().addTo(map);
  return {
    show(points, chosen, choosable, nameOf) {
      layer.clearLayers();
      const placed: [number, number][] = [];
      for (const p of points) {
        if (p.latitude === null || p.longitude === null) continue;
        const ok = choosable(p);
        const marker = L.circleMarker([p.latitude, p.longitude], {
          radius: p.code === chosen ? 10 : 7,
          weight: 2,
          color: ok ? (p.code === chosen ? "#0b5d3b" : "#1f4e8c") : "#8a8a8a",
          fillOpacity: ok ? 0.8 : 0.3
        }).bindTooltip(textLabel(nameOf(p)));
        if (ok) marker.on("click", () => options.onChoose(p.code));
        marker.addTo(layer);
        placed.push([p.latitude, p.longitude]);
      }
      if (placed.length > 0) map.fitBounds(placed, { padding: [24, 24], maxZoom: 15 });
      map.invalidateSize();
    }
  };
}
