"""Mneme CE combat rules as exact, tested code.

Every figure lives in a data table under ``rules_core/data`` (see
:mod:`rules_core.tables`); each rule is a small named function in the module
of its chapter, citing its section. Import the module you need
(``from rules_core import checks``): the package itself stays light so that
the browser engine starts fast. A module's public names are those without a leading
underscore; the modules keep no ``__all__`` lists repeating them.
"""

__all__: list[str] = []
__version__ = "0.1.0"
