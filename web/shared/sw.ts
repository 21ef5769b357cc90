/**
 * An app's service worker (the counter app's, the courier app's; built for each by
 * web/shared/build-sw.mjs): precaches the whole shell (and the barcode decoder's .wasm) at
 * install, so that a reload with no network still opens the app, then answers those files from
 * the cache. The API is never cached: what the user did waits in the page's outbox
 * (web/shared/outbox.ts), not here. A Background Sync, where the browser has one, only wakes the page to
 * flush; the page flushes on its own too (reconnect, return to the app, a timer).
 */
declare const __PRECACHE__: string[];
declare const __VERSION__: string;
/** The app's name: its caches are `<app>-<version>`, and only its own old ones are dropped. */
declare const __APP__: string;

const worker = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `${__APP__}-${__VERSION__}`;

worker.addEventListener("install", event => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(cache => cache.addAll(__PRECACHE__))
      .then(() => worker.skipWaiting())
  );
});

worker.addEventListener("activate", event => {
  event.waitUntil(
    caches
      .keys()
      .then(names => Promise.all(names.filter(name => name.startsWith(`${__APP__}-`) && name !== CACHE).map(name => caches.delete(name))))
      .then(() => worker.clients.claim())
  );
});

worker.addEventListener("fetch", event => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const scope = new URL(worker.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  // Every page of the app is the one shell; its screens live in the fragment.
  const key = request.mode === "navigate" ? new URL("index.html", scope).href : url.origin + url.pathname;
  event.respondWith(caches.open(CACHE).then(async cache => (await cache.match(key)) ?? fetch(request)));
});

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

worker.addEventListener("sync" as "message", (event: Event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== "outbox") return;
  sync.waitUntil(
    worker.clients.matchAll({ type: "window" }).then(clients => clients.forEach(client => client.postMessage({ type: "flush" })))
  );
});
