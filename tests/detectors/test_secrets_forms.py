"""API keys and tokens in the forms people paste them, in English, German, French and
Spanish: a label of a few words before the value ("Token de Cloudflare:", "the API key
for staging is"), a quoted value with symbols (a Django ``SECRET_KEY``), Hugging Face
tokens with digits; and, side by side, what is not a secret: a key format filled with
a placeholder character, prose about tokens, hashes."""

from __future__ import annotations

import random
import string

import pytest

from tripwire.detectors.secrets import SecretDetector

SECRETS = SecretDetector()
_RNG = random.Random(2811)
ALNUM = string.ascii_letters + string.digits


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def values(text: str) -> list[str]:
    return [d.value or "" for d in SECRETS.detect(text) if d.score >= 0.6]


@pytest.mark.parametrize("sentence", [
    "Cloudflare token for prod: {}",
    "the API key for staging is {}",
    "Stripe secret for live: {}",
    "Token API : {}",
    "Token de Cloudflare: {}",
    "el token de Cloudflare es {}",
    "llave API: {}",
    "Zugangstoken für Jenkins: {}",
    "le token du bot Discord : {}",
    "Der API-Schlüssel für Mailjet lautet {}",
    "- API de Mailchimp token: {}",
])
def test_a_value_after_a_labelled_key_word_is_found(sentence):
    value = rand(40, ALNUM + "_")
    assert values(sentence.format(value)) == [value]


@pytest.mark.parametrize("template", [
    'SECRET_KEY = "{}"',
    "secret_key: '{}'",
    'DB_PASSWORD="{}"',
    '{{"client_secret": "{}"}}',
    "export API_TOKEN='{}'",
])
def test_a_quoted_value_with_symbols_is_found_whole(template):
    value = "k9#t2v!x@8qz$1m^4w&l7p0r(e3y)u6b_d5n+c-h*s"
    assert values(template.format(value)) == [value]


@pytest.mark.parametrize("sentence", [
    "qqn a le token Hugging Face ? {}",
    "HF_TOKEN={}",
    "Mein HF-Token: {}",
    "mi token de Hugging Face es {}",
])
def test_a_hugging_face_token_with_digits_is_found(sentence):
    token = "hf_" + rand(34)
    assert values(sentence.format(token)) == [token]


@pytest.mark.parametrize("text", [
    "export AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
    '{"name": "apiKeySandbox", "value": "sk_test_XXXXXXXXXXXXXXXX"}',
    "STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
    "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "OPENAI_API_KEY=sk-proj-********************************",
    "Ersetze sk_test_0000000000000000 durch deinen Schlüssel",
    "remplacez hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx par votre jeton",
    "sustituye AKIA0000000000000000 por tu clave",
])
def test_a_key_format_filled_with_a_placeholder_is_no_key(text):
    assert values(text) == []


@pytest.mark.parametrize("text", [
    "the token for the next sprint is the refactoring of the parser",
    "Der Token für die Anmeldung läuft nach 20 Minuten ab.",
    "le token de session expire après 3600 secondes",
    "el token de acceso caduca en 24 horas",
    "API key for staging: see the vault entry stg/billing",
    'password = "correct horse battery staple"',
    'SECRET_KEY = "change-me-in-production-please"',
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the token refresh",
])
def test_prose_about_a_key_and_a_hash_are_no_key(text):
    assert values(text) == []
