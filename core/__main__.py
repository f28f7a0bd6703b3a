"""``python -m tripwire``: the same CLI as the ``tripwire`` command."""

from tripwire.cli import main

raise SystemExit(main())
