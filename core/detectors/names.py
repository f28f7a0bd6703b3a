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
    rf"(?<![\w#/\\.+=&-])(?:{_CAP})(?:[ \t](?:{_PARTICLE}[ \t]){{0,2}}(?:{_CAP}|{_INITIAL}))*"
    rf"(?![\w@]|\.\w|['’][a-rt-z])")
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
#: Words after which a (family) name follows, in lower case: married and birth names.
NAME_BEFORE = _words("épouse née né veuve geborene geb verheiratete verh viuda nee")
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
    r"responsable|beneficiario|asunto de)(?:[ \t][\w.]+){0,3}[ \t]?[:=][ \t]*[\"'«]?[ \t]*$")
#: Words that are never (the start of) a name, compared in lower case: the four
#: languages' function words (pronouns, articles, prepositions, conjunctions, common
#: verbs and adverbs that start sentences), days, months and their abbreviations, and
#: words for a group of people. The given-name dictionary holds many of them as names
#: somewhere (``To``, ``Son``, ``Can``, ``Il``, ``Mi``).
STOP = _words("""
    i the this that these those we you he she it they my our your his her their a an
    and or but if so yes no ok okay please also then when where what who why how here
    there today tomorrow yesterday to can is in on at by of for as am be do go me us up
    oh not all any are was were has had have will would could should may might must
    shall let get got see say new old big top per via yet one two due just only still
    even well now hey dear thanks thank hello hi hmm btw fyi re fwd cc asap pls
    ich du er wir ihr sie es mein meine dein deine sein seine unser unsere euer der die
    das den dem des ein eine einen einem einer und oder aber wenn weil dass mit von bei
    nach aus für über unter vor hinter neben ist sind war hat haben wird werden kann
    können muss soll bitte danke ja nein auch noch schon nur sehr hier dort heute
    morgen gestern kein keine alle viele gut am im zum zur vom beim anbei leider
    je tu il elle nous vous ils elles moi toi lui eux le la les un une et ou mais donc
    car que qui quoi est sont ont des aux ces ses mes tes nos vos leur son sa mon ma si
    se ne y
    ton ta notre votre pas plus tout tous toute toutes bien très ici voici voilà
    avec pour dans sur sous par chez sans ce cet cette en au du veuillez merci oui non
    aujourd demain hier salut bonjour bonsoir cordialement
    yo él ella ellos ellas usted ustedes nosotros el los las una unos unas del por
    para con sin sobre entre pero como más mas muy todo toda todos todas hay ser estar
    esta este esto ese esa eso aquí ahí mi su sus mis tus nuestro nuestra vuestro
    qué cuando donde sí hoy mañana ayer hola gracias saludos
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur
    thurs fri sat sun january february march april may june july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec
    montag dienstag mittwoch donnerstag freitag samstag sonntag januar jänner februar
    märz mai juni juli oktober dezember mo di mi do fr sa so
    lundi mardi mercredi jeudi vendredi samedi dimanche janvier février mars avril
    juin juillet août septembre octobre novembre décembre
    lunes martes miércoles jueves viernes sábado domingo enero febrero marzo abril
    mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
    team support everyone all folks guys sir madam customer service staff admin
    zusammen leute kollegen kolleginnen kundenservice kunde grüße gruß team
    équipe tous toutes service client clients
    equipo todos señores""")
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
    r"(?:\b(?:in|nach|aus|from|à|en|près de|cerca de|desde|hacia|vers|im|near|via|"
    r"über)\s+$)")
_TITLE_BEFORE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Sra|Srta|Dra|Mme|Mmes|Mlle|Pr|Lic|Ing|Dña|Hr|Fr|"
    r"Rev|Capt|Sgt|Dipl\.-Ing)\.?|(?<!\w)M\.|(?<!\w)MM\.|(?<!\w)D\.|(?<!\w)Dª|"
    r"(?i:\b(?:épouse|née?|veuve|geborene|geb\.|verh\.|viuda de)))"
    r"(?:\s+(?:Dr|Prof|Dra|Ing)\.?)*\s+$")
#: A greeting right before the name (``Hi Anna``; after a comma only a given name:
#: ``Bonjour, Veuillez`` starts a sentence).
_GREETING_BEFORE = re.compile(
    r"(?i)\b(?:hi|hello|hey|dear|hallo|liebe[rs]?|moin|servus|bonjour|bonsoir|salut|"
    r"coucou|ch[èe]re?s?|hola|querid[oa]s?|estimad[oa]s?|buen[oa]s (?:días|tardes|noches)|"
    r"thanks|thank you|danke|merci|gracias|sehr geehrte[rs]?(?: (?:herr|frau))?|"
    r"guten (?:tag|morgen|abend))[ \t]*(,?)[ \t]*$")
#: Places and organisations named after a saint: ``St. Mary's``, ``Ste-Anne``.
_SAINT_BEFORE = re.compile(r"\b(?:St|Ste|Sto|Sta|S)\.?[ \t-]?$")
_EMAIL_AFTER = re.compile(r"[ \t]*[<(\[][^\s<>@]+@")
#: A word after the run: an organisation's legal form, a street's type.
_NEXT_WORD = re.compile(r"(?:['’]s)?[ \t]*(?:&|\+|und|and|et|y)?[ \t]*([\w.]+)")
#: A run of capitals (``AMELIA ROSE THORNTON``, ``Nom : VASSEUR``).
_CAPS_RUN = re.compile(
    rf"(?<![\w#/\\.+=&@-])[{_UP}]{{2,}}(?:['’-][{_UP}]+)*(?:[ \t][{_UP}]{{2,}}(?:['’-][{_UP}]+)*){{0,3}}"
    rf"(?![\w@-])")

#: How common (1 to 13, ``first_names``) a given name must be to be taken alone,
#: without a family name or a context that says a person is meant.
ALONE = 4


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
        """How common ``token`` is as a given name (0: not one, or a function word); a
        hyphenated name counts when each of its parts is one (``Marie-Claire``)."""
        if token.lower() in STOP:
            return 0
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
        if any(c.isupper() and text[i + 1:i + 2].isupper() for i, c in enumerate(text[:-1])
               ) if len(text) < 200 else _CAPS_RUN.search(text):
            found.extend(self._capitals(text))
        return found

    def _capitals(self, text: str) -> list[Detection]:
        """Names written in capitals: a family name after a field label (``Nom :
        VASSEUR``), or a given name and a family name (``AMELIA ROSE THORNTON``)."""
        found: list[Detection] = []
        for m in _CAPS_RUN.finditer(text):
            words = m.group().split()
            if any(w.lower() in STOP or w in ORGANISATION or w.capitalize() in ORGANISATION
                   for w in words):
                continue
            labelled = _LABEL.search(text, max(0, m.start() - 40), m.start())
            if labelled is not None and labelled.end() == m.start():
                score = 0.85
            elif (len(words) >= 2 and self._is_given(words[0].capitalize()) >= ALONE
                  and _gazetteers.fold_name(words[-1]) in self._surnames):
                score = 0.85
            else:
                continue
            found.append(Detection("name", m.start(), m.end(), score, self.name, m.group()))
        return found

    def _judge(self, text: str, start: int, run: str) -> Detection | None:
        tokens = [(t.start() + start, t.group()) for t in _TOKEN.finditer(run)]
        before = text[max(0, start - 40):start]
        mention = before.endswith("@")
        if before.rstrip().endswith("&") or _SAINT_BEFORE.search(before):
            return None
        # Leading words that are not the name: a title or greeting (which says a
        # person follows), or any other capitalised word before the first given name.
        context = 0.0
        greeting = _GREETING_BEFORE.search(before)
        if _TITLE_BEFORE.search(before):
            context = 0.9
        elif greeting is not None and not greeting.group(1):
            context = 0.85
        elif _LABEL.search(before):
            context = 0.85
        first = 0
        while first < len(tokens):
            word = tokens[first][1]
            if word in TITLES or word.lower() in NAME_BEFORE:
                context = 0.9
            elif word in GREETINGS:
                context = max(context, 0.85)
            elif word in NOT_BEFORE:
                return None
            elif word.lower() in STOP or word[0].islower():
                pass
            else:
                break
            first += 1
        if (not context and len(tokens) == 1 and start > 0 and text[start - 1] == ","
                and text.startswith(",", start + len(run)) and self._field_before(text, start)):
            context = 0.8  # a family name after a given name in a CSV row
        # Skip capitalised words until the first given name, unless context says the
        # run itself is the name (after a title: ``Herr Müller``).
        if not context:
            while first < len(tokens) and not self._is_given(tokens[first][1]):
                if tokens[first][1] in NOT_BEFORE:
                    return None
                first += 1
        # Trailing words that are not the name.
        last = len(tokens)
        while last > first and (tokens[last - 1][1].lower() in STOP
                                or tokens[last - 1][1][0].islower()):
            last -= 1
        if last <= first:
            return None
        words = [w for _, w in tokens[first:last]]
        if any(w in ORGANISATION or w in STREET_AFTER for w in words):
            return None
        end = tokens[last - 1][0] + len(tokens[last - 1][1])
        nxt = _NEXT_WORD.match(text, end, end + 30)
        if nxt is not None:
            word = nxt.group(1).rstrip(".")
            if (word in ORGANISATION or word in STREET_AFTER
                    or text[end:nxt.start(1)].strip() in ("&", "+")):
                return None
        name_start = tokens[first][0]
        given = self._is_given(words[0])
        line_start = text.rfind("\n", 0, name_start) + 1
        lead = text[line_start:name_start]
        score = context
        if not score:
            if not lead.strip(" \t-–—>*•") and self._signs(text, line_start, end):
                score = 0.85
            elif re.search(r"[,;][ \t]*$", lead) and _SIGN_OFF.search(lead.rstrip(" \t,;")):
                score = 0.85
            elif _EMAIL_AFTER.match(text, end):
                score = 0.85
            elif given and text.startswith(":", end):
                score = 0.85  # a speaker: "Erwan: the wallet for ..."
            elif given and greeting is not None:
                score = 0.85  # "Hola, Carlos"
        if re.match(r"[ \t]*[a-z]*[ \t]?:(?!//)", text[end:end + 16]) and not given:
            return None  # a field's label itself: "Account name:"
        if not score:
            if not given:
                return None
            elif len(words) >= 2 and not words[-1].endswith("."):
                score = 0.9
            elif mention:
                return None
            else:
                if not self._alone(text, name_start, given):
                    return None
                score = 0.7
                comma = re.search(rf"({_CAP}),[ \t]*$", text[max(0, name_start - 40):name_start])
                if comma is not None and all(_gazetteers.fold_name(part) in self._surnames
                                             for part in comma.group(1).split("-")):
                    # "Whitaker, Joan": the family name first
                    name_start -= len(text[max(0, name_start - 40):name_start]) - comma.start()
                    score = 0.8
        if mention and len(words) < 2:
            return None
        return Detection("name", name_start, end, score, self.name, text[name_start:end])

    def _field_before(self, text: str, start: int) -> bool:
        """Whether the comma-separated field before ``start`` is a given name."""
        field_start = max(text.rfind(",", 0, start - 1), text.rfind("\n", 0, start - 1)) + 1
        return self._is_given(text[field_start:start - 1]) > 0

    def _signs(self, text: str, line_start: int, end: int) -> bool:
        """Whether the run ending at ``end`` is the whole of its line (but for
        punctuation) and the line before it is a sign-off: a signature."""
        line_end = text.find("\n", end)
        rest = text[end:line_end if line_end >= 0 else len(text)]
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

    def _alone(self, text: str, start: int, given: int) -> bool:
        """Whether a given name standing alone is taken as a name."""
        before = text[max(0, start - 16):start]
        if _PLACE_BEFORE.search(before):
            return False
        return given >= ALONE
