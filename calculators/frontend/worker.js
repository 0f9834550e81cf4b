// Calculator engine: one module Web Worker per tab running the bundled Pyodide
// with our wheel(s) (rules_core + calculators). Built into the site by
// hooks/calculator_pages.py, which fills CONFIG (wheel names, inline lock file).
// Protocol: in  {type: "warm", names} | {type: "compute", id, name, values, root}
//              | {type: "call", id, module, name, args}   (module: calculators.X with call_json)
//           out {type: "ready", timings} | {type: "boot-failed", error}
//               | {type: "result", id, payload} | {type: "failed", id, error}

const CONFIG = /*MNEME_CONFIG*/ { pyodide: "../pyodide/", wheels: [], lock: null } /*END_MNEME_CONFIG*/;

const here = new URL(".", import.meta.url);
const pyodideBase = new URL(CONFIG.pyodide, here);
const warmNames = new Set();
let runtime = null;

function fetchBytes(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

// Memory snapshot (issue 6): a returning visitor's engine restores Python's memory as it was once
// every calculator module had been imported, instead of starting the interpreter again. The
// snapshot is taken a little after the first visit's engine is ready (never delaying a result),
// keyed by the Pyodide version and our wheels' names (content hashes), kept in Cache Storage.
// Whatever fails (no Cache Storage, a snapshot that will not restore or cannot be made), the
// engine boots normally, and a snapshot that would not restore is not made again for that key.
// bench/bench_site.py measures it; tests/browser/test_offline.py checks it and the fallback.
const SNAPSHOT_CACHE = "mneme-engine-snapshot";

function snapshotKey(version) {
  const name = `${encodeURIComponent(version)}/${CONFIG.wheels.map(encodeURIComponent).join("+")}`;
  return new URL(`__engine-snapshot__/${name}`, here).href;
}

async function readSnapshot(key) {
  try {
    if (!self.caches) return { bytes: null, allowed: false };
    const cache = await caches.open(SNAPSHOT_CACHE);
    if (await cache.match(`${key}?failed`)) return { bytes: null, allowed: false };
    const hit = await cache.match(key);
    return { bytes: hit ? new Uint8Array(await hit.arrayBuffer()) : null, allowed: true };
  } catch (error) {
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
    console.warn(`engine snapshot not stored: ${(error && error.message) || error}`);
  }
}

async function install(pyodide, wheels) {
  const sitePackages = pyodide.runPython(
    "import sys\nnext(p for p in sys.path if p.endswith('site-packages'))",
  );
  for (const buffer of await Promise.all(wheels)) {
    pyodide.unpackArchive(buffer, "wheel", { extractDir: sitePackages });
  }
}

let loadedAt = 0;

async function restore(pyodideModule, options, wheels, bytes) {
  const pyodide = await pyodideModule.loadPyodide({ ...options, _loadSnapshot: bytes });
  loadedAt = performance.now();
  await install(pyodide, wheels); // the file system is not part of the snapshot
  pyodide.runPython("import random\nrandom.seed()"); // nor should its random state be shared
  return pyodide.pyimport("calculators.framework.runtime");
}

const SNAPSHOT_DELAY_MS = 1500;

function snapshotLater(pyodide, key) {
  setTimeout(async () => {
    let bytes = null;
    try {
      runtime.destroy(); // a snapshot may hold no live Python proxy
      runtime = null;
      pyodide.runPython(
        "import calculators.framework.registry as _g, calculators.framework.runtime as _r\n_r.warm(','.join(_g.names()))\ndel _g, _r",
      );
      bytes = pyodide.makeMemorySnapshot();
    } catch (error) {
      console.warn(`engine snapshot not made: ${(error && error.message) || error}`);
    } finally {
      if (!runtime) runtime = pyodide.pyimport("calculators.framework.runtime");
    }
    if (bytes) await storeSnapshot(key, bytes);
  }, SNAPSHOT_DELAY_MS);
}

async function boot() {
  const t0 = performance.now();
  // Fetch our wheels while Pyodide boots.
  const wheels = CONFIG.wheels.map((name) => fetchBytes(new URL(name, here)));
  wheels.forEach((p) => p.catch(() => {}));
  const pyodideModule = await import(new URL("pyodide.mjs", pyodideBase).href);
  const options = {
    indexURL: pyodideBase.href,
    lockFileContents: CONFIG.lock,
    packageBaseUrl: pyodideBase.href,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  };
  const key = snapshotKey(pyodideModule.version);
  const saved = await readSnapshot(key);
  let snapshot = "none";
  if (saved.bytes) {
    try {
      runtime = await restore(pyodideModule, options, wheels, saved.bytes);
      snapshot = "restored";
    } catch (error) {
      console.warn(`engine snapshot did not restore; starting normally: ${(error && error.message) || error}`);
      const wheelsArrived = await Promise.all(wheels).then(() => true, () => false);
      if (wheelsArrived) await storeSnapshot(key, null, true); // the snapshot was at fault
      saved.allowed = false;
    }
  }
  if (snapshot !== "restored") {
    const pyodide = await pyodideModule.loadPyodide({ ...options, _makeSnapshot: saved.allowed });
    loadedAt = performance.now();
    await install(pyodide, wheels);
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
  const t2 = performance.now();
  return { pyodide_ms: loadedAt - t0, total_ms: t2 - t0, snapshot };
}

let bootSettled = false;
function bootFailed(error) {
  if (bootSettled) return;
  bootSettled = true;
  postMessage({ type: "boot-failed", error: String((error && error.message) || error) });
}

// A failed wasm fetch inside Pyodide can surface only as an unhandled rejection while
// loadPyodide stays pending: report it as a failed boot instead of waiting for the timeout.
self.addEventListener("unhandledrejection", (event) => {
  if (bootSettled) return;
  event.preventDefault();
  bootFailed(event.reason);
});

const booted = boot();
booted.then((timings) => {
  if (bootSettled) return;
  bootSettled = true;
  postMessage({ type: "ready", timings });
}, bootFailed);

self.onmessage = async (event) => {
  const msg = event.data || {};
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
    try {
      await booted;
      const text = runtime.call_json(String(msg.module), String(msg.name), JSON.stringify(msg.args || {}));
      postMessage({ type: "result", id: msg.id, payload: JSON.parse(text) });
    } catch (error) {
      postMessage({ type: "failed", id: msg.id, error: String((error && error.message) || error) });
    }
    return;
  }
  if (msg.type !== "compute") return;
  try {
    await booted;
    const t0 = performance.now();
    const text = runtime.compute_json(String(msg.name), JSON.stringify(msg.values || {}), String(msg.root || ""));
    postMessage({ type: "result", id: msg.id, payload: JSON.parse(text), ms: performance.now() - t0 });
  } catch (error) {
    postMessage({ type: "failed", id: msg.id, error: String((error && error.message) || error) });
  }
};
