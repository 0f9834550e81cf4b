// Calculator engine: one module Web Worker per tab running the bundled Pyodide
// with our wheel(s) (rules_core + calculators). Built into the site by
// hooks/calculators.py, which fills CONFIG (wheel names, inline lock file).
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

async function boot() {
  const t0 = performance.now();
  // Fetch our wheels while Pyodide boots.
  const wheels = CONFIG.wheels.map((name) => fetchBytes(new URL(name, here)));
  wheels.forEach((p) => p.catch(() => {}));
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideBase).href);
  const pyodide = await loadPyodide({
    indexURL: pyodideBase.href,
    lockFileContents: CONFIG.lock,
    packageBaseUrl: pyodideBase.href,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  });
  const t1 = performance.now();
  const sitePackages = pyodide.runPython(
    "import sys\nnext(p for p in sys.path if p.endswith('site-packages'))",
  );
  for (const buffer of await Promise.all(wheels)) {
    pyodide.unpackArchive(buffer, "wheel", { extractDir: sitePackages });
  }
  runtime = pyodide.pyimport("calculators.runtime");
  for (const name of warmNames) {
    try {
      runtime.warm(name);
    } catch (error) {
      console.warn(String(error));
    }
  }
  const t2 = performance.now();
  return { pyodide_ms: t1 - t0, total_ms: t2 - t0 };
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
