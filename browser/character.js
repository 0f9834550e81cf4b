// "My character": characters kept on this device (localStorage, versioned), the character page,
// export/import (file and link) and the "use my character" control added above calculator forms.
// Holds state only: validation and every derived number come from table/character.py,
// run in the engine worker (window.mnemeEngine.call). The empty documents, schemas,
// limits and labels are Python's too (sitebuild/table_ui.py), embedded by the build in the pages
// that need them (#mneme-table-config). All text goes in with textContent; imported files and
// links are parsed as data by Python, never executed.
(function () {
  "use strict";
  if (window.mnemeTable) return;

  const MODULE = "table.api";
  const CONFIG_ID = "mneme-table-config";

  // ------------------------------------------------------------ helpers

  // The settings Python gives the table scripts (schemas, empty documents, limits, labels):
  // the same on every page that carries them, so read once and kept. Null on a page without them.
  let tableSettings = null;
  function config() {
    if (!tableSettings) {
      const el = document.getElementById(CONFIG_ID);
      if (el && el.dataset.config) tableSettings = JSON.parse(el.dataset.config);
    }
    return tableSettings;
  }

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") el.textContent = String(value);
      else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(el.dataset, value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function call(name, args) {
    const engine = window.mnemeEngine;
    if (!engine || typeof engine.call !== "function") {
      return Promise.reject(new Error("the rules engine is not available on this page"));
    }
    return engine.call(MODULE, name, args || {}).then((payload) => {
      if (!payload || !payload.ok) {
        const error = new Error((payload && payload.error) || "the rules engine refused this");
        error.path = (payload && payload.path) || "";
        error.refused = true;
        throw error;
      }
      return payload.value;
    });
  }

  // ------------------------------------------------------------ storage

  // Keys are named by the site's own scope (its base path, from where this script is served), so
  // two copies of the site on one origin (user.github.io/a/ and /b/) never read each other's data:
  // "mneme@/a/:characters.v1". Keys from before scoping ("mneme.characters.v1") are read once.
  const script = document.currentScript;
  const SCOPE = new URL("../../", script ? script.src : location.href).pathname;
  const key = (name) => `mneme@${SCOPE}:${name}`;
  const STORE_KEY = key("characters.v1");
  const LEGACY = { [STORE_KEY]: "mneme.characters.v1", [key("tracker.v1")]: "mneme.tracker.v1", [key("tracker.undo.v1")]: "mneme.tracker.undo.v1" };
  const MAX_BACKUPS = 5;

  // localStorage, or null where the browser blocks it (then this page keeps data in memory only).
  const memory = new Map();
  function storage() {
    try {
      const s = window.localStorage;
      s.getItem(STORE_KEY);
      return s;
    } catch (_) {
      return null;
    }
  }
  const blocked = () => storage() === null;

  function readText(name) {
    const s = storage();
    if (!s) return memory.has(name) ? memory.get(name) : null;
    const text = s.getItem(name);
    if (text !== null || !LEGACY[name]) return text;
    return s.getItem(LEGACY[name]);
  }

  function readJson(name) {
    const text = readText(name);
    if (text === null || text === "") return null;
    try {
      return JSON.parse(text);
    } catch (_) {
      return undefined; // unreadable: callers keep the raw text in a backup
    }
  }

  // Write; "" when storage accepted it, else the reason in a few words (the page says it).
  function writeText(name, text) {
    const s = storage();
    if (!s) {
      memory.set(name, text);
      return "this browser blocks storage for this site, so it is kept on this page only until you close it";
    }
    try {
      s.setItem(name, text);
      return "";
    } catch (error) {
      return error && (error.name === "QuotaExceededError" || error.code === 22)
        ? "this browser's storage is full"
        : "this browser refused to store it";
    }
  }
  const writeJson = (name, value) => writeText(name, JSON.stringify(value));

  // Unreadable data is kept under a dated key of its own, never overwritten by the next failure;
  // the oldest go beyond MAX_BACKUPS. Answers the backup's key, or "" when it could not be kept.
  function keepBackup(name, text) {
    const s = storage();
    if (!s || !text) return "";
    const newest = backups(name)[0];
    if (newest && newest.text === text) return newest.key; // already kept
    const stamp = new Date().toISOString();
    let backupKey = `${name}:backup:${stamp}`;
    for (let n = 2; s.getItem(backupKey) !== null; n++) backupKey = `${name}:backup:${stamp}-${n}`;
    if (writeText(backupKey, text)) return "";
    for (const old of backups(name).slice(MAX_BACKUPS)) s.removeItem(old.key);
    return backupKey;
  }

  // The backups kept for `name`, newest first: {key, when, text}.
  function backups(name) {
    const s = storage();
    if (!s) return [];
    const prefix = `${name}:backup:`;
    const found = [];
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k && k.startsWith(prefix)) found.push({ key: k, when: k.slice(prefix.length), text: s.getItem(k) || "" });
    }
    return found.sort((a, b) => (a.when < b.when ? 1 : -1));
  }

  function dropBackup(backupKey) {
    const s = storage();
    if (s) s.removeItem(backupKey);
  }

  // A page hears the other tabs' writes ("storage" events fire in every other tab of this origin).
  function onChange(name, listener) {
    window.addEventListener("storage", (event) => {
      if (event.key === name || event.key === null || (name.endsWith(":") && event.key.startsWith(name))) listener(event);
    });
  }

  function newId(prefix) {
    const random = Math.random().toString(36).slice(2, 10);
    return `${prefix}-${Date.now().toString(36)}-${random}`.slice(0, 40);
  }

  // ------------------------------------------------------------ the store

  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  // Equal as data, whatever the order of keys.
  function canonical(value) {
    if (Array.isArray(value)) return value.map(canonical);
    if (!isObject(value)) return value;
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  }
  const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

  // One document per key (writes are per document): each character lives under
  // DOC_PREFIX + its id as {character, draft, order}; the picked one under ACTIVE_KEY. Two tabs
  // writing two characters never touch the same key. The single store of earlier versions
  // (STORE_KEY, or the unscoped key before it) is split into documents once, then marked as moved.
  const DOC_PREFIX = key("character.v1:");
  const ACTIVE_KEY = key("active.v1");
  const MOVED = { moved: "character.v1" };

  function keysWith(prefix) {
    const s = storage();
    const names = s ? Array.from({ length: s.length }, (_, i) => s.key(i)) : [...memory.keys()];
    return names.filter((k) => k && k.startsWith(prefix) && !k.includes(":backup:"));
  }

  function removeKey(name) {
    const s = storage();
    if (s) s.removeItem(name);
    else memory.delete(name);
  }

  // The old single store: its characters become documents; what cannot be read is kept aside.
  function splitOldStore() {
    const text = readText(STORE_KEY);
    if (text === null) return;
    const raw = readJson(STORE_KEY);
    if (isObject(raw) && raw.moved) return;
    const usable = isObject(raw) && raw.schema === config().schemas.store.name && Array.isArray(raw.characters);
    const characters = usable ? raw.characters.filter((c) => isObject(c) && typeof c.id === "string") : [];
    if ((!usable || characters.length !== raw.characters.length) && !keepBackup(STORE_KEY, text)) return;
    let problem = "";
    characters.forEach((c, order) => {
      const draft = isObject(raw.drafts) && isObject(raw.drafts[c.id]) ? raw.drafts[c.id] : undefined;
      if (readText(DOC_PREFIX + c.id) === null) problem = problem || writeJson(DOC_PREFIX + c.id, { character: c, draft, order });
    });
    if (usable && raw.active && readText(ACTIVE_KEY) === null) problem = problem || writeText(ACTIVE_KEY, raw.active);
    if (!problem) writeJson(STORE_KEY, MOVED);
  }

  // The characters as they are in storage now: {characters, drafts, active, orders}. A document
  // that cannot be read is kept aside (under STORE_KEY's backups) and left out.
  function loadStore() {
    splitOldStore();
    const entries = [];
    for (const name of keysWith(DOC_PREFIX)) {
      const raw = readJson(name);
      if (isObject(raw) && isObject(raw.character) && DOC_PREFIX + raw.character.id === name) entries.push(raw);
      else if (keepBackup(STORE_KEY, readText(name))) removeKey(name);
    }
    entries.sort((x, y) => (Number(x.order) || 0) - (Number(y.order) || 0));
    return {
      characters: entries.map((e) => e.character),
      drafts: Object.fromEntries(entries.filter((e) => isObject(e.draft)).map((e) => [e.character.id, e.draft])),
      orders: Object.fromEntries(entries.map((e) => [e.character.id, e.order])),
      active: readText(ACTIVE_KEY) || "",
    };
  }

  // Read the characters afresh, change them with `change(store)` (false: no change), then write
  // only the documents that changed. "" or why storage refused.
  function updateStore(change) {
    const before = loadStore();
    const after = structuredClone(before);
    if (change(after) === false) return "";
    let problem = "";
    const was = (id) => ({ character: before.characters.find((c) => c.id === id), draft: before.drafts[id] });
    for (const c of after.characters) {
      const doc = { character: c, draft: isObject(after.drafts[c.id]) ? after.drafts[c.id] : undefined };
      if (same(doc, was(c.id))) continue;
      problem = problem || writeJson(DOC_PREFIX + c.id, { ...doc, order: before.orders[c.id] ?? Date.now() });
    }
    for (const c of before.characters) if (!after.characters.some((x) => x.id === c.id)) removeKey(DOC_PREFIX + c.id);
    if (after.active !== before.active) problem = problem || writeText(ACTIVE_KEY, after.active);
    return problem;
  }

  function blankCharacter() {
    return { ...structuredClone(config().empty.character), id: newId("ch") };
  }

  function activeCharacter(store) {
    return store.characters.find((c) => c && c.id === store.active) || store.characters[0] || null;
  }

  // What a character looks like on the device now: the typed draft when one waits for a check.
  function shownDoc(store, id) {
    const draft = store.drafts && store.drafts[id];
    return isObject(draft) ? draft : store.characters.find((c) => c.id === id) || null;
  }

  function putCharacter(store, character) {
    const index = store.characters.findIndex((c) => c && c.id === character.id);
    if (index >= 0) store.characters[index] = character;
    else store.characters.push(character);
    store.active = character.id;
  }

  // Three-way merge of one character, field by field: what this tab changed since `base` wins
  // (it is the newer edit), everything else comes from `theirs` (the other tabs' latest).
  function mergeCharacter(base, mine, theirs) {
    if (!base || !theirs) return mine;
    const out = { ...theirs };
    for (const field of Object.keys(mine)) {
      if (field === "characteristics" && isObject(mine[field]) && isObject(theirs[field])) {
        const was = isObject(base[field]) ? base[field] : {};
        out[field] = { ...theirs[field] };
        for (const k of Object.keys(mine[field])) if (!same(mine[field][k], was[k])) out[field][k] = mine[field][k];
      } else if (!same(mine[field], base[field])) out[field] = mine[field];
    }
    return out;
  }

  // ------------------------------------------------------------ the character page

  function numberInput(path, value, label, extra) {
    return h("input", {
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      "data-path": path,
      "aria-label": label,
      value: value === null || value === undefined ? "" : String(value),
      ...(extra || {}),
    });
  }

  function charSelect(path, value, label) {
    const select = h("select", { "data-path": path, "aria-label": label });
    for (const [key, short] of config().characteristics) select.append(h("option", { value: key, text: short, selected: key === value }));
    return select;
  }

  let uid = 0;
  function field(labelText, control, path) {
    uid += 1;
    const id = `mt-field-${uid}`;
    control.id = id;
    return h(
      "div",
      { class: "mt-field" },
      h("label", { for: id, text: labelText }),
      control,
      h("p", { class: "mt-error", role: "alert", "data-error-for": path }),
    );
  }

  function parseNumber(text) {
    const clean = String(text).trim().replace("\u2212", "-");
    if (clean === "") return null;
    if (!/^[+-]?\d{1,6}$/.test(clean)) return clean; // left as text: Python says what is wrong
    return Number(clean);
  }

  function renderCharacterPage(root) {
    const C = config();
    const CHARS = C.characteristics;
    const MAX_IMPORT_CHARS = C.limits.import_chars;
    let store = loadStore();
    let currentId = (activeCharacter(store) || {}).id || "";
    let base = null; // the shown character as this tab last read or wrote it (for merging)
    let checkTimer = null;
    let checked = null; // the engine's answer for the shown character, when it matches what is shown
    const status = h("p", { class: "mt-status", role: "status", "aria-live": "polite" });
    const picker = h("select", { "aria-label": "Character", class: "mt-picker" });
    const editor = h("form", { class: "mt-editor", novalidate: true, autocomplete: "off" });
    const derived = h("section", { class: "mt-derived", "aria-live": "polite", "aria-label": "Derived numbers" });
    const linkOut = h("input", { type: "text", readonly: true, class: "mt-link", "aria-label": "Link to this character", hidden: true });
    const importMsg = h("p", { class: "mt-import-msg", role: "alert", "data-import-message": "" });
    const importText = h("textarea", {
      rows: 3,
      class: "mt-import-text",
      "aria-label": "Paste a character link or file text",
      placeholder: "Paste a character link or the text of a character file",
    });
    const fileInput = h("input", { type: "file", accept: ".json,application/json", class: "mt-file", "aria-label": "Character file" });
    const offer = h("div", { class: "mt-offer", hidden: true });
    const keptAside = h("section", { class: "mt-kept", "aria-label": "Kept aside", "data-backups": "", hidden: true });

    root.replaceChildren(
      h(
        "div",
        { class: "mt-bar" },
        h("label", { class: "mt-bar-label", text: "Character" }, picker),
        h("button", { type: "button", class: "mt-button", "data-action": "new", onclick: () => createNew() }, "New"),
        h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "delete", onclick: () => remove() }, "Delete"),
      ),
      status,
      offer,
      keptAside,
      derived,
      editor,
      h(
        "section",
        { class: "mt-share", "aria-label": "Export and import" },
        h("h2", { text: "Take it elsewhere" }),
        h(
          "div",
          { class: "mt-row" },
          h("button", { type: "button", class: "mt-button", "data-action": "export-file", onclick: () => exportFile() }, "Download file"),
          h("button", { type: "button", class: "mt-button", "data-action": "export-link", onclick: () => exportLink() }, "Make a link"),
        ),
        linkOut,
        h("h3", { text: "Import" }),
        h("label", { class: "mt-button mt-file-label" }, "Import a file\u2026", fileInput),
        importText,
        h("button", { type: "button", class: "mt-button", "data-action": "import", onclick: () => importFrom(importText.value) }, "Import"),
        importMsg,
      ),
    );

    picker.addEventListener("change", () => {
      flush();
      currentId = picker.value;
      const problem = updateStore((s) => (s.active = currentId));
      store = loadStore();
      showCharacter();
      if (problem) setStatus(`Showing it, but not remembered as your pick: ${problem}.`);
    });
    fileInput.addEventListener("change", () => {
      const file = fileInput.files && fileInput.files[0];
      if (!file) return;
      if (file.size > MAX_IMPORT_CHARS) {
        importMsg.textContent = `Not imported: the file is too large to be a character (${file.size} bytes).`;
        fileInput.value = "";
        return;
      }
      file.text().then(
        (text) => importFrom(text),
        () => (importMsg.textContent = "Not imported: the file could not be read."),
      );
      fileInput.value = "";
    });
    editor.addEventListener("input", edited);
    editor.addEventListener("change", edited);
    editor.addEventListener("submit", (event) => {
      event.preventDefault();
      flush();
    });
    // Another tab wrote a character: the picker follows; the shown one is redrawn from storage
    // (this tab's own typing is already stored, merged field by field, so nothing of it is lost).
    onChange(DOC_PREFIX, (event) => {
      store = loadStore();
      fillPicker();
      showBackups();
      if (event.key !== null && event.key !== DOC_PREFIX + currentId) return;
      const now = shownDoc(store, currentId);
      if (!now) return setStatus("This character was deleted in another tab: it stays on this page until you leave it.");
      if (base && same(now, base)) return;
      redraw(now);
      setStatus("Reloaded a change made in another tab.");
      scheduleCheck();
    });

    function setStatus(text) {
      status.textContent = text;
    }

    function fillPicker() {
      picker.replaceChildren();
      for (const c of store.characters) {
        const shown = shownDoc(store, c.id) || c;
        picker.append(h("option", { value: c.id, text: String(shown.name || "") || "(unnamed)", selected: c.id === currentId }));
      }
      picker.disabled = store.characters.length === 0;
    }

    // The editor says which character it shows; typing is stored only under that id, and events
    // fired while it is rebuilt (a removed field's "change") are ignored.
    let rebuilding = false;
    function buildEditor(c) {
      rebuilding = true;
      try {
        fillEditor(c);
      } finally {
        rebuilding = false;
      }
      editor.dataset.id = c.id;
    }

    function fillEditor(c) {
      const chars = c.characteristics || {};
      const skills = Array.isArray(c.skills) ? c.skills : [];
      const weapons = Array.isArray(c.weapons) ? c.weapons : [];
      const skillRows = h("div", { class: "mt-list", "data-list": "skills" });
      const weaponRows = h("div", { class: "mt-list", "data-list": "weapons" });
      skills.forEach((s, i) => skillRows.append(skillRow(s, i)));
      weapons.forEach((w, i) => weaponRows.append(weaponRow(w, i)));
      editor.replaceChildren(
        h("p", { class: "mt-error mt-form-error", role: "alert", "data-error-for": "" }),
        field("Name", h("input", { type: "text", "data-path": "name", value: c.name || "", maxlength: C.limits.name }), "name"),
        h("fieldset", { class: "mt-chars" }, h("legend", { text: "Characteristics" }), CHARS.map(([key, short]) =>
          field(short, numberInput(`characteristics.${key}`, chars[key], short), `characteristics.${key}`),
        )),
        h(
          "div",
          { class: "mt-pair" },
          field("Armor", numberInput("armor", c.armor, "Armor"), "armor"),
          field("Damage taken", numberInput("damage", c.damage, "Damage taken"), "damage"),
        ),
        h("fieldset", { class: "mt-group" }, h("legend", { text: "Skills" }), skillRows,
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "add-skill", onclick: () => addRow("skills") }, "Add a skill")),
        h("fieldset", { class: "mt-group" }, h("legend", { text: "Weapons" }), weaponRows,
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "add-weapon", onclick: () => addRow("weapons") }, "Add a weapon")),
        field("Notes", h("textarea", { "data-path": "notes", rows: 2, maxlength: C.limits.notes }, c.notes || ""), "notes"),
      );
    }

    function skillRow(s, i) {
      return h(
        "div",
        { class: "mt-item", "data-item": "skills" },
        field("Skill", h("input", { type: "text", "data-path": `skills.${i}.name`, value: s.name || "", maxlength: C.limits.name }), `skills.${i}.name`),
        field("Level", numberInput(`skills.${i}.level`, s.level, "Level"), `skills.${i}.level`),
        field("With", charSelect(`skills.${i}.characteristic`, s.characteristic || "dexterity", "Characteristic"), `skills.${i}.characteristic`),
        h("button", { type: "button", class: "mt-remove", "aria-label": `Remove skill ${s.name || ""}`, onclick: (e) => removeRow(e) }, "\u2715"),
      );
    }

    function weaponRow(w, i) {
      return h(
        "div",
        { class: "mt-item", "data-item": "weapons" },
        field("Weapon", h("input", { type: "text", "data-path": `weapons.${i}.name`, value: w.name || "", maxlength: C.limits.name }), `weapons.${i}.name`),
        field("Damage", h("input", { type: "text", "data-path": `weapons.${i}.damage`, value: w.damage || "", maxlength: C.limits.dice }), `weapons.${i}.damage`),
        field("Rate of attack", numberInput(`weapons.${i}.rate_of_attack`, w.rate_of_attack, "Rate of attack (0: none)"), `weapons.${i}.rate_of_attack`),
        field("Skill", h("input", { type: "text", "data-path": `weapons.${i}.skill`, value: w.skill || "", maxlength: C.limits.name }), `weapons.${i}.skill`),
        field("With", charSelect(`weapons.${i}.characteristic`, w.characteristic || "dexterity", "Characteristic"), `weapons.${i}.characteristic`),
        h("button", { type: "button", class: "mt-remove", "aria-label": `Remove weapon ${w.name || ""}`, onclick: (e) => removeRow(e) }, "\u2715"),
      );
    }

    function readEditor(base) {
      const value = (path) => {
        const el = editor.querySelector(`[data-path="${path}"]`);
        return el ? el.value : "";
      };
      const chars = {};
      for (const [key] of CHARS) chars[key] = parseNumber(value(`characteristics.${key}`));
      const skills = [...editor.querySelectorAll('[data-item="skills"]')].map((row) => ({
        name: row.querySelector('[data-path$=".name"]').value,
        level: parseNumber(row.querySelector('[data-path$=".level"]').value),
        characteristic: row.querySelector('[data-path$=".characteristic"]').value,
      }));
      const weapons = [...editor.querySelectorAll('[data-item="weapons"]')].map((row) => ({
        name: row.querySelector('[data-path$=".name"]').value,
        damage: row.querySelector('[data-path$=".damage"]').value,
        rate_of_attack: parseNumber(row.querySelector('[data-path$=".rate_of_attack"]').value) ?? 0,
        skill: row.querySelector('[data-path$=".skill"]').value,
        characteristic: row.querySelector('[data-path$=".characteristic"]').value,
      }));
      return {
        schema: C.schemas.character.name,
        version: C.schemas.character.version,
        id: base.id,
        name: value("name"),
        characteristics: chars,
        skills,
        armor: parseNumber(value("armor")) ?? 0,
        weapons,
        damage: parseNumber(value("damage")) ?? 0,
        notes: value("notes"),
      };
    }

    function renumber() {
      for (const list of ["skills", "weapons"]) {
        editor.querySelectorAll(`[data-item="${list}"]`).forEach((row, i) => {
          row.querySelectorAll("[data-path]").forEach((el) => {
            el.dataset.path = el.dataset.path.replace(/^(\w+)\.\d+\./, `$1.${i}.`);
          });
          row.querySelectorAll("[data-error-for]").forEach((el) => {
            el.dataset.errorFor = el.dataset.errorFor.replace(/^(\w+)\.\d+\./, `$1.${i}.`);
          });
        });
      }
    }

    function addRow(list) {
      const holder = editor.querySelector(`[data-list="${list}"]`);
      const index = holder.children.length;
      const row =
        list === "skills"
          ? skillRow({ name: "", level: 0, characteristic: "dexterity" }, index)
          : weaponRow({ name: "", damage: "3d6", rate_of_attack: 0, skill: "", characteristic: "dexterity" }, index);
      holder.append(row);
      const first = row.querySelector("input");
      if (first) first.focus();
    }

    function removeRow(event) {
      event.target.closest(".mt-item").remove();
      renumber();
      schedule();
    }

    function clearErrors() {
      editor.querySelectorAll("[data-error-for]").forEach((el) => (el.textContent = ""));
      editor.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    }

    function showError(error) {
      clearErrors();
      const path = error.path || "";
      const slot = editor.querySelector(`[data-error-for="${CSS.escape(path)}"]`) || editor.querySelector('[data-error-for=""]');
      slot.textContent = error.message;
      const control = editor.querySelector(`[data-path="${CSS.escape(path)}"]`);
      if (control) control.setAttribute("aria-invalid", "true");
    }

    // Local first: what is typed is written to the device at once, as a draft beside the
    // last checked character; the engine's check follows. A draft it refuses stays, with the field
    // marked; a draft it accepts becomes the character (what calculators and the tracker read).
    function edited() {
      keepDraft();
      scheduleCheck();
    }

    function showing() {
      return !rebuilding && base && currentId && editor.dataset.id === currentId && base.id === currentId;
    }

    function keepDraft() {
      if (!showing()) return "";
      const mine = readEditor(base);
      let merged = mine;
      const problem = updateStore((s) => {
        const theirs = shownDoc(s, currentId);
        merged = mergeCharacter(base, mine, theirs);
        if (!s.characters.some((c) => c.id === currentId)) s.characters.push(merged); // deleted elsewhere: kept
        s.drafts[currentId] = merged;
      });
      store = loadStore();
      if (!problem) base = merged; // a failed write leaves the last stored version as the merge base
      if (!same(merged, mine)) {
        redraw(merged);
        setStatus("Reloaded a change made in another tab (your own edits are kept).");
      } else if (problem) setStatus(`Not saved on this device: ${problem}. Download the file to keep it.`);
      else setStatus(`Saved on this device: ${merged.name || "(unnamed)"} (checking\u2026).`);
      const option = picker.querySelector(`option[value="${CSS.escape(currentId)}"]`);
      if (option) option.textContent = merged.name || "(unnamed)";
      return problem;
    }

    function scheduleCheck() {
      clearTimeout(checkTimer);
      checkTimer = setTimeout(check, 350);
    }

    function flush() {
      if (showing() && !same(readEditor(base), shownDoc(loadStore(), currentId))) keepDraft();
    }

    // The engine checks the shown character and derives its numbers; an accepted draft replaces
    // the character, unless it changed meanwhile (the next check handles the newer one).
    async function check() {
      clearTimeout(checkTimer);
      const id = currentId;
      if (!showing()) return;
      const doc = readEditor(base);
      try {
        const result = await call("derive_character", { doc });
        if (id !== currentId) return;
        clearErrors();
        checked = result;
        renderDerived(result);
        let drafted = false;
        const problem = updateStore((s) => {
          if (!s.drafts[id] || !same(s.drafts[id], doc)) return false; // nothing waiting, or newer typing
          putCharacter(s, result.character);
          delete s.drafts[id];
          drafted = true;
        });
        store = loadStore();
        if (drafted && !problem) {
          base = result.character;
          setStatus(`Saved on this device: ${result.character.name}.`);
        } else if (problem) setStatus(`Not saved on this device: ${problem}. Download the file to keep it.`);
      } catch (error) {
        if (id !== currentId) return;
        if (error.refused) {
          showError(error);
          checked = null;
          setStatus(`Kept on this device as typed, not checked yet: fix the field marked.`);
        } else setStatus(`Kept on this device as typed. The rules engine is not answering (${error.message}); the numbers follow when it does.`);
      }
    }

    // Rebuild the editor from `doc`, keeping the focused field and its caret.
    function redraw(doc) {
      const focused = document.activeElement && editor.contains(document.activeElement) ? document.activeElement : null;
      const path = focused && focused.dataset ? focused.dataset.path : "";
      const caret = focused && typeof focused.selectionStart === "number" ? focused.selectionStart : null;
      base = doc;
      buildEditor(doc);
      if (path) {
        const again = editor.querySelector(`[data-path="${CSS.escape(path)}"]`);
        if (again) {
          again.focus();
          if (caret !== null && typeof again.setSelectionRange === "function") {
            try {
              again.setSelectionRange(caret, caret);
            } catch (_) {
              /* not a text field */
            }
          }
        }
      }
    }

    function renderDerived(d) {
      const t = d.thresholds;
      derived.replaceChildren(
        h("h2", { text: `${d.character.name}: what the rules make of it` }),
        h(
          "dl",
          { class: "mt-facts" },
          h("dt", { text: "HP" }), h("dd", { "data-derived": "hp", text: d.hp }),
          h("dt", { text: "State" }), h("dd", { "data-derived": "state", class: `mt-state mt-state-${d.state}`, text: d.state_text }),
          h("dt", { text: "Wound penalty" }), h("dd", { "data-derived": "wound_penalty", text: d.wound_penalty_signed }),
          h("dt", { text: "Movement" }), h("dd", { text: d.movement }),
        ),
        h("p", { class: "mt-working", text: `${d.hp_text}. ${d.wound_penalty_text}.` }),
        h(
          "p",
          { class: "mt-working", "data-derived": "thresholds" },
          `Wounded from ${t.wounded}, seriously wounded from ${t.seriously_wounded}, critically wounded from ${t.critically_wounded}, dying from ${t.dying} damage.`,
        ),
        h("ul", { class: "mt-working", "data-derived": "chm" }, Object.values(d.chm).map((m) => h("li", { text: m.text }))),
        d.skills.length
          ? h("ul", { class: "mt-working", "data-derived": "skills" }, d.skills.map((s) => h("li", { text: `${s.name}: ${s.competence_text}; ${s.modifier_text}` })))
          : null,
        d.weapons.length
          ? h(
              "ul",
              { class: "mt-working", "data-derived": "weapons" },
              d.weapons.map((w) => h("li", { text: `${w.name}: ${w.damage}, rate of attack ${w.rate_text}; ${w.modifier_text} (${w.competence_text})` })),
            )
          : null,
      );
    }

    function showCharacter() {
      fillPicker();
      linkOut.value = "";
      linkOut.hidden = true;
      checked = null;
      clearTimeout(checkTimer);
      const current = shownDoc(store, currentId);
      if (!current) {
        base = null;
        editor.dataset.id = "";
        editor.replaceChildren(h("p", { class: "mt-empty", text: "No character on this device yet: press New to make one." }));
        derived.replaceChildren();
        return;
      }
      base = current;
      buildEditor(current);
      derived.replaceChildren(h("p", { class: "mt-working", text: "Working it out\u2026" }));
      check();
    }

    function createNew() {
      flush();
      const c = blankCharacter();
      const problem = updateStore((s) => putCharacter(s, c));
      store = loadStore();
      if (problem) store.characters.push(c); // shown and kept on this page even so
      currentId = c.id;
      showCharacter();
      setStatus(problem ? `A new character, not saved on this device: ${problem}.` : "A new character: fill it in, it saves as you type.");
      const name = editor.querySelector('[data-path="name"]');
      if (name) name.select();
    }

    function remove() {
      const current = shownDoc(store, currentId);
      if (!current) return;
      if (!window.confirm(`Delete ${current.name || "this character"} from this device?`)) return;
      const problem = updateStore((s) => {
        s.characters = s.characters.filter((c) => c.id !== currentId);
        delete s.drafts[currentId];
        s.active = s.characters[0] ? s.characters[0].id : "";
      });
      if (problem) return setStatus(`Not deleted: ${problem}.`);
      store = loadStore();
      currentId = store.active;
      showCharacter();
      setStatus(`Deleted ${current.name}.`);
    }

    // The character shown now (as typed, once the engine has checked it).
    async function shownChecked() {
      flush();
      if (!showing()) throw Object.assign(new Error("Nothing to export yet."), { refused: true });
      return call("check_character", { doc: readEditor(base) });
    }

    async function exportFile() {
      let character;
      try {
        character = await shownChecked();
      } catch (error) {
        if (error.path) showError(error);
        return setStatus(error.refused ? `Not exported: ${error.message}` : `Not exported: the rules engine is not answering (${error.message}).`);
      }
      download(JSON.stringify(character, null, 2), `${character.name.replace(/[^\w-]+/g, "_") || "character"}.mneme.json`);
      setStatus(`File made for ${character.name}: it stays wherever you save it.`);
    }

    async function exportLink() {
      let fragment;
      try {
        fragment = await call("export_link", { doc: await shownChecked() });
      } catch (error) {
        if (error.path) showError(error);
        return setStatus(`No link: ${error.message}`);
      }
      const url = new URL(location.href);
      url.search = "";
      url.hash = fragment;
      if (fragment.length > MAX_IMPORT_CHARS) {
        return setStatus(`No link: this character is too long for one (${fragment.length} characters; at most ${MAX_IMPORT_CHARS}). Download the file instead.`);
      }
      linkOut.value = url.href;
      linkOut.hidden = false;
      linkOut.select();
      if (navigator.clipboard) navigator.clipboard.writeText(url.href).catch(() => {});
      setStatus("Link made (and copied where the browser allows). The character travels inside the link.");
    }

    async function importFrom(text, quiet) {
      importMsg.textContent = "";
      if (typeof text !== "string" || text.length > MAX_IMPORT_CHARS) {
        importMsg.textContent = `Not imported: too large to be a character (at most ${MAX_IMPORT_CHARS} characters).`;
        return null;
      }
      try {
        const character = await call("import_character", { text });
        flush();
        const problem = updateStore((s) => {
          if (s.characters.some((c) => c && c.id === character.id)) character.id = newId("ch");
          putCharacter(s, character);
        });
        if (problem) {
          importMsg.textContent = `Not imported: ${problem}.`;
          return null;
        }
        store = loadStore();
        currentId = character.id;
        importText.value = "";
        if (!quiet) {
          showCharacter();
          setStatus(`Imported ${character.name}.`);
        }
        return character;
      } catch (error) {
        importMsg.textContent = `Not imported: ${error.message}`;
        return null;
      }
    }

    // Kept aside: the unreadable stores backed up on this device, newest first, to download or
    // restore (each character in it that the engine accepts is added; the rest stays in the file).
    function showBackups() {
      const kept = backups(STORE_KEY);
      keptAside.hidden = kept.length === 0;
      if (!kept.length) return keptAside.replaceChildren();
      keptAside.replaceChildren(
        h("h2", { text: "Kept aside" }),
        h("p", { text: "Saved data this page could not read was kept here rather than lost. Download it, or restore the characters it still holds." }),
        h("ul", { class: "mt-kept-list" }, kept.map((b) => h("li", { "data-backup": b.key },
          h("span", { text: `${b.when.replace("T", " ").slice(0, 19)} UTC, ${b.text.length} characters ` }),
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "backup-download", onclick: () => download(b.text, `kept-aside-${b.when.slice(0, 10)}.json`) }, "Download"),
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "backup-restore", onclick: () => restore(b) }, "Restore"),
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "backup-drop", onclick: () => drop(b) }, "Forget"),
        ))),
      );
    }

    async function restore(backup) {
      let raw;
      try {
        raw = JSON.parse(backup.text);
      } catch (_) {
        return setStatus("That backup is not readable data: download it to keep it.");
      }
      const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.characters) ? raw.characters : [raw];
      let added = 0;
      for (const c of list.filter(isObject)) if (await importFrom(JSON.stringify(c), true)) added += 1;
      store = loadStore();
      showCharacter();
      setStatus(`Restored ${added} of ${list.length} ${list.length === 1 ? "entry" : "entries"} from the backup; the backup stays until you forget it.`);
    }

    function drop(backup) {
      if (!window.confirm("Forget this backup? It cannot be brought back.")) return;
      dropBackup(backup.key);
      showBackups();
    }

    function offerFromLink() {
      const link = pendingLink;
      if (!link) return;
      const clear = () => {
        pendingLink = "";
        if (location.hash.startsWith("#character=")) {
          history.replaceState(history.state, "", location.pathname + location.search);
        }
        offer.hidden = true;
        offer.replaceChildren();
      };
      if (link.length > MAX_IMPORT_CHARS) {
        importMsg.textContent = `The link's character was not imported: the link is too long to be a character (${link.length} characters; at most ${MAX_IMPORT_CHARS}).`;
        return clear();
      }
      call("import_character", { text: link }).then(
        (character) => {
          offer.hidden = false;
          offer.replaceChildren(
            h("p", { text: `This link carries a character: ${character.name}.` }),
            h("button", { type: "button", class: "mt-button", "data-action": "accept-link", onclick: () => importFrom(link).then(clear) }, "Add to my characters"),
            h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "ignore-link", onclick: clear }, "Ignore"),
          );
        },
        (error) => {
          importMsg.textContent = `The link's character was not imported: ${error.message}`;
          clear();
        },
      );
    }

    showCharacter();
    showBackups();
    if (blocked()) setStatus("This browser blocks storage for this site: what you type is kept on this page only, until you close it. Download the file to keep it.");
    offerFromLink();
    linkOffer = offerFromLink;
    root.dataset.state = "ready";
  }

  function download(text, name) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = h("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // ------------------------------------------------------------ "use my character" on calculators

  // The page is built with the box as a new player sees it (sitebuild/table_ui.py, mine_box); it
  // is filled in place, so nothing below it moves.
  function bindMine(form) {
    if (form.mnemeMine) return;
    form.mnemeMine = true;
    const name = form.dataset.calculator;
    const rootUrl = form.dataset.root || "";
    const previous = form.previousElementSibling;
    const built = previous && previous.matches(`.mt-mine[data-mine-for="${CSS.escape(name)}"]`) ? previous : null;
    call("prefill_plan", { calculator: name }).then(
      (plan) => {
        const box = plan.keys.length ? mineControl(form, name, plan, rootUrl) : null;
        if (built && box) built.replaceWith(box);
        else if (built) built.remove();
        else if (box) form.before(box);
      },
      () => {},
    );
  }

  function mineControl(form, name, plan, rootUrl) {
    const box = h("div", { class: "mt-mine", "data-mine-for": name });
    const notes = h("ul", { class: "mt-mine-notes", "aria-live": "polite" });
    const status = h("p", { class: "mt-mine-status", role: "status" });
    const who = h("select", { "aria-label": "Character" });
    const using = h("select", { "aria-label": "Rolling with" });
    const store = loadStore();

    if (!store.characters.length) {
      const words = config().mine;
      box.append(
        h("span", { class: "mt-mine-title", text: words.title }),
        " ",
        h("a", { href: `${rootUrl}table/character/`, text: words.none_link }),
        words.none_rest,
      );
      return box;
    }
    for (const c of store.characters) who.append(h("option", { value: c.id, text: c.name, selected: c.id === store.active }));

    function character() {
      const current = loadStore();
      return current.characters.find((c) => c.id === who.value) || null;
    }

    function fillUsing() {
      using.replaceChildren();
      const c = character();
      if (!c) return;
      if (plan.weapons) (c.weapons || []).forEach((w, i) => using.append(h("option", { value: `weapon:${i}`, text: `${w.name} (${w.damage})` })));
      for (const s of c.skills || []) {
        using.append(h("option", { value: `skill:${s.name}`, text: `${s.name} ${s.level}`, selected: s.name === plan.preferred_skill }));
      }
      using.hidden = !plan.needs_choice || using.options.length === 0;
    }

    function fill() {
      const c = character();
      if (!c) return;
      call("prefill", { calculator: name, character: c, using: using.hidden ? "" : using.value }).then(
        (result) => {
          for (const [key, text] of Object.entries(result.values)) {
            const el = form.elements.namedItem(key);
            if (el && "value" in el) el.value = text;
          }
          notes.replaceChildren(...result.notes.map((n) => h("li", { "data-note-for": n.key, text: `${n.label}: ${n.text}` })));
          if (result.skipped.length) notes.append(h("li", { text: `Not filled (pick a weapon): ${result.skipped.join(", ")}` }));
          status.textContent = `Filled in from ${result.name}.`;
          form.dispatchEvent(new Event("input", { bubbles: true }));
        },
        (error) => (status.textContent = `Not filled in: ${error.message}`),
      );
    }

    function writeBack() {
      const c = character();
      if (!c) return;
      const values = {};
      for (const key of plan.write_back) {
        const el = form.elements.namedItem(key);
        if (el) values[key] = el.value;
      }
      call("write_back", { calculator: name, character: c, values }).then(
        (result) => {
          if (!result.changes.length) return (status.textContent = `Nothing to change on ${result.character.name}.`);
          const problem = updateStore((s) => {
            const index = s.characters.findIndex((x) => x.id === result.character.id);
            if (index >= 0) s.characters[index] = { ...s.characters[index], damage: result.character.damage };
            else s.characters.push(result.character);
          });
          status.textContent = problem
            ? `Not saved to ${result.character.name}: ${problem}.`
            : `Saved to ${result.character.name}: ${result.changes.join(", ")}.`;
        },
        (error) => (status.textContent = `Not saved: ${error.message}`),
      );
    }

    who.addEventListener("change", fillUsing);
    fillUsing();
    box.append(
      h("span", { class: "mt-mine-title", text: config().mine.title }),
      h("div", { class: "mt-row" }, who, using,
        h("button", { type: "button", class: "mt-button", "data-action": "use-mine", onclick: fill }, "Use my character"),
        plan.write_back.length
          ? h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "write-back", onclick: writeBack }, "Save damage taken")
          : null),
      notes,
      status,
    );
    return box;
  }

  // ------------------------------------------------------------ binding (instant navigation)

  // A character link (#character=...) is read as soon as it appears, before the theme's
  // navigation rewrites the address; it waits until the person accepts or ignores it.
  let pendingLink = "";
  let linkOffer = null;
  function grabLink() {
    const hash = location.hash.slice(1);
    // Kept whole: an over-long link is refused with a message, never cut (a cut changes the data).
    if (hash.startsWith("character=")) pendingLink = hash;
  }
  grabLink();
  window.addEventListener("hashchange", () => {
    grabLink();
    if (pendingLink && linkOffer && document.querySelector('[data-mneme-table="character"]')) linkOffer();
  });

  function bindAll() {
    if (!config()) return; // a page without the table settings has nothing of ours to bind
    const page = document.querySelector('[data-mneme-table="character"]');
    if (page && !page.mnemeBound) {
      page.mnemeBound = true;
      renderCharacterPage(page);
    }
    document.querySelectorAll("form[data-calculator]").forEach(bindMine);
  }

  window.mnemeTable = {
    h, call, config, key, readText, readJson, writeJson, keepBackup, backups, dropBackup, download, onChange,
    blocked, same, loadStore, updateStore, newId,
  };
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(bindAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindAll, { once: true });
  else bindAll();
})();
