"""The table apps' state in Python: the saved character, calculator prefill, and the combat tracker.

Documents are plain JSON checked on entry; the browser keeps them in local storage and asks these
modules (through the worker) for validation and every derived number.
"""
