// "My character": characters kept on this device (localStorage, versioned), the character page,
// export/import (file and link) and the "use my character" control added above calculator forms.
// Holds state only: validation and every derived number come from table/character.py,
// run in the engine worker (window.mnemeEngine.call). The empty documents, schemas,
// limits and labels are Python's too (sitebuild/table_ui.py), embedded by the build in the pages
// that need them (#mneme-table-config). All text goes in with textContent; imported files and
// links are parsed as data by Python, never executed.
// The page's table (storage, characters, engine calls) is offered as window.mnemeTable: the
// tracker (tracker.js, loaded after this script) works on the same one.

import { renderCharacterPage } from "./character/editor.js";
import { createTable } from "./character/table.js";
import { bindMine } from "./character/use-mine.js";
import { onEachPage } from "./lib/dom.js";
import { characterLinkIn } from "./lib/link-codec.js";

function startTable() {
  const script = document.currentScript;
  const table = createTable(script ? script.src : location.href);

  // A character link (#character=...) is read as soon as it appears, before the theme's
  // navigation rewrites the address; it waits until the person accepts or ignores it.
  const links = { pending: "", offer: null };
  function grabLink() {
    const link = characterLinkIn(location.hash);
    if (link) links.pending = link;
  }
  grabLink();
  window.addEventListener("hashchange", () => {
    grabLink();
    if (links.pending && links.offer && document.querySelector('[data-mneme-table="character"]')) links.offer();
  });

  function bindAll() {
    if (!table.config()) return; // a page without the table settings has nothing of ours to bind
    const page = document.querySelector('[data-mneme-table="character"]');
    if (page && !page.mnemeBound) {
      page.mnemeBound = true;
      renderCharacterPage(page, table, links);
    }
    for (const form of document.querySelectorAll("form[data-calculator]")) bindMine(form, table);
  }

  window.mnemeTable = table;
  onEachPage(bindAll);
}

if (!window.mnemeTable) startTable();
