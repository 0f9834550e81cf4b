// The settings Python embeds in the pages that compute (sitebuild/table_ui.py, page_config):
// <div id="mneme-table-config" data-config='JSON'>. The same on every page that carries them, so
// read once and kept; null on a page without them (or with unreadable ones).

export const SETTINGS_ID = "mneme-table-config";

let settings = null;

export function pageSettings(doc = document) {
  if (!settings) {
    const el = doc.getElementById(SETTINGS_ID);
    if (el?.dataset.config) settings = JSON.parse(el.dataset.config);
  }
  return settings;
}
