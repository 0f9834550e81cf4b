"""Reference content for the site's pages, computed from ``rules_core`` at build time.

- :mod:`sitebuild.reference.tables`: the rules tables (``TABLES``, name -> markdown table),
  for ``<!-- table: NAME -->`` markers;
- :mod:`sitebuild.reference.examples`: the worked-example figures (``VALUES``, name -> text),
  for ``<!-- value: NAME -->`` markers;
- :mod:`sitebuild.reference.index`: the list of calculators on the calculators index page,
  from the registry's ``summary`` of each;
- :mod:`sitebuild.reference.markdown`: the pipe-table writer they share, and the two layouts of a
  table too wide for a phone (``wide_and_narrow``, ``stacked_table``; ``browser/rules.css``);
- :mod:`sitebuild.reference.rulings`: the rulings page's engine option lines folded into closed blocks.

Every number becomes text through :mod:`calculators.format`. The MkDocs hooks in ``hooks/``
only find the markers and call these registries.
"""

from __future__ import annotations

from sitebuild.reference.examples import VALUES
from sitebuild.reference.index import CalculatorHome, calculator_index
from sitebuild.reference.markdown import markdown_table
from sitebuild.reference.tables import TABLES

__all__ = ["TABLES", "VALUES", "CalculatorHome", "calculator_index", "markdown_table"]
