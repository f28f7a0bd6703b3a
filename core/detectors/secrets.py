"""Secrets: API keys, tokens, private keys and passwords (type ``api-key``).

Each rule names itself in ``Detection.detector`` (``"secrets:github"``, while the
detector's ``name`` is its type, ``api-key``); its score says how sure it is. A match must stand alone: a letter, digit, ``_`` or ``-`` right before
or after it rules it out (``sk-8 risk``, a longer token).

- ``openai`` (0.99): ``sk-proj-``, ``sk-svcacct-`` or ``sk-admin-`` and 20+ characters;
  a legacy ``sk-`` key with OpenAI's ``T3BlbkFJ`` marker. (0.9): any other ``sk-`` and
  32+ letters and digits with both kinds and a random-looking spread (OpenAI-compatible
  providers).
- ``anthropic`` (0.99): ``sk-ant-<kind><2 digits>-`` and 32+ characters.
- ``aws-access-key`` (0.95): ``AKIA``, ``ASIA``, ``ABIA`` or ``ACCA`` and 16 base32
  characters (0.8 with other digits).
- ``aws-secret-key`` (0.95): 40 base64 characters after an AWS word
  (``aws_secret_access_key``, ``SecretAccessKey``, ``AWS secret``).
- ``github``: ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_`` and 36+ letters and
  digits (0.98); ``github_pat_`` and 22+ (0.99).
- ``slack`` (0.98): ``xox[abeoprs]-<digits>-...`` and ``xapp-`` tokens; webhook URLs
  ``https://hooks.slack.com/services|workflows|triggers/...``, whole from the scheme.
- ``webhook`` (0.98): Discord's (``https://discord.com/api/webhooks/<id>/<token>``) and
  Microsoft Teams' (``https://<tenant>.webhook.office.com/webhookb2/...``) webhook URLs,
  whole; the URL detector reports them as ``url`` at 0.9 only, so ``merge`` keeps
  ``api-key`` where both are wanted.
- ``google`` (0.97): ``AIza`` and exactly 35 of ``[0-9A-Za-z_-]``.
- ``provider`` (0.95): other services' published key formats: SendGrid
  (``SG.<22>.<43>``), Mailgun (``key-`` and 32 hex digits), GitLab (``glpat-``,
  ``gldt-``, ``glrt-``), npm (``npm_``), PyPI (``pypi-AgEIcHlwaS5vcmc``), Hugging Face
  (``hf_``), Shopify (``shpat_``, ``shpss_``, ``shpca_``, ``shppa_``), DigitalOcean
  (``dop_v1_``, ``doo_v1_``, ``dor_v1_``), Twilio API keys (``SK`` and 32 hex digits),
  Stripe webhook secrets (``whsec_``), Square (``sq0atp-``, ``sq0csp-``), Postman
  (``PMAK-``), Databricks (``dapi``), Linear (``lin_api_``), OpenRouter
  (``sk-or-v1-``), Telegram bots (``<id>:AA...``), Discord bots (three dotted
  segments), Mailchimp (32 hex digits and ``-us<n>``), Notion (``secret_``, ``ntn_``),
  Groq (``gsk_``), Replicate (``r8_``), Perplexity (``pplx-``), xAI (``xai-``),
  Atlassian (``ATATT3``), Supabase (``sbp_``), Figma (``figd_``), New Relic
  (``NRAK-``), Grafana (``glsa_``), Sentry (``sntrys_``, ``sntryu_``), Google OAuth
  client secrets (``GOCSPX-``) and access tokens (``ya29.``), Docker Hub
  (``dckr_pat_``), Bitbucket (``ATBB``), age (``AGE-SECRET-KEY-1``), RubyGems
  (``rubygems_``), PlanetScale (``pscale_tkn_``, ``pscale_pw_``), Netlify (``nfp_``).
- ``stripe``: ``sk_live_``, ``rk_live_`` (0.99), ``pk_live_`` (publishable, 0.8); test
  keys ``sk_test_``, ``rk_test_`` (0.7), ``pk_test_`` (0.5).
- ``jwt`` (0.98): three base64url segments whose header decodes to a JSON object with
  an ``alg`` (0.9 when the payload is not a JSON object).
- ``private-key``: ``-----BEGIN ... PRIVATE KEY-----``, a base64 body (RFC 1421 and
  OpenPGP headers allowed; lines broken by LF, CRLF or ``\\n`` escapes in JSON; indented),
  ``-----END ... PRIVATE KEY-----``: PKCS#1, PKCS#8, encrypted, EC, DSA, OpenSSH, PGP
  ``KEY BLOCK``. 0.99 when the body decodes to what the label promises (an ASN.1
  SEQUENCE, ``openssh-key-v1``, an OpenPGP packet), else 0.95. A block cut off by the
  end of the text (still streaming in) runs to the end (0.9; 0.5 while only its header
  is there); a truncated one runs to its last base64 line (0.9); an END line whose BEGIN
  is not in the text takes the base64 lines before it (0.9).
- ``basic-auth`` (0.95): the password of ``scheme://user:password@host``
  (``tripwire.detectors.contact.url_password``; template values such as ``password``,
  ``***``, ``<password>``, ``${PASS}`` are skipped). The whole URL is a
  ``url-credentials`` detection of the URL detector, which wins where both are wanted
  (``merge`` keeps the longer); this rule covers a guard that wants ``api-key`` only.
- ``generic`` (0.6 to 0.9, from the entropy): a token of 20+ characters with letters
  and digits right after a key-like word (``api_key``, ``apiKey``, ``x-api-key``,
  ``secret``, ``token``, ``password``, ``pwd``, ``bearer``, ``authorization``,
  ``credentials``, ``*_KEY``; German, French and Spanish ``Schlüssel``, ``Kennwort``,
  ``clé``, ``jeton``, ``clave``, ``llave``, ``contraseña`` with up to five words
  before the value; the others with up to four short words that a colon, ``=`` or
  ``is`` ends: "Cloudflare token for prod:", "Token de Cloudflare:"; not ``public
  key``, ``cache_key``, ``primary key``) and an assignment, a colon, ``is`` or a
  space, whose Shannon entropy is close to that of a random string of its length and
  alphabet; in quotes, a value of any printable characters (a Django ``SECRET_KEY``,
  a password with symbols). UUIDs, paths, placeholders (``your_api_key_here``) and
  made-up values (``abc0123456789``: six characters in a row) are skipped.
- ``config`` (0.8): a password, secret or token set in a configuration file or command
  line (``spring.datasource.password=Ug4#kTq9vZ2!mW8x``, ``DB_PASSWORD=...``,
  ``password: ...`` at a YAML line's start): 8 or more printable characters with
  three letters or more and a digit, whatever their entropy (a value of 20 or more token characters is
  the ``generic`` rule's); the setting's name must be an
  identifier of several parts or start its line (prose such as "Mein Passwort: ..." is
  no setting); templates (``${DB_PASSWORD}``, ``<password>``, ``changeme``) are none.

- ``named-after`` (0.6 to 0.9, as ``generic``): a token of 20 to 128 token characters
  that a key-like word after it names in its clause, within 48 characters ("... is the
  staging API key", "... (prod token)", "... c'est la clé de l'API", "... ist der
  API-Schlüssel", "... es la clave"); not hex (a hash's), not a name of short parts
  (``gpt-4o-mini-2024-07-18``), not with "commit", "hash", "id", "not" or a conjunction
  ("and the cache key") between them.
- ``split`` (as ``generic``): a key split across quoted pieces after a key-like name, as
  source code writes a long string (adjacent literals, ``+``, PHP's ``.``, a line break
  between): each piece, when the pieces together pass the ``generic`` rule.
- ``cli`` (0.8, or as ``generic`` from 20 characters): the password of a command line's
  ``-u user:password`` / ``--user`` (curl, httpie) with letters and digits, not a
  template (``$TOKEN``, ``<password>``).

A known format filled with one character eight times in a row (``AKIAXXXXXXXXXXXXXXXX``,
``sk_test_xxxxxxxxxxxxxxxx``) is a documentation's placeholder, not a key.

Options: ``generic`` (default True) turns the generic rule off (the AWS secret key rule
stays); ``min_entropy`` (default 0.85) is the least entropy a generic token needs, as a
fraction of the mean entropy of random strings of its length over its alphabet (hex;
or the letter cases, digits and symbols it uses), so one number serves every alphabet
and length: random tokens score about 1, 99% of them above 0.87 from 20 characters.

``max_length`` is 4096: the longest private-key block. That holds every RSA key up to
4096 bits in each encoding (3.5k characters at most: encrypted PKCS#8 with CRLF line
ends) and every EC, Ed25519, DSA and OpenSSH key; JWTs are matched up to 4096
characters too. A longer block (RSA 8192, a large PGP key) is reported as consecutive
pieces of at most 4096 characters, cut at line ends: complete text is covered whole,
but a stream guard, which holds back ``max_length`` characters, is only sure to catch
the first and the last 4096 characters of such a block.

Speed: the families that are long tokens (``sk-``, GitHub, AWS and Google keys) and the
key-like words (whose value is 20+ token characters) are searched only in the runs of
20+ token characters (``tripwire.detectors._views.token_runs``, one pass, shared with
the wallet detector): text without such a run skips them all. The others are searched
only where their trigger character occurs (``-`` for Slack tokens and private keys,
``_`` for Stripe, ``J`` for JWTs, ``:`` for URLs: a ``memchr``), each with one literal
search; only candidates are validated.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from tripwire.detectors import _views
from tripwire.detectors.contact import url_password, webhook_end
from tripwire.guards.verdicts import Detection
from tripwire.guards.window import run_start

__all__ = ["SecretDetector", "entropy_ratio", "shannon_entropy"]

TYPE = "api-key"
#: A rule's verdict on a match: ``(rule name, score)``, or None to drop it.
_Judge = Callable[[re.Match[str]], "tuple[str, float] | None"]
#: The longest match: a private-key block (see the module's documentation).
MAX_LENGTH = 4096

# Characters that continue a token: a match must not have one right before or after it.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _alone(text: str, start: int, end: int) -> bool:
    return ((start == 0 or text[start - 1] not in _TOKEN_CHARS)
            and (end == len(text) or text[end] not in _TOKEN_CHARS))


# --------------------------------------------------------------------------- entropy


def shannon_entropy(token: str) -> float:
    """Bits per character of ``token``'s character distribution."""
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in Counter(token).values())


@lru_cache(maxsize=4096)
def _expected_entropy(n: int, k: int) -> float:
    """The mean Shannon entropy of ``n`` characters drawn uniformly from ``k``: each of
    the ``k`` symbols occurs ``x`` times with a binomial(n, 1/k) probability."""
    p = 1 / k
    total = 0.0
    for x in range(1, n + 1):
        prob = math.comb(n, x) * p ** x * (1 - p) ** (n - x)
        total -= prob * (x / n) * math.log2(x / n)
    return k * total


def _alphabet_size(token: str) -> int:
    if all(c in "0123456789abcdef" for c in token) or all(c in "0123456789ABCDEF" for c in token):
        return 16
    size = 0
    size += 26 if any(c.islower() for c in token) else 0
    size += 26 if any(c.isupper() for c in token) else 0
    size += 10 if any(c.isdigit() for c in token) else 0
    size += len({c for c in token if not c.isalnum()})
    return max(size, 2)


def _has_run(token: str, size: int = 6) -> bool:
    """Whether ``token`` holds ``size`` consecutive characters in a row (``012345``,
    ``abcdef``): a made-up value, as a random one has that once in millions."""
    run = 1
    for a, b in zip(token, token[1:], strict=False):
        run = run + 1 if ord(b) - ord(a) == 1 else 1
        if run >= size:
            return True
    return False


def entropy_ratio(token: str) -> float:
    """``token``'s Shannon entropy as a fraction of the entropy expected of a random
    string of the same length over its alphabet (hex; or the letter cases, digits and
    symbols it uses): about 1 for random keys, lower for words and patterns."""
    if len(token) < 2:
        return 0.0
    expected = _expected_entropy(len(token), _alphabet_size(token))
    return shannon_entropy(token) / expected if expected else 0.0


# --------------------------------------------------------------------------- known formats

# Each family starts with a literal, so ``re`` finds it with a fast substring search
# (an alternation of all of them would try a match at every 's', 'e', 'g', ...).
_SK = re.compile(
    r"sk-(?:"
    r"(?P<anthropic>ant-[a-z]{2,8}\d\d-[A-Za-z0-9_-]{32,250})"
    r"|(?P<project>(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,250})"
    r"|(?P<legacy>[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})"
    r"|(?P<plain>[A-Za-z0-9]{32,250})"
    r")"
)
_GITHUB = re.compile(r"g(?:h[pousr]_[A-Za-z0-9]{36,251}|ithub_pat_[A-Za-z0-9_]{22,244})")
_UPPER_A = re.compile(r"A(?P<aws>(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16})|AIza[0-9A-Za-z_-]{35}")
# Other services' published formats, each starting with its literal prefix (all token
# characters: searched in the token runs only; one pattern each, so the regex engine
# searches for each prefix as a literal, where an alternation would be tried at every
# character any of them starts with), by the character their prefix holds ("_", "-",
# or none): a run without it is not searched for them. SendGrid's has dots.
_PROVIDERS: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...] = tuple(
    (needle, tuple(map(re.compile, patterns))) for needle, patterns in (
        ("_", (r"npm_[A-Za-z0-9]{36}", r"hf_[A-Za-z0-9]{34,37}", r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
               r"do[opr]_v1_[a-f0-9]{64}", r"whsec_[A-Za-z0-9+/=]{24,96}",
               r"lin_api_[A-Za-z0-9]{40}", r"secret_[A-Za-z0-9]{43}", r"ntn_[A-Za-z0-9]{40,50}",
               r"gsk_[A-Za-z0-9]{52}", r"r8_[A-Za-z0-9]{37}", r"sbp_[a-f0-9]{40}",
               r"figd_[A-Za-z0-9_-]{40,43}", r"glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
               r"sntr(?:ys|yu)_[A-Za-z0-9+/=_-]{40,200}", r"dckr_pat_[A-Za-z0-9_-]{27}",
               r"rubygems_[a-f0-9]{48}", r"pscale_(?:tkn|pw)_[A-Za-z0-9_.-]{32,64}",
               r"nfp_[A-Za-z0-9]{36}")),
        ("-", (r"key-[0-9a-f]{32}", r"gl(?:pat|dt|rt)-[A-Za-z0-9_-]{20,64}",
               r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,250}",
               r"sq0(?:atp|csp)-[0-9A-Za-z_-]{22,60}", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
               r"sk-or-v1-[a-f0-9]{64}",
               r"pplx-[A-Za-z0-9]{48}", r"xai-[A-Za-z0-9]{80}", r"NRAK-[A-Z0-9]{27}",
               r"GOCSPX-[A-Za-z0-9_-]{28}", r"AGE-SECRET-KEY-1[0-9A-Z]{58}")),
        ("", (r"SK[0-9a-f]{32}", r"dapi[a-f0-9]{32}(?:-[0-9])?",
              r"ATATT3[A-Za-z0-9_=-]{150,300}", r"ATBB[A-Za-z0-9]{32}")),
    ))
_MAILCHIMP_DC = re.compile(r"-us[0-9]{1,2}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_TELEGRAM = re.compile(r"(?<=[0-9]):AA[0-9A-Za-z_-]{33}")
_DISCORD = re.compile(r"[A-Za-z0-9_-]{24,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}")
_SENDGRID = re.compile(r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}")
_GOOGLE_OAUTH = re.compile(r"ya29\.[0-9A-Za-z_-]{20,2000}")  # an OAuth access token
_SLACK = re.compile(r"x(?:ox[abeoprs]-\d+-[0-9A-Za-z-]{8,250}|app-\d-[A-Z0-9]+-\d+-[a-f0-9]{16,128})")
_STRIPE = re.compile(r"k_(?P<mode>live|test)_[0-9A-Za-z]{10,247}")
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{5,500}\.(?P<payload>[A-Za-z0-9_-]{2,3000})"
                  r"\.(?P<signature>[A-Za-z0-9_-]{0,580})")
_SCHEME_SEP = re.compile(r"://")
_SCHEME = re.compile(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,15}\Z")

_BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_STRIPE_SCORES = {("s", "live"): 0.99, ("r", "live"): 0.99, ("p", "live"): 0.8,
                  ("s", "test"): 0.7, ("r", "test"): 0.7, ("p", "test"): 0.5}

# --------------------------------------------------------------------------- private keys

_NL = r"(?:\r?\n|\\r\\n|\\n)"
_PEM_MARK = re.compile(r"-----(BEGIN|END) ((?:[A-Z0-9]+ ){0,3})PRIVATE KEY( BLOCK)?-----")
_PEM_END = re.compile(r"-----END ((?:[A-Z0-9]+ ){0,3})PRIVATE KEY( BLOCK)?-----")
# The start of an END line at the end of a text (``-``, ``-----EN``, ``-----END RSA PRI``).
_END_LINE_START = re.compile(r"-{1,5}(?:E(?:N(?:D(?: [A-Z0-9 ]*-{0,5})?)?)?)?\Z")
# After the BEGIN line: RFC 1421 / OpenPGP armor headers, then base64 lines (blank ones
# too), the last one possibly cut off by the end of the text.
_PEM_BODY = re.compile(
    rf"(?P<headers>(?:{_NL}[ \t]*[A-Za-z][A-Za-z0-9-]*:[^\r\n\\]*)*)"
    rf"(?P<lines>(?:{_NL}[ \t]*[A-Za-z0-9+/=]*)*)"
    r"[ \t]*"
)
_PEM_LINE_BREAK = re.compile(r"\r?\n|\\r\\n|\\n")
_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/=]")
_PEM_MIN_BODY = 48   # base64 characters: the smallest key (Ed25519, PKCS#8) has 64

# --------------------------------------------------------------------------- key-like words

# Key-like words, each followed by its value: one pattern per word, starting with the
# word (a fast literal search), over an ASCII-lowercased copy of the text (bytes: one per
# character, so offsets are the text's). Between the word and the value: the rest of the
# name, a closing quote, an assignment (or "is", or a space), an opening quote, an auth
# scheme. "key" counts only as the end of a name (api_key, apiKey, x-api-key, "secret
# key"), never in "public key", "primary key" or "monkey".
# German, French and Spanish words for a key, a token or a password (a "?" stands for
# a letter outside ASCII: Schlüssel, clé, contraseña) may have up to five words between
# them and the value ("la clé API : ...", "la clave de la API de OpenWeather es ...",
# "API-Schlüssel lautet ...").
_KEYWORDS = (b"key", b"secret", b"token", b"pass", b"pwd", b"bearer", b"auth", b"credential",
             b"pat", b"schl?ssel", b"cl?", b"clave", b"llave", b"jeton", b"kennwort",
             b"contrase?a")
_FOREIGN = frozenset(_KEYWORDS[9:])
_VALUE = (
    rb"[a-z0-9_.-]{0,32}?"
    rb"[\"'`\]]?"
    rb"(?:[ \t]*(?::=|=>|[:=])[ \t]*|[ \t]+(?:(?:is|was|ist|lautet|war|est|es|era)[ \t]+)?)"
    # a quoted value may hold any printable character (a Django SECRET_KEY, a
    # password): the quotes, not the characters, say where it ends
    rb"(?:[\"'`](?P<quoted>[^\s\"'`\\]{20,512})(?=[\"'`])|"
    rb"[\"'`(]?"
    rb"(?:(?:bearer|basic|token)[ \t]+)?"
    rb"(?P<token>[a-z0-9+/=_~-]{20,512}))"
)
# The words between a key-like word and its value: up to five for the German, French
# and Spanish words ("la clé API de Brevo : ..."); for the others, up to four short
# ones that a colon, "=" or "is" ends ("Cloudflare token for prod: ...",
# "the API key for staging is ...", "API key (Mailgun): ..."), so that prose about
# tokens is not read as one.
_WORDS_BETWEEN = rb"(?:[ \t]+[a-z?'-]{1,12}){0,5}?"
_LABEL_WORDS = (rb"(?:(?:[ \t]+\(?[a-z?'-]{1,12}[,)]?){1,4}?"
                rb"(?=[ \t]*[:=]|[ \t]+(?:is|was|es|est|ist|lautet)[ \t]))?")
_KEYWORD_VALUES = tuple(
    re.compile(re.escape(w) + (_WORDS_BETWEEN if w in _FOREIGN else _LABEL_WORDS) + _VALUE)
    for w in _KEYWORDS)
_KEY_NAME = re.compile(
    rb"(?:api|secret|private|access|signing|encryption|master|license|licence|client|app"
    rb"|auth|service|account|admin|[a-z0-9][_.-]|x-)[ _.-]?\Z"
)
# Names of keys that are not secrets: public keys, database and cache keys.
_NOT_A_SECRET_KEY = re.compile(
    rb"(?:pub|public|cache|sort|primary|foreign|partition|row|object|idempotency|dedup"
    rb"|routing|lookup|hash|index|unique|composite|shard|bucket|map|dict|hot|short)[ _.-]?\Z"
)
# A configuration's password, secret or token (``spring.datasource.password=Ug4#kTq9vZ2!m``,
# ``DB_PASSWORD=...``, ``  password: ...`` in YAML), in the lower view: the name (an
# identifier that ends with the word), ``=`` or ``:``, and a value of 8 or more printable
# characters up to white space or a quote, any of them. The name must be an identifier
# of several parts (``_``, ``.``, ``-``) or stand at the start of its line, so that
# prose ("Mein Passwort: ...") is not read as a file's setting.
_CONFIG_SECRETS = tuple(re.compile(
    w + rb"[\"']?[ \t]*(?::=|[=:])[ \t]*[\"'`]?(?P<value>[^\s\"'`]{8,128})") for w in (
        rb"pass(?:word|wort|wd|phrase|e)?", rb"pwd", rb"secret", rb"token", rb"kennwort",
        rb"contrase\?a"))
_NAME_CHARS = re.compile(rb"[a-z0-9_.-]{0,48}\Z")
_LINE_HEAD = re.compile(rb"(?:^|\n)[ \t]*(?:export[ \t]+|-[ \t]+|[\"'])?\Z")
_AWS_WORD = re.compile(rb"aws|secret[ _-]?access[ _-]?key")
# A token a key-like word after it names (``SecretDetector._named_after``): the token,
# then in the lower view up to ``_AFTER_REACH`` characters of its clause (no line break,
# no full stop, "!" or ";": a "?" there is any letter outside ASCII, "←") and the word.
_NAMED_TOKEN = re.compile(r"(?<![A-Za-z0-9_\\-])[A-Za-z0-9_-]{20,128}(?![A-Za-z0-9_-])")
_AFTER_REACH = 48
_NAMED_AFTER = re.compile(
    rb"[^\n.!;]{0,40}?(?<![a-z])(?P<word>api[ _-]?key|key|token|secret|credential|password"
    rb"|passwort|kennwort|api-schl\?ssel|schl\?ssel|cl\?|clave|llave|jeton|contrase\?a)"
    rb"(?![a-z0-9_])")
# Words between a token and a key-like word that say the token is something else, or
# that start another clause: "... is the commit that leaked the key", "... and the
# cache key is ...".
_NOT_A_SECRET_AFTER = re.compile(
    rb"commit|hash|sha|checksum|\bid\b|fingerprint|public|not\b|\b(?:and|und|et|y|but|aber"
    rb"|mais|pero|or|oder|ou|o)\b")
_HEX = frozenset("0123456789abcdef")
_PARTS = re.compile(r"[_-]")
# A key-like name and an assignment before quoted pieces (``_split_values``), in the
# lower view; then each piece and what joins it to the next (white space, line breaks,
# "+", ".", a backslash), from the text.
_SPLIT_NAME = re.compile(
    rb"(?<![a-z0-9])[a-z0-9_.-]{0,32}?(?P<word>key|secret|token|pass(?:word)?|pwd|auth"
    rb"|credential)[a-z0-9_]*[\"'\]]?[ \t]*(?::=|=>|[:=])[ \t]*\(?[ \t]*")
_TOKEN_PIECE = re.compile(r"[A-Za-z0-9+/=_.~-]+")
# A piece's closing quote joined to the next one's opening quote; and the name's start
# before the first piece.
_JOIN = re.compile(r"[\"'][ \t]*(?:[+.\\][ \t]*)?(?:\r?\n[ \t]*(?:[+.][ \t]*)?)?[\"']")
_SPLIT_NAME_END = re.compile(
    rb"(?<![a-z0-9])[a-z0-9_.-]{0,32}?(?:key|secret|token|pass(?:word)?|pwd|auth|credential)"
    rb"[a-z0-9_]*[\"'\]]?[ \t]*(?::=|=>|[:=])[ \t]*\(?[ \t]*\Z")
_SPLIT_PIECES = re.compile(
    r"(?P<q>[\"'])(?P<piece>[^\"'\s\\]{0,256})(?P=q)[ \t]*(?:[+.\\][ \t]*)?"
    r"(?:\r?\n[ \t]*(?:[+.][ \t]*)?)?")
# A command line's user and password: ``curl -u api:...``, ``--user "name:..."``.
# The start of a quoted piece still coming in, or a joiner: what may end a text in the
# middle of split pieces.
_OPEN_PIECE = re.compile(r"[ \t]*(?:[+.\\][ \t]*)?(?:\r?\n[ \t]*(?:[+.][ \t]*)?)?"
                         r"(?:[\"'][A-Za-z0-9+/=_.~-]*)?")
_CLI_USER = re.compile(
    r"-(?:u|-user)[ =]?[\"']?[^\s:\"']{1,64}:(?P<secret>[^\s\"'@]{8,128})(?=[\"'\s]|\Z)")
_PLACEHOLDER = re.compile(r"(?i)\$\{|<|\$[A-Z_]|your|pass(?:word)?\b|changeme|x{4}|\*{4}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")
_PLACEHOLDER_WORDS = ("your", "here", "example", "xxxx", "placeholder", "dummy", "changeme",
                      "redacted", "insert", "replace")


class SecretDetector:
    """Known secret formats, private keys, URL passwords and (``generic``) high-entropy
    tokens near key-like words. See the module's documentation for every rule."""

    name = TYPE
    types = (TYPE,)
    max_length = MAX_LENGTH
    #: Before a secret: the key-like word and what joins it to its value, the scheme
    #: and user of a URL before its password (148).
    lookbehind = 256
    OPTIONS = ("generic", "min_entropy")

    def __init__(self, generic: bool = True, min_entropy: float = 0.85) -> None:
        if not isinstance(generic, bool):
            raise TypeError(f"SecretDetector: generic must be a bool, got {generic!r}")
        if (isinstance(min_entropy, bool) or not isinstance(min_entropy, int | float)
                or not 0 < min_entropy <= 1):
            raise ValueError(
                f"SecretDetector: min_entropy must be a number in (0, 1], got {min_entropy!r}")
        self.generic = generic
        self.min_entropy = float(min_entropy)
        #: ``_judge``'s verdicts, by token and context: a stream guard searches the
        #: text before what is new again (its ``lookbehind``), so each token after a
        #: key-like word is judged once, not at every search.
        self._judged: Callable[[str, bytes], tuple[str, float] | None] = lru_cache(
            maxsize=4096)(self._judge)

    def __repr__(self) -> str:
        return f"SecretDetector(generic={self.generic}, min_entropy={self.min_entropy})"

    @staticmethod
    def hold_from(text: str) -> int:
        """Where a secret that ``text`` does not complete yet can start: in its last
        word (every rule but private keys matches text without white space), at the
        BEGIN line of a private-key block with no END line yet, or at the base64 lines
        that end ``text`` (an END line may still come and make them a key's body), also
        when the start of that END line is there already; at a token whose clause may
        still name it a key (``_named_after``: up to ``_AFTER_REACH`` characters after
        it, no line break or full stop since), and at the first of quoted pieces after
        a key-like name that more pieces may still join (``_split_values``)."""
        start = min(run_start(text), _open_body_start(text), _open_clause_start(text),
                    _open_split_start(text))
        end_line = _END_LINE_START.search(text, max(0, len(text) - 64))
        if end_line is not None:
            start = min(start, _body_start(text, end_line.start()))
        begin = text.rfind("-----BEGIN", max(0, len(text) - MAX_LENGTH))
        if begin != -1 and begin < start:
            mark = _PEM_MARK.match(text, begin)
            if mark is None:
                if "\n" not in text[begin:]:
                    start = begin  # (a BEGIN line still coming in)
            elif _PEM_END.search(text, mark.end()) is None:
                start = begin
        return start

    @_views.reads_folded
    def detect(self, text: str) -> list[Detection]:
        # Each family is searched only where it can be: the long-token families in the
        # runs of token characters, the others where their trigger character occurs (a
        # fast ``in``; see the module's documentation).
        runs = _views.token_runs(text)
        found = [*_sk_keys(text, runs), *_prefixed(text, _GITHUB, self._github, runs),
                 *_prefixed(text, _UPPER_A, self._upper_a, runs)]
        for needle, patterns in _PROVIDERS if runs else ():
            holding = [(lo, hi) for lo, hi in runs if text.find(needle, lo, hi) != -1]
            for pattern in patterns if holding else ():
                found.extend(_prefixed(text, pattern, _provider, holding))
        if "SG." in text:
            found.extend(_prefixed(text, _SENDGRID, _provider))
        if "ya29." in text:
            found.extend(_prefixed(text, _GOOGLE_OAUTH, lambda m: ("google", 0.95)))
        if ":AA" in text:
            found.extend(_telegram(text))
        if "-us" in text:
            found.extend(_mailchimp(text))
        if runs and "." in text:
            found.extend(_discord(text, runs))
        dash = "-" in text
        if dash:
            found.extend(_prefixed(text, _SLACK, lambda m: ("slack", 0.98)))
        if "_" in text:
            found.extend(_stripe(text))
        if "J" in text:
            found.extend(_jwts(text))
        if dash:
            found.extend(_private_keys(text))
        if ":" in text:
            found.extend(_url_secrets(text))
        if runs or any(q in text for q in "\"'`"):
            # (else no value after a key-like word can be 20 characters long)
            _add_new(found, lambda taken: self._near_keywords(text))
        if self.generic and ("=" in text or ":" in text):
            _add_new(found, lambda taken: _config_secrets(text, _views.lower(text), taken))
        if self.generic and runs:
            _add_new(found, lambda taken: self._named_after(text, runs, _views.lower(text), taken))
        if self.generic and ("\"" in text or "'" in text):
            _add_new(found, lambda taken: self._split_values(text, _views.lower(text), taken))
        if self.generic and ("-u" in text or "--user" in text):
            _add_new(found, lambda taken: self._cli_users(text, taken))
        if self.generic and runs:
            _add_new(found, lambda taken: _bare_tokens(text, runs, _views.lower(text), taken))
        return found

    def _named_after(self, text: str, runs: list[tuple[int, int]], low: bytes,
                     taken: Callable[[int, int], bool]) -> Iterator[Detection]:
        """A token that a key-like word after it names, in its clause ("... is the
        staging API key", "... (prod token)", "... c'est la clé de l'API", "... ist der
        API-Schlüssel", "... es la clave"): 20 to 128 token characters, not hex (a
        hash's), judged as after a word before it."""
        for lo, hi in runs:
            for m in _NAMED_TOKEN.finditer(text, lo, hi):
                start, end = m.span()
                if taken(start, end) or not _alone(text, start, end):
                    continue
                after = _NAMED_AFTER.match(low, end, min(len(low), end + _AFTER_REACH))
                if after is None or _NOT_A_SECRET_AFTER.search(low, end, after.start("word")) or (
                        after.group("word") == b"key" and _NOT_A_SECRET_KEY.search(
                            low, max(0, after.start("word") - 16), after.start("word"))):
                    continue  # "... and the cache key", "... is the commit's hash key"
                token = m.group()
                if not set(token.lower()) - _HEX or _NOT_SECRET_BEFORE.search(
                        low, max(0, start - 24), start):
                    continue  # a hash, an id
                parts = _PARTS.split(token)
                if len(parts) >= 3 and (max(map(len, parts)) <= 8 or all(
                        p.isdigit() or (p.isalpha() and (p.islower() or p.isupper()))
                        for p in parts)):
                    continue  # a name of parts: gpt-4o-mini-2024-07-18, build_2024_11_03_rc
                found = self._judge(token, b"")
                if found is not None:
                    yield Detection(TYPE, start, end, found[1], "secrets:named-after", token)

    def _split_values(self, text: str, low: bytes,
                      taken: Callable[[int, int], bool]) -> Iterator[Detection]:
        """A key split across quoted pieces after a key-like name, as source code
        writes a long string: adjacent literals (``KEY = ("AIza..."\n "...")``), ``+``
        (``"..." + "..."``), PHP's ``.``: each piece, when the pieces together are a
        token the generic rule takes."""
        for m in _split_names(text, low):
            name = low[max(0, m.start() - 16):m.start("word")]
            if m.group("word") == b"key" and _NOT_A_SECRET_KEY.search(name):
                continue  # (a variable named "key" holding a split literal is one)
            spans: list[tuple[int, int]] = []
            at = m.end()
            for piece in _SPLIT_PIECES.finditer(text, m.end()):
                if piece.start() != at:
                    break
                spans.append(piece.span("piece"))
                at = piece.end()
            # The pieces of token characters: a stream guard searches the rest of a
            # split key with the pieces it has released already masked ("[API_KEY]",
            # "q**********L"), so those are left out and the others judged together.
            pieces = len(spans)
            spans = [(a, b) for a, b in spans[:8] if b - a >= 4 and _TOKEN_PIECE.fullmatch(
                text, a, b)] if pieces >= 2 else []
            if not spans or any(taken(a, b) for a, b in spans):
                continue
            token = "".join(text[a:b] for a, b in spans)
            found = self._judge(token, low[max(0, m.start() - 24):m.end()])
            if found is not None and len(token) >= (16 if len(spans) == pieces else 8):
                for a, b in spans:
                    yield Detection(TYPE, a, b, found[1], "secrets:split", text[a:b])

    def _cli_users(self, text: str, taken: Callable[[int, int], bool]) -> Iterator[Detection]:
        """The password of a command line's ``-u user:password`` / ``--user`` (curl,
        httpie): 8 or more characters with letters and digits, judged as a token after
        a key-like word (``-u api:q8Zt...``; not ``-u root``)."""
        for m in _CLI_USER.finditer(text):
            if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-"):
                continue  # (an option's name ends so: "--menu")
            start, end = m.span("secret")
            if taken(start, end):
                continue
            secret = m.group("secret")
            if _PLACEHOLDER.search(secret) or not (any(c.isdigit() for c in secret)
                                                   and any(c.isalpha() for c in secret)):
                continue
            if len(secret) >= 20:
                found = self._judge(secret, b"")
                if found is not None:
                    yield Detection(TYPE, start, end, found[1], "secrets:cli", secret)
            elif entropy_ratio(secret) >= self.min_entropy and not _has_run(secret):
                yield Detection(TYPE, start, end, 0.8, "secrets:cli", secret)

    @staticmethod
    def _github(m: re.Match[str]) -> tuple[str, float]:
        return "github", 0.99 if m.group().startswith("github_pat_") else 0.98

    @staticmethod
    def _upper_a(m: re.Match[str]) -> tuple[str, float]:
        aws = m.group("aws")
        if aws is None:
            return "google", 0.97
        return "aws-access-key", 0.95 if set(aws[3:]) <= _BASE32 else 0.8

    def _near_keywords(self, text: str) -> Iterator[Detection]:
        """AWS secret keys and (``generic``) high-entropy tokens after a key-like word."""
        # One byte per character (others become "?"), so offsets carry over.
        low = _views.lower(text)
        seen: set[int] = set()
        for word, scan in zip(_KEYWORDS, _KEYWORD_VALUES, strict=True):
            if not self.generic and word != b"secret":
                continue
            for m in scan.finditer(low):
                start = m.start()
                if word == b"key":
                    before = low[max(0, start - 16):start]
                    if _NOT_A_SECRET_KEY.search(before) or not _KEY_NAME.search(before):
                        continue
                elif word == b"pat" and (low[start + 3:start + 4].isalpha() or (
                        start and low[start - 1:start].isalpha())):
                    continue  # a personal access token's "PAT", not "path", "pattern"
                elif word in _FOREIGN and (
                        any(text[start + i].isascii() for i, c in enumerate(word) if c == 63)
                        or (start and text[start - 1].isalpha() and word == b"cl?")):
                    continue  # Schlüssel, clé, contraseña: their letters, as words
                quoted = m.group("quoted") is not None
                t_start, t_end = m.span("quoted" if quoted else "token")
                if t_start in seen or not (quoted or _alone(text, t_start, t_end)):
                    continue
                if _NOT_SECRET_BEFORE.search(low, max(0, t_start - 24), t_start):
                    continue  # "la clave está en el commit 9fceb02...": a hash, an id
                token = text[t_start:t_end]
                found = self._judged(token, low[max(0, start - 24):t_start])
                if found is not None:
                    seen.add(t_start)
                    rule, score = found
                    yield Detection(TYPE, t_start, t_end, score, f"secrets:{rule}", token)

    def _judge(self, token: str, context: bytes) -> tuple[str, float] | None:
        """The rule and score for ``token`` found after the key-like words in
        ``context`` (lowercased), or None if it does not look like a secret."""
        if (len(token) == 40 and _AWS_WORD.search(context)
                and not set(token) - _BASE64_CHARS and entropy_ratio(token) >= 0.8):
            return "aws-secret-key", 0.95
        if not self.generic:
            return None
        if (not any(c.isdigit() for c in token) or not any(c.isalpha() for c in token)
                or _UUID.match(token) or token.count("/") * 8 > len(token)):  # a path
            return None
        folded = token.lower()
        if any(w in folded for w in _PLACEHOLDER_WORDS) or _has_run(token):
            return None
        ratio = entropy_ratio(token)
        if ratio < self.min_entropy:
            return None
        return "generic", round(0.6 + 0.3 * min(1.0, (ratio - self.min_entropy)
                                                / max(1e-9, 1.0 - self.min_entropy)), 4)


def _open_clause_start(text: str) -> int:
    """Where the last token of 20 or more characters starts, if a key-like word after
    it may still come (``SecretDetector._named_after``); else ``len(text)``."""
    n = len(text)
    lo = max(0, n - 128 - _AFTER_REACH)
    last = None
    for m in _NAMED_TOKEN.finditer(text, lo):
        last = m
    if last is None or n - last.end() > _AFTER_REACH or any(
            c in "\n.!;" for c in text[last.end():]):
        return n
    return last.start()


def _split_names(text: str, low: bytes) -> Iterator[re.Match[bytes]]:
    """The key-like names and assignments (``_SPLIT_NAME``) that quoted pieces joined
    to more of them follow: found from the joins (``"..." + "``, ``"...",\n "``), which
    are rare, back to the name before the first piece."""
    last = -1  # where the last join's next piece opens
    for join in _JOIN.finditer(text):
        close = join.start()
        first = text.rfind(text[close], max(0, close - 257), close)
        opened, last = last, join.end() - 1
        if first == -1 or first == opened:
            continue  # (the next piece of a chain already read)
        name = _SPLIT_NAME_END.search(low, max(0, first - 64), first)
        if name is not None:
            found = _SPLIT_NAME.match(low, name.start(), first)
            if found is not None and found.end() == first:
                yield found


def _open_split_start(text: str) -> int:
    """Where the quoted pieces after a key-like name that end ``text`` start, when more
    may still join them (``SecretDetector._split_values``); else ``len(text)``."""
    n = len(text)
    lo = max(0, n - 600)
    low = _views.lower(text[lo:])
    start = n
    for m in _SPLIT_NAME.finditer(low):
        at = lo + m.end()
        for piece in _SPLIT_PIECES.finditer(text, at):
            if piece.start() != at:
                break
            at = piece.end()
        if at == n or _OPEN_PIECE.fullmatch(text, at) and at > lo + m.end():
            start = min(start, lo + m.end())
    return start


def _add_new(found: list[Detection],
             more: Callable[[Callable[[int, int], bool]], Iterable[Detection]]) -> None:
    """Add to ``found`` what ``more(taken)`` finds, each that overlaps none of ``found``
    (a token after a key-like word that a known format already covers is not reported
    twice); ``taken(start, end)`` tells a rule so before it judges a candidate."""
    spans = sorted((d.start, d.end) for d in found)
    starts = [s for s, _ in spans]
    reach = list(itertools.accumulate((e for _, e in spans), max))  # the farthest end so far

    def taken(start: int, end: int) -> bool:
        i = bisect.bisect_left(starts, end)  # the spans that start before this one ends
        return bool(i) and reach[i - 1] > start

    found.extend(d for d in list(more(taken)) if not taken(d.start, d.end))


def _config_secrets(text: str, low: bytes,
                    taken: Callable[[int, int], bool]) -> Iterator[Detection]:
    """Passwords, secrets and tokens set in a configuration (``_CONFIG_SECRET``): any
    printable value but a template's (``${DB_PASSWORD}``, ``<password>``, ``%s``,
    ``changeme``, ``********``), with three letters or more and a digit (not a date, a
    time or a number), not a path."""
    for m in (m for scan in _CONFIG_SECRETS for m in scan.finditer(low)):
        if m.end() < len(low) and low[m.end():m.end() + 1] not in b" \t\r\n\"'`,;)]}":
            continue  # (the value goes on with a quote or other: not one to read so)
        name_part = _NAME_CHARS.search(low, max(0, m.start() - 48), m.start())
        start = name_part.start() if name_part is not None else m.start()
        name = low[start:m.start()]  # (what stands before the word)
        if start and (low[start - 1:start].isalnum() or low[start - 1:start] == b"?"):
            continue  # (the name's start is further back: "bypass", "überpass")
        if not (b"_" in name or b"." in name or b"-" in name) and not _LINE_HEAD.search(
                low, max(0, start - 16), start):
            continue  # a word in prose, not a setting
        v_start, v_end = m.span("value")
        if taken(v_start, v_end):
            continue  # (another rule's already)
        value = text[v_start:v_end].rstrip(".,;)]}")
        v_end = v_start + len(value)
        folded = value.lower()
        if len(value) >= 20 and not set(value) - _TOKEN_CHARS:
            continue  # the generic rule's to judge, by its entropy
        if (len(value) < 8 or sum(c.isalpha() for c in value) < 3 or value.count("/") > 1
                or not any(c.isdigit() for c in value) or value[0] in "$<{%*[(" or "://" in value
                or value.startswith("/") or len(set(value)) < 5 or _has_run(value)
                or any(w in folded for w in (*_PLACEHOLDER_WORDS, "password", "passwort"))
                or _UUID.match(value)):
            continue
        yield Detection(TYPE, v_start, v_end, 0.8, "secrets:config", value)


_BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


# A run of one character that no random key holds (a base-62 key of 40 characters
# has eight alike in a row about once in 10^11): ``AKIAXXXXXXXXXXXXXXXX``,
# ``sk_test_xxxxxxxxxxxxxxxx``, a documentation's placeholder in a key's format.
_FILLER = re.compile(r"([A-Za-z0-9*.#])\1{7}")


def _prefixed(text: str, pattern: re.Pattern[str], judge: _Judge,
              runs: list[tuple[int, int]] | None = None) -> Iterator[Detection]:
    """The matches of ``pattern`` that stand alone and that ``judge`` accepts; searched
    in ``runs`` only when given (``_views.token_runs``: for a pattern of token
    characters only, at least ``_views.RUN_MIN`` long, without look-around)."""
    spans = [(0, len(text))] if runs is None else runs
    for m in (m for lo, hi in spans for m in pattern.finditer(text, lo, hi)):
        start, end = m.span()
        if _alone(text, start, end) and _FILLER.search(m.group()) is None:
            found = judge(m)
            if found is not None:
                rule, score = found
                yield Detection(TYPE, start, end, score, f"secrets:{rule}", m.group())


def _provider(m: re.Match[str]) -> tuple[str, float]:
    return "provider", 0.95


def _telegram(text: str) -> Iterator[Detection]:
    """Telegram bot tokens: the bot's id (8 to 10 digits), ``:AA`` and 33 more."""
    for m in _TELEGRAM.finditer(text):
        start = m.start()
        while start > m.start() - 10 and start and text[start - 1].isdigit():
            start -= 1
        if m.start() - start >= 8 and _alone(text, start, m.end()):
            yield Detection(TYPE, start, m.end(), 0.95, "secrets:provider", text[start:m.end()])


def _mailchimp(text: str) -> Iterator[Detection]:
    """Mailchimp API keys: 32 hex digits, ``-us`` and the data centre's number (found
    from the ``-us``: a pattern that starts with 32 hex digits is tried at every one)."""
    at = text.find("-us")
    while at != -1:
        m = _MAILCHIMP_DC.match(text, at)
        start = at - 32
        if (m is not None and start >= 0 and _HEX32.fullmatch(text, start, at)
                and _alone(text, start, m.end())):
            yield Detection(TYPE, start, m.end(), 0.95, "secrets:provider", text[start:m.end()])
        at = text.find("-us", at + 3)


def _discord(text: str, runs: list[tuple[int, int]]) -> Iterator[Detection]:
    """Discord bot tokens: three base64url segments (24 to 26, 6, 27 to 38 characters)
    separated by dots, the first one a user id's base64 (``M``, ``N`` or ``O``: 0.95;
    any other first character, as tokens are made up for examples and tests, when the
    first segment mixes upper and lower case letters and digits as a random one does:
    0.9)."""
    for run_lo, hi in runs:
        if not text.startswith(".", hi):
            continue
        # (the run may start with a name and "=": ``DISCORD_TOKEN=MTk4...``)
        lo = hi
        while lo > max(run_lo, hi - 27) and text[lo - 1] in _TOKEN_CHARS:
            lo -= 1
        if 24 <= hi - lo <= 26:
            m = _DISCORD.match(text, lo)
            if m is None or not _alone(text, lo, m.end()):
                continue
            if text[lo] in "MNO":
                yield Detection(TYPE, lo, m.end(), 0.95, "secrets:provider", m.group())
            elif _mixed(text[lo:hi]) and entropy_ratio(text[lo:hi]) >= 0.85:
                yield Detection(TYPE, lo, m.end(), 0.9, "secrets:provider", m.group())


# A token standing alone: letters of both cases and digits (with "_" and "-"), not
# right after or before another token character, a path's or a URL's "/", an "@", a
# "." of a name, or "=", "+" of base64 data.
_BARE = re.compile(r"(?<![A-Za-z0-9_+/=~.@:%\\-])[A-Za-z0-9_-]{32,128}(?![A-Za-z0-9_+/=~@\\-]|\.[A-Za-z0-9])")
# What a random token after one of these is: a hash, a fingerprint, a public key (in
# the lower view, right before the token's ":" or space).
_NOT_SECRET_BEFORE = re.compile(
    rb"(?:sha[0-9]{0,3}|md5|fingerprint|ssh-[a-z0-9]+|ecdsa-[a-z0-9-]+|pub(?:lic)?[ _-]?key"
    rb"|id|uid|sid|ref|hash|digest|checksum|etag|nonce|request[ _-]?id|trace[ _-]?id"
    rb"|commit|build)[\"':= \t]{1,3}\Z")
_HASH_PREFIX = re.compile(r"(?i)(?:sha[0-9]{0,3}|md5)[-_]")  # sha512-...: an SRI hash
_BASE58 = frozenset("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")


def _bare_tokens(text: str, runs: list[tuple[int, int]], low: bytes,
                 taken: Callable[[int, int], bool]) -> Iterator[Detection]:
    """Random tokens that no word names, of 32 to 128 characters: a key pasted alone
    ("[14:03] Inès: ...", "the old one: ..."). A random mix of both letter cases and
    digits that long is a credential far more often than anything else; not a hash in
    hex, a wallet's address (Base58 or ``0x``), an identifier of a few letters and hex
    digits (``AC`` and 32 of them: Twilio's account SID), base64 data, a public key
    (``AAAA...``) or what a word before it says is a hash, a fingerprint or an id.
    Score 0.65."""
    for lo, hi in runs:
        if hi - lo < 32:
            continue
        for m in _BARE.finditer(text, lo, hi):
            token = m.group()
            start = m.start()
            if taken(start, m.end()):
                continue  # (another rule's already)
            if (not _mixed(token) or token.startswith(("AAAA", "0x")) or _has_run(token)
                    or _HASH_PREFIX.match(token)):
                continue
            if set(token) <= _BASE58 and (len(token) <= 44 or (
                    len(token) == 46 and token.startswith("Qm"))):
                continue  # a wallet's address (or a Solana one), valid or not; an IPFS CID
            body = token.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            if len(token) - len(body) <= 4 and not set(body.lower()) - set("0123456789abcdef"):
                continue  # "AC" and hex digits: an account's identifier
            if entropy_ratio(token) < 0.9 or _NOT_SECRET_BEFORE.search(
                    low, max(0, start - 24), start):
                continue
            folded = token.lower()
            if any(w in folded for w in _PLACEHOLDER_WORDS) or _encodes_text(token):
                continue
            yield Detection(TYPE, start, m.end(), 0.65, "secrets:bare", token)


def _encodes_text(token: str) -> bool:
    """Whether ``token`` is base64 (or base64url) of text: a message encoded, not a key
    (random bytes decode to few printable characters)."""
    try:
        raw = base64.b64decode(token[:len(token) // 4 * 4].replace("-", "+").replace("_", "/"))
    except (binascii.Error, ValueError):
        return False
    text = raw.decode("utf-8", "replace")
    return sum(c != "\ufffd" and (c.isprintable() or c.isspace())
               for c in text) >= 0.9 * len(text)


def _mixed(token: str) -> bool:
    """Whether ``token`` has upper and lower case letters and digits."""
    return (any(c.isupper() for c in token) and any(c.islower() for c in token)
            and any(c.isdigit() for c in token))


def _sk_keys(text: str, runs: list[tuple[int, int]]) -> Iterator[Detection]:
    def judge(m: re.Match[str]) -> tuple[str, float] | None:
        if m.group("anthropic"):
            return "anthropic", 0.99
        if m.group("project") or m.group("legacy"):
            return "openai", 0.99
        body = m.group("plain")
        if (any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
                and entropy_ratio(body) >= 0.8 and not _has_run(body)):
            return "openai", 0.9
        return None

    return _prefixed(text, _SK, judge, runs)


def _stripe(text: str) -> Iterator[Detection]:
    for m in _STRIPE.finditer(text):
        start, end = m.start() - 1, m.end()
        if start < 0 or text[start] not in "srp" or not _alone(text, start, end):
            continue
        if _FILLER.search(m.group()) is not None:
            continue  # sk_test_XXXXXXXXXXXXXXXX: a placeholder
        score = _STRIPE_SCORES[text[start], m.group("mode")]
        yield Detection(TYPE, start, end, score, "secrets:stripe", text[start:end])


def _b64url_json(segment: str) -> object:
    """The JSON value a base64url segment encodes; ValueError if it does not."""
    raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    return json.loads(raw.decode("utf-8"))


def _jwts(text: str) -> Iterator[Detection]:
    for m in _JWT.finditer(text):
        start, end = m.span()
        if not _alone(text, start, end):
            continue
        header, _, _ = m.group().partition(".")
        try:
            claims = _b64url_json(header)
        except (ValueError, binascii.Error):
            continue
        if not isinstance(claims, dict) or not isinstance(claims.get("alg"), str):
            continue
        try:
            payload_is_json = isinstance(_b64url_json(m.group("payload")), dict)
        except (ValueError, binascii.Error):
            payload_is_json = False
        yield Detection(TYPE, start, end, 0.98 if payload_is_json else 0.9, "secrets:jwt",
                        m.group())


def _url_secrets(text: str) -> Iterator[Detection]:
    """Passwords in ``scheme://user:password@host``, and Slack webhook URLs."""
    for m in _SCHEME_SEP.finditer(text):
        scheme = _SCHEME.search(text, max(0, m.start() - 16), m.start())
        if scheme is None:
            continue
        end = webhook_end(text, m.end())
        if end is not None:
            start = scheme.start()
            if _alone(text, start, end):
                rule = "slack" if text.startswith("hooks.", m.end()) else "webhook"
                yield Detection(TYPE, start, end, 0.98, f"secrets:{rule}", text[start:end])
            continue
        password = url_password(text, m.start())
        if password is not None:
            _, start, end = password
            yield Detection(TYPE, start, end, 0.95, "secrets:basic-auth", text[start:end])


def _private_keys(text: str) -> Iterator[Detection]:
    covered = 0   # where the last block found ends
    for m in _PEM_MARK.finditer(text):
        if m.start() < covered:
            continue   # the END line of a block found from its BEGIN line
        if m.group(1) == "END":
            # An END line whose BEGIN is not in the text (cut off, or released earlier
            # in a stream): the base64 lines before it.
            start = _body_start(text, m.start())
            if m.start() - start >= _PEM_MIN_BODY:
                yield from _pieces(text, start, m.end(), 0.9)
            continue
        body = _PEM_BODY.match(text, m.end())
        assert body is not None   # every part of the pattern may be empty
        b64 = _NOT_BASE64.sub("", _PEM_LINE_BREAK.sub("", body.group("lines")))
        footer = _footer(m)
        rest = len(text) - body.end()
        if text.startswith(footer, body.end()) and len(b64) >= _PEM_MIN_BODY:
            end = body.end() + len(footer)
            score = _key_structure_score(m.group(2), b64, bool(body.group("headers")))
        elif rest < len(footer) and footer.startswith(text[body.end():]):
            # Cut off by the end of the text (maybe in its END line): a key streaming
            # in, or truncated. The span runs to the end, so that a stream guard holds
            # what follows; a header with no body yet (or a mention of one) scores low.
            end, score = len(text), 0.9 if b64 else 0.5
        elif len(b64) >= _PEM_MIN_BODY:
            end, score = body.end(), 0.9
            while text[end - 1] in " \t\r\n":
                end -= 1
        else:
            continue
        covered = end
        yield from _pieces(text, m.start(), end, score)


def _open_body_start(text: str) -> int:
    """Where the lines of base64 characters (blank ones too) that end ``text`` start,
    at most ``MAX_LENGTH`` back; ``len(text)`` when its last line is something else."""
    floor = max(0, len(text) - MAX_LENGTH)
    start = end = len(text)
    while end > floor:
        nl = text.rfind("\n", floor, end)
        line_start = nl + 1 if nl != -1 else floor
        line = text[line_start:end].strip(" \t\r")
        if line:
            if _NOT_BASE64.search(line):
                break
            start = text.index(line, line_start)
        if nl == -1:
            break
        end = nl
    return start


def _footer(begin: re.Match[str]) -> str:
    """The END line that closes the block ``begin`` opens."""
    return f"-----END {begin.group(2)}PRIVATE KEY{begin.group(3) or ''}-----"


def _body_start(text: str, footer: int) -> int:
    """Where the base64 lines that end at ``footer`` begin, at most ``MAX_LENGTH``
    characters back (the first of them may be cut there)."""
    lo = max(0, footer - MAX_LENGTH)
    # The last character before the footer that no base64 line holds: its line is not
    # one, so only the lines after it are looked at (a text of many END lines is not
    # searched MAX_LENGTH characters back for each; no line break holds that character,
    # so the breaks after it are the same).
    stop = _views.pem_lines(text).rfind(b"x", lo, footer)
    if stop != -1:
        lo = stop + 1
    breaks = list(_PEM_LINE_BREAK.finditer(text, lo, footer))
    line_starts = [lo] + [b.end() for b in breaks]
    line_ends = [b.start() for b in breaks] + [footer]
    start = footer
    for ls, le in zip(reversed(line_starts), reversed(line_ends), strict=True):
        if stop != -1 and ls == lo:
            break  # the rest of the line that holds ``text[stop]``
        line = text[ls:le]
        stripped = line.lstrip(" \t")
        if _NOT_BASE64.search(stripped.rstrip(" \t")):
            break
        if stripped:
            start = le - len(stripped)
    return start


def _pieces(text: str, start: int, end: int, score: float) -> Iterator[Detection]:
    """The block ``text[start:end]`` as detections of at most ``MAX_LENGTH`` characters,
    cut after a line break where possible."""
    while start < end:
        stop = end
        if end - start > MAX_LENGTH:
            stop = text.rfind("\n", start + 1, start + MAX_LENGTH) + 1 or start + MAX_LENGTH
        yield Detection(TYPE, start, stop, score, "secrets:private-key", text[start:stop])
        start = stop


def _key_structure_score(label: str, b64: str, encrypted_headers: bool) -> float:
    """0.99 if the body decodes to what the label promises (an ASN.1 SEQUENCE, an
    OpenSSH key, an OpenPGP packet), 0.95 if it cannot be checked or does not."""
    if encrypted_headers:
        return 0.95   # RFC 1421 encryption: the body is ciphertext
    try:
        raw = base64.b64decode(b64 + "=" * (-len(b64) % 4))
    except (ValueError, binascii.Error):
        return 0.95
    if label == "OPENSSH ":
        ok = raw.startswith(b"openssh-key-v1\0")
    elif label == "PGP ":
        ok = bool(raw) and raw[0] & 0x80 == 0x80
    else:
        ok = raw[:1] == b"\x30"
    return 0.99 if ok else 0.95


