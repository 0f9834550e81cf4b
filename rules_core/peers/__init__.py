"""Combat rules of two other games, modelled for comparison with Mneme.

- :mod:`rules_core.peers.mistrunner`: Mistrunner: Combat (seed ``003``).
- :mod:`rules_core.peers.minds_eye`: Mind's Eye Theatre: Complex Scenarios (seed ``004``).
- :mod:`rules_core.peers.comparison`: one character in all three systems.

Only what the seeds define precisely is modelled; every gap is named on the
pages ``docs/peers/*.md`` and in ``notes/rulings-peers.md``. Import the
module you need; this package imports nothing itself.
"""

__all__: list[str] = []
