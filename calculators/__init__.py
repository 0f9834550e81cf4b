"""Calculators for the Mneme CE rules site, declared once in Python.

Each calculator lives in ``calculators/<name>.py`` and is found there by
:mod:`calculators.framework.registry`. :mod:`calculators.framework.spec` declares inputs, outputs and
results; :mod:`calculators.framework.render` turns them into HTML; :mod:`calculators.framework.runtime`
is what the build hook and the browser worker call. See ``calculators/README.md``.
"""

__all__: list[str] = []
