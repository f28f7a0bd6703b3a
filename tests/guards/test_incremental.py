"""``tripwire.guards.incremental.Incremental``: a stream searched a part at a time finds
exactly what a search of the whole text finds (overlapping detections merged, as a
guard does), for every built-in detector, however the text is cut."""

from __future__ import annotations

import datetime
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripwire.detectors import BUILTIN_TYPES, build
from tripwire.guards.incremental import Incremental, find_from, lookbehind, reach
from tripwire.guards.verdicts import Detection, merge

pytest.importorskip("phonenumbers")

#: Per detector: its values and pieces of them (what a value looks like while it
#: streams in, and what must not be taken for one), and what decides one (a keyword,
#: the characters around it). A few pieces make each text, so that the cases that
#: matter (a value and the character that rules it out) come up often.
SEPARATORS = [" ", " ", "\n", ".", ",", "-", ":", "/", "_", "a", "x", "é", "٣"]
VOCABULARY = {
    "email": ["ada@example.com", "a.b+c@mail.example.org", "@", "b.co", "com", "https://",
              "user:", "2x.png", "。", "+", "@b", "ab"],
    "phone": ["(415) 555-2671", "+44 20 7946 0958", "+1 415 555 2671", "415", "555",
              "0561 93188-0", " · ", "@entrantes", "=", "numéro ", "de la ",
              "2671", "00", "011", "+", "(", ")", "%", "order no. ", "#", "12", "1",
              "DE89 3704 0044 0532 0130 00", "4111 1111 1111 1111", "Mexique ", "Genève ",
              "55 1234 5678", "47E ", "91.563.84.20"],
    "credit-card": ["4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111",
                    "378282246310005", "4111", "1111", "12", "order no. ", "#",
                    "GB82 WEST ", "+"],
    "ssn": ["536-22-8726", "536228726", "536 22 8726", "SSN ", "ssn: ", "social security",
            "1", "12", "$"],
    "api-key": ["sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "ghp_" + "aB3dE6" * 6,
                "AKIAIOSFODNN7EXAMPLE", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-x",
                "https://ada:pa55-w0rd@db.example.com:5432/app", "xoxb-1234-abcdefghij",
                "hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX",
                "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
                "BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4\n-----END PRIVATE KEY-----",
                "-----END PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----",
                "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "api_key=", "password: ", "token ",
                "Bearer ", "key", "eyJ", "sk-", "aB3dE6kLm2nOp5qRs8tUv1wX", "=", "'", "+",
                'SECRET_KEY = "', "k9#t2v!x@8qz$1m^4w&l7p0r(e3y)u6b_d5n", '"',
                "Token de Cloudflare: ", "hf_jz21jDa9u0Tb2URGahnVp68agzUV7kv6QC",
                "AKIAXXXXXXXXXXXXXXXX", "db.password=", "Ug4#kTq9vZ2!mW8x", "\n  password: ",
                "Zx8Qm2Lp9Vr4Tn6Ks1Hw3Jd7Yb5Fc0Ge2Ah", "SHA256:",
                "6XEHNh3gVQcMv3sWgON4JTzE.xpsZ9M.8g_vYfs6FPrpm8YTF1VnDgpGFYSJ2ahoQyy8wK"],
    "ip-address": ["192.168.1.20", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1", "1.2.",
                   "::", "+", "rc1", "ff", "1", "12", "version ", "v"],
    "url": ["https://ada:pa55-w0rd@db.example.com:5432/app", "http://example.com/a?b=1",
            "www.example.org/x_(y)", "://", "http", "www.", "(", ")", "@", "<", "!"],
    "uuid": ["550e8400-e29b-41d4-a716-446655440000", "550e8400", "e29b", "0", "g"],
    "crypto-wallet": ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
                      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                      "0x52908400098527886E0F7030069857D2E4169EE7", "1", "bc1", "0x", "A",
                      "+", "ff"],
    "iban": ["GB82WEST12345698765432", "GB82 WEST 1234 5698 7654 32",
             "DE89 3704 0044 0532 0130 00", "DE", "GB", "82", "WEST", "1234", "A", "0"],
    "date-of-birth": ["1985-03-14", "14.03.1985", "March 14, 1985", "3/14/85", "born",
                      " born on ", "DOB: ", "birthday", "geboren am ", "14th", "March",
                      "mar", "1", "12", "1985", "of ", "*", "b. ", " zur Welt",
                      "T00:00Z", "\n", "BUG-1: Geburtsdatum falsch\n",
                      "Import aus dem Portal: ", "3. März 1978", "03.03.1978",
                      " wird als leer übernommen, ", "37 Jahre alt ", "age: 38 ",
                      "elle a 39 ans ", "depuis ", " geboren, ", "am ", "8-IV-1989",
                      "14MAR1987", " on ", "Patient, 38 ans ", ". "],
}


def texts(words: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(words), min_size=1, max_size=30).map("".join)


DETECTORS = {d.name: d for d in build(BUILTIN_TYPES)}


def cut(text: str) -> st.SearchStrategy[list[int]]:
    """Where ``text`` is cut into chunks: anywhere, or after every character."""
    return st.lists(st.integers(1, max(1, len(text) - 1)), max_size=30) | st.just(
        list(range(1, len(text))))


def key(d: Detection) -> tuple[str, int, int, float, str | None]:
    return (d.type, d.start, d.end, d.score, d.value)


def streamed(detectors: list, text: str, cuts: list[int]) -> set[tuple]:
    """What ``Incremental`` reports for ``text`` sent in the pieces ``cuts`` makes,
    keeping only what a hold-back window keeps: the held text and the characters before
    it that a detector may still look at. As ``HoldBack`` does, the window lets go of
    what is settled and of all but its last ``keep`` characters, whichever is more,
    unless a detection crosses that point: then it keeps that detection whole."""
    search = Incremental(detectors)
    keep = search.span
    assert keep >= max(max(reach(d), lookbehind(d)) for d in detectors)
    found: set[tuple] = set()
    released = 0
    bounds = [0, *sorted(set(cuts)), len(text)]
    for end, final in [(b, False) for b in bounds[1:]] + [(len(text), True)]:
        lo = max(0, released - keep)
        detections, boundary = search.update(text[lo:end], end, released, final=final)
        cut = end if final else max(boundary, end - keep)
        for d in reversed(detections):  # (a value the cut would split is held whole)
            if d.start < cut < d.end:
                cut = d.start
        for d in detections:
            # What a window releases with the text, and replaces: found before any of
            # its characters went out.
            if d.end <= cut and d.start >= released:
                found.add(key(d))
        released = max(released, cut)
    return found


@pytest.mark.parametrize("name", sorted(DETECTORS))
@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_stream_cut_anywhere_finds_what_the_whole_text_has(name, data):
    detector = DETECTORS[name]
    text = data.draw(texts(VOCABULARY[name] + SEPARATORS))
    cuts = data.draw(cut(text))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert streamed([detector], text, cuts) == whole


@settings(max_examples=100, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=texts([w for words in VOCABULARY.values() for w in words] + SEPARATORS),
       data=st.data())
def test_every_detector_at_once_finds_what_each_finds_in_the_whole_text(text, data):
    detectors = list(DETECTORS.values())
    cuts = data.draw(cut(text))
    whole = {key(d) for d in merge([d for detector in detectors for d in detector.detect(text)])}
    assert streamed(detectors, text, cuts) == whole


#: What may come right before and after a value (and rule it out, or make it one).
AROUND = ["", " ", "a", "_", "-", "#", "order no. ", "version ", "SSN ", "born ", "(", "+",
          "@", "://", "https://u:", "-----BEGIN PRIVATE KEY-----\n"]
FOLLOWERS = ["", " ", ".", ".1", "-", "-a", "+a", ":", ":1", "a", "1", "%", "_", "@b.co",
             "/x", ")", " ssn", " dob", "\n-----END PRIVATE KEY-----", "=", " 12"]


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_a_value_with_what_comes_around_it_cut_anywhere(name):
    """Every value of the detector's vocabulary between what may precede and follow
    it, cut into single characters, and cut at each place in turn with one of the
    pairs (each before and each after in some pair; every pair for every place would
    take minutes): what the whole text has, no more and no less."""
    detector = DETECTORS[name]
    values = [w for w in VOCABULARY[name] if len(w) >= 8]
    for n, value in enumerate(values):
        for i, before in enumerate(AROUND):
            for j, after in enumerate(FOLLOWERS):
                text = f"{before}{value}{after}"
                whole = {key(d) for d in merge(list(detector.detect(text)))}
                cuts = [list(range(1, len(text)))]
                if (i + n) % len(AROUND) == j % len(AROUND):
                    cuts += [[k] for k in range(1, len(text))]
                for at in cuts:
                    assert streamed([detector], text, at) == whole, (text, at)


def test_every_built_in_detector_has_a_vocabulary():
    assert sorted(VOCABULARY) == sorted(DETECTORS)


def test_the_lookbehind_is_a_detectors_own_or_its_max_length():
    class Plain:
        name, types, max_length = "plain", ("plain",), 12

        def detect(self, text):
            return []

    class Near(Plain):
        lookbehind = 3

    assert lookbehind(Plain()) == 12 and lookbehind(Near()) == 3
    Near.lookbehind = -1
    with pytest.raises(ValueError, match="lookbehind -1"):
        lookbehind(Near())


class Counting:
    """A detector that counts the characters it is asked to search (and finds ``@@``)."""

    name, types, max_length, lookbehind = "at", ("at",), 2, 1

    def __init__(self) -> None:
        self.searched = 0

    @staticmethod
    def hold_from(text: str) -> int:
        return len(text) - 1 if text.endswith("@") else len(text)

    def detect(self, text: str) -> list[Detection]:
        self.searched += len(text)
        return [Detection("at", i, i + 2, 1.0, self.name, "@@")
                for i in range(len(text) - 1) if text.startswith("@@", i)]


def test_each_part_of_a_long_stream_is_searched_about_once():
    detector = Counting()
    text = "word @@ " * 2_000
    assert streamed([detector], text, list(range(16, len(text), 16))) == {
        ("at", i, i + 2, 1.0, "@@") for i in range(5, len(text), 8)}
    assert detector.searched < 1.5 * len(text)


@pytest.mark.parametrize("name", sorted(n for n, d in DETECTORS.items()
                                         if hasattr(d, "detect_from")))
@settings(max_examples=100, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_detector_told_where_to_start_finds_what_its_whole_search_finds_from_there(
        name, data):
    # (the phone, card, SSN and email detectors judge only the candidates that may
    # start from there: a stream's search reads the text before it again)
    detector = DETECTORS[name]
    text = data.draw(texts(VOCABULARY[name] + SEPARATORS))
    since = data.draw(st.integers(0, len(text)))
    whole = {key(d) for d in detector.detect(text) if d.start >= since}
    assert {key(d) for d in detector.detect_from(text, since) if d.start >= since} == whole
    assert {key(d) for d in find_from(text, detector, since) if d.start >= since} == whole


def test_a_detector_with_detect_from_is_told_where_its_settled_text_ends():
    class From(Counting):
        def __init__(self) -> None:
            super().__init__()
            self.asked: list[tuple[int, int]] = []

        def detect_from(self, text: str, since: int) -> list[Detection]:
            self.asked.append((len(text), since))
            return [d for d in self.detect(text) if d.start >= since]

    detector = From()
    text = "word @@ " * 200
    assert streamed([detector], text, list(range(16, len(text), 16))) == {
        ("at", i, i + 2, 1.0, "@@") for i in range(5, len(text), 8)}
    # after the first search, each is told where the text it searched before ends
    assert detector.asked and all(0 < since <= size for size, since in detector.asked)


class Starting(Counting):
    """``Counting`` whose detections start with "@" (``starts``), asked how often."""

    starts = re.compile("@")

    def __init__(self) -> None:
        super().__init__()
        self.held = 0

    def hold_from(self, text: str) -> int:
        self.held += 1
        return Counting.hold_from(text)


def test_text_with_no_place_a_detection_can_start_is_settled_without_a_search():
    detector = Starting()
    text = "a word or two " * 100 + "then @@ " + "and more words " * 100
    ends = list(range(16, len(text), 16))
    assert streamed([detector], text, ends) == {("at", 1405, 1407, 1.0, "@@")}
    # (searched and asked where it holds only about the "@@": a few times)
    assert detector.held <= 3 and detector.searched < 200
    assert streamed([detector, Counting()], text, ends) == streamed([Counting()], text, ends)


def test_a_detectors_starts_must_be_a_compiled_pattern():
    class Wrong(Counting):
        starts = "@"

    with pytest.raises(ValueError, match="'at' has starts '@'; it must be a compiled"):
        Incremental([Wrong()])


def test_the_number_detectors_say_where_their_numbers_start_in_any_script():
    for name in ("phone", "credit-card", "ssn"):
        starts = DETECTORS[name].starts
        # another script's digit, a fullwidth one, a digit hidden in a tag character
        for text in ("536", "\u0665", "\uff15", "\U000e0035"):
            assert starts.search(text), (name, text)
        assert not starts.search("no number here: none, at all.")
    assert DETECTORS["phone"].starts.search("call +") and not DETECTORS["ssn"].starts.search("+")


def test_a_detector_whose_span_leaves_the_text_is_an_error_that_names_it():
    class Wrong(Counting):
        def detect(self, text):
            return [Detection("at", 0, len(text) + 5, 1.0, "wrong-at", None)]

    with pytest.raises(ValueError, match=r"'wrong-at' returned the span \(0, 9\)"):
        Incremental([Wrong()]).update("abcd", 4, 0)


def test_after_a_reset_what_came_before_is_forgotten():
    search = Incremental([Counting()])
    found, _ = search.update("x @@ y ", 7, 0)
    assert [(d.start, d.end) for d in found] == [(2, 4)]
    search.reset()  # (a retried step: its text is sent again, from the start)
    found, boundary = search.update("x y ", 4, 0)
    assert found == [] and boundary == 4


#: Texts whose phone numbers are national ones of the countries the words, codes,
#: domains, signs and scripts around them point at (a number's plans are read from the
#: 300 characters either side of it).
REGIONAL = ["06 98 14 72 05", "020 7946 0958", "030 12345678", "+33 6 98 14 72 05", "0033 ",
            "+49 ", "+44", "merci ", "bonjour ", " vous ", " der ", " und ", " the ", " and ",
            "Telefon: ", "tel. ", "@x.fr", "@y.de", "https://www.z.co.uk", "£", "WC1N 1AB",
            "Привет", "(415) 555-2671", "4155552671", "612 345 678", " está ", " el ",
            "x" * 120, " " * 40]


@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_phone_number_whose_plans_its_surroundings_say_is_found_as_in_the_whole_text(data):
    detector = DETECTORS["phone"]
    text = data.draw(texts(REGIONAL + SEPARATORS))
    cuts = data.draw(cut(text))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert streamed([detector], text, cuts) == whole


#: The offline tier's names and addresses and what comes around them.
OFFLINE = {
    "name": ["Anna Schmidt", "Herr Müller", "Hallo Anna", "Name: ", "Will", "will ", "Rose",
             "la ", "Best,\n", "\n", ",", "Marie-Claire", " in Paris", "Jean", "Dr. ", "GmbH",
             "Martin Luther King Boulevard", "Cordialement,\n"],
    "address": ["221B Baker Street", "Hauptstraße 12", "10115 Berlin", "12 rue Victor Hugo",
                "75001 Paris", "Calle Mayor 5", "28013 Madrid", "Address: ", "Anschrift: ",
                ", ", "\n", "Apt 4", "London", "NW1 6XE"],
}


@pytest.mark.parametrize("name", sorted(OFFLINE))
@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_name_or_address_stream_cut_anywhere_finds_what_the_whole_text_has(name, data):
    pytest.importorskip("gender_guesser")
    detector = build([name])[0]
    text = data.draw(texts(OFFLINE[name] + SEPARATORS))
    cuts = data.draw(cut(text))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert streamed([detector], text, cuts) == whole


#: Tables whose header names a birth-date column, their rows, and what breaks them.
TABLES = ["name,dob,city\n", "Name;Geburtsdatum;Ort\n", "id|date_of_birth|x\n", "Ann,",
          "1985-03-14", "14.03.1985", ",Berlin\n", ";Köln\n", "|y\n", ",", ";", "|", "\n",
          "born ", "x" * 60, "12/03/1985"]


@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_tables_birth_dates_far_below_its_header_are_found_as_in_the_whole_text(data):
    detector = DETECTORS["date-of-birth"]
    text = data.draw(st.lists(st.sampled_from(TABLES), min_size=1, max_size=60).map("".join))
    cuts = data.draw(cut(text))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert streamed([detector], text, cuts) == whole


def test_a_long_table_streams_its_birth_dates_from_every_row():
    detector = DETECTORS["date-of-birth"]
    text = "name,dob,city\n" + "".join(f"Person {i},1{i % 10}.03.1985,Berlin\n" for i in range(40))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert len(whole) == 40
    assert streamed([detector], text, list(range(16, len(text), 16))) == whole


#: Tables whose header names an SSN column, their rows, and what breaks them.
SSN_TABLES = ["name,ssn,city\n", "Name;SSN;Ort\n", "| Name | SSN |\n", "|---|---|\n",
              "id\tsocial security\n", "Ann,", "536854718", "343291321", "| Bob | ",
              " |\n", ",Berlin\n", ";Köln\n", "\t", ",", ";", "|", "\n", "x" * 60,
              "SSN ", "123456789", "name,ssn,street,zip\n", ",Long Street " * 6]


@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_tables_ssns_far_below_its_header_are_found_as_in_the_whole_text(data):
    detector = DETECTORS["ssn"]
    text = data.draw(st.lists(st.sampled_from(SSN_TABLES), min_size=1, max_size=60)
                     .map("".join))
    cuts = data.draw(cut(text))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert streamed([detector], text, cuts) == whole


@pytest.mark.parametrize("header", ["name,ssn,city\n", "| Name | SSN | City |\n|---|---|---|\n"])
def test_a_long_table_streams_its_ssns_from_every_row(header):
    detector = DETECTORS["ssn"]
    sep = "," if header.startswith("name") else " | "
    rows = "".join(f"{'| ' if sep != ',' else ''}Person {i}{sep}5368547{10 + i}{sep}Berlin"
                   f"{' |' if sep != ',' else ''}\n" for i in range(40))
    text = header + rows
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert len(whole) == 40
    assert streamed([detector], text, list(range(16, len(text), 16))) == whole


def test_an_ssn_is_held_until_its_row_ends_whatever_follows_it_in_the_row():
    detector = DETECTORS["ssn"]
    text = "name,ssn,street,zip\n" + "".join(
        f"Person {i},5368547{10 + i},{'Long Street Name ' * 5}{i},10115\n" for i in range(10))
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert len(whole) == 10
    for step in (1, 3, 7, 16):
        assert streamed([detector], text, list(range(step, len(text), step))) == whole


def test_a_detectors_context_must_be_a_string():
    class Wrong(Counting):
        def context(self, text):
            return None

    with pytest.raises(ValueError, match="'at': context returned None"):
        search = Incremental([Wrong()])
        text = "x @@ y " * 10
        for end in range(8, len(text), 8):
            search.update(text[:end], end, 0)


#: Texts in the forms people write values in, each with its detector: what a value's
#: verdict reads far before it (a heading above a date of birth, the date written
#: before it again) and what ends it (a quote, an extension).
WRITTEN = [
    ("date-of-birth",
     "BUG-552: Geburtsdatum in Langform wird nicht erkannt\nImport aus dem Bewerberportal: "
     "„3. März 1978“ wird als leer übernommen, „03.03.1978“ klappt. Im Freitext stand"),
    ("date-of-birth",
     "RRHH-771: fecha de nacimiento mal en el portal del empleado\nAbel Quiroga indica que "
     "en su ficha aparece 07/05/1983 y la correcta es el 5 de julio de 1983 (al importar)"),
    ("date-of-birth", "LEBENSLAUF\nTimo Hagedorn\n*12.04.1985 in Kassel · Wilhelmshöher"),
    ("date-of-birth",
     '{"name": "Ann Lee", "birthDate": "1987-03-14T00:00:00Z", "b": "b. 1990-01-02"}'),
    ("phone", "Timo Hagedorn\nTel. 0561 93188-0 · Fax 0561 93188-99 · timo@freenet.de"),
    ("phone", 'pbx.c: Executing [+34915527840@entrantes:1] Answer("SIP/trunk") '
              "caller_id=+4915123456789"),
    ("phone", "Familiar de contacto de la paciente: Rosa Cortés, 968 24 17 50\nDomicilio"),
    ("phone", "mon numéro c'est le 0612345678, merci"),
    ("date-of-birth", f"Anna Weber, 37 Jahre alt, Köln ({datetime.date.today().year - 38}"
                      "-03-14), Eintritt 2015-04-01"),
    ("api-key", 'SECRET_KEY = "k9#t2v!x@8qz$1m^4w&l7p0r(e3y)u6b_d5n+c-h*s"\nDEBUG = False'),
    ("api-key", "- Token de Cloudflare: gHk2v9QzL_mP4xR7tN1sW8yB3cD6fJ0aE5uI2oYe\nFactura"),
    ("date-of-birth", "Anna ist am 7. Juli 1989 geboren, Termin am 12.07.2024. Nacida el "
                      "8-IV-1989 · DOB 14MAR1987 SEX F"),
    ("date-of-birth", "Born in Leeds to a family of two teachers on 14 March 1987, she"),
    ("date-of-birth", "Fechas de nacimiento: 03/05/2010, 04/06/2012 y 05/07/2015. Date of birth "
                      "................................ 14/03/1987"),
    ("date-of-birth", f"Patient, 37 ans ({datetime.date.today().year - 38}-03-14), adressé "
                      "le 02/05/2024"),
    ("phone", "Contact au Mexique : 55 1234 5678 (bureau de Mexico). UPS 1Z 9W8 47E 03 4417 "
              "2285 | Madrid | 91.563.84.20 |"),
    ("phone", 'pbx.c: Executing [675418203@entrantes:1] Answer("SIP/trunk") '
              "<sip:0612345678@voip.example.fr>"),
    ("api-key", "spring.datasource.password=Ug4#kTq9vZ2!mW8x\nrabbitmq.host=mq01\n[14:03] "
                "Inès: Zx8Qm2Lp9Vr4Tn6Ks1Hw3Jd7Yb5Fc0Ge2Ah ok DISCORD_TOKEN="
                "6XEHNh3gVQcMv3sWgON4JTzE.xpsZ9M.8g_vYfs6FPrpm8YTF1VnDgpGFYSJ2ahoQyy8wK."),
]


@pytest.mark.parametrize(("name", "text"), WRITTEN)
def test_a_written_form_cut_at_every_place_finds_what_the_whole_text_has(name, text):
    detector = DETECTORS[name]
    whole = {key(d) for d in merge(list(detector.detect(text)))}
    assert whole
    for at in range(1, len(text)):
        assert streamed([detector], text, [at]) == whole
    assert streamed([detector], text, list(range(1, len(text)))) == whole
