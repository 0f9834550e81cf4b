"""The one error the build raises for a fault in the sources (a page, a marker, a missing file).

Its message names the fault and where it is; the generator's glue (``hooks/``) reports it as the
generator's own build error, so a strict build fails with that message.
"""

from __future__ import annotations

__all__ = ["BuildError"]


class BuildError(Exception):
    """A fault in the sources that must fail the build, with a message naming it and its place."""
