// Offline service worker (template). hooks/offline.py writes it to the site root as sw.js after the
// build, filling SETTINGS: the build hash and every file to precache (URLs relative to this script,
// so a project sub-path works).
//   install:  precache file by file, each retried a few times (revalidated, so a stale HTTP cache
//             never mixes two builds in); a file that still fails does not stop the others: the
//             worker installs, records what failed and tells the pages (progress and outcome).
//   activate: delete older caches of this site only, take control of open pages
//   fetch:    a page opened by the player (a link from elsewhere, a bookmark, the home screen) comes
//             from this version's cache when it holds it: at once, whatever the network; a page
//             instant navigation asks for, or one not cached, is network-first (the cached copy when
//             offline or after a slow wait); a reload waits for the network as long as it takes,
//             since the player asked for the newest page. Everything else cache-first, the network
//             when not cached. A new deploy still reaches the player: by instant navigation, by a
//             reload, by the Update notice (the browser checks sw.js at each navigation), or by itself
//             once no tab of the old version is open.
//   message:  "status" (what is cached), "retry" (fetch the files that failed), "skip-waiting"
//             (the page's Update button: the waiting new version takes over now).
// Cache names end with this site's own scope ("mneme-offline-HASH@/sub/path/"): two sites on one
// origin (GitHub Pages project sites) never touch each other's caches.
// Why not Workbox: its precache fails the whole install when one file fails (the all-or-nothing
// fault this worker exists to avoid) and brings a runtime bigger than this file; our files are
// already named by content hash, which is what its revision manifest would add.

const SETTINGS = /*MNEME_OFFLINE*/ { build: "dev", prefix: "mneme-offline-", files: [], dev: true } /*END_MNEME_OFFLINE*/;

const SCOPE = new URL("./", self.location.href);
const SUFFIX = `@${SCOPE.pathname}`;
const CACHE = `${SETTINGS.prefix}${SETTINGS.build}${SUFFIX}`;
const STATUS_KEY = new URL("__offline-status__", SCOPE).href;
const NETWORK_WAIT_MS = 4000; // a slow network: show the cached page after this long
const ATTEMPTS = 3; // per file
const PARALLEL = 6;

function absolute(path) {
  return new URL(path, SCOPE).href;
}

function ours(name) {
  return name.startsWith(SETTINGS.prefix) && name.endsWith(SUFFIX);
}

async function tell(message) {
  const all = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of all) client.postMessage({ type: "offline-status", cache: CACHE, ...message });
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function fetchOne(path) {
  let last = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (attempt) await pause(300 * 3 ** (attempt - 1));
    try {
      const response = await fetch(new Request(absolute(path), { cache: "no-cache" }));
      if (response.ok) return response;
      last = new Error(`HTTP ${response.status}`);
    } catch (error) {
      last = error;
    }
  }
  throw last || new Error("no answer");
}

async function readStatus() {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(STATUS_KEY);
  return hit ? hit.json() : null;
}

// Cache every file in `paths` not cached yet; returns (and stores, and tells the pages) the outcome.
async function precache(paths) {
  const cache = await caches.open(CACHE);
  const queue = paths.slice();
  const failed = [];
  let done = 0;
  let told = 0;
  await tell({ state: "saving", done, total: paths.length, failed });
  async function next() {
    while (queue.length) {
      const path = queue.shift();
      try {
        if (!(await cache.match(absolute(path)))) await cache.put(absolute(path), await fetchOne(path));
      } catch (_) {
        failed.push(path);
      }
      done += 1;
      if (done - told >= Math.max(1, paths.length / 20) || done === paths.length) {
        told = done;
        tell({ state: "saving", done, total: paths.length, failed });
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, next));
  failed.sort();
  const status = { build: SETTINGS.build, total: SETTINGS.files.length, failed, at: Date.now() };
  const headers = { "content-type": "application/json" };
  await cache.put(STATUS_KEY, new Response(JSON.stringify(status), { headers }));
  await tell({ state: failed.length ? "partial" : "ready", ...status });
  return status;
}

self.addEventListener("install", (event) => {
  if (SETTINGS.dev) {
    self.skipWaiting();
    return;
  }
  event.waitUntil(precache(SETTINGS.files));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (ours(name) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "skip-waiting") {
    self.skipWaiting();
  } else if (msg.type === "status" && event.source) {
    const source = event.source;
    event.waitUntil(
      readStatus().then((status) => {
        const state = !status ? "saving" : status.failed.length ? "partial" : "ready";
        source.postMessage({ type: "offline-status", cache: CACHE, state, build: SETTINGS.build, ...status });
      }),
    );
  } else if (msg.type === "retry" && !SETTINGS.dev) {
    // Only the files that failed are fetched again; the stored status then lists what is still missing.
    event.waitUntil(readStatus().then((status) => precache(status ? status.failed : SETTINGS.files)));
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

async function cachedPage(url, exact = false) {
  const cache = await caches.open(CACHE);
  return (await cache.match(pageKey(url))) || (exact ? undefined : await cache.match(absolute("404.html")));
}

// Pages are revalidated with the server (a conditional request, cheap when nothing changed): the
// browser's HTTP cache may otherwise hand back a page of the previous deploy while it looks fresh
// (static hosts send max-age or none, and heuristic freshness then applies).
function revalidated(request) {
  try {
    return new Request(request, { cache: "no-cache" });
  } catch (_) {
    return request;
  }
}

function isReload(request) {
  return request.isReloadNavigation === true || request.cache === "no-cache" || request.cache === "reload";
}

// A page the player opens: this version's copy, whole and at once. On a phone at the table
// the network's round trip (or a 4 s wait on a poor one) came before anything else, a returning
// visit's engine included; every file the cached page names is in the same cache.
async function pageOpened(request, url) {
  return (await cachedPage(url, true)) || networkFirst(request, url);
}

async function networkFirst(request, url) {
  const network = fetch(revalidated(request));
  network.catch(() => {});
  let timer;
  // A reload (the player's, or the loader's when a page of a newer deploy shows up) asks for the
  // newest page: wait for the network, falling back to the cache only when it fails.
  const reload = isReload(request);
  const slow = new Promise((resolve) => {
    if (!reload) timer = setTimeout(resolve, NETWORK_WAIT_MS, "slow");
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
  const cache = await caches.open(CACHE);
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
  if (!isPage(request, url)) event.respondWith(cacheFirst(request));
  else if (request.mode === "navigate" && !isReload(request)) event.respondWith(pageOpened(request, url));
  else event.respondWith(networkFirst(request, url));
});
