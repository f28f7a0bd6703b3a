"""How the PostgreSQL test server reports that it cannot run: a skip locally, a
failure under CI (where .ci/run installs the package)."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped

from tests.support.postgres_server import _unavailable


def test_missing_postgres_is_a_skip_locally(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(Skipped, match="initdb is missing"):
        _unavailable("initdb is missing")


def test_missing_postgres_fails_under_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match="cannot run under CI: initdb is missing"):
        _unavailable("initdb is missing")
