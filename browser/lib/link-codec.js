// Character links: a character travels inside a page address, as the fragment "#character=..."
// (the text itself is made and read by Python, table/character.py: export_link, import_character).
// Pure: addresses in, addresses out.

export const CHARACTER_LINK = "character=";

// The link a fragment carries ("character=..."), kept whole, or "" when it carries none. An
// over-long link is refused with a message later, never cut here (a cut changes the data).
export function characterLinkIn(hash) {
  const text = String(hash || "").replace(/^#/, "");
  return text.startsWith(CHARACTER_LINK) ? text : "";
}

// The page's address with the link as its fragment and no query.
export function characterLinkUrl(pageHref, fragment) {
  const url = new URL(pageHref);
  url.search = "";
  url.hash = fragment;
  return url.href;
}

// The address once the link has been taken or ignored: no fragment left; null when it carries none.
export function withoutCharacterLink(location) {
  return location.hash.startsWith(`#${CHARACTER_LINK}`) ? location.pathname + location.search : null;
}
