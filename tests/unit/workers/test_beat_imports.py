"""Beat's stop handler must never import: the modules it may reach are loaded with the app.

Celery's beat installs a SIGTERM handler that closes the scheduler, building it (and the
result backend) first when beat's main thread has not finished doing so. A stop landing
while that thread was importing `celery.backends.redis` re-entered the half-imported module
and printed a traceback at shutdown (seen once in CI). Loading both modules with
`workers.app`, before beat installs its handler, closes that window.
"""

import subprocess
import sys


def test_the_app_loads_what_beats_stop_handler_needs() -> None:
    probe = (
        "import sys, workers.app; "
        "print(sorted(m for m in ('celery.backends.redis', 'redbeat.schedulers') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "['celery.backends.redis', 'redbeat.schedulers']"
