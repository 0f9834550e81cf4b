// The character page: the characters kept on this device, their editor (saved as typed, checked
// by the rules engine), the derived numbers, export and import (file and link) and what was kept
// aside. Holds state only: validation and every derived number come from table/character.py.
// All text goes in as text; imported files and links are parsed as data by Python, never executed.

import { activeCharacter, putCharacter, shownDoc } from "../lib/character-store.js";
import { isObject, nestsDeeper, same } from "../lib/documents.js";
import { download, h } from "../lib/dom.js";
import { keptAsideContent } from "../lib/kept-aside.js";
import { characterLinkUrl, withoutCharacterLink } from "../lib/link-codec.js";
import { tableDrawn } from "../lib/theme-hold.js";
import { derivedNumbers } from "./derived.js";
import { createEditorForm } from "./editor-form.js";
import { peekCharacter } from "./link-peek.js";
import { call, newId } from "./table.js";

export function renderCharacterPage(root, table, links) {
  const C = table.config();
  const MAX_IMPORT_CHARS = C.limits.import_chars;
  let store = table.loadStore();
  let currentId = activeCharacter(store)?.id || "";
  let base = null; // the shown character as this tab last read or wrote it (for merging)
  let checkTimer = null;
  let checkDue = false; // typing waits for its check (checkTimer)
  let checking = Promise.resolve(); // the last check started (it never rejects)
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
  const form = createEditorForm(editor, C, () => edited());

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
    table.keeper().panel(),
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
        h("button", { type: "button", class: "mt-button", "data-action": "show-referee", onclick: () => showReferee() }, "Show to the referee"),
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
    if (!flushOrKeep()) {
      picker.value = currentId;
      return;
    }
    currentId = picker.value;
    const problem = table.updateStore((s) => (s.active = currentId));
    store = table.loadStore();
    showCharacter();
    if (problem) setStatus(`Showing it, but not remembered as your pick: ${problem}.`);
  });
  fileInput.addEventListener("change", () => {
    const file = fileInput.files?.[0];
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
  table.onChange(table.DOC_PREFIX, (event) => {
    store = table.loadStore();
    fillPicker();
    showBackups();
    if (event.key !== null && event.key !== table.DOC_PREFIX + currentId) return;
    const now = shownDoc(store, currentId);
    if (!now) return setStatus("This character was deleted in another tab: it stays on this page until you leave it.");
    if (!showing()) {
      if (base && same(now, base)) return;
      redraw(now);
      return setStatus("Reloaded a change made in another tab.");
    }
    // Merged with what this tab shows: another tab's write made without seeing this tab's latest
    // keeps both (two skills added at once are two skills), and is written back for all to see.
    const mine = form.read(base);
    let merged = now;
    const problem = table.updateStore((s) => {
      merged = table.reconcile(s, currentId, mine, base);
      if (same(merged, shownDoc(s, currentId))) return false;
      s.drafts[currentId] = merged;
    });
    store = table.loadStore();
    if (same(merged, mine)) {
      base = merged;
      return;
    }
    redraw(merged);
    setStatus(problem ? `Reloaded a change made in another tab; not saved on this device: ${problem}.` : "Reloaded a change made in another tab.");
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
      form.fill(c);
    } finally {
      rebuilding = false;
    }
    editor.dataset.id = c.id;
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
    const mine = form.read(base);
    let merged = mine;
    const problem = table.updateStore((s) => {
      merged = table.reconcile(s, currentId, mine, base);
      if (!s.characters.some((c) => c.id === currentId)) s.characters.push(merged); // deleted elsewhere: kept
      s.drafts[currentId] = merged;
    });
    store = table.loadStore();
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
    checkDue = true;
    checkTimer = setTimeout(startCheck, 350);
  }

  function startCheck() {
    checking = check();
    return checking;
  }

  // The check of what was typed, due or under way, has said its words: an export's own words (its
  // refusal, or the link made) come after them, not under them a moment later.
  async function checked() {
    if (checkDue) startCheck();
    await checking;
  }

  function flush() {
    if (showing() && !same(form.read(base), shownDoc(table.loadStore(), currentId))) return keepDraft();
    return "";
  }

  // Before the editor shows something else: what is typed is stored, or, where storage refuses it,
  // kept on screen unless the person chooses to let it go (nothing typed is dropped unasked).
  function flushOrKeep() {
    const problem = flush();
    if (!problem) return true;
    const name = form.read(base).name || "this character";
    if (window.confirm(`What you typed on ${name} could not be saved on this device (${problem}). Leave it anyway and lose it? (Cancel, then Download file, keeps it.)`)) return true;
    setStatus(`Kept on this page, not saved on this device: ${problem}. Download the file to keep it.`);
    return false;
  }

  // The engine checks the shown character and derives its numbers; an accepted draft replaces
  // the character, unless it changed meanwhile (the next check handles the newer one).
  async function check() {
    clearTimeout(checkTimer);
    checkDue = false;
    const id = currentId;
    if (!showing()) return;
    const doc = form.read(base);
    try {
      const result = await call("derive_character", { doc });
      if (id !== currentId) return;
      form.clearErrors();
      derived.replaceChildren(...derivedNumbers(result));
      let drafted = false;
      const problem = table.updateStore((s) => {
        if (!s.drafts[id] || !same(s.drafts[id], doc)) return false; // nothing waiting, or newer typing
        putCharacter(s, result.character);
        delete s.drafts[id];
        drafted = true;
      });
      store = table.loadStore();
      if (drafted && !problem) {
        base = result.character;
        setStatus(`Saved on this device: ${result.character.name}.`);
      } else if (problem) setStatus(`Not saved on this device: ${problem}. Download the file to keep it.`);
    } catch (error) {
      if (id !== currentId) return;
      if (error.refused) {
        form.showError(error);
        setStatus(`Kept on this device as typed, not checked yet: fix the field marked.`);
      } else setStatus(`Kept on this device as typed. The rules engine is not answering (${error.message}); the numbers follow when it does.`);
    } finally {
      tableDrawn(); // the engine's answer (or its silence) is on the page: the theme may start (loader.js)
    }
  }

  // Rebuild the editor from `doc`, keeping the focused field and its caret.
  function redraw(doc) {
    const focused = document.activeElement && editor.contains(document.activeElement) ? document.activeElement : null;
    const path = focused?.dataset ? focused.dataset.path : "";
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

  function showCharacter() {
    fillPicker();
    linkOut.value = "";
    linkOut.hidden = true;
    clearTimeout(checkTimer);
    checkDue = false;
    const current = shownDoc(store, currentId);
    if (!current) {
      base = null;
      editor.dataset.id = "";
      editor.replaceChildren(
        h("p", { class: "mt-empty", text: links.pending ? "No character on this device yet: the link above carries one." : "No character on this device yet: press New to make one." }),
      );
      derived.replaceChildren();
      tableDrawn(false); // nothing for the engine to work out
      return;
    }
    base = current;
    buildEditor(current);
    derived.replaceChildren(h("p", { class: "mt-working", text: "Working it out\u2026" }));
    startCheck();
  }

  function createNew() {
    if (!flushOrKeep()) return;
    const c = table.blankCharacter();
    const problem = table.updateStore((s) => putCharacter(s, c));
    store = table.loadStore();
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
    const problem = table.updateStore((s) => {
      s.characters = s.characters.filter((c) => c.id !== currentId);
      delete s.drafts[currentId];
      s.active = s.characters[0] ? s.characters[0].id : "";
    });
    if (problem) return setStatus(`Not deleted: ${problem}.`);
    store = table.loadStore();
    currentId = store.active;
    showCharacter();
    setStatus(`Deleted ${current.name}.`);
  }

  // The character shown now (as typed, once the engine has checked it).
  async function shownChecked() {
    flush();
    await checked();
    if (!showing()) throw Object.assign(new Error("Nothing to export yet."), { refused: true });
    return call("check_character", { doc: form.read(base) });
  }

  async function exportFile() {
    let character;
    try {
      character = await shownChecked();
    } catch (error) {
      if (error.path) form.showError(error);
      return setStatus(error.refused ? `Not exported: ${error.message}` : `Not exported: the rules engine is not answering (${error.message}).`);
    }
    download(JSON.stringify(character, null, 2), `${character.name.replace(/[^\w-]+/g, "_") || "character"}.mneme.json`);
    if (store.characters.length === 1) table.keeper().backedUp(); // the one character is all there is to keep
    setStatus(`File made for ${character.name}: it stays wherever you save it.`);
  }

  // The shown character as a link fragment, or null once the refusal is shown (`failed` starts it).
  async function linkFragment(failed) {
    try {
      return await call("export_link", { doc: await shownChecked() });
    } catch (error) {
      if (error.path) form.showError(error);
      setStatus(`${failed}: ${error.message}`);
      return null;
    }
  }

  async function exportLink() {
    const fragment = await linkFragment("No link");
    if (fragment === null) return;
    const href = characterLinkUrl(location.href, fragment);
    if (fragment.length > MAX_IMPORT_CHARS) {
      return setStatus(`No link: this character is too long for one (${fragment.length} characters; at most ${MAX_IMPORT_CHARS}). Download the file instead.`);
    }
    linkOut.value = href;
    linkOut.hidden = false;
    linkOut.select();
    if (navigator.clipboard) navigator.clipboard.writeText(href).catch(() => {});
    setStatus("Link made (and copied where the browser allows). The character travels inside the link.");
  }

  // The character's link shown as a QR code for the referee's tracker, on the page made for showing
  // things across the table (table/fight/: the QR library loads there, not with every calculator).
  async function showReferee() {
    const fragment = await linkFragment("Nothing to show");
    if (fragment === null) return;
    location.assign(characterLinkUrl(new URL("../fight/", location.href).href, fragment));
  }

  async function importFrom(text, quiet) {
    importMsg.textContent = "";
    if (typeof text !== "string" || text.length > MAX_IMPORT_CHARS) {
      importMsg.textContent = `Not imported: too large to be a character (at most ${MAX_IMPORT_CHARS} characters).`;
      return null;
    }
    if (nestsDeeper(text, C.limits.call_depth)) {
      importMsg.textContent = `Not imported: this nests deeper than ${C.limits.call_depth} levels, so it is not a character.`;
      return null;
    }
    const backup = backupFile(text);
    if (backup) return restoreList(backup, quiet);
    if (!quiet) importMsg.textContent = "Checking it\u2026 (the rules engine may still be starting)";
    try {
      const character = await call("import_character", { text });
      importMsg.textContent = "";
      flush();
      const problem = table.updateStore((s) => {
        if (s.characters.some((c) => c && c.id === character.id)) character.id = newId("ch");
        putCharacter(s, character);
      });
      if (problem) {
        importMsg.textContent = `Not imported: ${problem}.`;
        return null;
      }
      store = table.loadStore();
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
    const kept = table.backups(table.STORE_KEY);
    keptAside.hidden = kept.length === 0;
    if (!kept.length) return keptAside.replaceChildren();
    keptAside.replaceChildren(
      ...keptAsideContent(kept, {
        intro: "Saved data this page could not read was kept here rather than lost. Download it, or restore the characters it still holds.",
        fileName: (b) => `kept-aside-${b.when.slice(0, 10)}.json`,
        restore,
        forget: (b) => {
          table.dropBackup(b.key);
          showBackups();
        },
      }),
    );
  }

  async function restore(backup) {
    let raw;
    try {
      raw = JSON.parse(backup.text);
    } catch (_) {
      return setStatus("That backup is not readable data: download it to keep it.");
    }
    // A whole old store (its characters), one kept-aside document (its character and draft), or one character.
    const doc = isObject(raw) && isObject(raw.character) ? [raw.character, raw.draft].filter(isObject) : null;
    const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.characters) ? raw.characters : doc || [raw];
    await restoreList(list, false, "; the backup stays until you forget it");
  }

  // A backup file ("Download a backup": every character kept here), or null for anything else.
  function backupFile(text) {
    if (!text.trimStart().startsWith("{")) return null;
    try {
      const doc = JSON.parse(text);
      return isObject(doc) && doc.schema === C.schemas.backup.name && Array.isArray(doc.characters) ? doc.characters : null;
    } catch (_) {
      return null;
    }
  }

  // Each character of `list` the engine accepts is added; the page says how many.
  async function restoreList(list, quiet, more = "") {
    importMsg.textContent = "Checking the characters\u2026 (the rules engine may still be starting)";
    let added = 0;
    for (const c of list.filter(isObject)) if (await importFrom(JSON.stringify(c), true)) added += 1;
    importMsg.textContent = "";
    importText.value = "";
    store = table.loadStore();
    if (!quiet) showCharacter();
    setStatus(`Restored ${added} of ${list.length} ${list.length === 1 ? "entry" : "entries"} from the backup${more}.`);
    return null;
  }

  function offerFromLink() {
    const link = links.pending;
    if (!link) return;
    const clear = () => {
      links.pending = "";
      const address = withoutCharacterLink(location);
      if (address !== null) history.replaceState(history.state, "", address);
      offer.hidden = true;
      offer.replaceChildren();
    };
    if (link.length > MAX_IMPORT_CHARS) {
      importMsg.textContent = `The link's character was not imported: the link is too long to be a character (${link.length} characters; at most ${MAX_IMPORT_CHARS}).`;
      return clear();
    }
    // Shown at once from the link itself (measured, then read as data); the engine checks it
    // field by field when it is added.
    const peek = peekCharacter(link, C.limits);
    if (peek.error) {
      importMsg.textContent = `The link's character was not imported: ${peek.error}`;
      return clear();
    }
    const { name, characteristics } = peek.character;
    const slot = h("p", { class: "mt-error", role: "alert" });
    offer.hidden = false;
    try {
      performance.mark("mneme:character-link-shown");
    } catch (_) {
      /* marks are best effort */
    }
    offer.replaceChildren(
      h("p", { "data-link-character": "", text: `This link carries a character: ${name}.` }),
      h("p", { class: "mt-working", text: C.characteristics.filter(([key]) => key in characteristics).map(([key, short]) => `${short} ${characteristics[key]}`).join(" \u00b7 ") }),
      h("button", {
        type: "button",
        class: "mt-button",
        "data-action": "accept-link",
        onclick: async () => {
          slot.textContent = "Checking it\u2026 (the rules engine may still be starting)";
          const added = await importFrom(link, true);
          slot.textContent = "";
          if (!added) return;
          clear();
          showCharacter();
          setStatus(`Imported ${added.name}.`);
        },
      }, "Add to my characters"),
      h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "ignore-link", onclick: clear }, "Ignore"),
      slot,
    );
  }

  showCharacter();
  showBackups();
  if (table.blocked()) setStatus("This browser blocks storage for this site: what you type is kept on this page only, until you close it. Download the file to keep it.");
  offerFromLink();
  links.offer = offerFromLink;
  root.dataset.state = "ready";
}

