"""The calculator framework: everything a calculator module needs, from one import.

A calculator module writes ``from calculators.framework import Calculator, IntInput, ...``
(only the names it uses). The parts live in :mod:`calculators.framework.spec`
(declaring inputs, outputs and results; the one place inputs are validated),
:mod:`calculators.framework.render` (HTML), :mod:`calculators.framework.registry`
(name -> module) and :mod:`calculators.framework.runtime` (what the build hook and
the browser worker call). See ``calculators/README.md``.
"""

from calculators.framework import spec
from calculators.framework.spec import *  # noqa: F403 (the front re-exports exactly spec's public names)

__all__: list[str] = []
__all__ += spec.__all__  # the form type checkers read as a re-export
