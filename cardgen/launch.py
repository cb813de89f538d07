"""The `cardgen` program's first lines (`cardgen` and `python -m cardgen` both start here).

A Ctrl-C while Python is still loading cardgen's modules ends the program as a Ctrl-C later does:
one line, exit 130, no traceback. It is imported before anything else of cardgen, so it imports
nothing of cardgen itself at its top.
"""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from cardgen.cli import main as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return run()
