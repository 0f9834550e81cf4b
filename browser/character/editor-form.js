// The character editor's form: fields for every part of a character, rows of skills and weapons
// to add and remove, what is typed read back as a character document, and the engine's refusals
// shown beside their field. The limits and labels are Python's (sitebuild/table_ui.py).

import { h } from "../lib/dom.js";
import { parseNumber } from "../lib/form-state.js";

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

function charSelect(path, value, label, characteristics) {
  const select = h("select", { "data-path": path, "aria-label": label });
  for (const [key, short] of characteristics) select.append(h("option", { value: key, text: short, selected: key === value }));
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

// The form inside `editor` (a <form>), for the page's settings `C`; `onRowRemoved()` runs when a
// skill or weapon row is removed (an edit like any other).
export function createEditorForm(editor, C, onRowRemoved) {
  const CHARS = C.characteristics;

  function fillEditor(c) {
    const chars = c.characteristics || {};
    const skills = Array.isArray(c.skills) ? c.skills : [];
    const weapons = Array.isArray(c.weapons) ? c.weapons : [];
    const skillRows = h("div", { class: "mt-list", "data-list": "skills" });
    const weaponRows = h("div", { class: "mt-list", "data-list": "weapons" });
    skills.forEach((s, i) => {
      skillRows.append(skillRow(s, i));
    });
    weapons.forEach((w, i) => {
      weaponRows.append(weaponRow(w, i));
    });
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
      field("With", charSelect(`skills.${i}.characteristic`, s.characteristic || "dexterity", "Characteristic", CHARS), `skills.${i}.characteristic`),
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
      field("With", charSelect(`weapons.${i}.characteristic`, w.characteristic || "dexterity", "Characteristic", CHARS), `weapons.${i}.characteristic`),
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
    onRowRemoved();
  }

  function clearErrors() {
    for (const el of editor.querySelectorAll("[data-error-for]")) el.textContent = "";
    for (const el of editor.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  }

  function showError(error) {
    clearErrors();
    const path = error.path || "";
    const slot = editor.querySelector(`[data-error-for="${CSS.escape(path)}"]`) || editor.querySelector('[data-error-for=""]');
    slot.textContent = error.message;
    const control = editor.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (control) control.setAttribute("aria-invalid", "true");
  }

  return { fill: fillEditor, read: readEditor, clearErrors, showError };
}
