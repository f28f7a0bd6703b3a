"""The secret and crypto-wallet detectors (``api-key`` and ``crypto-wallet``): every
known format found with its exact span, checksums validated against the BIPs' and
EIP-55's vectors, hard negatives left alone, a stream guard with the detectors'
``max_length`` never releasing a piece of a secret, and precision and recall on a
labelled set.

Every secret here is random and fake, made by ``Fakes`` with a fixed seed.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import random
import string
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire import Chunk, HoldBack
from tripwire.detectors import build, detect_all
from tripwire.detectors.crypto import (
    BECH32,
    BECH32M,
    CryptoWalletDetector,
    base58_decode,
    base58_encode,
    base58check_decode,
    base58check_encode,
    bech32_decode,
    bech32_encode,
    eip55_checksum,
    keccak256,
    segwit_decode,
    segwit_encode,
)
from tripwire.detectors.secrets import SecretDetector, entropy_ratio, shannon_entropy
from tripwire.guards.verdicts import Detection, Detector

SETTINGS = settings(max_examples=100, deadline=None, database=None)

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
BASE64 = ALNUM + "+/"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits
BASE32 = string.ascii_uppercase + "234567"


class Fakes:
    """Realistic fake secrets and wallet addresses: random, never real."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def chars(self, n: int, alphabet: str = ALNUM) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def bytes(self, n: int) -> bytes:
        return self.rng.randbytes(n)

    # secrets, by rule
    def openai(self) -> str:
        return self.rng.choice([
            lambda: "sk-proj-" + self.chars(156, URLSAFE),
            lambda: "sk-svcacct-" + self.chars(120, URLSAFE),
            lambda: "sk-" + self.chars(20) + "T3BlbkFJ" + self.chars(20),
        ])()

    def anthropic(self) -> str:
        return "sk-ant-api03-" + self.chars(93, URLSAFE) + "AA"

    def aws_access_key(self) -> str:
        return self.rng.choice(["AKIA", "ASIA"]) + self.chars(16, BASE32)

    def aws_secret_key(self) -> str:
        return self.chars(40, BASE64)

    def github(self) -> str:
        if self.rng.random() < 0.3:
            return "github_pat_" + self.chars(22) + "_" + self.chars(59)
        return self.rng.choice(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) + self.chars(36)

    def slack(self) -> str:
        if self.rng.random() < 0.3:
            return (f"https://hooks.slack.com/services/T{self.chars(8, UPPER_DIGITS)}"
                    f"/B{self.chars(10, UPPER_DIGITS)}/{self.chars(24)}")
        return (f"xox{self.rng.choice('bpa')}-{self.chars(11, string.digits)}-"
                f"{self.chars(13, string.digits)}-{self.chars(24)}")

    def google(self) -> str:
        return "AIza" + self.chars(35, URLSAFE)

    def stripe(self, kind: str = "sk", mode: str = "live") -> str:
        return f"{kind}_{mode}_" + self.chars(self.rng.choice([24, 99]))

    def jwt(self, header: dict[str, object] | None = None) -> str:
        def b64url(value: object) -> str:
            raw = json.dumps(value).encode()
            return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

        header = header or {"alg": self.rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
        payload = {"sub": self.chars(12, string.digits), "name": "Ada Lovelace",
                   "iat": 1516239022 + self.rng.randrange(10**6)}
        return f"{b64url(header)}.{b64url(payload)}.{self.chars(43, URLSAFE)}"

    def private_key(self, label: str = "", size: int = 1190, newline: str = "\n",
                    headers: str = "") -> str:
        """A PEM block whose body looks like what its label promises (DER, OpenSSH)."""
        if label == "OPENSSH ":
            raw = b"openssh-key-v1\0" + self.bytes(size)
        elif label == "PGP ":
            raw = b"\x95" + self.bytes(size)
        else:
            raw = b"\x30\x82" + size.to_bytes(2, "big") + self.bytes(size)
        body = base64.b64encode(raw).decode()
        width = 70 if label == "OPENSSH " else 64
        lines = [body[i:i + width] for i in range(0, len(body), width)]
        block = " BLOCK" if label == "PGP " else ""
        return (f"-----BEGIN {label}PRIVATE KEY{block}-----{newline}{headers}"
                + newline.join(lines) + f"{newline}-----END {label}PRIVATE KEY{block}-----")

    def password(self) -> str:
        return self.chars(self.rng.randint(8, 20), ALNUM + "!*()-_~")

    def generic(self) -> str:
        alphabet = self.rng.choice([HEX, ALNUM, BASE64, string.ascii_lowercase + string.digits])
        while True:
            token = self.chars(self.rng.randint(20, 64), alphabet)
            if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
                return token

    # wallets
    def base58_address(self, version: int) -> str:
        return base58check_encode(bytes([version]) + self.bytes(20))

    def segwit_address(self, hrp: str = "bc", version: int = 0, size: int = 20) -> str:
        return segwit_encode(hrp, version, self.bytes(size))

    def ethereum(self, checksummed: bool = True) -> str:
        address = "0x" + self.bytes(20).hex()
        return eip55_checksum(address) if checksummed else address


@pytest.fixture
def fakes() -> Fakes:
    return Fakes(seed=20240501)


@pytest.fixture(scope="module")
def secrets() -> SecretDetector:
    return SecretDetector()


@pytest.fixture(scope="module")
def wallets() -> CryptoWalletDetector:
    return CryptoWalletDetector()


def spans(detector: Detector, text: str) -> list[tuple[int, int, str | None]]:
    return sorted((d.start, d.end, d.detector) for d in detector.detect(text))


def found_alone(detector: Detector, before: str, value: str, after: str = "") -> Detection:
    """The one detection in ``before + value + after``, which must be exactly ``value``."""
    text = before + value + after
    (d,) = detector.detect(text)
    assert (d.start, d.end) == (len(before), len(before) + len(value)), d
    assert d.value == value == text[d.start:d.end]
    return d


# ----------------------------------------------------------------- the contract


def test_both_detectors_are_built_by_type_and_satisfy_the_protocol():
    secrets, wallets = build(["api-key", "crypto-wallet"])
    assert isinstance(secrets, SecretDetector) and isinstance(wallets, CryptoWalletDetector)
    for detector in (secrets, wallets):
        assert isinstance(detector, Detector)
    assert (secrets.name, secrets.types) == ("api-key", ("api-key",))
    assert (wallets.name, wallets.types) == ("crypto-wallet", ("crypto-wallet",))
    assert (secrets.max_length, wallets.max_length) == (4096, 90)


def test_build_passes_the_secret_options():
    (lenient,) = build(["api-key"], generic=False, regions=["US"])
    assert not lenient.generic
    (strict,) = build(["api-key"], min_entropy=0.99)
    assert strict.min_entropy == 0.99


@pytest.mark.parametrize("options", [{"generic": "yes"}, {"min_entropy": 0},
                                     {"min_entropy": 1.5}, {"min_entropy": True}])
def test_bad_options_are_rejected(options):
    with pytest.raises((TypeError, ValueError), match="SecretDetector"):
        SecretDetector(**options)


def test_detect_all_finds_secrets_and_wallets_in_one_text(fakes):
    key, address = fakes.github(), fakes.ethereum()
    text = f"token {key} and pay {address}"
    found = detect_all(text, build(["api-key", "crypto-wallet"]))
    assert [(d.type, text[d.start:d.end]) for d in found] == [
        ("api-key", key), ("crypto-wallet", address)]


# ----------------------------------------------------------------- known secret formats


@pytest.mark.parametrize(("make", "rule", "score"), [
    (lambda f: "sk-proj-" + f.chars(156, URLSAFE), "openai", 0.99),
    (lambda f: "sk-svcacct-" + f.chars(120, URLSAFE), "openai", 0.99),
    (lambda f: "sk-admin-" + f.chars(80, URLSAFE), "openai", 0.99),
    (lambda f: "sk-" + f.chars(20) + "T3BlbkFJ" + f.chars(20), "openai", 0.99),
    (lambda f: "sk-" + f.chars(48), "openai", 0.9),
    (lambda f: "sk-" + f.chars(32, HEX), "openai", 0.9),
    (Fakes.anthropic, "anthropic", 0.99),
    (lambda f: "sk-ant-admin01-" + f.chars(93, URLSAFE), "anthropic", 0.99),
    (lambda f: "AKIA" + f.chars(16, BASE32), "aws-access-key", 0.95),
    (lambda f: "ASIA" + f.chars(16, BASE32), "aws-access-key", 0.95),
    (lambda f: "AKIA" + "0189" + f.chars(12, BASE32), "aws-access-key", 0.8),
    (lambda f: "ghp_" + f.chars(36), "github", 0.98),
    (lambda f: "gho_" + f.chars(36), "github", 0.98),
    (lambda f: "ghu_" + f.chars(36), "github", 0.98),
    (lambda f: "ghs_" + f.chars(36), "github", 0.98),
    (lambda f: "ghr_" + f.chars(36), "github", 0.98),
    (lambda f: "github_pat_" + f.chars(22) + "_" + f.chars(59), "github", 0.99),
    (lambda f: f"xoxb-{f.chars(11, string.digits)}-{f.chars(13, string.digits)}-{f.chars(24)}",
     "slack", 0.98),
    (lambda f: f"xoxp-{f.chars(11, string.digits)}-{f.chars(11, string.digits)}-"
               f"{f.chars(12, string.digits)}-{f.chars(32, HEX)}", "slack", 0.98),
    (lambda f: f"xapp-1-A{f.chars(10, UPPER_DIGITS)}-{f.chars(13, string.digits)}-"
               f"{f.chars(64, HEX)}", "slack", 0.98),
    (lambda f: f"https://hooks.slack.com/services/T{f.chars(8, UPPER_DIGITS)}/"
               f"B{f.chars(10, UPPER_DIGITS)}/{f.chars(24)}", "slack", 0.98),
    (Fakes.google, "google", 0.97),
    (lambda f: f.stripe("sk", "live"), "stripe", 0.99),
    (lambda f: f.stripe("rk", "live"), "stripe", 0.99),
    (lambda f: f.stripe("pk", "live"), "stripe", 0.8),
    (lambda f: f.stripe("sk", "test"), "stripe", 0.7),
    (lambda f: f.stripe("rk", "test"), "stripe", 0.7),
    (lambda f: f.stripe("pk", "test"), "stripe", 0.5),
    (Fakes.jwt, "jwt", 0.98),
    (lambda f: f.jwt({"alg": "none"})[:-43], "jwt", 0.98),
])
def test_each_known_format_is_found_with_its_rule_and_exact_span(secrets, fakes, make, rule,
                                                                 score):
    value = make(fakes)
    d = found_alone(secrets, "it failed with (", value, ") in the log.")
    assert (d.type, d.detector, d.score) == ("api-key", f"secrets:{rule}", score)


def test_a_jwt_whose_payload_is_not_json_scores_lower(secrets, fakes):
    header, _, signature = fakes.jwt().split(".")
    value = f"{header}.{base64.urlsafe_b64encode(b'opaque bytes').decode().rstrip('=')}.{signature}"
    assert found_alone(secrets, "Bearer ", value).score == 0.9


def test_an_aws_secret_key_is_recognised_after_an_aws_word(secrets, fakes):
    key_id, secret = fakes.aws_access_key(), fakes.aws_secret_key()
    text = f"[default]\naws_access_key_id = {key_id}\naws_secret_access_key = {secret}\n"
    assert spans(secrets, text) == sorted([
        (text.index(key_id), text.index(key_id) + 20, "secrets:aws-access-key"),
        (text.index(secret), text.index(secret) + 40, "secrets:aws-secret-key")])
    for before in ('"SecretAccessKey": "', "AWS_SECRET_ACCESS_KEY=", "my aws secret is "):
        d = found_alone(secrets, before, secret, '"')
        assert (d.detector, d.score) == ("secrets:aws-secret-key", 0.95)


def test_the_password_of_a_url_is_found_not_the_url(secrets, fakes):
    password = fakes.password()
    d = found_alone(secrets, "DATABASE_URL=postgres://admin:", password,
                    "@db.internal:5432/app")
    assert (d.detector, d.score) == ("secrets:basic-auth", 0.95)
    # an empty user (redis) and a password holding a colon
    found_alone(secrets, "redis://:", "s3cr:et9Pw", "@cache:6379/0")


@pytest.mark.parametrize("make", [
    lambda f: "SG." + f.chars(22, ALNUM + "_-") + "." + f.chars(43, ALNUM + "_-"),
    lambda f: "key-" + f.chars(32, HEX),
    lambda f: "glpat-" + f.chars(20, ALNUM + "_-"),
    lambda f: "npm_" + f.chars(36),
    lambda f: "hf_" + f.chars(34, string.ascii_letters),
    lambda f: "shpat_" + f.chars(32, HEX),
    lambda f: "dop_v1_" + f.chars(64, HEX),
    lambda f: "SK" + f.chars(32, HEX),
    lambda f: "whsec_" + f.chars(32),
    lambda f: "sq0atp-" + f.chars(22, ALNUM + "_-"),
    lambda f: "PMAK-" + f.chars(24, HEX) + "-" + f.chars(34, HEX),
    lambda f: "dapi" + f.chars(32, HEX),
    lambda f: "lin_api_" + f.chars(40),
    lambda f: "sk-or-v1-" + f.chars(64, HEX),
    lambda f: "pypi-AgEIcHlwaS5vcmc" + f.chars(60, ALNUM + "_-"),
], ids=["sendgrid", "mailgun", "gitlab", "npm", "huggingface", "shopify", "digitalocean",
        "twilio", "stripe-webhook", "square", "postman", "databricks", "linear", "openrouter",
        "pypi"])
def test_other_services_published_key_formats_are_found(secrets, fakes, make):
    value = make(fakes)
    d = found_alone(secrets, "mailer key=", value, " domain=mg.example.org")
    assert (d.detector, d.score) == ("secrets:provider", 0.95)


# ----------------------------------------------------------------- private keys


@pytest.mark.parametrize(("label", "score"), [
    ("", 0.99), ("RSA ", 0.99), ("EC ", 0.99), ("DSA ", 0.99), ("ENCRYPTED ", 0.99),
    ("OPENSSH ", 0.99), ("PGP ", 0.99)])
def test_a_private_key_block_is_found_from_begin_to_end(secrets, fakes, label, score):
    block = fakes.private_key(label)
    d = found_alone(secrets, "Here is the key:\n", block, "\nCan you tell why ssh rejects it?")
    assert (d.detector, d.score) == ("secrets:private-key", score)


def test_a_block_whose_body_is_not_a_key_structure_scores_lower(secrets, fakes):
    body = base64.b64encode(fakes.bytes(600)).decode()
    block = f"-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----"
    assert found_alone(secrets, "", block).score == 0.95


@pytest.mark.parametrize("shape", ["crlf", "encrypted-pem", "json-escaped", "indented"])
def test_private_keys_are_found_in_every_usual_layout(secrets, fakes, shape):
    if shape == "crlf":
        value, before = fakes.private_key("EC ", 119, newline="\r\n"), ""
    elif shape == "encrypted-pem":
        value = fakes.private_key("RSA ", 1190, headers=(
            "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n"))
        before = ""
    elif shape == "json-escaped":
        value = json.dumps(fakes.private_key())[1:-1]   # "\n" as two characters
        before = '{"type": "service_account", "private_key": "'
    else:
        value = fakes.private_key().replace("\n", "\n    ")
        before = "tls:\n  key: |\n    "
    found_alone(secrets, before, value, '"\n')


def test_a_key_cut_off_by_the_end_of_the_text_is_found_up_to_the_end(secrets, fakes):
    block = fakes.private_key()
    for cut in (len("-----BEGIN PRIVATE KEY-----\nMII"), 300, len(block) - 10):
        d = found_alone(secrets, "key: ", block[:cut])
        assert d.score == 0.9


def test_a_truncated_key_is_found_up_to_its_last_base64_line(secrets, fakes):
    lines = fakes.private_key().splitlines()
    truncated = "\n".join(lines[:6])
    found_alone(secrets, "the key starts\n", truncated, "\n...\n(snip)")


def test_the_end_of_a_key_whose_begin_is_not_in_the_text_is_found(secrets, fakes):
    block = fakes.private_key()
    tail = block[block.index("\n", 400) + 1:]
    d = found_alone(secrets, "(cut) a few lines\n", tail, "\n")
    assert d.score == 0.9


def test_a_block_longer_than_max_length_is_covered_by_consecutive_pieces(secrets, fakes):
    block = fakes.private_key("RSA ", 4700)   # an RSA-8192-sized block
    assert len(block) > secrets.max_length
    text = f"key:\n{block}\nend"
    found = sorted(secrets.detect(text), key=lambda d: d.start)
    assert len(found) == 2
    assert found[0].start == 5 and found[-1].end == 5 + len(block)
    assert found[0].end == found[1].start
    assert all(d.end - d.start <= secrets.max_length for d in found)


@pytest.mark.parametrize("text", [
    "PEM keys look like -----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY----- in files.",
    "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY----- is the PKCS#1 header.",
])
def test_a_mention_of_a_private_key_header_is_not_a_key(secrets, text):
    assert spans(secrets, text) == []


def test_a_header_at_the_very_end_of_a_text_is_held_with_a_low_score(secrets):
    # In a stream the body may follow: the span holds it back, with a score below the
    # usual thresholds.
    text = "The file starts with -----BEGIN PRIVATE KEY-----"
    (d,) = secrets.detect(text)
    assert (d.start, d.end, d.score) == (21, len(text), 0.5)


def test_public_keys_and_certificates_are_not_secrets(secrets, fakes):
    body = "\n".join(base64.b64encode(fakes.bytes(48)).decode() for _ in range(8))
    for label in ("PUBLIC KEY", "CERTIFICATE", "RSA PUBLIC KEY", "PGP PUBLIC KEY BLOCK"):
        assert spans(secrets, f"-----BEGIN {label}-----\n{body}\n-----END {label}-----") == []
    ssh = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + fakes.chars(43, BASE64) + " ada@laptop"
    assert spans(secrets, f"my public key: {ssh}") == []
    assert spans(secrets, f'publicKey: "{fakes.chars(88, BASE64)}"') == []


# ----------------------------------------------------------------- the generic rule


@pytest.mark.parametrize("before", [
    "api_key = '", 'OPENAI_API_KEY="', "export STRIPE_SECRET=", "Authorization: Bearer ",
    '{"client_secret": "', "password: ", "my api key is ", "X-Api-Key: ", "apiKey: '",
    "access_token=", "credentials: ", "token ", "SIGNING_KEY=",
])
def test_a_random_token_after_a_key_like_word_is_found(secrets, before):
    token = "q8ZrT2vLmX4pN7wKd1YbF6sJ"
    d = found_alone(secrets, before, token, "' and more")
    assert d.detector == "secrets:generic" and 0.6 <= d.score <= 0.9


def test_generic_tokens_score_by_entropy(secrets):
    random_token = "Zx8Qm2Lp9Vr4Tn6Ks1Hw3Jd7"
    patterned = "abcabcabcabcabcabc12ab3c"  # letters and digits, little entropy
    assert found_alone(secrets, "secret=", random_token).score > 0.8
    assert spans(secrets, f"secret={patterned}") == []
    assert entropy_ratio(random_token) > entropy_ratio(patterned)


def test_the_generic_rule_can_be_turned_off_and_tightened(fakes):
    token = "q8ZrT2vLmX4pN7wKd1YbF6sJ"
    assert spans(SecretDetector(generic=False), f"api_key={token}") == []
    # known formats and AWS secret keys stay on
    key, secret = fakes.github(), fakes.aws_secret_key()
    off = SecretDetector(generic=False)
    assert [d.detector for d in off.detect(f"token {key}")] == ["secrets:github"]
    assert [d.detector for d in off.detect(f"aws_secret_access_key={secret}")] == [
        "secrets:aws-secret-key"]
    # a token that passes the default threshold fails a stricter one
    lowish = "abc123abc123xyz789xyz789"
    ratio = entropy_ratio(lowish)
    assert 0.85 < ratio < 0.9
    assert spans(SecretDetector(), f"token={lowish}") != []
    assert spans(SecretDetector(min_entropy=ratio + 0.01), f"token={lowish}") == []
    assert spans(SecretDetector(min_entropy=ratio - 0.01), f"token={lowish}") != []


def test_a_known_format_after_a_key_word_is_reported_once_by_its_own_rule(secrets, fakes):
    key = fakes.anthropic()
    assert [d.detector for d in secrets.detect(f"ANTHROPIC_API_KEY={key}")] == [
        "secrets:anthropic"]
    jwt = fakes.jwt()
    assert [d.detector for d in secrets.detect(f"Authorization: Bearer {jwt}")] == [
        "secrets:jwt"]


def test_shannon_entropy_and_its_ratio():
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abcd") == 2.0
    assert shannon_entropy("0123456789abcdef") == 4.0
    rng = random.Random(5)
    for alphabet in (HEX, ALNUM, BASE64):
        token = "".join(rng.choice(alphabet) for _ in range(64))
        assert 0.93 < entropy_ratio(token) < 1.07
    assert entropy_ratio("x") == 0.0


# ----------------------------------------------------------------- hard negatives


def _hard_negatives(f: Fakes) -> list[str]:
    sha1 = hashlib.sha1(f.bytes(8)).hexdigest()
    sha256 = hashlib.sha256(f.bytes(8)).hexdigest()
    image = base64.b64encode(f.bytes(300)).decode()
    return [
        f"Fixed in commit {sha1}; see also {sha1[:7]}.",
        f"git checkout {sha1} && git log -1",
        f"sha256: {sha256}  ubuntu-24.04-live-server-amd64.iso",
        f"The checksum {sha256} matches the download.",
        f"request id {uuid.UUID(int=f.rng.getrandbits(128))} failed",
        f"token id {uuid.UUID(int=f.rng.getrandbits(128))} expired",
        f"Here is the logo: ![logo](data:image/png;base64,{image}) as you asked.",
        f"The image data is {image} (base64).",
        "There is an sk-8 risk rating on this task-force report.",
        "Use the ask-me-anything format; the disk-12 array and risk-free rate.",
        "The tokenizer splits the text into 1500 tokens; max_tokens = 4096.",
        "A password must have at least 12 characters; reset it with the secret question.",
        "Set the Authorization header to Bearer followed by your token.",
        "api_key = 'YOUR_API_KEY_HERE'",
        "OPENAI_API_KEY=sk-...",
        "token: <your-token>",
        "password: ********",
        "postgres://user:password@localhost:5432/app",
        "redis://:${REDIS_PASSWORD}@cache:6379/0",
        "mysql://root:<password>@127.0.0.1/db",
        "https://user@example.com/path and https://example.com:8443/api",
        "tokenizer = AutoTokenizer.from_pretrained('bert-base-uncased')",
        "credentials_path = /home/ada/.config/gcloud/application_default_credentials.json",
        "the primary key is order_id_2023_10_04_final_v2 and the cache key is users_v3",
        f"cache_key = '{sha1}'",
        f"idempotency_key: {uuid.UUID(int=f.rng.getrandbits(128))}",
        f'<script integrity="sha384-{base64.b64encode(f.bytes(48)).decode()}"></script>',
        f"image: python:3.11-slim@sha256:{sha256}",
        "model: gpt-4o-mini-2024-07-18, tokens used: 1536, password_min_length = 12",
        "refresh_token_handler = getAccessTokenFromRefreshToken",
        'API_KEY = "sk-test-0123456789abcdef-SECRET"',
        "secret: abcdefghijklmnop12345678",
        "Version 10.4.22 was released on 2024-05-01; ISBN 978-3-16-148410-0.",
        "Order #482910394 shipped; tracking 1Z999AA10123456784.",
        "eyJzdWIiOiIxMjM0NTY3ODkwIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc (no alg)",
        "The AKIA prefix marks an AWS access key; ghp_ marks a GitHub token.",
        "Stripe keys look like sk_live_... and pk_test_...",
        "hooks.slack.com/services is where webhooks live",
        "xoxb-tokens are bot tokens",
    ]


def test_hard_negatives_are_not_secrets(secrets, fakes):
    for text in _hard_negatives(fakes):
        assert spans(secrets, text) == [], text


def test_hard_negatives_are_not_wallets(wallets, fakes):
    for text in _hard_negatives(fakes):
        assert spans(wallets, text) == [], text


@given(st.lists(st.sampled_from(
    "the a to of and in is it for you with on as this be are was have not but or by "
    "token tokens secret secrets password passwords key keys api bearer authorization "
    "auth credential credentials pwd pass = : ' \" 2024 42 1.2.3 v2 id_rsa OAuth2 "
    "sha256 uuid base64 commit hash JSON YAML .env config".split()), max_size=60))
@SETTINGS
def test_prose_about_secrets_is_not_a_secret(secrets, words):
    assert spans(secrets, " ".join(words)) == []


# ----------------------------------------------------------------- wallets: checksums

BIP350_VALID = [  # BIP-350's valid segwit addresses (the first is BIP-173's)
    "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
    "BC1SW50QGDZ25J",
    "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
    "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
]
BIP350_INVALID = [  # BIP-350's invalid segwit addresses, and why
    "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",   # unknown hrp
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",   # bech32 for v1
    "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf",   # bech32 for v2
    "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",   # bech32 for v16
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",                       # bech32m for v0
    "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",   # bech32m for v0
    "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4",   # 'o' in checksum
    "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",   # version 17
    "bc1pw5dgrnzv",                                                     # 1-byte program
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",  # 41
    "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",                             # 16 bytes for v0
    "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq",   # mixed case
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", # > 4 padding bits
    "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",   # non-zero padding
    "bc1gmk9yu",                                                        # empty data
]
BIP173_VALID_BECH32 = ["A12UEL5L", "a12uel5l", "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
                       "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", "?1ezyfcl"]
BIP350_VALID_BECH32M = ["A1LQFN3A", "a1lqfn3a", "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
                        "split1checkupstagehandshakeupstreamerranterredcaperredlc445v", "?1v759aa"]
EIP55_VALID = [  # EIP-55's test vectors: all caps, all lower, mixed
    "0x52908400098527886E0F7030069857D2E4169EE7", "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
    "0xde709f2102306220921060314715629080e2fb77", "0x27b1fdb04752bbc536007a920d24acb045561c26",
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]


@pytest.mark.parametrize("address", BIP350_VALID)
def test_bip350_valid_segwit_addresses_are_found(wallets, address):
    d = found_alone(wallets, "send it to ", address, ", thanks")
    testnet = address.lower().startswith("tb1")
    assert d.detector == ("crypto:bitcoin-testnet" if testnet else "crypto:bitcoin")
    assert d.score == (0.7 if testnet else 0.99)


@pytest.mark.parametrize("address", BIP350_INVALID)
def test_bip350_invalid_segwit_addresses_are_not(wallets, address):
    assert segwit_decode(address, hrps=("bc", "tb")) is None
    assert spans(wallets, f"send it to {address} now") == []


@pytest.mark.parametrize(("strings", "spec"), [(BIP173_VALID_BECH32, BECH32),
                                                (BIP350_VALID_BECH32M, BECH32M)])
def test_bech32_and_bech32m_checksum_vectors(strings, spec):
    for s in strings:
        decoded = bech32_decode(s)
        assert decoded is not None and decoded[2] == spec, s
        hrp, data, _ = decoded
        assert bech32_encode(hrp, data, spec) == s.lower()
        # one character changed after the separator breaks the checksum
        pos = s.rfind("1") + 1
        flipped = s[:pos] + chr(ord(s[pos]) ^ 1) + s[pos + 1:]
        assert bech32_decode(flipped) is None


def test_bip173_invalid_strings_are_rejected():
    for s in [" 1nwldj5", "\x7f1axkwrx", "\x801eym55h", "pzry9x0s0muk", "1pzry9x0s0muk",
              "x1b4n0q5v", "li1dgmt3", "de1lg7wt\xff", "A1G7SGD8", "10a06t8", "1qzzfhee",
              "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx"]:
        assert bech32_decode(s) is None, s


@pytest.mark.parametrize("address", EIP55_VALID)
def test_eip55_vectors(wallets, address):
    assert eip55_checksum(address.lower()) == address
    d = found_alone(wallets, "to: ", address)
    mixed = address[2:] not in (address[2:].lower(), address[2:].upper())
    assert (d.detector, d.score) == ("crypto:ethereum", 0.99 if mixed else 0.8)


def test_keccak256_is_ethereums_hash_not_sha3():
    assert keccak256(b"").hex() == (
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
    assert keccak256(b"").hex() != hashlib.sha3_256(b"").hexdigest()


@given(st.binary(max_size=600))
@SETTINGS
def test_pycryptodomes_keccak_and_ours_agree(data):
    from tripwire.detectors import crypto

    pytest.importorskip("Crypto.Hash.keccak")
    fast = keccak256(data)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(crypto, "_FAST_KECCAK", None)
        assert keccak256(data) == fast


@given(st.binary(max_size=600))
@SETTINGS
def test_keccak_with_the_fips_padding_is_sha3_256(data):
    # The same sponge: with SHA-3's padding byte it must agree with hashlib.
    assert keccak256(data, _pad=0x06) == hashlib.sha3_256(data).digest()


@pytest.mark.parametrize(("address", "chain", "score"), [
    ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "bitcoin", 0.99),   # the genesis block's
    ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "bitcoin", 0.99),   # BIP-13's P2SH example
    ("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "bitcoin-testnet", 0.7),
])
def test_known_base58check_addresses_are_found(wallets, address, chain, score):
    d = found_alone(wallets, "address ", address, ".")
    assert (d.detector, d.score) == (f"crypto:{chain}", score)


@pytest.mark.parametrize(("version", "chain", "score", "first"), [
    (0x00, "bitcoin", 0.99, "1"), (0x05, "bitcoin", 0.99, "3"),
    (0x6F, "bitcoin-testnet", 0.7, "mn"), (0xC4, "bitcoin-testnet", 0.7, "2"),
    (0x30, "litecoin", 0.95, "L"), (0x32, "litecoin", 0.95, "M"),
    (0x1E, "dogecoin", 0.95, "D"), (0x16, "dogecoin", 0.95, "9A"),
])
def test_each_base58check_network_is_found_and_a_changed_character_is_not(
        wallets, fakes, version, chain, score, first):
    for _ in range(5):
        address = fakes.base58_address(version)
        assert address[0] in first
        d = found_alone(wallets, "wallet: ", address)
        assert (d.detector, d.score) == (f"crypto:{chain}", score)
        i = fakes.rng.randrange(1, len(address))
        other = fakes.rng.choice([c for c in "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
                                  if c != address[i]])
        assert spans(wallets, f"wallet: {address[:i]}{other}{address[i + 1:]}") == []


@pytest.mark.parametrize(("hrp", "chain", "score"), [
    ("bc", "bitcoin", 0.99), ("tb", "bitcoin-testnet", 0.7), ("bcrt", "bitcoin-testnet", 0.7),
    ("ltc", "litecoin", 0.95), ("tltc", "litecoin-testnet", 0.7)])
def test_each_segwit_network_is_found(wallets, fakes, hrp, chain, score):
    for version, size in [(0, 20), (0, 32), (1, 32)]:
        address = fakes.segwit_address(hrp, version, size)
        d = found_alone(wallets, "(", address, ")")
        assert (d.detector, d.score) == (f"crypto:{chain}", score)
        assert found_alone(wallets, "", address.upper()).detector == f"crypto:{chain}"


def test_other_base58check_versions_and_lengths_are_not_wallets(wallets, fakes):
    wif = base58check_encode(b"\x80" + fakes.bytes(32) + b"\x01")   # a private key (WIF)
    xpub = base58check_encode(b"\x04\x88\xb2\x1e" + fakes.bytes(74))
    assert spans(wallets, f"{wif} {xpub}") == []


def test_ethereum_addresses_with_a_wrong_checksum_case_are_not_wallets(wallets):
    good = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    for bad in ("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"):
        assert bad.lower() == good.lower()
        assert spans(wallets, f"pay {bad}") == []


def test_hex_that_only_starts_like_an_ethereum_address_is_not_one(wallets, fakes):
    tx_hash = "0x" + fakes.bytes(32).hex()
    address = fakes.ethereum()
    assert spans(wallets, f"tx {tx_hash} confirmed") == []
    assert spans(wallets, f"id {address}ff and x{address}") == []


@given(st.binary(min_size=1, max_size=40))
@SETTINGS
def test_base58_and_base58check_round_trip(payload):
    assert base58_decode(base58_encode(payload)) == payload
    assert base58check_decode(base58check_encode(payload)) == payload


@given(st.sampled_from(["bc", "tb", "ltc"]), st.integers(0, 16), st.binary(min_size=2, max_size=40),
       st.data())
@SETTINGS
def test_segwit_round_trips_and_any_one_substitution_is_caught(hrp, version, program, data):
    if version == 0:
        program = (program * 32)[:data.draw(st.sampled_from([20, 32]))]
    address = segwit_encode(hrp, version, program)
    assert segwit_decode(address) == (hrp, version, program)
    # bech32 and bech32m detect any error in up to four characters
    i = data.draw(st.integers(len(hrp) + 1, len(address) - 1))
    other = data.draw(st.sampled_from([c for c in "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
                                       if c != address[i]]))
    assert segwit_decode(address[:i] + other + address[i + 1:]) is None


@given(st.binary(min_size=20, max_size=20), st.data())
@SETTINGS
def test_changing_the_case_of_one_letter_breaks_an_eip55_checksum(wallets, raw, data):
    address = eip55_checksum("0x" + raw.hex())
    letters = [i for i, c in enumerate(address) if c.isalpha() and i > 1]
    if not letters:
        return
    i = data.draw(st.sampled_from(letters))
    changed = address[:i] + address[i].swapcase() + address[i + 1:]
    digits = changed[2:]
    found = wallets.detect(f"to {changed}")
    if digits in (digits.lower(), digits.upper()):
        assert [d.score for d in found] == [0.8]   # no checksum left to check
    else:
        assert list(found) == []


# ----------------------------------------------------------------- every detection


@given(st.text(max_size=300), st.sampled_from(["github", "jwt", "google", "anthropic",
                                               "ethereum", "segwit"]), st.data())
@SETTINGS
def test_detections_are_well_formed_wherever_a_secret_sits(secrets, wallets, noise, kind, data):
    f = Fakes(data.draw(st.integers(0, 2**32)))
    value = {"github": f.github, "jwt": f.jwt, "google": f.google, "anthropic": f.anthropic,
             "ethereum": f.ethereum, "segwit": f.segwit_address}[kind]()
    cut = data.draw(st.integers(0, len(noise)))
    before, after = noise[:cut] + " ", " " + noise[cut:]
    text = before + value + after
    found = [(d, secrets) for d in secrets.detect(text)] + [
        (d, wallets) for d in wallets.detect(text)]
    for d, detector in found:
        assert 0 <= d.start < d.end <= len(text)
        assert d.value == text[d.start:d.end]
        assert d.end - d.start <= detector.max_length
        assert 0 <= d.score <= 1
        assert d.detector is not None and d.detector.startswith(("secrets:", "crypto:"))
    assert (len(before), len(before) + len(value)) in {(d.start, d.end) for d, _ in found}


# ----------------------------------------------------------------- streams


def stream(detector: Detector, text: str, cuts: list[int], *, hold_from=None) -> str:
    """What a client receives when a stream guard built on ``HoldBack`` with the
    detector's ``max_length`` (and ``hold_from``) masks its detections in ``text`` cut
    at ``cuts``."""
    hold = HoldBack(detector.max_length,
                    lambda t: [(d.start, d.end, d.detector) for d in detector.detect(t)],
                    replace="[MASKED]", hold_from=hold_from)
    bounds = sorted({0, len(text), *cuts})
    out: list[Chunk] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        out += hold.push(Chunk("text-delta", {"id": "t1", "text": text[a:b]})).chunks
    out += hold.push(Chunk("finish", {"finish_reason": "stop"})).chunks
    return "".join(c.payload["text"] for c in out if c.type == "text-delta")


def pieces(value: str, size: int = 12) -> list[str]:
    return [value[i:i + size] for i in range(0, len(value) - size + 1)]


@given(st.sampled_from(["private-key", "jwt", "aws", "generic", "url"]),
       st.lists(st.integers(0, 3000), max_size=40), st.data())
@settings(max_examples=40, deadline=None, database=None)
def test_no_piece_of_a_secret_escapes_a_stream_guard_using_max_length(secrets, kind, cuts,
                                                                      data):
    f = Fakes(data.draw(st.integers(0, 2**32)))
    value = {"private-key": lambda: f.private_key(size=1190),
             "jwt": f.jwt, "aws": f.aws_secret_key, "generic": lambda: "q8ZrT2vLmX4pN7wKd1YbF6sJ",
             "url": f.password}[kind]()
    before = {"aws": "aws_secret_access_key = ", "generic": "api_key=",
              "url": "postgres://ada:"}.get(kind, "here it is:\n")
    after = "@db:5432/app and done." if kind == "url" else "\nthanks, that was all."
    text = "Some words before. " * 3 + before + value + after
    out = stream(secrets, text, [c % (len(text) + 1) for c in cuts])
    assert "[MASKED]" in out
    assert not any(p in out for p in pieces(value, min(12, len(value))))
    assert out.replace("[MASKED]", value, 1) == text


def _end_only(f: Fakes) -> str:
    block = f.private_key()
    return block[block.index("\n", 400) + 1:]


def _end_only_escaped(f: Fakes) -> str:
    block = json.dumps(f.private_key())[1:-1]   # "\n" as two characters
    return block[block.index("\\n", 400) + 2:]


#: Each kind of secret with the text before and after it in a stream:
#: ``(make(fakes), before, after)``.
STREAMED = {
    "private-key": (lambda f: f.private_key(size=1190), "here it is:\n", "\nthanks."),
    "private-key-crlf": (lambda f: f.private_key("EC ", 119, newline="\r\n"), "key:\r\n",
                         "\r\ndone"),
    "private-key-encrypted": (lambda f: f.private_key("RSA ", 600, headers=(
        "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n")), "", "\nok"),
    "private-key-json": (lambda f: json.dumps(f.private_key())[1:-1],
                         '{"type": "service_account", "private_key": "', '"}'),
    "private-key-indented": (lambda f: f.private_key().replace("\n", "\n    "),
                             "tls:\n  key: |\n    ", "\n  cert: x"),
    "private-key-end-only": (_end_only, "(cut) a few lines\n", "\nthat was it"),
    "private-key-end-only-json": (_end_only_escaped, '{"key": "(cut)\\n', '"}'),
    "jwt": (Fakes.jwt, "token: ", " expires soon."),
    "aws": (Fakes.aws_secret_key, "aws_secret_access_key = ", "\nregion = eu-west-1"),
    "aws-access-key": (Fakes.aws_access_key, "the key id is ", ", rotate it."),
    "generic": (lambda f: "q8ZrT2vLmX4pN7wKd1YbF6sJ", "api_key=", " # keep it safe"),
    "url": (Fakes.password, "postgres://ada:", "@db:5432/app and done."),
    "openai": (Fakes.openai, "OPENAI_API_KEY=", "\nnext line"),
    "anthropic": (Fakes.anthropic, "use ", " for the API."),
    "github": (Fakes.github, "(", ") in the log."),
    "slack": (Fakes.slack, "webhook ", " posted."),
    "google": (Fakes.google, "key=", "&q=1"),
    "stripe": (lambda f: f.stripe("sk", "live"), "stripe ", " charged."),
}


@given(st.sampled_from(sorted(STREAMED)), st.lists(st.integers(0, 3000), max_size=40),
       st.data())
@settings(max_examples=120, deadline=None, database=None)
def test_no_piece_of_a_secret_escapes_a_guard_holding_from_hold_from(secrets, kind, cuts,
                                                                     data):
    """``SecretDetector.hold_from`` lets a guard release text a word at a time: every
    kind of secret, cut anywhere, is still masked exactly as in the whole text."""
    f = Fakes(data.draw(st.integers(0, 2**32)))
    make, before, after = STREAMED[kind]
    value = make(f)
    text = "Some words before. " * 3 + before + value + after + " More words after."
    out = stream(secrets, text, [c % (len(text) + 1) for c in cuts],
                 hold_from=secrets.hold_from)
    assert not any(p in out for p in pieces(value, min(12, len(value))))
    assert out == stream(secrets, text, []), (kind, out)


def test_hold_from_holds_one_word_of_prose_and_a_whole_open_key_block(secrets, fakes):
    assert secrets.hold_from("Some words and a wor") == len("Some words and a ")
    assert secrets.hold_from("Some words. ") == len("Some words. ")
    block = fakes.private_key()
    for cut in (len("-----BEGIN PRI"), len("-----BEGIN PRIVATE KEY-----\nMII"), 300,
                len(block) - 10):
        assert secrets.hold_from("key:\n" + block[:cut]) == len("key:\n")
    closed = "key:\n" + block + "\nand then "
    assert secrets.hold_from(closed) == len(closed)
    body = "lines of a key\n" + "QUJD" * 16 + "\n" + "REVG" * 8
    assert secrets.hold_from(body) == len("lines of a key\n")
    assert secrets.hold_from("-----BEGIN CERTIFICATE-----\nMIIB") == len(
        "-----BEGIN CERTIFICATE-----\n")
    # The END line of a key whose BEGIN is not there, coming in: its body waits.
    for end in ("-", "-----EN", "-----END PRIV", "-----END PRIVATE KEY---"):
        assert secrets.hold_from(body + "\n" + end) == len("lines of a key\n")
    # (escaped line breaks: the detector's key starts at the first line of its own)
    escaped = 'x = "' + "QUJD" * 16 + "\\n" + "REVG" * 8 + "\\n-----END PRIV"
    assert secrets.hold_from(escaped) == len('x = "' + "QUJD" * 16 + "\\n")


@given(st.lists(st.integers(0, 200), max_size=30))
@settings(max_examples=40, deadline=None, database=None)
def test_no_piece_of_a_wallet_escapes_a_stream_guard_using_max_length(wallets, cuts):
    f = Fakes(7)
    values = [f.segwit_address("bc", 1, 32), f.ethereum(), f.base58_address(0)]
    text = "pay " + " or ".join(values) + " today"
    out = stream(wallets, text, cuts)
    assert out == "pay [MASKED] or [MASKED] or [MASKED] today"


# ----------------------------------------------------------------- precision and recall


def _changed_last(value: str) -> str:
    return value[:-1] + ("2" if value[-1] != "2" else "3")


def labelled_set(seed: int = 1) -> list[tuple[str, set[tuple[int, int]]]]:
    """Texts with the spans that are secrets or wallets: each format in a few chat-like
    settings, and the hard negatives (fixed seed)."""
    f = Fakes(seed)
    makers = {
        "openai": f.openai, "anthropic": f.anthropic, "aws-key": f.aws_access_key,
        "github": f.github, "slack": f.slack, "google": f.google,
        "stripe": lambda: f.stripe(f.rng.choice(["sk", "rk", "pk"]),
                                   f.rng.choice(["live", "test"])),
        "jwt": f.jwt, "private-key": lambda: f.private_key(
            f.rng.choice(["", "RSA ", "EC ", "OPENSSH "]), f.rng.choice([119, 600, 1190])),
        "bitcoin": lambda: f.base58_address(f.rng.choice([0x00, 0x05, 0x6F, 0x30, 0x1E])),
        "segwit": lambda: f.segwit_address(f.rng.choice(["bc", "tb", "ltc"]),
                                           *f.rng.choice([(0, 20), (0, 32), (1, 32)])),
        "ethereum": lambda: f.ethereum(f.rng.random() < 0.7),
    }
    settings_ = ["It fails with {} in the log.", "Here you go:\n{}\n", "value={}", "`{}`",
                 "I pasted {}, is that right?", '{{"value": "{}"}}']
    out: list[tuple[str, set[tuple[int, int]]]] = []

    def add(template: str, value: str) -> None:
        before = template[:template.index("{}")].replace("{{", "{")
        out.append((template.replace("{}", value, 1).replace("{{", "{").replace("}}", "}"),
                    {(len(before), len(before) + len(value))}))

    for make in makers.values():
        for _ in range(25):
            add(f.rng.choice(settings_), make())
    key_words = ["api_key = '{}'", "OPENAI_API_KEY={}", "Authorization: Bearer {}",
                 '{{"client_secret": "{}"}}', "password: {}", "my token is {}",
                 "aws_secret_access_key = {}"]
    for _ in range(100):
        template = f.rng.choice(key_words)
        add(template, f.aws_secret_key() if "aws" in template else f.generic())
    for _ in range(25):
        add("postgres://app:{}@db.internal:5432/prod", f.password())
    negatives = _hard_negatives(f)
    negatives += [
        f"wallet {_changed_last(f.base58_address(0))}",
        f"to {_changed_last(f.ethereum())} please",
        f"commit {hashlib.sha1(f.bytes(4)).hexdigest()} fixes the token refresh",
    ]
    for _ in range(20):
        negatives.append(f"token {f.chars(12)} and secret {f.chars(15)} are short")
        negatives.append(f"tx 0x{f.bytes(32).hex()} and block {f.rng.randrange(10**7)}")
    out += [(text, set()) for text in negatives]
    return out


def test_precision_and_recall_on_the_labelled_set(secrets, wallets):
    tp = fp = fn = 0
    for text, expected in labelled_set():
        got = {(d.start, d.end) for d in detect_all(text, [secrets, wallets], threshold=0.5)}
        tp += len(got & expected)
        fp += len(got - expected)
        fn += len(expected - got)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    assert precision >= 0.97 and recall >= 0.95, (precision, recall, tp, fp, fn)


def test_a_token_after_a_key_word_is_judged_once_however_often_its_text_is_searched():
    # (a stream's search reads the text before what is new again)
    detector = SecretDetector()
    judged: list[str] = []
    judge = detector._judge
    detector._judged = functools.lru_cache(maxsize=16)(
        lambda token, context: (judged.append(token), judge(token, context))[1])
    # (a token is kept with the 24 characters before its key word, which it reads)
    text = "in the settings file the password: Zx8Qm2Lp9Vr4Tn6Ks1Hw3Jd7Yb5Fc0Ge2Ah and more"
    first = [(d.start, d.end, d.score) for d in detector.detect(text)]
    assert first and [(d.start, d.end, d.score) for d in detector.detect("so " + text)] == [
        (s + 3, e + 3, score) for s, e, score in first]
    assert judged == ["Zx8Qm2Lp9Vr4Tn6Ks1Hw3Jd7Yb5Fc0Ge2Ah"]
    assert first == [(d.start, d.end, d.score) for d in SecretDetector().detect(text)]
