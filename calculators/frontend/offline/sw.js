// Offline service worker (template). hooks/offline.py writes it to the site root as sw.js after the
// build, filling SETTINGS: the cache name (by build hash) and every file to precache (URLs relative
// to this script, so a project sub-path works).
//   install:  precache every file (revalidated, so a stale HTTP cache never mixes two builds in)
//   activate: delete every older cache of ours, take control of open pages
//   fetch:    HTML network-first (the cached copy when offline or after a slow wait);
//             everything else cache-first, the network when not cached.
// A new deploy has a new cache name: its worker installs a complete new cache beside the old one and
// takes over only when no page uses the old one (never a mix of Pyodide versions or wheels).

const SETTINGS = /*MNEME_OFFLINE*/ { cache: "mneme-offline-dev", prefix: "mneme-offline-", files: [], dev: true } /*END_MNEME_OFFLINE*/;

const SCOPE = new URL("./", self.location.href);
const NETWORK_WAIT_MS = 4000; // a slow network: show the cached page after this long

function absolute(path) {
  return new URL(path, SCOPE).href;
}

self.addEventListener("install", (event) => {
  if (SETTINGS.dev) {
    self.skipWaiting();
    return;
  }
  event.waitUntil(
    caches.open(SETTINGS.cache).then((cache) =>
      cache.addAll(SETTINGS.files.map((path) => new Request(absolute(path), { cache: "no-cache" }))),
    ),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SETTINGS.prefix) && name !== SETTINGS.cache) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "status" && event.source) {
    caches.has(SETTINGS.cache).then((cached) =>
      event.source.postMessage({ type: "offline-status", cache: SETTINGS.cache, cached, files: SETTINGS.files.length }),
    );
  }
});

function isPage(request, url) {
  return (
    request.mode === "navigate" ||
    request.destination === "document" ||
    url.pathname.endsWith("/") ||
    url.pathname.endsWith(".html") ||
    url.pathname.endsWith("/sitemap.xml")
  );
}

function pageKey(url) {
  const key = new URL(url.href);
  key.search = "";
  key.hash = "";
  if (key.pathname.endsWith("/index.html")) key.pathname = key.pathname.slice(0, -"index.html".length);
  return key.href;
}

async function cachedPage(url) {
  const cache = await caches.open(SETTINGS.cache);
  return (await cache.match(pageKey(url))) || (await cache.match(absolute("404.html")));
}

async function networkFirst(request, url) {
  const network = fetch(request);
  network.catch(() => {});
  let timer;
  const slow = new Promise((resolve) => {
    timer = setTimeout(resolve, NETWORK_WAIT_MS, "slow");
  });
  try {
    const first = await Promise.race([network, slow]);
    if (first !== "slow") return first;
    const cached = await cachedPage(url);
    return cached || (await network);
  } catch (error) {
    const cached = await cachedPage(url);
    if (cached) return cached;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(SETTINGS.cache);
  const cached = await cache.match(request, { ignoreVary: true });
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  if (SETTINGS.dev) return;
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  if (request.headers.has("range")) return;
  event.respondWith(isPage(request, url) ? networkFirst(request, url) : cacheFirst(request));
});
