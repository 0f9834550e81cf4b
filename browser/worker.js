// Calculator engine: one module Web Worker per tab running the bundled Pyodide
// with our wheel(s) (rules_core + calculators). Bundled into the site by sitebuild/bundle.py
// (an ES module, as esbuild makes it), which fills CONFIG (wheel names, inline lock file).
// Protocol: in  {type: "warm", names} | {type: "compute", id, name, values, root, built?}
//              | {type: "call", id, module, name, args}   (module: calculators.X with call_json)
//              | {type: "ping"}   (the page's heartbeat, answered {type: "pong"})
//              | {type: "keep"}   (the start stalled: keep what arrived, answered {type: "kept", kept})
//           out {type: "ready", timings, build} | {type: "boot-failed", error, resumable, kept}
//               | {type: "progress", bytes, total} | {type: "phase", step} | {type: "pong"}
//               | {type: "result", id, payload, ms?, asBuilt?} | {type: "failed", id, error} | {type: "fatal", id, error}
// A call's args are JSON text, measured against its limits ({chars, depth}) before Python reads it.

import { nestsDeeper } from "./lib/documents.js";
import { pack, unpack } from "./lib/snapshot-pages.js";

// Filled in by sitebuild/bundle.py: {pyodide, wheels, lock, build, stdlib, later, version, total, wasm}.
const CONFIG = __MNEME_WORKER_CONFIG__;

// What the page's early start says first, when it runs this worker from its text inlined in the page (a
// blob: no round trip for this file before Pyodide's downloads start): {url} (this file's address, which
// names the others) and, for tests only, {snapshotQuietMs} (see SNAPSHOT_QUIET_MS).
const early = globalThis.mnemeWorkerStart || {};
const here = new URL(".", early.url || import.meta.url);
const pyodideBase = new URL(CONFIG.pyodide, here);
const warmNames = new Set();
let runtime = null;

// Engine start progress: the bytes of the engine that have arrived so far, against the build's total
// (CONFIG.total, uncompressed), posted as they stream in ({type: "progress", bytes, total}; at most
// every PROGRESS_MS, and at the end of each file). The files this worker fetches itself (the
// WebAssembly, the standard library, our wheels) are counted chunk by chunk from a copy of their
// body; Pyodide's two scripts, which import() loads, once each has arrived (resource timing).
// Best effort, never in the way of the start.
const PROGRESS_MS = 100;
// When each step of the start ended, in ms from the worker's start (bench/ prints them), and when
// each file had arrived and the wheels were asked for (noted there only).
const phases = {};
function noted(step) {
  phases[step] ??= Math.round(performance.now());
}
const arrived = new Map(); // address -> bytes so far
let progressPosted = 0;

function postProgress(final) {
  const now = performance.now();
  if (!final && now - progressPosted < PROGRESS_MS) return;
  progressPosted = now;
  let bytes = 0;
  for (const n of arrived.values()) bytes += n;
  postMessage({ type: "progress", bytes, total: CONFIG.total || 0 });
}

// Counts `response`'s body as it arrives, reading a copy (the caller reads the original); resolves
// once it has all arrived (to true), or has failed to. `keep`: the chunks are kept meanwhile; should the download
// be cut, what arrived is kept for the next start to resume from (keepPartial); once whole, the file is
// handed to the offline copy (handOff). A body cut midway fails the start as "resumable": the page
// starts the engine again by itself (engine.js), and the next start goes on from there.
let cut = null; // the first download cut midway: {sentence, keeping (resolves once its bytes are kept)}
let keeping = null; // the WebAssembly under way: {href, response, chunks} (the page may ask to keep it)

function counted(href, response, keep = false, onChunk = null) {
  if (!response.ok || !response.body) return Promise.resolve();
  let reader;
  try {
    reader = response.clone().body.getReader();
  } catch (_) {
    return Promise.resolve();
  }
  arrived.set(href, 0);
  let chunks = keep ? [] : null;
  if (keep) {
    keeping = { href, response, chunks };
    announce(href, "downloading");
  }
  const next = () =>
    reader.read().then(({ done, value }) => {
      if (done) {
        noted(`${href.split("/").pop()} arrived`);
        if (chunks) handOff(href, response, chunks);
        chunks = null;
        keeping = null;
        postProgress(true);
        return true;
      }
      arrived.set(href, arrived.get(href) + value.byteLength);
      chunks?.push(value);
      onChunk?.(arrived.get(href));
      postProgress(false);
      return next();
    });
  return next().catch(() => {
    keeping = null;
    if (chunks) announce(href, "cut"); // the page starts again by itself: the copy waits for that
    const kb = String(Math.round(arrived.get(href) / 1000)); // as the status line writes kB
    const kept = chunks ? keepPartial(href, response, chunks) : Promise.resolve(false);
    cut ??= { sentence: `the connection was lost after ${kb} kB`, keeping: kept };
    // Pyodide only logs a WebAssembly cut short and waits: the start is said to have failed here.
    bootFailed(new Error(cut.sentence));
    return false;
  });
}

// The offline copy (the service worker, browser/offline/sw.js) saves the same files: the WebAssembly
// this worker has just downloaded is handed to it through Cache Storage, so it is sent once, even where
// the browser's HTTP cache cannot hold it (a private tab keeps no entry that large in memory). The copy
// asks first whether an engine is downloading it (a BroadcastChannel) and waits for it. Not when a copy
// of this origin already holds the file (a returning visit): nothing to hand over.
const HANDOFF_CACHE = `mneme-engine-handoff@${new URL("../../", here).pathname}`;
let channel = null;
const announced = new Map(); // href -> "downloading" | "cut" (to be started again) | "kept" | "failed"
try {
  channel = new BroadcastChannel(`mneme-engine@${new URL("../../", here).pathname}`);
  channel.onmessage = (event) => {
    const state = announced.get(event.data?.ask);
    if (state) channel.postMessage({ href: event.data.ask, state });
  };
} catch (_) {
  channel = null; // no BroadcastChannel: the copy downloads the file itself
}

function announce(href, state) {
  announced.set(href, state);
  channel?.postMessage({ href, state });
}

async function handOff(href, response, chunks) {
  try {
    if (await caches.match(href)) return announce(href, "failed"); // already in a copy: nothing to hand
    const headers = { "content-type": response.headers.get("content-type") || "application/wasm" };
    await (await caches.open(HANDOFF_CACHE)).put(href, new Response(new Blob(chunks), { headers }));
    announce(href, "kept");
  } catch (_) {
    announce(href, "failed"); // the copy downloads it itself
  }
}

// A download cut midway (a phone's link drops) is resumed by the next start from what had arrived,
// not from zero: those bytes are kept in Cache Storage with the file's validator, and the next start
// asks only for the rest (a byte range, valid only if the file is unchanged: If-Range), then hands
// Pyodide the two joined. Only for a server that says it serves ranges (GitHub Pages does).
const PARTIAL_CACHE = `mneme-engine-partial@${new URL("../../", here).pathname}`;
const PARTIAL_MIN = 256 * 1024;
const netFetch = self.fetch.bind(self); // the network's own fetch (self.fetch is wrapped below)

// Resolves to whether the bytes were kept. They are the file's own bytes (decoded, had it come
// compressed), and a request with a Range asks for those too (fetch sends it "Accept-Encoding:
// identity"). If-Range needs a strong validator: a weak ETag (a compressed copy's) is not one. When
// the rest as it is (uncompressed) would be more than the whole file compressed (the WebAssembly is
// about 2.7 times smaller gzipped: a cut before about 63 %), the next start asks for the whole again.
async function keepPartial(href, response, chunks) {
  const etag = response.headers.get("etag");
  const validator = etag && !etag.startsWith("W/") ? etag : response.headers.get("last-modified");
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  if (!validator || response.headers.get("accept-ranges") !== "bytes" || size < PARTIAL_MIN) return false;
  const compressed = response.headers.get("content-encoding") && Number(response.headers.get("content-length"));
  if (compressed && CONFIG.wasm && CONFIG.wasm - size > compressed) return false;
  try {
    const cache = await caches.open(PARTIAL_CACHE);
    const headers = { "content-type": "application/octet-stream", "x-mneme-validator": validator };
    await cache.put(href, new Response(new Blob(chunks), { headers }));
    return true;
  } catch (_) {
    return false; // no Cache Storage: the next start downloads it whole
  }
}

// The WebAssembly is asked for before Pyodide's other files (wasmAsked): on a server of HTTP/1.1 (six
// connections a host, shared with the page's stylesheets) it was the seventh request, and waited about
// 0.15 s for a connection while the others downloaded. They wait for it at most WASM_FIRST_MS (its
// request waits for Cache Storage, which may be slow to open): on HTTP/2 the order gains nothing.
const WASM_FIRST_MS = 30;
let wasmAsked = null;
const wasmOnItsWay = Promise.race([
  new Promise((resolve) => {
    wasmAsked = resolve;
  }),
  new Promise((resolve) => setTimeout(resolve, WASM_FIRST_MS)),
]);

async function resumeOrFetch(href) {
  try {
    return await resumeOrFetchWasm(href);
  } finally {
    wasmAsked();
  }
}

function netFetchWasm(...args) {
  const response = netFetch(...args);
  wasmAsked();
  return response;
}

async function resumeOrFetchWasm(href) {
  let kept = null;
  try {
    if (self.caches && (await caches.has(PARTIAL_CACHE))) {
      const cache = await caches.open(PARTIAL_CACHE);
      const hit = await cache.match(href);
      if (hit) kept = { bytes: new Uint8Array(await hit.arrayBuffer()), validator: hit.headers.get("x-mneme-validator") };
      await caches.delete(PARTIAL_CACHE);
    }
  } catch (_) {
    kept = null;
  }
  if (!kept?.validator || !kept.bytes.byteLength) return netFetchWasm(href);
  const rest = await netFetchWasm(href, { headers: { Range: `bytes=${kept.bytes.byteLength}-`, "If-Range": kept.validator } });
  if (rest.status !== 206 || !rest.body) return rest; // changed since, or no ranges: it came whole
  const reader = rest.body.getReader();
  const joined = new ReadableStream({
    start(controller) {
      controller.enqueue(kept.bytes);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  const validator = /^(W\/)?"/.test(kept.validator) ? "etag" : "last-modified";
  const headers = { "content-type": "application/wasm", "accept-ranges": "bytes", [validator]: kept.validator };
  return new Response(joined, { headers });
}

// Everything Pyodide needs at once: the moment this worker starts it asks for Pyodide's
// two scripts, its WebAssembly and standard library, instead of one after the other (pyodide.mjs
// first, then what it asks for). Pyodide fetches the wasm and the standard library itself; the
// first fetch of each of those addresses is handed the request already under way.
const pyodideFiles = {
  mjs: new URL("pyodide.mjs", pyodideBase).href,
  asm: new URL("pyodide.asm.mjs", pyodideBase).href,
  wasm: new URL("pyodide.asm.wasm", pyodideBase).href,
  stdlib: new URL(CONFIG.stdlib || "python_stdlib.zip", pyodideBase).href,
};
announced.set(pyodideFiles.wasm, "downloading"); // from the moment it is asked for
const underWay = new Map(
  [pyodideFiles.wasm, pyodideFiles.stdlib].map((href) => [
    href,
    (href === pyodideFiles.wasm ? resumeOrFetch(href) : wasmOnItsWay.then(() => netFetch(href))).then((response) => {
      // Our wheels are asked for as the WebAssembly (the largest file) is about to have arrived
      // (askWheels); Pyodide compiles the response itself as it streams in.
      const wasm = href === pyodideFiles.wasm;
      const whole = counted(href, response, wasm, wasm ? wheelsSoon : null);
      if (wasm) whole.then((arrived) => arrived && askWheels()); // a cut start asks for nothing more
      if (wasm) compileEarly(response); // after counted(), which reads a copy of it
      return response;
    }, (error) => {
      if (href === pyodideFiles.wasm) announce(href, "failed");
      // Refused outright (no answer at all): Pyodide would only log it and wait, so say it now.
      bootFailed(new Error(`an engine file could not be downloaded (${error?.message || error})`));
      throw error;
    }),
  ]),
);
// The WebAssembly is compiled as it arrives, from the moment its response is there, not once Pyodide's
// scripts have loaded and the snapshot has been read (Pyodide asks for it only then): on a returning
// visit, whose files come from the offline copy at once, its compile was the start's longest step
// after them. Pyodide's own instantiateStreaming of that response is handed the module compiled here
// (the same streaming compile, V8's code cache included); any other call goes through as it was.
let wasmEarly = null; // {response, module: Promise<WebAssembly.Module>}
function compileEarly(response) {
  if (typeof WebAssembly.compileStreaming !== "function" || !response.ok || !response.body) return;
  const module = WebAssembly.compileStreaming(response).then((compiled) => {
    noted("wasm compiled");
    return compiled;
  });
  module.catch(() => {}); // a cut download fails the start where its copy is counted (counted)
  wasmEarly = { response, module };
}
if (typeof WebAssembly.instantiateStreaming === "function") {
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (!wasmEarly || response !== wasmEarly.response) return instantiateStreaming(response, imports);
    const module = await wasmEarly.module;
    const instance = await WebAssembly.instantiate(module, imports);
    noted("wasm instantiated");
    return { module, instance };
  };
}
// Pyodide's start (a snapshot's restore too) links its JavaScript functions into the WebAssembly's table
// through a tiny WebAssembly module each (Emscripten's convertJsFunctionToWasm: about 260 of them, the
// same few bytes for each signature), each compiled synchronously on this thread: about a quarter of a
// second of a returning visit's start on the phone profile. A module of a few bytes is compiled once
// here and the same module handed back for the same bytes (a compiled module is immutable: each of
// them still gets an instance of its own); any other module is compiled as it was.
const TINY_MODULE = 128; // bytes
const tinyModules = { asked: 0, compiled: 0 }; // said with the start's timings (tests check them)
if (typeof WebAssembly.Module === "function") {
  const Compiled = WebAssembly.Module;
  const tiny = new Map();
  const Module = function Module(bytes, ...rest) {
    if (!new.target) throw new TypeError("WebAssembly.Module must be called with new");
    if (!ArrayBuffer.isView(bytes) || bytes.byteLength > TINY_MODULE || rest.length) return new Compiled(bytes, ...rest);
    const key = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).join(",");
    let module = tiny.get(key);
    if (!module) {
      module = new Compiled(bytes);
      tiny.set(key, module);
      tinyModules.compiled += 1;
    }
    tinyModules.asked += 1;
    return module;
  };
  Object.setPrototypeOf(Module, Compiled); // its static functions (exports, imports, customSections)
  Module.prototype = Compiled.prototype; // instanceof WebAssembly.Module holds for every module
  WebAssembly.Module = Module;
}
try {
  const scripts = new Set([pyodideFiles.mjs, pyodideFiles.asm]);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!scripts.has(entry.name)) continue;
      arrived.set(entry.name, entry.decodedBodySize || entry.encodedBodySize || 0);
      postProgress(true);
    }
  }).observe({ type: "resource", buffered: true });
} catch (_) {
  /* no resource timing in this worker: Pyodide's scripts are not counted */
}
const plainFetch = self.fetch.bind(self);
self.fetch = (input, init) => {
  const href = input instanceof URL ? input.href : typeof input === "string" ? new URL(input, here).href : "";
  const started = underWay.get(href);
  if (!started) return plainFetch(input, init);
  underWay.delete(href);
  return started;
};
const pyodideScripts = wasmOnItsWay.then(() => Promise.all([import(pyodideFiles.mjs), import(pyodideFiles.asm)]));
pyodideScripts.catch(() => {});

// Our wheels are needed only once Pyodide has started, so they do not share the link with its
// WebAssembly: they are asked for as its last bytes come (WHEEL_AT of it arrived: on the phone profile
// about a round trip's worth of the link before its end), so their bytes follow the WebAssembly's on
// the link and arrive while Pyodide starts. Asked only once it had all arrived, they were asked once
// Pyodide had started (the worker's thread is busy in between): a serial half second on the phone
// profile. Should that moment not be seen, they are asked for once it has all arrived, or when
// first needed.
const WHEEL_AT = 0.97;
function wheelsSoon(bytes) {
  if (!wheelsAsked && CONFIG.wasm && bytes >= WHEEL_AT * CONFIG.wasm) askWheels();
}

// With our wheels, the standard library's modules only our code imports (CONFIG.later, its address
// from this file; sitebuild/bundle.py: LATER): Pyodide's start never needs them. Each is put on
// sys.path as a zip, under its file name.
const LATER_FILES = [...CONFIG.wheels, ...(CONFIG.later ? [CONFIG.later] : [])];
const onPath = (name) => `/lib/${name.split("/").pop()}`;

let wheelsAsked = null;
function askWheels() {
  if (!wheelsAsked) {
    noted("wheels asked");
    wheelsAsked = LATER_FILES.map((name) => fetchBytes(new URL(name, here)));
    for (const p of wheelsAsked) p.catch(() => {});
  }
  return wheelsAsked;
}

function fetchBytes(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
    counted(url.href, response);
    return response.arrayBuffer();
  });
}

// Memory snapshot: a returning visitor's engine restores Python's memory as it was once
// every calculator module had been imported, instead of starting the interpreter again. The
// snapshot is taken once the first visit's engine has been quiet a few seconds (never delaying a result),
// keyed by the Pyodide version and our wheels' names (content hashes), kept in Cache Storage.
// Whatever fails (no Cache Storage, a snapshot that will not restore or cannot be made), the
// engine boots normally, and a snapshot that would not restore is not made again for that key.
// bench/bench_site.py measures it; tests/browser/test_offline.py checks it and the fallback.
// Named by the site's own scope: two sites on one origin never touch each other's snapshot.
const SNAPSHOT_CACHE = `mneme-engine-snapshot@${new URL("../../", here).pathname}`;

function snapshotKey(version) {
  const later = CONFIG.later ? [CONFIG.later.split("/").pop()] : [];
  const files = [...CONFIG.wheels, ...(CONFIG.stdlib ? [CONFIG.stdlib] : []), ...later];
  const name = `${encodeURIComponent(version)}/${files.map(encodeURIComponent).join("+")}`;
  return new URL(`__engine-snapshot__/sparse/${name}`, here).href;
}

async function readSnapshot(key) {
  try {
    if (!self.caches) return { bytes: null, allowed: false };
    const cache = await caches.open(SNAPSHOT_CACHE);
    const [failed, hit] = await Promise.all([cache.match(`${key}?failed`), cache.match(key)]);
    if (failed) return { bytes: null, allowed: false };
    if (!hit) return { bytes: null, allowed: true };
    try {
      return { bytes: unpack(new Uint8Array(await hit.arrayBuffer())), allowed: true };
    } catch (error) {
      console.warn(`engine snapshot unreadable (${error.message}): starting normally`);
      return { bytes: null, allowed: true };
    }
  } catch (_) {
    return { bytes: null, allowed: false };
  }
}

async function storeSnapshot(key, bytes, failed = false) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const old of await cache.keys()) await cache.delete(old);
    const headers = { "content-type": "application/octet-stream" };
    await cache.put(failed ? `${key}?failed` : key, new Response(failed ? "" : bytes, { headers }));
  } catch (error) {
    console.warn(`engine snapshot not stored: ${(error?.message) || error}`);
  }
}

// Our wheels are imported from as they are, zip files on sys.path (as Pyodide does with its standard
// library), not unpacked: unpacking took ~0.25 s on a phone at every start. Their data files are read
// with importlib.resources, which reads zips. After a snapshot restore, sys.path already lists them
// (it is Python's memory); the files are written again, the same bytes (the snapshot's key names them).
async function install(pyodide) {
  const paths = LATER_FILES.map(onPath);
  (await Promise.all(askWheels())).forEach((buffer, i) => {
    pyodide.FS.writeFile(paths[i], new Uint8Array(buffer));
  });
  pyodide.runPython(`import sys\nfor p in reversed(${JSON.stringify(paths)}):\n    p in sys.path or sys.path.insert(0, p)`);
}

let loadedAt = 0;
// Each step is said to the page too: a start that moves on is not a stalled one (engine.js).
const reached = (step) => {
  phases[step] = Math.round(performance.now());
  postMessage({ type: "phase", step });
};

async function restore(pyodideModule, options, bytes) {
  const pyodide = await pyodideModule.loadPyodide({ ...options, _loadSnapshot: bytes });
  loadedAt = performance.now();
  reached("pyodide");
  await install(pyodide); // the file system is not part of the snapshot
  reached("wheel");
  pyodide.runPython("import random\nrandom.seed()"); // nor should its random state be shared
  return pyodide.pyimport("calculators.framework.runtime");
}

// The snapshot waits for a quiet engine: SNAPSHOT_QUIET_MS with no request from the page (each one
// starts the wait again: quietAgain), so its work (about a second of CPU, four on a phone) never holds
// back a player's answer, and a tab closed within seconds never pays for it. Tests may shorten the wait
// (the early start's snapshotQuietMs); a phone always gets the default.
const SNAPSHOT_QUIET_MS = early.snapshotQuietMs > 0 ? Number(early.snapshotQuietMs) : 5000;
let snapshotDue = null; // the snapshot still to take: {take, timer}

function quietAgain() {
  if (!snapshotDue) return;
  clearTimeout(snapshotDue.timer);
  snapshotDue.timer = setTimeout(() => {
    const { take } = snapshotDue;
    snapshotDue = null;
    take();
  }, SNAPSHOT_QUIET_MS);
}

function snapshotLater(pyodide, key) {
  snapshotDue = { take: () => takeSnapshot(pyodide, key), timer: null };
  quietAgain();
}

async function takeSnapshot(pyodide, key) {
  let bytes = null;
  try {
    runtime.destroy(); // a snapshot may hold no live Python proxy
    runtime = null;
    // Every calculator imported and computed once with its defaults (twice: the second run is the
    // one Python has specialised for), so a restored engine's first results run warm code.
    pyodide.runPython(
      [
        "import calculators.framework.registry as _g, calculators.framework.runtime as _r",
        "_r.warm(','.join(_g.names()))",
        "for _n in list(_g.names()) * 2: _r.compute(_n)",
        "del _g, _r, _n",
      ].join("\n"),
    );
    bytes = pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn(`engine snapshot not made: ${(error?.message) || error}`);
  } finally {
    if (!runtime) runtime = pyodide.pyimport("calculators.framework.runtime");
  }
  if (bytes) await storeSnapshot(key, pack(bytes));
}

async function boot() {
  const t0 = performance.now();
  const key = snapshotKey(CONFIG.version);
  const savedSnapshot = readSnapshot(key); // read while the scripts load
  const [pyodideModule, asmModule] = await pyodideScripts;
  reached("scripts");
  const options = {
    indexURL: pyodideBase.href,
    lockFileContents: CONFIG.lock,
    packageBaseUrl: pyodideBase.href,
    createPyodideModule: asmModule.default, // loaded above, beside pyodide.mjs
    // Only the standard library the engine and Pyodide's start-up import, compiled (sitebuild/bundle.py).
    stdLibURL: pyodideFiles.stdlib,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  };
  const saved = await savedSnapshot;
  reached("snapshot_read");
  let snapshot = "none";
  if (saved.bytes) {
    try {
      runtime = await restore(pyodideModule, options, saved.bytes);
      snapshot = "restored";
    } catch (error) {
      console.warn(`engine snapshot did not restore; starting normally: ${(error?.message) || error}`);
      const wheelsArrived = await Promise.all(askWheels()).then(() => true, () => false);
      if (wheelsArrived) await storeSnapshot(key, null, true); // the snapshot was at fault
      saved.allowed = false;
    }
  }
  if (snapshot !== "restored") {
    const pyodide = await pyodideModule.loadPyodide({ ...options, _makeSnapshot: saved.allowed });
    loadedAt = performance.now();
    reached("pyodide");
    await install(pyodide);
    reached("wheel");
    runtime = pyodide.pyimport("calculators.framework.runtime");
    if (saved.allowed) {
      snapshotLater(pyodide, key);
      snapshot = "scheduled";
    }
  }
  for (const name of warmNames) {
    try {
      runtime.warm(name);
    } catch (error) {
      console.warn(String(error));
    }
  }
  reached("ready");
  const t2 = performance.now();
  // origin: this worker's clock's zero (epoch ms), so the page can place the phases on its own clock.
  return { pyodide_ms: loadedAt - t0, total_ms: t2 - t0, snapshot, phases, origin: performance.timeOrigin, modules: tinyModules };
}

let bootSettled = false;
let bootFailure = false; // the start has failed: what else its downloads reject with is not news

// Said a moment later (a body cut midway may surface first as Pyodide's own error): a download cut
// midway is said as such, once its bytes are kept, and is "resumable" (engine.js starts again by itself).
function bootFailed(error) {
  if (bootSettled) return;
  bootSettled = true;
  bootFailure = true;
  setTimeout(async () => {
    const kept = cut ? await cut.keeping : false;
    const words = cut ? cut.sentence : String((error?.message) || error);
    postMessage({ type: "boot-failed", error: words, resumable: Boolean(cut), kept });
  }, 0);
}

// The page found the start stalled (nothing arrives): what arrived of the WebAssembly is kept first,
// so the next start goes on from there (answered {type: "kept"} before the page ends this worker).
async function keepWhatArrived() {
  const under = keeping;
  keeping = null;
  let kept = false;
  if (under) {
    announce(under.href, "cut");
    kept = await keepPartial(under.href, under.response, under.chunks.slice());
  }
  postMessage({ type: "kept", kept });
}

// A failed wasm fetch inside Pyodide can surface only as an unhandled rejection while
// loadPyodide stays pending: report it as a failed boot instead of waiting for the timeout.
self.addEventListener("unhandledrejection", (event) => {
  if (bootFailure) event.preventDefault();
  if (bootSettled) return;
  event.preventDefault();
  bootFailed(event.reason);
});

const booted = boot();
booted.then((timings) => {
  if (bootSettled) return;
  bootSettled = true;
  postMessage({ type: "ready", timings, build: CONFIG.build }); // the build of the wheel it runs
}, bootFailed);

self.onmessage = async (event) => {
  const msg = event.data || {};
  // The page's heartbeat: answered at once, whenever this worker's thread is free (engine.js).
  if (msg.type === "ping") {
    postMessage({ type: "pong" });
    return;
  }
  if (msg.type === "keep") {
    keepWhatArrived();
    return;
  }
  quietAgain(); // a request: the engine is not quiet yet
  if (msg.type === "warm") {
    for (const name of String(msg.names || "").split(",")) if (name) warmNames.add(name);
    if (runtime) {
      try {
        runtime.warm(String(msg.names || ""));
      } catch (error) {
        console.error(String(error));
      }
    }
    return;
  }
  if (msg.type === "call") {
    const args = typeof msg.args === "string" ? msg.args : "{}";
    const refused = measure(args, msg.limits);
    if (refused) {
      postMessage({ type: "result", id: msg.id, payload: { ok: false, error: refused, path: "" } });
      return;
    }
    try {
      await booted;
      const text = runtime.call_json(String(msg.module), String(msg.name), args);
      postMessage({ type: "result", id: msg.id, payload: JSON.parse(text) });
    } catch (error) {
      reportFailure(msg.id, error);
    }
    return;
  }
  if (msg.type !== "compute") return;
  try {
    await booted;
    const t0 = performance.now();
    const text = runtime.compute_json(String(msg.name), JSON.stringify(msg.values || {}), String(msg.root || ""));
    const payload = JSON.parse(text);
    const ms = performance.now() - t0;
    const asBuilt = msg.built ? await writesAsBuilt(payload, msg.built) : false;
    postMessage({ type: "result", id: msg.id, payload, ms, asBuilt });
  } catch (error) {
    reportFailure(msg.id, error);
  }
};

// Whether an answer writes what the page was built with: the key of its details and hand-off links
// (SHA-256 of both in UTF-8, a NUL between them, in hex: sitebuild/calculator_pages.py's built_key)
// equals `key`, the page's data-built. The page then leaves that HTML as it is (no parse, no compare).
// Without Web Crypto (an insecure context) it never does: the page compares as always.
async function writesAsBuilt(payload, key) {
  try {
    if (typeof key !== "string" || !globalThis.crypto?.subtle) return false;
    const text = `${payload.details || ""}\u0000${payload.next || ""}`;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("") === key;
  } catch (_) {
    return false;
  }
}

// Bounded input: a call's JSON text is measured here, before Python parses it, against
// the page's limits (Python's, sitebuild/table_ui.py): its length, and its nesting depth
// (nestsDeeper: one pass over the text, no recursion, no parse). Answers a sentence for the page, or "" when it fits.
function measure(text, limits) {
  if (!limits || !(limits.chars > 0) || !(limits.depth > 0)) return "The rules engine was given no limits to check this against.";
  if (text.length > limits.chars) return `Too large to read (${text.length} characters; at most ${limits.chars}).`;
  if (nestsDeeper(text, limits.depth)) return `Too deeply nested to be read (more than ${limits.depth} levels).`;
  return "";
}

// A JavaScript stack overflow or a WebAssembly trap leaves Pyodide unusable: say "fatal", so the
// page replaces this worker; any other error is an ordinary failure of that one request.
let dead = false;
function reportFailure(id, error) {
  const text = String((error?.message) || error);
  const fatal =
    dead ||
    error instanceof RangeError ||
    (typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError) ||
    /Maximum call stack size exceeded|fatally failed|Pyodide has suffered a fatal error/i.test(text);
  if (fatal) {
    dead = true;
    postMessage({ type: "fatal", id, error: text });
  } else postMessage({ type: "failed", id, error: text });
}
