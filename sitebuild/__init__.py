"""The site's build, independent of the site generator: everything ``hooks/`` asks for.

- ``bundle``: the browser engine's files (our wheel of ``rules_core``, ``calculators`` and ``table``,
  the trimmed Pyodide standard library, the hashed browser scripts and the one stylesheet), compiled
  by ``bytecode`` (``bytecode.mjs`` under Node with the pinned Pyodide).
- ``markers``: the one fence-aware scanner of ``<!-- kind: NAME -->`` markers in the pages.
- ``rules_pages`` and ``reference/``: the rules tables and worked-example figures those markers name.
- ``early_engine``: the engine's early start and the theme's deferred script in a computing page.
- ``table_ui``: the character and tracker settings embedded in their pages.
- ``urls``, ``errors``: site-relative links; the build's one error.
"""
