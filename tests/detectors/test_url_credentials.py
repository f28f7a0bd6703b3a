"""URLs and connection strings that carry a password (type ``url-credentials``): found
whole, from the scheme to the end, for any scheme; not also a ``url`` or an
``api-key`` when those are wanted too; template passwords are none; and the password
is still an ``api-key`` (and a web URL still a ``url``) for a guard that asks only
for those."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tripwire.detectors import DEFAULT_TYPES, build, detect_all
from tripwire.detectors.contact import UrlDetector, url_password

EVERY = build(DEFAULT_TYPES)


def found(text: str, types: tuple[str, ...] = DEFAULT_TYPES) -> list[tuple[str, str]]:
    return [(d.type, d.value or "") for d in detect_all(text, build(types), types)]


@pytest.mark.parametrize("value", [
    "postgres://admin:hunter2x@db.internal:5432/app",
    "postgresql+psycopg2://svc_reporting:N9v!qT7w@10.20.0.15/analytics?sslmode=require",
    "mongodb+srv://app:Rk3%40pq9Z@cluster0.ab1cd.mongodb.net/orders?retryWrites=true&w=majority",
    "mongodb://root:pw4Mongo7@mongo1:27017,mongo2:27017/admin?replicaSet=rs0",
    "redis://:Zx81kPq2@cache:6379/0",
    "rediss://default:AbC123xyz@eu1-redis.example.io:6380",
    "amqp://guest:Gu3stPw9@rabbit.local:5672/%2F",
    "mysql://root:T00r!pw@127.0.0.1:3306/shop",
    "jdbc:mysql://root:T00r!pw@10.0.0.5:3306/shop",
    "https://bob:s3cr3t99@files.example.com/private/report.pdf",
    "ftp://deploy:Xy7-pq_2@ftp.example.org/upload/",
    "smtp://mailer:Qm8*zt2v@smtp.example.com:587",
    "postgres://app:p@ssw0rd@db.internal/app",            # an "@" in the password
    "redis://:s3cr:et9Pw@cache:6379/0",                   # a ":" in the password
])
@pytest.mark.parametrize(("before", "after"), [
    ("", ""), ("DATABASE_URL=", "\n"), ('url = "', '"'), ("(see ", ")."), ("use '", "', then"),
    ("Die URL lautet ", ". Danke!"), ("«\u00a0", "\u00a0»"),
])
def test_a_url_with_a_password_is_found_whole(value, before, after):
    assert found(before + value + after) == [("url-credentials", value)]


def test_it_is_one_detection_not_also_a_url_an_api_key_or_an_ip_address():
    text = "mirror https://bob:s3cr3t99@10.0.0.7:8443/repo and https://example.com/docs"
    assert found(text) == [("url-credentials", "https://bob:s3cr3t99@10.0.0.7:8443/repo"),
                           ("url", "https://example.com/docs")]


def test_a_guard_that_asks_for_url_or_api_key_alone_still_covers_it():
    web = "https://bob:s3cr3t99@files.example.com/x"
    assert found(f"get {web} now", ("url",)) == [("url", web)]
    assert found(f"get {web} now", ("api-key",)) == [("api-key", "s3cr3t99")]
    db = "postgres://admin:hunter2x@db.internal/app"
    assert found(f"db {db}", ("url",)) == []  # not a web address
    assert found(f"db {db}", ("api-key",)) == [("api-key", "hunter2x")]


@pytest.mark.parametrize("text", [
    "postgres://user:password@localhost:5432/mydb",
    "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DB",
    "redis://:${REDIS_PASSWORD}@cache:6379",
    "mysql://root:<password>@db/shop",
    "amqp://guest:****@rabbit:5672",
    "postgres://app:{pw}@db/app and postgres://%s:%s@%s/%s",
    "mongodb://admin:xxxxxxxx@mongo:27017",
])
def test_a_template_password_is_not_a_credential(text):
    assert [t for t, _ in found(text)] in ([], ["url"])


@pytest.mark.parametrize("text", [
    "https://alice@example.com/profile",          # a user, no password
    "ssh git@github.com:org/repo.git",
    "time 12:30@home, ratio 3:1@work",
    "postgres://db.internal:5432/app",
    "mailto:ann:x@example.com",                    # no "://"
])
def test_no_password_no_credential(text):
    assert "url-credentials" not in [t for t, _ in found(text)]


def test_url_password_gives_the_scheme_and_the_password():
    text = "DSN jdbc:postgresql://svc:Pw9x7q@db/app"
    scheme, pw_start, pw_end = url_password(text, text.index("://"))
    assert text[scheme:text.index("://")] == "jdbc:postgresql"
    assert text[pw_start:pw_end] == "Pw9x7q"


USER = st.text("abcdefghijklmnopqrstuvwxyz0123456789_.-", max_size=12)
PASSWORD = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!$%&*+,;=~_.-:@",
                   min_size=6, max_size=24).filter(
    lambda p: len(set(p)) > 1 and p[0] not in "$" and not p.startswith("%s")
    and p.lower() not in ("password", "passwd", "changeme", "placeholder", "redacted",
                          "example", "yourpassword", "mypassword", "your_password",
                          "my_password", "secret"))  # (a template's: not a password)
HOST = st.from_regex(r"[a-z][a-z0-9-]{0,10}(\.[a-z]{2,6}){0,2}(:[0-9]{2,5})?", fullmatch=True)
PATH = st.from_regex(r"(/[A-Za-z0-9_%-]{1,8}){0,3}(\?[a-z]{1,5}=[a-z0-9]{1,5})?", fullmatch=True)
SCHEME = st.sampled_from(["postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "redis",
                          "rediss", "amqp", "amqps", "https", "http", "ftp", "sftp", "mssql"])


@given(SCHEME, USER, PASSWORD, HOST, PATH, st.sampled_from(["", " ", "\n", "=", '"', "(", "'"]),
       st.sampled_from(["", " ok", ".", ",", "\n", '"', ")", "'", "!"]))
@example("postgres", "", "a@b:c", "h", "", " ", ".")
@settings(max_examples=300, deadline=None, database=None)
def test_property_any_url_with_a_password_is_found_whole_and_its_password_never_outside(
        scheme, user, password, host, path, before, after):
    value = f"{scheme}://{user}:{password}@{host}{path}"
    if value[-1] in ".,;:!?*'\"~_" or (path == "" and host[-1] in ".-"):
        return  # trailing punctuation is read as the sentence's, not the URL's
    text = f"x {before}{value}{after}"
    spans = [(d.type, d.start, d.end) for d in detect_all(text, EVERY)]
    start = text.index(value)
    assert ("url-credentials", start, start + len(value)) in spans


def test_the_url_detector_declares_both_types():
    assert UrlDetector.types == ("url", "url-credentials")
