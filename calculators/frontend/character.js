// "My character": characters kept on this device (localStorage, versioned), the character page,
// export/import (file and link) and the "use my character" control added above calculator forms.
// Holds state only: validation and every derived number come from calculators/table/character.py,
// run in the engine worker (window.mnemeEngine.call). The empty documents, schemas,
// limits and labels are Python's too (calculators/table/ui.py), embedded by the build in the pages
// that need them (#mneme-table-config). All text goes in with textContent; imported files and
// links are parsed as data by Python, never executed.
(function () {
  "use strict";
  if (window.mnemeTable) return;

  const STORE_KEY = "mneme.characters.v1";
  const MODULE = "calculators.table.api";
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

  function readJson(key) {
    try {
      const text = localStorage.getItem(key);
      return text ? JSON.parse(text) : null;
    } catch (_) {
      return undefined; // unreadable: callers keep the raw text untouched
    }
  }

  function writeJson(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
      return true;
    } catch (_) {
      return false;
    }
  }

  function newId(prefix) {
    const random = Math.random().toString(36).slice(2, 10);
    return `${prefix}-${Date.now().toString(36)}-${random}`.slice(0, 40);
  }

  // ------------------------------------------------------------ the store

  function loadStore() {
    const STORE_SCHEMA = config().schemas.store.name;
    const raw = readJson(STORE_KEY);
    if (raw && raw.schema === STORE_SCHEMA && Array.isArray(raw.characters)) return raw;
    if (raw === undefined || (raw !== null && raw.schema !== STORE_SCHEMA)) {
      // Keep what was there under a backup key rather than overwrite it.
      try {
        const text = localStorage.getItem(STORE_KEY);
        if (text && !localStorage.getItem(STORE_KEY + ".unreadable")) localStorage.setItem(STORE_KEY + ".unreadable", text);
      } catch (_) {
        /* storage unavailable */
      }
    }
    return structuredClone(config().empty.store);
  }

  function saveStore(store) {
    return writeJson(STORE_KEY, store);
  }

  function blankCharacter() {
    return { ...structuredClone(config().empty.character), id: newId("ch") };
  }

  function activeCharacter(store) {
    return store.characters.find((c) => c && c.id === store.active) || store.characters[0] || null;
  }

  function putCharacter(store, character) {
    const index = store.characters.findIndex((c) => c && c.id === character.id);
    if (index >= 0) store.characters[index] = character;
    else store.characters.push(character);
    store.active = character.id;
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
    let saveTimer = null;
    let lastGood = null;
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
      store.active = picker.value;
      saveStore(store);
      showCharacter();
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
    editor.addEventListener("input", schedule);
    editor.addEventListener("change", schedule);
    editor.addEventListener("submit", (event) => {
      event.preventDefault();
      save();
    });

    function setStatus(text) {
      status.textContent = text;
    }

    function fillPicker() {
      picker.replaceChildren();
      const current = activeCharacter(store);
      for (const c of store.characters) {
        picker.append(h("option", { value: c.id, text: (c && c.name) || "(unnamed)", selected: current && c.id === current.id }));
      }
      picker.disabled = store.characters.length === 0;
    }

    function buildEditor(c) {
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

    function schedule() {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(save, 350);
    }

    async function save() {
      clearTimeout(saveTimer);
      const current = activeCharacter(store);
      if (!current) return;
      const doc = readEditor(current);
      try {
        const result = await call("derive_character", { doc });
        clearErrors();
        putCharacter(store, result.character);
        lastGood = result;
        if (!saveStore(store)) setStatus("Could not save: this browser's storage is full or blocked.");
        else setStatus(`Saved on this device: ${result.character.name}.`);
        const option = picker.querySelector(`option[value="${CSS.escape(result.character.id)}"]`);
        if (option) option.textContent = result.character.name;
        renderDerived(result);
      } catch (error) {
        if (error.refused) {
          showError(error);
          setStatus("Not saved yet: fix the field marked.");
        } else setStatus(`The rules engine is not answering (${error.message}).`);
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
      const current = activeCharacter(store);
      if (!current) {
        editor.replaceChildren(h("p", { class: "mt-empty", text: "No character on this device yet: press New to make one." }));
        derived.replaceChildren();
        return;
      }
      buildEditor(current);
      derived.replaceChildren(h("p", { class: "mt-working", text: "Working it out\u2026" }));
      call("derive_character", { doc: current }).then(
        (d) => {
          lastGood = d;
          renderDerived(d);
        },
        (error) => {
          derived.replaceChildren();
          if (error.refused) {
            showError(error);
            setStatus("This saved character has a problem: fix the field marked (nothing is lost until you do).");
          } else setStatus(`The rules engine is not answering (${error.message}).`);
        },
      );
    }

    function createNew() {
      const c = blankCharacter();
      putCharacter(store, c);
      saveStore(store);
      showCharacter();
      setStatus("A new character: fill it in, it saves as you type.");
      const name = editor.querySelector('[data-path="name"]');
      if (name) name.select();
    }

    function remove() {
      const current = activeCharacter(store);
      if (!current) return;
      if (!window.confirm(`Delete ${current.name || "this character"} from this device?`)) return;
      store.characters = store.characters.filter((c) => c !== current);
      store.active = store.characters[0] ? store.characters[0].id : "";
      saveStore(store);
      showCharacter();
      setStatus(`Deleted ${current.name}.`);
    }

    function exportFile() {
      const current = activeCharacter(store);
      if (!current || !lastGood) return setStatus("Nothing to export yet.");
      const blob = new Blob([JSON.stringify(lastGood.character, null, 2)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const a = h("a", { href: url, download: `${lastGood.character.name.replace(/[^\w-]+/g, "_") || "character"}.mneme.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setStatus("File made: it stays wherever you save it.");
    }

    function exportLink() {
      const current = activeCharacter(store);
      if (!current) return;
      call("export_link", { doc: current }).then(
        (fragment) => {
          const url = new URL(location.href);
          url.search = "";
          url.hash = fragment;
          linkOut.value = url.href;
          linkOut.hidden = false;
          linkOut.select();
          if (navigator.clipboard) navigator.clipboard.writeText(url.href).catch(() => {});
          setStatus("Link made (and copied where the browser allows). The character travels inside the link.");
        },
        (error) => setStatus(`No link: ${error.message}`),
      );
    }

    async function importFrom(text) {
      importMsg.textContent = "";
      if (typeof text !== "string" || text.length > MAX_IMPORT_CHARS) {
        importMsg.textContent = "Not imported: too large to be a character.";
        return null;
      }
      try {
        const character = await call("import_character", { text });
        store = loadStore();
        if (store.characters.some((c) => c && c.id === character.id)) character.id = newId("ch");
        putCharacter(store, character);
        if (!saveStore(store)) {
          importMsg.textContent = "Not imported: this browser's storage is full or blocked.";
          store = loadStore();
          return null;
        }
        importText.value = "";
        showCharacter();
        setStatus(`Imported ${character.name}.`);
        return character;
      } catch (error) {
        importMsg.textContent = `Not imported: ${error.message}`;
        return null;
      }
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
    offerFromLink();
    linkOffer = offerFromLink;
    root.dataset.state = "ready";
  }

  // ------------------------------------------------------------ "use my character" on calculators

  function bindMine(form) {
    if (form.mnemeMine) return;
    form.mnemeMine = true;
    const name = form.dataset.calculator;
    const rootUrl = form.dataset.root || "";
    call("prefill_plan", { calculator: name }).then(
      (plan) => {
        if (plan.keys.length) form.before(mineControl(form, name, plan, rootUrl));
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
      box.append(
        h("span", { class: "mt-mine-title", text: "My character" }),
        " ",
        h("a", { href: `${rootUrl}table/character/`, text: "Save a character on this device" }),
        " to fill this calculator in from it.",
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
          const current = loadStore();
          putCharacter(current, result.character);
          saveStore(current);
          status.textContent = result.changes.length
            ? `Saved to ${result.character.name}: ${result.changes.join(", ")}.`
            : `Nothing to change on ${result.character.name}.`;
        },
        (error) => (status.textContent = `Not saved: ${error.message}`),
      );
    }

    who.addEventListener("change", fillUsing);
    fillUsing();
    box.append(
      h("span", { class: "mt-mine-title", text: "My character" }),
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
    // Cut just past the longest import (Python refuses it then); uncut on a page without settings.
    const limit = config() ? config().limits.import_chars + 1 : undefined;
    if (hash.startsWith("character=")) pendingLink = hash.slice(0, limit);
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

  window.mnemeTable = { h, call, config, readJson, writeJson, loadStore, saveStore, newId };
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(bindAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindAll);
  else bindAll();
})();
