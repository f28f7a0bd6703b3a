"""A real PostgreSQL server for the store suite, started by the test setup.

``postgres_url`` (one fresh database per test, on one server per session) needs
tripwire-postgres (``pip install ./contrib/postgres``) and Debian's ``postgresql``
package: ``initdb`` and ``pg_ctl`` from /usr/lib/postgresql/*/bin or PATH, run as the
``postgres`` user (``runuser``) with a data directory in a temporary folder, listening
on a free loopback port only. Where they are missing the Postgres tests are skipped
with the reason, except under CI (``CI`` set), where that is a failure: .ci/run
installs the package.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

_counter = itertools.count()


def _binaries() -> tuple[str, str] | str:
    """(initdb, pg_ctl), or why they cannot be used."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for directory in [*candidates, *os.environ.get("PATH", "").split(os.pathsep)]:
        initdb, pg_ctl = os.path.join(directory, "initdb"), os.path.join(directory, "pg_ctl")
        if os.access(initdb, os.X_OK) and os.access(pg_ctl, os.X_OK):
            break
    else:
        return "PostgreSQL's initdb/pg_ctl are not installed (apt-get install postgresql)"
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        return "starting PostgreSQL needs root (to run initdb as the postgres user)"
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        return "there is no postgres user (apt-get install postgresql creates it)"
    try:
        import tripwire_postgres  # noqa: F401
    except ImportError:
        return "tripwire-postgres is not installed (pip install ./contrib/postgres)"
    return initdb, pg_ctl


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL store tests cannot run under CI: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["runuser", "-u", "postgres", "--", *argv], capture_output=True,
                          text=True, check=True, timeout=120, **kwargs)  # type: ignore[call-overload]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[tuple[str, int]]:
    """``(bin directory, port)`` of a PostgreSQL server running for the session."""
    found = _binaries()
    if isinstance(found, str):
        _unavailable(found)
        raise AssertionError("unreachable")
    initdb, pg_ctl = found
    tmp = tempfile.mkdtemp(prefix="tripwire-pg-")
    os.chmod(tmp, 0o755)
    data = os.path.join(tmp, "data")
    os.mkdir(data)
    shutil.chown(data, "postgres", "postgres")
    port = _free_port()
    try:
        _as_postgres(initdb, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                     "--no-sync")
        _as_postgres(pg_ctl, "-D", data, "-l", os.path.join(data, "server.log"), "-w",
                     "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off",
                     "start")
    except subprocess.CalledProcessError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        _unavailable(f"PostgreSQL did not start: {e.stderr or e.stdout}")
    try:
        yield os.path.dirname(initdb), port
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", pg_ctl, "-D", data, "-m", "immediate",
                        "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: tuple[str, int]) -> str:
    """A fresh, empty database on the session's server."""
    bindir, port = postgres_server
    name = f"tripwire_test_{os.getpid()}_{next(_counter)}"
    _as_postgres(os.path.join(bindir, "createdb"), "-h", "127.0.0.1", "-p", str(port), name)
    return f"postgresql://postgres@127.0.0.1:{port}/{name}"
