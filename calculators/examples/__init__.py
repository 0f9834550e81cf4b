"""Example calculators: real modules the README shows and the tests run, not in the registry."""
