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


# Keys and tokens in the places code, configuration and chat put them: headers, query
# strings, JSON, YAML, .env, Docker, kubectl, PHP, Ruby, Java, C#, XML, TOML, curl; in
# English, French, German and Spanish prose; and the ids, hashes and placeholders beside
# them.
_FORMS = [
    ('X-Api-Key: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ("curl -H 'X-Auth-Token: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA' https://api.example.com", ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('curl -H "Authorization: Token q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA" https://api.example.com', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('GET /v1/data?access_token=q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA&page=2', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('wss://stream.example.com/socket?token=q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('headers = {"Authorization": "Bearer q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"}', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('headers = {"X-API-KEY": "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"}', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('.header("X-API-KEY", "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA")', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('req.setRequestHeader("x-api-key", "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA");', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('client = Client(api_key="q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA")', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('const client = new Client("q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA");', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('export OPENWEATHER_KEY=q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('docker run -e API_TOKEN=q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA app', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('  apiKey: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('  secret: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('token = "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('define("API_KEY", "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA");', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ("ENV['MAILER_KEY'] ||= 'q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA'", ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('let apiKey = "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('private static final String SECRET = "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA";', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('ApiKey = "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA",', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('Stripe.apiKey = "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA";', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('  "client_secret": "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA",', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('consumer_secret="q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('webhook secret: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('signing secret q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ("Here's the app secret for staging: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA", ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('clé secrète : q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ("le jeton d'accès est q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA", ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ("mot de passe de l'API : q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA", ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('Zugangstoken: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('der Zugangsschlüssel ist q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('token de acceso: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('la clave secreta es q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('curl -u api:q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA https://api.example.com', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('curl -u q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA: https://api.stripe.com/v1/charges', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('requests.get(url, auth=("user", "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"))', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('MAPS_KEY = ("q8Zt2VbN4mX7pL"\n            "1cR9wK3sD6fH0jY5gA")', ['1cR9wK3sD6fH0jY5gA', 'q8Zt2VbN4mX7pL']),
    ('const key = "q8Zt2VbN4mX7pL1c" + "R9wK3sD6fH0jY5gA";', ['R9wK3sD6fH0jY5gA', 'q8Zt2VbN4mX7pL1c']),
    ("$token = 'q8Zt2VbN4mX7pL1c' . 'R9wK3sD6fH0jY5gA';", ['R9wK3sD6fH0jY5gA', 'q8Zt2VbN4mX7pL1c']),
    ('q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('here: q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('Tz7kQ1vW9bX3mN8pL2cR6sD4fH0jY5gAe', ['Tz7kQ1vW9bX3mN8pL2cR6sD4fH0jY5gAe']),
    ('use this one -> q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('-----\nq8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA\n-----', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('<add key="ApiKey" value="q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA" />', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('<apiKey>q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA</apiKey>', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('[api]\nkey = "q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA"', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('set-variable -name token -value q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('aws configure set aws_secret_access_key q8Zt2VbN4mX7pL1cR9wKq8Zt2VbN4mX7pL1cR9wK', ['q8Zt2VbN4mX7pL1cR9wKq8Zt2VbN4mX7pL1cR9wK']),
    ('kubectl create secret generic api --from-literal=token=q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('az login --service-principal -u app -p q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA --tenant t', ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('commit 9fceb02d0ae598e95dc970b74767f19372d61af8', []),
    ('sha256: 3f79bb7b435b05321651daefd374cdc681dc06faa65e374e38337b88ca046dea', []),
    ('request_id=Tz7kQ1vW9bX3mN8pL2cR6sD4fH0jY5gAe', []),
    ('"api_key": "YOUR_API_KEY_HERE"', []),
    ('api_key=${API_KEY}', []),
    ('token: <your-token>', []),
    ('q8Zt2VbN4mX7pL1cR9wK3sD6 is the staging API key', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ("q8Zt2VbN4mX7pL1cR9wK3sD6 (that's the prod token)", ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ("q8Zt2VbN4mX7pL1cR9wK3sD6 ← Stripe key, don't share", ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ("q8Zt2VbN4mX7pL1cR9wK3sD6 c'est la clé de l'API", ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('q8Zt2VbN4mX7pL1cR9wK3sD6 ist der API-Schlüssel für Prod', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('q8Zt2VbN4mX7pL1cR9wK3sD6 es la clave de la API', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('Mailgun: 9f86d081884c7d659a2feaa0c55ad015', []),
    ('API key (Mailgun): 9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('api_key=9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('X-Api-Key: 9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('Bearer q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('Authorization: Bearer q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('Authorization: Basic dXNlcjpxOFp0MlZiTjRtWDdwTDFjUjl3SzNzRDY=', ['dXNlcjpxOFp0MlZiTjRtWDdwTDFjUjl3SzNzRDY=']),
    ('OPENAI_API_KEY=q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('token q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('PAT: q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ("here's my PAT q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA", ['q8Zt2VbN4mX7pL1cR9wK3sD6fH0jY5gA']),
    ('x-goog-api-key: q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('Ocp-Apim-Subscription-Key: 9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('api-key: 9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('DD_API_KEY=9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('Passwort für den Admin-Token: q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('"apiKey":"q8Zt2VbN4mX7pL1cR9wK3sD6"', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('apikey q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('clave API q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('llave: q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('API-Key q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('credentials: q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
    ('app_id=12345&app_key=9f86d081884c7d659a2feaa0c55ad015', ['9f86d081884c7d659a2feaa0c55ad015']),
    ('license key: q8Zt2VbN4mX7pL1cR9wK3sD6', ['q8Zt2VbN4mX7pL1cR9wK3sD6']),
]


@pytest.mark.parametrize(("text", "want"), _FORMS)
def test_a_key_where_code_configuration_and_chat_put_it(text, want):
    assert keys(text) == want
