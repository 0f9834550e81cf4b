// Calculator charts: draws every <figure class="calc-chart" data-series="..."> as a bar chart with
// Chart.js (bundled with the site, loaded from this script's own folder only once a chart comes into view).
// The figure's data table stays in the page for screen readers; sighted readers can show it with a button.
// Contract (calculators/README.md): charts are prerendered and replaced after each live result, which
// dispatches `calculator:result` on the form; pages change through mkdocs-material's `document$`.
function startCharts() {

  const LIBRARY = "chart.umd.min.js";
  const script = document.currentScript;
  const assets = new URL(".", script?.src ? script.src : location.href);
  const drawn = new Set(); // Chart instances alive, destroyed once their canvas leaves the page
  const stats = { drawn: 0, failed: 0, lastDrawMs: 0 };
  let library = null;

  const HIDDEN = {
    position: "absolute",
    width: "1px",
    height: "1px",
    overflow: "hidden",
    clip: "rect(0 0 0 0)",
    clipPath: "inset(50%)",
    whiteSpace: "nowrap",
  };

  function loadLibrary() {
    if (window.Chart) return Promise.resolve(window.Chart);
    if (library) return library;
    library = new Promise((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = new URL(LIBRARY, assets).href;
      tag.async = true;
      tag.onload = () => (window.Chart ? resolve(window.Chart) : reject(new Error("no Chart global")));
      tag.onerror = () => reject(new Error(`could not load ${LIBRARY}`));
      document.head.appendChild(tag);
    });
    library.catch(() => {
      library = null;
    });
    return library;
  }

  function colours(figure) {
    const style = getComputedStyle(figure);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return {
      bar: read("--md-primary-fg-color", "#4051b5"),
      highlight: read("--md-accent-fg-color", "#526cfe"),
      text: read("--md-default-fg-color--light", "#666"),
      grid: read("--md-default-fg-color--lightest", "#ddd"),
    };
  }

  // Axis ticks only: Chart.js picks them. Every figure (labels, tooltips, table) arrives as text from Python.
  function percentTick(value) {
    const rounded = Math.round(value * 1000) / 10;
    return `${rounded}%`;
  }

  function hideTable(figure) {
    const table = figure.querySelector(".calc-chart-table");
    if (!table || figure.querySelector("[data-chart-toggle]")) return;
    Object.assign(table.style, HIDDEN);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button calc-chart-toggle";
    button.dataset.chartToggle = "";
    button.setAttribute("aria-expanded", "false");
    button.textContent = "Show the table";
    button.style.fontSize = "0.7rem";
    button.style.padding = "0.4em 1em";
    button.style.minHeight = "2.75rem";
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? "Hide the table" : "Show the table";
      for (const key of Object.keys(HIDDEN)) table.style[key] = open ? "" : HIDDEN[key];
    });
    table.parentNode.insertBefore(button, table);
  }

  function draw(Chart, figure) {
    let series;
    try {
      series = JSON.parse(figure.dataset.series || "{}");
    } catch (_) {
      return;
    }
    const holder = figure.querySelector("[data-chart-canvas]");
    if (!holder || !Array.isArray(series.points) || series.points.length === 0) return;
    holder.textContent = "";
    // mkdocs-material sizes figures to their content: the chart takes the column's width instead.
    figure.style.width = "100%";
    figure.style.alignItems = "stretch";
    Object.assign(holder.style, { position: "relative", width: "100%", height: "min(16rem, 60vw)" });
    holder.style.minHeight = "11rem";
    const canvas = document.createElement("canvas");
    const caption = figure.querySelector("figcaption");
    canvas.setAttribute("role", "img");
    canvas.setAttribute(
      "aria-label",
      `${caption ? caption.textContent : "Chart"}: bar chart; the same figures are in the table.`,
    );
    holder.appendChild(canvas);
    const c = colours(figure);
    const marked = new Set((series.highlight || []).map(String));
    const labels = series.points.map((p) => String(p[0]));
    const chart = new Chart(canvas, {
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            label: series.y_label || "",
            data: series.points.map((p) => p[1]),
            backgroundColor: labels.map((x) => (marked.has(x) ? c.highlight : c.bar)),
            borderWidth: 0,
            barPercentage: 0.95,
            categoryPercentage: 0.95,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => `${series.y_label}: ${series.points[item.dataIndex][2]}` } },
        },
        scales: {
          x: {
            title: { display: true, text: series.x_label || "", color: c.text },
            ticks: { color: c.text, autoSkip: true, maxRotation: 0 },
            grid: { display: false },
          },
          y: {
            beginAtZero: true,
            title: { display: true, text: series.y_label || "", color: c.text },
            ticks: { color: c.text, callback: percentTick, maxTicksLimit: 6 },
            grid: { color: c.grid },
          },
        },
      },
    });
    drawn.add(chart);
    figure.dataset.chartDrawn = "";
    stats.drawn += 1;
    hideTable(figure);
  }

  function sweep() {
    for (const chart of drawn) {
      if (!chart.canvas?.isConnected) {
        chart.destroy();
        drawn.delete(chart);
      }
    }
  }

  // Drawn when seen: a chart (and Chart.js, 70 kB to parse) waits until its figure comes
  // near the screen, so a phone's first seconds on a calculator page go to the answer, not to a chart
  // below it. Without IntersectionObserver every chart is drawn at once, as before.
  const waiting = new Set();
  let watcher = null;

  function whenSeen(figures) {
    if (typeof IntersectionObserver !== "function") return drawNow(figures);
    if (!watcher) {
      watcher = new IntersectionObserver(
        (entries) => {
          const seen = entries.filter((e) => e.isIntersecting).map((e) => e.target);
          for (const figure of seen) {
            watcher.unobserve(figure);
            waiting.delete(figure);
          }
          if (seen.length) drawNow(seen);
        },
        { rootMargin: "200px 0px" },
      );
    }
    for (const figure of waiting) {
      if (!figure.isConnected) {
        watcher.unobserve(figure);
        waiting.delete(figure);
      }
    }
    for (const figure of figures) {
      if (!waiting.has(figure)) {
        waiting.add(figure);
        watcher.observe(figure);
      }
    }
  }

  function drawAll(root) {
    sweep();
    const figures = Array.from((root || document).querySelectorAll("figure.calc-chart[data-series]")).filter(
      (f) => !f.hasAttribute("data-chart-drawn"),
    );
    if (figures.length) whenSeen(figures);
  }

  function drawNow(figures) {
    loadLibrary().then(
      (Chart) => {
        const t0 = performance.now();
        for (const figure of figures) if (figure.isConnected) draw(Chart, figure);
        stats.lastDrawMs = performance.now() - t0;
      },
      (error) => {
        stats.failed += 1;
        // The data tables remain: the chart is an enhancement.
        console.warn(`calculator charts: ${error.message}`);
      },
    );
  }

  function redrawAll() {
    for (const chart of drawn) chart.destroy();
    drawn.clear();
    for (const figure of document.querySelectorAll("figure.calc-chart[data-chart-drawn]")) {
      figure.removeAttribute("data-chart-drawn");
    }
    drawAll(document);
  }

  function start() {
    // The light/dark toggle changes the palette attribute: redraw in the new colours.
    new MutationObserver(redrawAll).observe(document.body, {
      attributes: true,
      attributeFilter: ["data-md-color-scheme"],
    });
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(() => drawAll(document));
    } else {
      drawAll(document);
    }
  }

  document.addEventListener("calculator:result", (event) => drawAll(event.target));
  window.mnemeCharts = { stats, drawAll, redrawAll };
  if (document.readyState === "loading" || !document.body) {
    document.addEventListener("DOMContentLoaded", start, { once: true });
  } else {
    start();
  }
}

if (!window.mnemeCharts) startCharts();
