"""The README's examples run as written and print what it says they print."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def section(title: str) -> str:
    text = README.read_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_guardrails_example_prints_what_the_readme_shows(tmp_path):
    blocks = re.findall(r"```(\w*)\n(.*?)```", section("Guardrails"), re.S)
    code = next(body for lang, body in blocks if lang == "python")
    shown = next(body for lang, body in blocks if lang == "")
    script = tmp_path / "guardrails_example.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
