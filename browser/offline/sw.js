// Offline service worker (template). hooks/offline.py writes it to the site root as sw.js after the
// build, filling SETTINGS: the build hash, every file to precache (URLs relative to this script,
// so a project sub-path works), each file's SHA-256 (16 hex digits), which are named by their content
// (fixed) and which are the engine's.
//   install:  precache file by file, each retried a few times, and every file's bytes checked against
//             the build's sum before it is kept: the copy is one build's, proven, whatever deploys
//             meanwhile. A file this site's older copy already holds with the same sum is taken from
//             it (a docs-only deploy downloads only what changed); a file named by its content is
//             taken from the HTTP cache when there (the engine has just downloaded it: a first visit
//             gets each engine file once), others are revalidated with the server; the engine's files
//             come last. The WebAssembly an engine of this site is downloading is waited for and handed
//             over by it (a Cache Storage cache): sent once even where the HTTP cache cannot hold it. A file whose bytes are another build's (a deploy landed during the copy)
//             is "outdated": the copy is never called available, and the new version is fetched
//             (registration.update); it takes over by itself when this copy is not complete. An
//             outdated copy beside a complete active one fails its install (it is never offered). A file
//             that still fails does not stop the others: the worker installs, records what failed
//             and tells the pages (progress and outcome).
//   activate: delete older caches of this site only, take control of open pages
//   fetch:    a page opened by the player (a link from elsewhere, a bookmark, the home screen) comes
//             from this version's cache when it holds it: at once, whatever the network; a page
//             instant navigation asks for, or one not cached, is network-first (the cached copy when
//             offline or after a slow wait); a reload waits for the network as long as it takes,
//             since the player asked for the newest page. Everything else cache-first, the network
//             when not cached (a file of this build that passes is kept, once its sum checks); the
//             engine's WebAssembly from the browser's HTTP cache first, where V8's compiled code is. A new
//             deploy still reaches the player: by instant navigation, by a reload, by the Update
//             notice (the browser checks sw.js at each navigation), or by itself once no tab of the
//             old version is open.
//   message:  "status" (what is cached), "retry" (fetch the files that failed), "skip-waiting"
//             (the page's Update button: the waiting new version takes over now).
// Cache names end with this site's own scope ("mneme-offline-HASH@/sub/path/"): two sites on one
// origin (GitHub Pages project sites) never touch each other's caches.
// Why not Workbox: its precache fails the whole install when one file fails (the all-or-nothing
// fault this worker exists to avoid) and brings a runtime bigger than this file; our files are
// already named by content hash, which is what its revision manifest would add.

const SETTINGS = /*MNEME_OFFLINE*/ {
  build: "dev",
  prefix: "mneme-offline-",
  files: [],
  sums: [],
  fixed: [],
  engine: [],
  dev: true,
} /*END_MNEME_OFFLINE*/;

const SCOPE = new URL("./", self.location.href);
const SUFFIX = `@${SCOPE.pathname}`;
const CACHE = `${SETTINGS.prefix}${SETTINGS.build}${SUFFIX}`;
const STATUS_KEY = new URL("__offline-status__", SCOPE).href;
// The engine's worker (browser/worker.js) hands over the WebAssembly it downloaded here, and says on
// this channel whether it is downloading it ("downloading", then "kept" or "failed").
const HANDOFF = `mneme-engine-handoff${SUFFIX}`;
const CHANNEL = `mneme-engine${SUFFIX}`;
// How long an engine may take to say it is downloading a file. Its worker answers between the steps of
// its start, some of which run for a second or more on a slow phone; unanswered, the copy downloads the
// 9.6 MB WebAssembly a second time. Where no engine runs, this is waited once per copy.
const ASK_MS = 2000;
const DOWNLOADING_MS = 5000; // how often it is asked again while it says so
const RESTART_WAIT_MS = 40000; // how long an engine whose download was cut may take to start again
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

const SUMS = new Map(SETTINGS.files.map((path, i) => [absolute(path), SETTINGS.sums[i]]));
const FIXED = new Set(SETTINGS.fixed.map((i) => absolute(SETTINGS.files[i])));
const ENGINE = new Set(SETTINGS.engine.map((i) => absolute(SETTINGS.files[i])));

class Outdated extends Error {}

async function sum(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The response to keep for `href`, its bytes checked against the build's sum; null when they differ.
async function checked(href, response) {
  const buffer = await response.arrayBuffer();
  if ((await sum(buffer)) !== SUMS.get(href)) return null;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(buffer, { status: 200, statusText: "OK", headers });
}

// This file from an older copy of this site, or handed over by the engine, when it holds the same bytes
// (no download at all).
async function carried(href) {
  for (const name of await caches.keys()) {
    if ((!ours(name) || name === CACHE) && name !== HANDOFF) continue;
    const hit = await (await caches.open(name)).match(href);
    if (hit) {
      const kept = await checked(href, hit);
      if (kept) return kept;
    }
  }
  return null;
}

// A file named by its content may come from the HTTP cache as it is (force-cache: where the engine's
// own download just put it); any other file, or bytes that do not check, are asked of the server
// again (no-cache: revalidated, then reload: fresh). Bytes of another build from the server itself
// mean a deploy landed: Outdated.
async function fetchOne(href) {
  let last = null;
  const modes = FIXED.has(href) ? ["force-cache", "reload", "reload"] : ["no-cache", "reload", "reload"];
  let mismatches = 0;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (attempt && !mismatches) await pause(300 * 3 ** (attempt - 1));
    try {
      const response = await fetch(new Request(href, { cache: modes[attempt] }));
      if (response.ok) {
        const kept = await checked(href, response);
        if (kept) return kept;
        mismatches += 1;
        last = new Outdated(`${href}: another build's bytes`);
        if (mismatches >= 2) break;
        continue;
      }
      last = new Error(`HTTP ${response.status}`);
    } catch (error) {
      last = error;
    }
  }
  throw last || new Error("no answer");
}

// While an engine of this site (any tab) says it is downloading `href`, wait for it: it hands the file
// over once whole ("kept"), or says it failed. Its download cut ("cut"), the page starts it again by
// itself after a pause (browser/engine.js): waited for a while. An engine that no longer answers (its
// tab closed, or it stopped) is not waited for.
async function engineDownload(href) {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(CHANNEL);
  const heard = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms, "");
      channel.onmessage = (event) => {
        if (event.data?.href !== href || !event.data.state) return;
        if (ms === ASK_MS || event.data.state !== "downloading") {
          clearTimeout(timer);
          resolve(event.data.state);
        }
      };
    });
  let cutAt = 0;
  try {
    for (;;) {
      const answer = heard(ASK_MS);
      channel.postMessage({ ask: href });
      const state = await answer;
      if (state === "downloading") {
        cutAt = 0;
        const change = await heard(DOWNLOADING_MS); // "" while it still downloads
        if (change === "kept" || change === "failed") return;
        if (change === "cut") cutAt = Date.now();
      } else if (state === "cut" || (state === "" && cutAt)) {
        cutAt ||= Date.now();
        if (Date.now() - cutAt > RESTART_WAIT_MS) return; // it did not start again
        await pause(1000);
      } else return; // handed over, failed, or no engine downloading it
    }
  } finally {
    channel.close();
  }
}

async function readStatus() {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(STATUS_KEY);
  return hit ? hit.json() : null;
}

function stateOf(status) {
  if (!status) return "saving";
  if (status.outdated?.length) return "outdated";
  return status.failed.length ? "partial" : "ready";
}

// Cache every file in `paths` not cached yet; returns (and stores, and tells the pages) the outcome.
// The engine's files go last: on a first visit the engine is downloading them, and the HTTP cache
// then hands them over instead of the network sending them a second time.
async function precache(paths) {
  const cache = await caches.open(CACHE);
  const hrefs = paths.map(absolute);
  const queue = [...hrefs.filter((h) => !ENGINE.has(h)), ...hrefs.filter((h) => ENGINE.has(h))];
  const failed = [];
  const outdated = [];
  const counts = { carried: 0, fetched: 0 };
  let done = 0;
  let told = 0;
  await tell({ state: "saving", done, total: paths.length, failed });
  async function next() {
    while (queue.length) {
      const href = queue.shift();
      const path = href.slice(SCOPE.href.length) || "./";
      try {
        if (!(await cache.match(href))) {
          let old = await carried(href);
          if (!old && ENGINE.has(href) && href.endsWith(".wasm")) {
            await engineDownload(href);
            old = await carried(href);
          }
          if (old) counts.carried += 1;
          else counts.fetched += 1;
          await cache.put(href, old || (await fetchOne(href)));
        }
      } catch (error) {
        (error instanceof Outdated ? outdated : failed).push(path);
      }
      done += 1;
      if (done - told >= Math.max(1, paths.length / 20) || done === paths.length) {
        told = done;
        tell({ state: "saving", done, total: paths.length, failed });
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, next));
  await caches.delete(HANDOFF);
  failed.sort();
  outdated.sort();
  const status = { build: SETTINGS.build, total: SETTINGS.files.length, failed, outdated, at: Date.now(), counts };
  const headers = { "content-type": "application/json" };
  await cache.put(STATUS_KEY, new Response(JSON.stringify(status), { headers }));
  await tell({ state: stateOf(status), ...status });
  return status;
}

// The status of the version now in control (another cache of this site), when there is one.
async function activeStatus() {
  const active = self.registration.active;
  if (!active || active === self.serviceWorker) return null;
  for (const name of await caches.keys()) {
    if (!ours(name) || name === CACHE) continue;
    const hit = await (await caches.open(name)).match(STATUS_KEY);
    const status = hit ? await hit.json() : null;
    if (status && !status.abandoned) return status; // an abandoned copy's files only wait to be carried over
  }
  return null;
}

self.addEventListener("install", (event) => {
  if (SETTINGS.dev) {
    self.skipWaiting();
    return;
  }
  event.waitUntil(
    (async () => {
      const status = await precache(SETTINGS.files);
      // A complete copy replaces at once a version whose copy is not (nothing of value is lost: that
      // copy could not serve the site offline); otherwise the new version waits for the Update notice.
      // Overtaken by a deploy while a complete version runs: this one must never wait to be chosen
      // (Update would switch to an incomplete copy); it fails, the pages ask for the newest version.
      if (stateOf(status) === "outdated" && self.registration.active) {
        const headers = { "content-type": "application/json" };
        const abandoned = JSON.stringify({ ...status, abandoned: true });
        await (await caches.open(CACHE)).put(STATUS_KEY, new Response(abandoned, { headers }));
        throw new Error("outdated copy");
      }
      const before = await activeStatus();
      if (stateOf(status) === "ready" && self.registration.active && stateOf(before) !== "ready") {
        await self.skipWaiting();
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (ours(name) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
      // This copy holds another build's bytes: a deploy landed while it was saved; fetch that version.
      const status = await readStatus();
      if (stateOf(status) === "outdated") self.registration.update().catch(() => {});
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
        const state = stateOf(status);
        source.postMessage({ type: "offline-status", cache: CACHE, state, build: SETTINGS.build, ...status, reply: true });
      }),
    );
  } else if (msg.type === "retry" && !SETTINGS.dev) {
    // Only the files that failed are fetched again; the stored status then lists what is still missing.
    event.waitUntil(readStatus().then((status) => precache(status ? [...status.failed, ...(status.outdated || [])] : SETTINGS.files)));
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

// A file of this build that passes on its way to the engine or a page is kept once its bytes check,
// so the precache has nothing left to fetch for it.
async function keep(href, response) {
  try {
    const kept = await checked(href, response);
    if (kept) await (await caches.open(CACHE)).put(href, kept);
  } catch (_) {
    /* best effort: the precache fetches it anyway */
  }
}

// The engine's WebAssembly, named by its content, comes from the browser's HTTP cache when it still
// holds it (never from the network: only-if-cached), handed on as it is. Chromium keeps the module V8
// compiled (its code cache) beside that HTTP cache entry, and gives it to a response a service worker
// passes through unchanged; one made from Cache Storage's copy here gets none. So a returning visit
// starts from the optimised code the first visit made instead of compiling the 9.6 MB again. Not held
// there (evicted, a private tab, another browser): the offline copy, as any other file.
const FROM_HTTP_CACHE = new Set([...ENGINE].filter((href) => FIXED.has(href) && href.endsWith(".wasm")));

async function httpCached(href) {
  try {
    const hit = await fetch(new Request(href, { cache: "only-if-cached", mode: "same-origin" }));
    return hit.ok ? hit : null;
  } catch (_) {
    return null;
  }
}

async function cacheFirst(event) {
  const request = event.request;
  const passed = FROM_HTTP_CACHE.has(request.url) ? await httpCached(request.url) : null;
  if (passed) return passed;
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  const href = request.url.split("#")[0];
  if (response.ok && SUMS.has(href) && !response.redirected) event.waitUntil(keep(href, response.clone()));
  return response;
}

self.addEventListener("fetch", (event) => {
  if (SETTINGS.dev) return;
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  if (request.headers.has("range")) return;
  if (!isPage(request, url)) event.respondWith(cacheFirst(event));
  else if (request.mode === "navigate" && !isReload(request)) event.respondWith(pageOpened(request, url));
  else event.respondWith(networkFirst(request, url));
});
