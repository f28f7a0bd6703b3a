"""API keys that no key-like word before them names, and keys split in source code:
a word after the token in its clause ("... is the staging API key", "... (prod
token)", "... c'est la clé de l'API", "... ist der API-Schlüssel", "... es la clave");
a label's words in brackets ("API key (Mailgun): ..."); a personal access token's
"PAT"; a command line's ``-u user:password``; a key split across quoted pieces after a
key-like name (adjacent literals, ``+``, PHP's ``.``), each piece found, and found in a
stream cut anywhere. Side by side, the hashes, ids, model names and identifiers near
the same words that are none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire.chunks import Chunk
from tripwire.detectors.secrets import SecretDetector
from tripwire.guards.window import HoldBack

SECRETS = SecretDetector()
K = "q8Zt2VbN4mX7pL1cR9wK3sD6"          # 24 random characters
L = "Tz7kQ1vW9bX3mN8pL2cR6sD4fH0jY5gAe"  # 33
H = "9f86d081884c7d659a2feaa0c55ad015"   # 32 hex digits


def keys(text: str) -> list[str]:
    return sorted(d.value or "" for d in SECRETS.detect(text) if d.score >= 0.6)


@pytest.mark.parametrize(("text", "want"), [
    (f"{K} is the staging API key", [K]),
    (f"{K} (that's the prod token)", [K]),
    (f"{K} ← Stripe key, don't share", [K]),
    (f"{K} c'est la clé de l'API", [K]),
    (f"{K} ist der API-Schlüssel für Prod", [K]),
    (f"{K} es la clave de la API", [K]),
    (f"{K} — webhook secret for the billing app", [K]),
    (f"API key (Mailgun): {H}", [H]),
    (f"Token (GitLab, read-only): {K}", [K]),
    (f"PAT: {K}", [K]),
    (f"here's my PAT {L}", [L]),
    (f"curl -u api:{K} https://api.example.com", [K]),
    (f"http --auth-type basic --user 'deploy:{K}' POST example.com", [K]),
    (f'MAPS_KEY = ("{K[:10]}"\n            "{K[10:]}")', [K[:10], K[10:]]),
    (f'const key = "{L[:16]}" + "{L[16:]}";', [L[:16], L[16:]]),
    (f"$token = '{L[:16]}' . '{L[16:]}';", [L[:16], L[16:]]),
    (f'String secret = "{L[:11]}" +\n    "{L[11:22]}" +\n    "{L[22:]}";',
     [L[:11], L[11:22], L[22:]]),
])
def test_a_key_named_after_it_in_brackets_on_a_command_line_or_split_is_found(text, want):
    assert keys(text) == sorted(want)


@pytest.mark.parametrize("text", [
    "the primary key is order_id_2023_10_04_final_v2 and the cache key is users_v3",
    "9fceb02d0ae598e95dc970b74767f19372d61af8 is the commit that rotated the key",
    "model: gpt-4o-mini-2024-07-18, tokens used: 1536, password_min_length = 12",
    "The request id Tz7kQ1vW9bX3mN8pL2cR6sD4 is not a token",
    "build_2024_11_03_release_candidate is the token of the week",
    'const parts = ("alpha", "beta");',
    'SALT_PARTS = ("ab" "cd")',
    "curl -u admin:admin https://example.com",
    "curl -u $USER:$TOKEN https://example.com",
    'api_key = ("YOUR_KEY" "_HERE_PLEASE")',
    "the patch pattern path: 1a2b3c4d5e6f7g8h9i0j",
])
def test_ids_hashes_names_and_placeholders_near_key_words_are_not_keys(text):
    assert keys(text) == []


def _stream(text: str, cuts: list[int]) -> str:
    hold = HoldBack(SECRETS.max_length,
                    lambda t: [(d.start, d.end, d.detector) for d in SECRETS.detect(t)],
                    replace="[MASKED]", hold_from=SECRETS.hold_from)
    bounds = sorted({0, len(text), *cuts})
    out: list[Chunk] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        out += hold.push(Chunk("text-delta", {"id": "t1", "text": text[a:b]})).chunks
    out += hold.push(Chunk("finish", {"finish_reason": "stop"})).chunks
    return "".join(c.payload["text"] for c in out if c.type == "text-delta")


@given(st.sampled_from([
    f"{K} is the staging API key",
    f'MAPS_KEY = ("{K[:10]}"\n            "{K[10:]}")',
    f'const key = "{L[:16]}" + "{L[16:]}";',
    f"curl -u api:{K} https://api.example.com",
]), st.lists(st.integers(0, 400), max_size=12))
@settings(max_examples=120, deadline=None, database=None)
def test_a_stream_cut_anywhere_masks_what_the_whole_text_masks(form, cuts):
    text = "Some words before. " * 3 + form + " and some words after it, done.\nok"
    whole = text
    for d in sorted(SECRETS.detect(text), key=lambda d: -d.start):
        whole = whole[:d.start] + "[MASKED]" + whole[d.end:]
    assert "[MASKED]" in whole
    assert _stream(text, [c % (len(text) + 1) for c in cuts]) == whole
