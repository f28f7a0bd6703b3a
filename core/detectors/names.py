"""People's names (type ``name``), found offline: ``NameDetector``.

A name is a run of capitalised words (``Anna Schmidt``, ``Jean-Pierre Martin``,
``Lucía Fernández García``, ``Ludwig van Beethoven``, ``Anna M. Schmidt``) that the
run itself or its context shows to be a person's:

- it starts with a given name (``first_names``: about 48,000, with how common each is)
  and goes on with a family name: a full name;
- it follows a title or salutation (``Herr``, ``Frau``, ``Dr.``, ``Mr``, ``Mme``,
  ``M.``, ``Sr.``, ``Sra.``, ``Don``, ...), which the span leaves out: ``Müller`` in
  ``Herr Müller``;
- it follows a greeting (``Hi``, ``Hallo``, ``Liebe``, ``Bonjour``, ``Chère``, ``Hola``,
  ``Estimada``, ...), stands after a sign-off (``Best,``, ``Viele Grüße``,
  ``Cordialement``, ``Un saludo``, ...) on its own line or after a comma, or after a
  field label (``Name:``, ``Von:``, ``Nom :``, ``Nombre:``, ``Contact:``, ...);
- or it is a given name alone, common enough as one, that is not a word the text uses
  otherwise (a greeting, a month, a pronoun) nor a place after ``in``, ``nach``, ``à``,
  ``en``.

It is not a name when it is part of an organisation (followed by ``GmbH``, ``Inc``,
``& Co``, ``Bank``, ``Hotel``, ...; after ``&`` or ``University of``), of a street
(``Victor-Hugo-Straße``, ``rue Victor Hugo``, ``Martin Luther King Boulevard``: the
address detector's) or of a place (``San Francisco``, ``Saint-Étienne``). Given names
that are common words (``Will``, ``Grace``, ``Rose``) are taken alone only where the
context says a person is meant.

Needs the ``names`` extra: ``pip install 'tripwire[names]'``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tripwire.detectors import _gazetteers, _views
from tripwire.guards.verdicts import Detection

__all__ = ["NameDetector"]


def _letters(upper: bool) -> str:
    """The upper- or lower-case letters of the Latin, Greek and Cyrillic blocks, as a
    character class body."""
    blocks = (range(0x41, 0x250), range(0x370, 0x530), range(0x1E00, 0x1F00))
    chars = [chr(c) for block in blocks for c in block]
    return "".join(re.escape(c) for c in chars if (c.isupper() if upper else c.islower()))


_UP = _letters(True)
_LOW = _letters(False)
# A capitalised word: Anna, O'Connor, McDonald, DiCaprio, Jean-Pierre, Müller-Lüdenscheidt.
_CAP = rf"[{_UP}](?:['’][{_UP}])?[{_LOW}]+(?:[{_UP}][{_LOW}]+)?(?:-[{_UP}][{_LOW}]+)*"
_INITIAL = rf"[{_UP}]\."
_PARTICLE = (r"(?:von|van|der|den|de|del|della|di|da|du|des|dos|das|la|le|y|zu|ten|ter|"
             r"bin|ibn|al|el)")
_RUN = re.compile(
    rf"(?<![\w@#/\\.+=&-])(?:{_CAP})(?:[ \t](?:{_PARTICLE}[ \t]){{0,2}}(?:{_CAP}|{_INITIAL}))*"
    rf"(?![\w@]|\.\w)")
_TOKEN = re.compile(rf"{_CAP}|{_INITIAL}|{_PARTICLE}")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Titles and salutations: the name follows (they are not part of it).
TITLES = _words("""
    Mr Mrs Ms Miss Mx Sir Dame Lord Lady Dr Prof Professor Doctor Rev Capt Sgt
    Herr Herrn Frau Fräulein Fr Hr Dipl Ing Doktor Kollege Kollegin Familie
    M MM Mme Mmes Mlle Mlles Monsieur Madame Mademoiselle Maître Docteur Professeur Pr
    Famille Sr Sra Srta Señor Señora Señorita Don Doña Dña Dra Lic Profesor Profesora
    Familia""")
#: Greetings and thanks: a name may follow.
GREETINGS = _words("""
    Hi Hello Hey Dear Dearest Morning Thanks Thank Thx Cheers Congrats Welcome Bye
    Hallo Hej Liebe Lieber Liebes Moin Servus Grüß Danke Tschüss Ciao
    Bonjour Bonsoir Salut Coucou Cher Chère Chers Chères Merci
    Hola Querido Querida Queridos Estimado Estimada Estimados Gracias Buenos Buenas
    Buenas""")
#: Sign-offs: a name on the next line (or after the comma) signs the text.
_SIGN_OFF = re.compile(
    r"(?i)(?:regards|best|cheers|thanks|thank you|thx|sincerely|yours|greetings|love|"
    r"gr(?:ü|ue)(?:ß|ss)e?|gruss|mfg|lg|vg|danke|bis bald|ciao|tschüss|"
    r"cordialement|salutations|amicalement|bises|bien à (?:vous|toi)|merci|à bientôt|"
    r"saludos|un saludo|atentamente|cordialmente|gracias|un abrazo|besos|hasta pronto)"
    r"[\s!.,]*$")
#: Field labels: a name follows.
_LABEL = re.compile(
    r"(?i)(?:^|[\s(\[|,;])(?:name|full name|first name|last name|surname|contact|"
    r"from|to|cc|bcc|attn|attention|signed|signature|assignee|reporter|owner|author|"
    r"requester|requested by|customer|client|patient|tenant|landlord|employee|user|"
    r"agent|manager|applicant|candidate|sender|recipient|account holder|holder|"
    r"beneficiary|guest|passenger|driver|witness|emergency contact|contact person|"
    r"vorname|nachname|kontakt|von|an|kunde|kundin|absender|empfänger|mieter|mieterin|"
    r"vermieter|ansprechpartner|ansprechpartnerin|mitarbeiter|mitarbeiterin|inhaber|"
    r"kontoinhaber|unterschrift|bearbeiter|bewerber|bewerberin|patientin|teilnehmer|"
    r"nom|prénom|nom complet|de|à|destinataire|expéditeur|titulaire|locataire|"
    r"propriétaire|signataire|interlocuteur|demandeur|candidat|candidate|bénéficiaire|"
    r"nombre|apellidos?|nombre completo|para|remitente|destinatario|titular|paciente|"
    r"inquilino|arrendador|firmado|firma|solicitante|empleado|empleada|contacto|"
    r"responsable|beneficiario|asunto de)\s?:[ \t]*$")
#: Capitalised words that are never (the start of) a name: pronouns, articles,
#: conjunctions, days and months, in the four languages.
STOP = _words("""
    I The This That These Those We You He She It They My Our Your His Her Their A An
    And Or But If So Yes No Ok Okay Please Also Then When Where What Who Why How Here
    There Today Tomorrow Yesterday Monday Tuesday Wednesday Thursday Friday Saturday
    Sunday January February March April May June July August September October
    November December Team Support Everyone All Folks Guys Sir Madam Customer Service
    Ich Du Er Wir Ihr Sie Es Mein Meine Dein Unser Der Die Das Den Dem Des Ein Eine Und
    Oder Aber Wenn Bitte Ja Nein Heute Morgen Gestern Montag Dienstag Mittwoch
    Donnerstag Freitag Samstag Sonntag Januar Februar März Mai Juni Juli Oktober
    Dezember Zusammen Leute Kollegen Kolleginnen Kundenservice Kunde Grüße Gruß
    Je Tu Il Elle Nous Vous Ils Elles Le La Les Un Une Et Ou Mais Si Oui Non
    Aujourd Demain Hier Lundi Mardi Mercredi Jeudi Vendredi Samedi Dimanche Janvier
    Février Mars Avril Juin Juillet Août Septembre Octobre Novembre Décembre Tous Toutes
    Équipe Service Client
    Yo Él Ella Nosotros Ustedes Usted Ellos El Los Las Una Pero Sí Hoy Mañana Ayer
    Lunes Martes Miércoles Jueves Viernes Sábado Domingo Enero Febrero Marzo Abril Mayo
    Junio Julio Agosto Septiembre Setiembre Octubre Noviembre Diciembre Todos Equipo
    Señores""")
#: Words that make a run an organisation's name (after it, or its last word).
ORGANISATION = _words("""
    GmbH AG KG OHG GbR UG SE eV mbH Inc Ltd LLC LLP PLC plc Corp Corporation Co Company
    Group Holding Holdings SA SAS SARL SRL SL SLU Bank Stiftung Foundation Fondation
    Fundación Verlag Partners Associates Consulting Solutions Software Systems
    Technologies Labs Studio Studios Hotel Restaurant Café Bar Klinik Clinic Hospital
    Hôpital Apotheke Pharmacie Farmacia Universität University Université Universidad
    Schule School École Escuela Institut Institute Instituto Museum Musée Museo Airport
    Flughafen Aéroport Aeropuerto Bahnhof Station Gare Estación Center Centre Zentrum
    Centro Stadium Stadion Arena Brothers Brüder Frères Hermanos Sons Söhne Fils Hijos
    Motors Airlines Records Media Press Editions Éditions Editorial Capital Ventures
    Gymnasium Lycée Collège Colegio Realschule Grundschule Hochschule Akademie Academy""")
#: Words before a run that make it an organisation's, a street's or a place's name.
NOT_BEFORE = _words("""
    University Universität Université Universidad Hotel Café Restaurant Klinik Clinic
    Hospital Hôpital Colegio Instituto Fundación Stiftung Museo Musée Museum Lycée
    Collège École Gymnasium Bahnhof Aeropuerto Estadio Stade Schule Escuela
    Rue rue Avenue avenue Boulevard boulevard Place place Allée allée Impasse impasse
    Quai quai Chemin chemin Cours cours Square square Calle calle Avenida avenida
    Plaza plaza Paseo paseo Carrer carrer Plaça plaça Camino camino Ronda ronda
    Glorieta glorieta Travesía travesía Straße Platz Street Road
    San Santa Santo São Saint Sainte St Ste Sankt Bad Port Fort Mount Mont Lake Cape
    Cabo Villa Puerto Isla Île Lago Monte Sierra""")
#: Street words after a run: the run names the street (``Martin Luther King Blvd``).
STREET_AFTER = _words("""
    Street St Road Rd Avenue Ave Boulevard Blvd Lane Ln Drive Dr Way Place Pl Square
    Court Ct Terrace Close Crescent Parkway Highway Row Gardens Mews Grove Walk
    Straße Strasse Str Allee Platz Weg Gasse Ring Damm Ufer Chaussee""")
#: Prepositions after which a lone given name is a place (``nach Paris``, ``à Florence``).
_PLACE_BEFORE = re.compile(
    r"(?:\b(?:in|nach|aus|from|à|en|près de|cerca de|desde|hacia|vers|bei|im|near|"
    r"de|von|via|über)\s+$)")
_TITLE_BEFORE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Sra|Srta|Dra|Mme|Mmes|Mlle|Pr|Lic|Ing|Dña|Hr|Fr|"
    r"St|Rev|Capt|Sgt|Dipl\.-Ing)\.?|(?<!\w)M\.|(?<!\w)MM\.|(?<!\w)D\.|(?<!\w)Dª)"
    r"(?:\s+(?:Dr|Prof|Dra|Ing)\.?)*\s+$")
_GREETING_BEFORE = re.compile(
    r"(?i)\b(?:hi|hello|hey|dear|hallo|liebe[rs]?|moin|servus|bonjour|bonsoir|salut|"
    r"coucou|ch[èe]re?s?|hola|querid[oa]s?|estimad[oa]s?|buen[oa]s (?:días|tardes|noches)|"
    r"thanks|thank you|danke|merci|gracias|sehr geehrte[rs]?(?: (?:herr|frau))?|"
    r"guten (?:tag|morgen|abend))[ \t]*,?[ \t]*$")
_EMAIL_AFTER = re.compile(r"[ \t]*[<(\[][^\s<>@]+@")

#: How common (1 to 13, ``first_names``) a given name must be to be taken alone,
#: without a family name or a context that says a person is meant.
ALONE = 4
#: ... and when it starts a sentence, where a word is capitalised anyway.
ALONE_AT_START = 6


class NameDetector:
    """People's names (type ``name``): given names from ``gender-guesser``'s
    dictionary, titles, greetings, sign-offs and field labels in English, German,
    French and Spanish (see the module). Needs ``pip install 'tripwire[names]'``."""

    name = "name"
    types = ("name",)
    # a name (up to six words) and the context before it: a title, a greeting, a label
    max_length = 100

    def __init__(self) -> None:
        _gazetteers.require("the name detector")
        self._given = _gazetteers.first_names()
        self._surnames = _gazetteers.surnames()

    def _is_given(self, token: str) -> int:
        """How common ``token`` is as a given name (0: not one); a hyphenated name
        counts when each of its parts is one (``Marie-Claire``)."""
        given = self._given
        strength = given.get(token)
        if strength is not None:
            return strength
        if "-" in token:
            parts = [given.get(p, 0) for p in token.split("-")]
            return min(parts) if all(parts) else 0
        return 0

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        found: list[Detection] = []
        for m in _RUN.finditer(text):
            detection = self._judge(text, m.start(), m.group())
            if detection is not None:
                found.append(detection)
        return found

    def _judge(self, text: str, start: int, run: str) -> Detection | None:
        tokens = [(t.start() + start, t.group()) for t in _TOKEN.finditer(run)]
        before = text[max(0, start - 40):start]
        if before.endswith("&") or before.rstrip().endswith("&"):
            return None
        # Leading words that are not the name: a title or greeting (which says a
        # person follows), or any other capitalised word before the first given name.
        context = 0.0
        if _TITLE_BEFORE.search(before):
            context = 0.9
        elif _GREETING_BEFORE.search(before) or _LABEL.search(before):
            context = 0.85
        first = 0
        while first < len(tokens):
            word = tokens[first][1]
            if word in TITLES:
                context = 0.9
            elif word in GREETINGS:
                context = max(context, 0.85)
            elif word in NOT_BEFORE:
                return None
            elif word in STOP or (word[0].islower()):
                pass
            else:
                break
            first += 1
        if first and tokens[first - 1][1] in NOT_BEFORE:
            return None
        # Skip capitalised words until the first given name, unless context says the
        # run itself is the name (after a title: ``Herr Müller``).
        if not context:
            while first < len(tokens) and not self._is_given(tokens[first][1]):
                if tokens[first][1] in NOT_BEFORE:
                    return None
                first += 1
        # Trailing words that are not the name.
        last = len(tokens)
        while last > first and (tokens[last - 1][1] in STOP or tokens[last - 1][1][0].islower()):
            last -= 1
        if last <= first:
            return None
        words = [w for _, w in tokens[first:last]]
        if any(w in ORGANISATION or w in STREET_AFTER for w in words):
            return None
        end = tokens[last - 1][0] + len(tokens[last - 1][1])
        after = text[end:end + 24]
        next_word = re.match(rf"[ \t]*(?:&|\+|und|and|et|y)?[ \t]*({_CAP}|GmbH|AG|SA|SL|SE|KG|"
                             rf"UG|SAS|SARL|LLC|PLC|plc|e\.V\.)", after)
        if next_word is not None:
            nxt = next_word.group(1)
            if nxt in ORGANISATION or nxt in STREET_AFTER or after.lstrip().startswith("&"):
                return None
        name_start = tokens[first][0]
        given = self._is_given(words[0])
        line_start = text.rfind("\n", 0, name_start) + 1
        lead = text[line_start:name_start]
        score = context
        if not score:
            if not lead.strip(" \t-–—>*") and self._signs(text, line_start, end):
                score = 0.85
            elif re.search(r"[,;][ \t]*$", lead) and _SIGN_OFF.search(lead.rstrip(" \t,;")):
                score = 0.85
            elif _EMAIL_AFTER.match(text, end):
                score = 0.85
        if not score:
            if not given:
                return None
            if len(words) >= 2 and not words[-1].endswith("."):
                score = 0.9
            else:
                score = self._alone(text, name_start, words[0], given)
                if not score:
                    return None
        return Detection("name", name_start, end, score, self.name, text[name_start:end])

    def _signs(self, text: str, line_start: int, end: int) -> bool:
        """Whether the run ending at ``end`` is the whole of its line (but for
        punctuation) and the line before it is a sign-off: a signature."""
        rest = text[end:text.find("\n", end) if "\n" in text[end:] else len(text)]
        if rest.strip(" \t.,;:!|-–—") and not rest.lstrip().startswith(("|", ",", "-", "–", "(")):
            return False
        prev_end = line_start - 1
        if prev_end <= 0:
            return False
        prev_start = text.rfind("\n", 0, prev_end) + 1
        previous = text[prev_start:prev_end]
        if not previous.strip() and prev_start > 0:  # one blank line between
            prev_end = prev_start - 1
            prev_start = text.rfind("\n", 0, prev_end) + 1
            previous = text[prev_start:prev_end]
        return bool(_SIGN_OFF.search(previous.strip()[-40:]))

    def _alone(self, text: str, start: int, word: str, given: int) -> float:
        """The score of a given name standing alone (0: not taken as a name)."""
        before = text[max(0, start - 16):start]
        if _PLACE_BEFORE.search(before):
            return 0.0
        at_start = not before.strip() or before.rstrip()[-1:] in ".!?:;\n\"“«(-•*"
        if given < (ALONE_AT_START if at_start else ALONE):
            return 0.0
        return 0.7
