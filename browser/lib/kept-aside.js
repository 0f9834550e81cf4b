// "Kept aside": the backups of data a page could not read (lib/storage.js, keepBackup), listed
// newest first, each to download, forget or (where the page can) restore.

import { download, h } from "./dom.js";

// The panel's content for `kept` ({key, when, text}, newest first): `intro` says what they are;
// `fileName(backup)` names a download; `restore(backup)` (optional) adds a Restore button;
// `forget(backup)` runs once the person confirms.
export function keptAsideContent(kept, { intro, fileName, restore, forget }) {
  const button = (action, onclick, label) =>
    h("button", { type: "button", class: "mt-button mt-quiet", "data-action": action, onclick }, label);
  return [
    h("h2", { text: "Kept aside" }),
    h("p", { text: intro }),
    h(
      "ul",
      { class: "mt-kept-list" },
      kept.map((b) =>
        h(
          "li",
          { "data-backup": b.key },
          h("span", { text: `${b.when.replace("T", " ").slice(0, 19)} UTC, ${b.text.length} characters ` }),
          button("backup-download", () => download(b.text, fileName(b)), "Download"),
          restore ? button("backup-restore", () => restore(b), "Restore") : null,
          button(
            "backup-drop",
            () => {
              if (window.confirm("Forget this backup? It cannot be brought back.")) forget(b);
            },
            "Forget",
          ),
        ),
      ),
    ),
  ];
}
