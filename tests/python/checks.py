"""The runner the python tests share: one line per check ('ok' or 'FAIL' with the
exception), a closing 'N passed, N failed' line, and a non-zero exit status on failure."""

import sys


def run(cases):
    """Runs each (name, function) of `cases`, reports it and exits."""
    failed = 0
    for name, fn in cases:
        try:
            fn()
            print(f"ok   {name}")
        except Exception as e:  # report and go on
            failed += 1
            print(f"FAIL {name}: {e!r}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
