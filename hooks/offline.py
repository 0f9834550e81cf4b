"""MkDocs hook: the site works offline after one visit, installs as an app, and runs under a strict CSP.

The work is ``sitebuild.offline`` (service worker, manifest), ``sitebuild.icons`` and ``sitebuild.csp``;
this file hands it MkDocs' settings and files. The accessibility fixes of the offline pages are
``browser/offline/a11y.css`` and ``overrides/partials/``.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the build package (sitebuild) sits beside this folder

from sitebuild import offline  # noqa: E402
from sitebuild.errors import BuildError  # noqa: E402

log = logging.getLogger("mkdocs.hooks.offline")
_state: dict[str, Any] = {"command": "build"}


def _languages(config: MkDocsConfig) -> set[str]:
    """The search's languages (only their search packs are precached)."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    langs = (getattr(search, "config", {}) or {}).get("lang") or [config.theme.get("language", "en")]
    return {str(lang) for lang in ([langs] if isinstance(langs, str) else langs)}


def on_startup(command: str, dirty: bool) -> None:
    _state["command"] = command


def on_files(files: Files, config: MkDocsConfig) -> Files:
    try:
        made = offline.generated_files(config.site_name, config.site_description or "")
    except BuildError as exc:
        raise PluginError(f"hooks/offline.py: {exc}") from exc
    for path, content in made.items():
        files.append(File.generated(config, path, content=content))
    return files


def on_post_build(config: MkDocsConfig) -> None:
    try:
        done = offline.finish_site(
            Path(config.site_dir), _state.get("command") == "serve", _languages(config)
        )
    except BuildError as exc:
        raise PluginError(f"hooks/offline.py: {exc}") from exc
    log.info(done)
