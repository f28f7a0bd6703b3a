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
_CAP_WORD = re.compile(_CAP)
_TOKEN = re.compile(rf"{_CAP}|{_INITIAL}|{_PARTICLE}")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Titles and salutations: the name follows (they are not part of it).
TITLES = _words("""
    Mr Mrs Ms Miss Mx Sir Dame Lord Lady Dr Prof Professor Doctor Rev Capt Sgt
    Herr Herrn Frau Fräulein Fr Hr Dipl Ing Doktor Kollege Kollegin Familie
    M MM Mme Mmes Mlle Mlles Monsieur Madame Mademoiselle Maître Docteur Professeur Pr
    Famille Sr Sra Srta Señor Señora Señorita Don Doña Dña Dra Lic Profesor Profesora
    Familia Eheleute Ehepaar Ehefrau Ehemann Witwe Witwer Dres""")
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
#: The last words of the sign-offs.
_SIGN_OFF_ENDS = _words("""regards best cheers thanks you thx sincerely yours greetings love
    grüße grüsse gruesse grusse gruß gruss mfg lg vg danke bald ciao tschüss cordialement
    salutations amicalement bises vous toi merci bientôt saludos saludo atentamente
    cordialmente gracias abrazo besos pronto""")
#: Field labels: a name follows.
LABELS = frozenset(label.replace("_", " ") for label in """
    name full_name first_name last_name surname contact from to cc bcc attn attention
    signed signature assignee reporter owner author requester requested_by customer
    client patient tenant landlord employee user agent manager applicant candidate
    sender recipient account_holder holder beneficiary guest passenger driver witness
    emergency_contact contact_person
    vorname nachname kontakt von an kunde kundin absender empfänger mieter mieterin
    vermieter ansprechpartner ansprechpartnerin mitarbeiter mitarbeiterin inhaber
    kontoinhaber unterschrift bearbeiter bewerber bewerberin patientin teilnehmer
    nom prénom nom_complet de à destinataire expéditeur titulaire locataire
    propriétaire signataire interlocuteur demandeur candidat candidate bénéficiaire
    nombre apellido apellidos nombre_completo para remitente destinatario titular
    paciente inquilino arrendador firmado firma solicitante empleado empleada contacto
    cliente usuario usuaria alumno alumna profesor doctor médico comercial técnico
    responsable beneficiario""".split())
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
    morgen gestern kein keine alle viele gut am im zum zur vom beim anbei leider bin
    bist seit andere anderen anderer alles etwas jetzt dann denn doch mal wie was wer
    wo warum ob zu als um gegen ohne durch hallo hi servus moin liebe lieber
    je tu il elle nous vous ils elles moi toi lui eux le la les un une et ou mais donc
    car que qui quoi est sont ont des aux ces ses mes tes nos vos leur son sa mon ma si
    se ne y
    ton ta notre votre pas plus tout tous toute toutes bien très ici voici voilà
    avec pour dans sur sous par chez sans ce cet cette en au du veuillez merci oui non
    aujourd demain hier salut bonjour bonsoir cordialement
    yo él ella ellos ellas usted ustedes nosotros el los las una unos unas del por
    para con sin sobre entre pero como más mas muy todo toda todos todas hay ser estar
    esta este esto ese esa eso aquí ahí mi su sus mis tus nuestro nuestra vuestro
    qué cuando donde sí hoy mañana ayer hola gracias saludos ya de en al lo le se me te
    nos os también aún está están son era fue tengo tiene buenas buenos alguien nadie
    algo quien
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
    Gymnasium Lycée Collège Colegio Realschule Grundschule Hochschule Akademie Academy
    S.L S.A S.L.U S.A.U S.A.S S.C S.C.P S.à Sàrl GmbH.""")
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
    Cabo Villa Puerto Isla Île Lago Monte Sierra Rúa Rua Largo Travessa Praça Carrer""")
#: Street words after a run: the run names the street (``Martin Luther King Blvd``).
STREET_AFTER = _words("""
    Street St Road Rd Avenue Ave Boulevard Blvd Lane Ln Drive Dr Way Place Pl Square
    Court Ct Terrace Close Crescent Parkway Highway Row Gardens Mews Grove Walk
    Straße Strasse Str Allee Platz Weg Gasse Ring Damm Ufer Chaussee""")
#: Words that make a run no person's name, wherever in it: ``ORGANISATION``, ``STREET_AFTER``.
_NOT_NAMES = ORGANISATION | STREET_AFTER
#: Prepositions after which a lone given name is a place (``nach Paris``, ``à Florence``).
_PLACE_WORDS = _words("in nach aus from à en vers hacia desde near via über im")
#: Articles: after one a common noun follows, not a name (``im Anhang``, ``la Rose``).
_ARTICLES = _words("""the a an im am vom zum zur beim der die das dem den des ein eine einen
    einem einer le la les un une du au aux el los las una del al""")
#: The last words of the patterns below, which are tried only after one of them.
_TITLE_ENDS = _words("""mr mrs ms mx dr prof sr sra srta dra mme mmes mlle pr lic ing dña hr
    fr rev capt sgt dipl.-ing épouse née né veuve geborene geb verh de""")
_GREETING_ENDS = _words("""hi hello hey dear hallo liebe lieber liebes moin servus bonjour
    bonsoir salut coucou cher chère chers chères hola querido querida queridos queridas
    estimado estimada estimados estimadas días tardes noches thanks you danke merci
    gracias geehrte geehrter geehrtes herr frau tag morgen abend""")
_CALLED_ENDS = _words("""is am i'm ich bin heiße ist spricht heißt m'appelle suis c'est
    s'appelle llamo es soy llama habla called named genannt nommé nommée llamado
    llamada""")
#: Saints: places and organisations named after one (``St. Mary's Hospital``).
_SAINTS = _words("St St. Ste Ste. Sto. Sta. S.")
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
#: Words that introduce a person by name: ``my name is``, ``ich heiße``, ``se llama``.
_CALLED = re.compile(
    r"(?i)\b(?:my name is|name is|i am|i'm|this is|ich heiße|ich bin|mein name ist|"
    r"hier ist|hier spricht|heißt|je m'appelle|je suis|moi c'est|c'est|s'appelle|"
    r"me llamo|mi nombre es|soy|se llama|habla|called|named|genannt|nommée?|llamad[oa])"
    r"[ \t]+$")
#: What may start a line before a speaker's name: a time stamp, a bullet.
_SPEAKER_LEAD = re.compile(r"^[ \t]*(?:\[[^\]\n]{1,30}\][ \t]*|[-–—>*•][ \t]*)*")
_EMAIL_AFTER = re.compile(r"[ \t]*[<(\[][^\s<>@]+@")
_EMAIL_OPENS = frozenset(" \t<([")  # (the characters it can start with)
#: A word after the run: an organisation's legal form, a street's type.
_NEXT_WORD = re.compile(r"(?:['’]s)?[ \t]*,?[ \t]*(?:&|\+|und|and|et|y|e|i)?[ \t]*([\w.]+)")
#: A run of capitals (``AMELIA ROSE THORNTON``, ``Nom : VASSEUR``).
_CAPS_RUN = re.compile(
    rf"(?<![\w#/\\.+=&@-])[{_UP}]{{2,}}(?:['’-][{_UP}]+)*(?:[ \t][{_UP}]{{2,}}(?:['’-][{_UP}]+)*){{0,3}}"
    rf"(?![\w@-])")

#: A given name after a family name and a comma, in a field (``Okonjo, Emeka``).
_GIVEN_AFTER = re.compile(rf",[ \t]*({_CAP})(?=[\"'»”\n;]|$)")
#: What makes a run a field's label (``Account name:``), read right after it.
_LABEL_AFTER = re.compile(r"[ \t]*[a-z]*[ \t]?:(?!//)")
#: The characters a text that ends with a label ends with (``_labelled``).
_LABEL_TAIL = frozenset(" \t\"'«“„:=")

#: How far around a run its line is read (a signature's line, a sign-off before it).
_LEAD = 80
#: The longest field of a row that is read as a given name before a family name.
_FIELD = 64
#: The characters before and after a run that its verdict reads, at most: its line
#: and the two before it (a sign-off, a blank line), and after it a given name, a
#: label, the rest of its line; how many runs' verdicts a detector remembers, and
#: after how many runs in a row it had not seen a text stops looking them up (a text
#: of names that do not repeat, where keeping them would cost a sixth more).
_READS_BEFORE, _READS_AFTER = 3 * (_LEAD + 1) + 2, _LEAD + 16
_MEMO_SIZE, _MEMO_TRIES = 4096, 64
#: The verdict kept for a run that holds no name (an empty span).
_NO_NAME = (0, 0, 0.0)

#: How common (1 to 13, ``first_names``) a given name must be to be taken alone,
#: without a family name or a context that says a person is meant.
ALONE = 4

#: What a word is (``NameDetector._kind``, ``._before_kind``), as bits: how common a
#: given name it is (the low four bits, 0 to 13), a title, a greeting, a word that
#: makes the run a place's or an organisation's, a function word or one in lower case,
#: a word that makes the run no person's name, a word that "my name is" ends in.
_GIVEN, _TITLE, _GREETS, _PLACE, _SKIP, _NOT_NAME, _CALLS = 15, 16, 32, 64, 128, 256, 512


def _labelled(before: str) -> bool:
    """Whether ``before`` ends with a field's label and ``:`` or ``=`` (and a quote):
    one of ``LABELS`` and at most three words more (``Name on ID:``, ``name="``)."""
    if before[-1:] not in _LABEL_TAIL or (":" not in before and "=" not in before):
        return False
    head = before.rstrip(" \t\"'«“„")
    if head[-1:] not in (":", "="):
        return False
    head = head[:-1]
    cut = max(head.rfind("\n"), head.rfind(";"), head.rfind("|"), head.rfind("("),
              head.rfind("["))
    words = head[cut + 1:].lower().split()[-5:]
    n = len(words)
    return any(" ".join(words[i:j]) in LABELS
               for i in range(max(0, n - 5), n) for j in range(i + 1, min(n, i + 3) + 1)
               if n - j <= 3)


def _signed_off(text: str) -> bool:
    """Whether ``text`` ends with a sign-off (``Best regards``, ``Viele Grüße``)."""
    return (_last_word(text).lower().rstrip("!.,") in _SIGN_OFF_ENDS
            and _SIGN_OFF.search(text) is not None)


def _last_word(before: str) -> str:
    """The last word of ``before`` (what precedes a run), as written."""
    stripped = before.rstrip()
    cut = max(stripped.rfind(" "), stripped.rfind("\n"), stripped.rfind("\t"))
    return stripped[cut + 1:]


class NameDetector:
    """People's names (type ``name``): given names from ``gender-guesser``'s
    dictionary, titles, greetings, sign-offs and field labels in English, German,
    French and Spanish (see the module). Needs ``pip install 'tripwire[names]'``."""

    name = "name"
    types = ("name",)
    # a name (up to six words) and the context before it: a title, a greeting, a label
    max_length = 100
    #: Before a run: its line and the two lines before it (a sign-off above a
    #: signature), as ``detect`` reads them.
    lookbehind = _READS_BEFORE

    def __init__(self) -> None:
        _gazetteers.require("the name detector")
        self._given = _gazetteers.first_names()
        self._surnames = _gazetteers.surnames()
        # Each run's verdict, by the characters it reads (``detect``): a text of the
        # same names again and again, or a stream's text searched again, judges each
        # once.
        self._memo: dict[tuple[int, int, str], tuple[int, int, float]] = {}
        # What each word is, by the word (``_kind``, ``_before_kind``,
        # ``_family_first``): a text of names that do not repeat still repeats its
        # words, and one lookup answers every question a run asks of a word.
        self._kinds: dict[str, int] = {}
        self._before_kinds: dict[str, int] = {}
        self._family_of: dict[str, tuple[int, int]] = {}
        self._sign_off_ends: dict[str, bool] = {}

    def _kind(self, token: str) -> int:
        """What ``token`` (a word of a run) is, as bits: how common it is as a given
        name (``_GIVEN``: 0 for none or a function word; a hyphenated name counts when
        each of its parts is one, ``Marie-Claire``), and whether it is a title or a
        birth-name word, a greeting, a word that makes the run a place's or an
        organisation's, a function word or a word in lower case, a word that makes
        the run no person's name."""
        kind = self._kinds.get(token)
        if kind is not None:
            return kind
        low = token.lower()
        kind = 0
        if low not in STOP:
            given = self._given
            found = given.get(token)
            if found is not None:
                kind = found
            elif "-" in token:
                parts = [given.get(p, 0) for p in token.split("-")]
                kind = min(parts) if all(parts) else 0
        else:
            kind |= _SKIP
        if token in TITLES or low in NAME_BEFORE:
            kind |= _TITLE
        if token in GREETINGS:
            kind |= _GREETS
        if token in NOT_BEFORE:
            kind |= _PLACE
        if token[:1].islower():
            kind |= _SKIP
        if token in _NOT_NAMES:
            kind |= _NOT_NAME
        if len(self._kinds) >= _MEMO_SIZE:
            self._kinds.clear()
        self._kinds[token] = kind
        return kind

    def _is_given(self, token: str) -> int:
        """How common ``token`` is as a given name (0: not one, or a function word)."""
        return self._kind(token) & _GIVEN

    def _before_kind(self, word: str) -> int:
        """What the last word before a run (``word``, as written) says of it, as bits:
        that the run is a place's, a street's or an organisation's name (``&``, a
        saint, ``Rue``, ``Hotel``), or that a greeting, a title or "my name is" may end
        there (tried then in full)."""
        kind = self._before_kinds.get(word)
        if kind is None:
            kind = 0
            if word.endswith("&") or word in _SAINTS or word in NOT_BEFORE:
                kind |= _PLACE
            low = word.lower().rstrip(",")
            if low in _GREETING_ENDS:
                kind |= _GREETS
            if low.rstrip(".") in _TITLE_ENDS or word in ("M.", "MM.", "D.", "Dª"):
                kind |= _TITLE
            if low in _CALLED_ENDS:
                kind |= _CALLS
            if len(self._before_kinds) >= _MEMO_SIZE:
                self._before_kinds.clear()
            self._before_kinds[word] = kind
        return kind

    def _comma_after_sign_off(self, lead: str, word: str = "") -> bool:
        """Whether ``lead`` (the text before a run on its line) ends with a sign-off, a
        comma or semicolon and spaces (``Un saludo, Luismi``); ``word``, when given
        (not empty, not ending in white space), is the sign-off's last word. Whether a
        word ends a sign-off is kept by the word."""
        text = ""
        if not word or word[-1].isspace():
            text = lead.rstrip(" \t,;")
            word = _last_word(text)
        ends = self._sign_off_ends.get(word)
        if ends is None:
            ends = word.lower().rstrip("!.,") in _SIGN_OFF_ENDS
            if len(self._sign_off_ends) >= _MEMO_SIZE:
                self._sign_off_ends.clear()
            self._sign_off_ends[word] = ends
        return ends and _SIGN_OFF.search(text or lead.rstrip(" \t,;")) is not None

    def _family_first(self, word: str) -> tuple[int, int]:
        """Whether the end of ``word`` (the word before a comma and a given name, after
        its last ``,``, ``;`` or quote) may be the family name written first
        (``Whitaker, Joan``): its length, and 0 if not (none, not a capitalised word, a
        function word, a greeting or a sign-off), 2 if it is a family name of the
        census table (each part of it when hyphenated: ``Smith-Jones``), else 1 (one in
        a field's value)."""
        known = self._family_of.get(word)
        if known is None:
            family = word[max(word.rfind(","), word.rfind(";"), word.rfind("\""),
                              word.rfind("'")) + 1:]
            first = 0
            if (family and _CAP_WORD.fullmatch(family) and family.lower() not in STOP
                    and family not in GREETINGS and not _signed_off(family)):
                first = 1 + all(_gazetteers.fold_name(part) in self._surnames
                                for part in family.split("-"))
            known = (len(family), first)
            if len(self._family_of) >= _MEMO_SIZE:
                self._family_of.clear()
            self._family_of[word] = known
        return known

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        return self._find(text, 0)

    @_views.reads_folded
    def detect_from(self, text: str, since: int) -> Iterable[Detection]:
        """The names that may start at ``since`` or after (what a stream's search asks,
        ``tripwire.guards.incremental``): only the runs that end after it are judged,
        each reading the text before it as ``detect`` does. A name starts within its
        run or before it, so one in a run that ends before ``since`` starts before
        ``since`` too."""
        return self._find(text, since)

    def _find(self, text: str, since: int) -> list[Detection]:
        """The names in the runs of ``text`` that end after ``since``."""
        found: list[Detection] = []
        memo = self._memo
        name = self.name
        misses = 0  # (runs in a row not seen before: past _MEMO_TRIES, none is kept)
        for m in _RUN.finditer(text):
            start, end = m.span()
            if end <= since:
                continue
            if misses >= _MEMO_TRIES:
                detection = self._judge(text, start, m.group())
                if detection is not None:
                    found.append(detection)
                continue
            # A run's verdict reads no more than the characters around it that the key
            # holds (and where the text starts, when it starts within them).
            lo = max(0, start - _READS_BEFORE)
            key = (start - lo, end - start, text[lo:end + _READS_AFTER])
            known = memo.get(key)
            if known is None:
                misses += 1
                detection = self._judge(text, start, m.group())
                if len(memo) >= _MEMO_SIZE:
                    memo.clear()
                if detection is None:
                    memo[key] = _NO_NAME
                else:
                    memo[key] = (detection.start - start, detection.end - start, detection.score)
                    found.append(detection)
                continue
            misses = 0
            a, b, score = known
            if b > a:
                found.append(Detection("name", start + a, start + b, score, name,
                                       text[start + a:start + b]))
        if any(c.isupper() and text[i + 1:i + 2].isupper() for i, c in enumerate(text[:-1])
               ) if len(text) < 200 else _CAPS_RUN.search(text):
            found.extend(self._capitals(text, since))
        return found

    def _capitals(self, text: str, since: int) -> list[Detection]:
        """Names written in capitals (in the runs that end after ``since``): a family
        name after a field label (``Nom : VASSEUR``), or a given name and a family name
        (``AMELIA ROSE THORNTON``)."""
        found: list[Detection] = []
        for m in _CAPS_RUN.finditer(text):
            if m.end() <= since:
                continue
            words = m.group().split()
            if any(w.lower() in STOP or w in ORGANISATION or w.capitalize() in ORGANISATION
                   for w in words):
                continue
            labelled = _labelled(text[max(0, m.start() - 40):m.start()])
            known = (self._is_given(words[0].capitalize())
                     or _gazetteers.fold_name(words[-1]) in self._surnames)
            if labelled and known:
                score = 0.85
            elif (len(words) >= 2 and self._is_given(words[0].capitalize()) >= ALONE
                  and _gazetteers.fold_name(words[-1]) in self._surnames):
                score = 0.85
            else:
                continue
            found.append(Detection("name", m.start(), m.end(), score, self.name, m.group()))
        return found

    def _judge(self, text: str, start: int, run: str) -> Detection | None:
        """The name in the run of capitalised words ``run`` at ``start``, or ``None``."""
        one = " " not in run and "\t" not in run
        if one:
            # (one word: no leading or trailing words to leave out)
            seen = self._kinds.get(run)
            k = self._kind(run) if seen is None else seen
            if k & (_TITLE | _GREETS | _PLACE | _SKIP):
                return None  # a title, a greeting, a place's word or a function word alone
            tokens = [(start, run)]
            kinds = [k]
        else:
            tokens = [(t.start() + start, t.group()) for t in _TOKEN.finditer(run)]
            kinds = [self._kind(w) for _, w in tokens]
        before = text[max(0, start - 40):start]
        mention = before.endswith("@")
        stripped = before.rstrip()
        cut = max(stripped.rfind(" "), stripped.rfind("\n"), stripped.rfind("\t"))
        word_before = stripped[cut + 1:]
        said = self._before_kinds.get(word_before)
        if said is None:
            said = self._before_kind(word_before)
        if said & _PLACE:
            return None  # an organisation's, a place's or a street's name
        # What the text before says: a title, a greeting, a field label, "my name is"
        # (each pattern is tried only when the last word before could end it).
        context = 0.0
        titled = False
        greeting = _GREETING_BEFORE.search(before) if said & _GREETS else None
        labelled = (":" in before or "=" in before) and _labelled(before)
        if said & _TITLE and _TITLE_BEFORE.search(before):
            context, titled = 0.9, True
        elif (greeting is not None and not greeting.group(1)) or labelled:
            context = 0.85
        elif said & _CALLS and _CALLED.search(before):
            context = 0.85
        first = 0
        last = len(tokens)
        if one:
            end = start + len(run)
        else:
            # Leading words that are not the name: titles and greetings (which say a
            # person follows), function words.
            while first < last:
                k = kinds[first]
                if k & _TITLE:
                    context, titled = 0.9, True
                elif k & _GREETS:
                    context = max(context, 0.85)
                elif k & _PLACE:
                    return None
                elif not k & _SKIP:
                    break
                first += 1
            # Trailing function words are not the name either.
            while last > first and kinds[last - 1] & _SKIP:
                last -= 1
            if last <= first:
                return None
            end = tokens[last - 1][0] + len(tokens[last - 1][1])
        # What precedes the run on its line (at most _LEAD characters of it).
        at = start if one else tokens[first][0]
        newline = text.rfind("\n", max(0, at - _LEAD), at)
        line_start = newline + 1 if newline >= 0 or at <= _LEAD else -1
        lead = text[max(0, line_start, at - _LEAD):at]
        if not context:
            if line_start >= 0 and not lead.strip(" \t-–—>*•") and self._signs(
                    text, line_start, end):
                context = 0.85  # a signature under a sign-off
            elif lead.rstrip(" \t")[-1:] in (",", ";") and self._comma_after_sign_off(
                    lead,
                    # (the word before the comma, when it is the last word before the run)
                    word_before.rstrip(",;") if first == 0 and cut >= 0 else ""):
                context = 0.85  # "Un saludo, Luismi"
            elif text[end:end + 1] in _EMAIL_OPENS and _EMAIL_AFTER.match(
                    text, end, end + _LEAD) and (last - first > 1 or kinds[first] & _GIVEN):
                context = 0.85  # "Anna Schmidt <anna@...>"
            elif (len(tokens) == 1 and start > 0 and text[start - 1] in ",;"
                  and text.startswith(text[start - 1], end) and self._field_before(text, start)):
                context = 0.8  # a family name after a given name in a CSV row
        # Without such a context the name starts at the first given name.
        if one:
            if not (context or k & _GIVEN) or k & _NOT_NAME:
                return None
        else:
            if not context:
                while first < last and not kinds[first] & _GIVEN:
                    if kinds[first] & _PLACE:
                        return None
                    first += 1
                if first == last:
                    return None
            for k in kinds[first:last]:
                if k & _NOT_NAME:
                    return None
        nxt = _NEXT_WORD.match(text, end, end + 30)
        if nxt is not None:
            word = nxt.group(1).rstrip(".")
            if (word in _NOT_NAMES
                    or text[end:nxt.start(1)].strip() in ("&", "+")):
                return None
        name_start = start if one else tokens[first][0]
        given = kinds[first] & _GIVEN
        if context and labelled:
            # "Okonjo, Emeka" in a field: the family name first, then the given name
            given_after = _GIVEN_AFTER.match(text[end:end + 40])
            if given_after is not None:
                end += given_after.end()
        if not titled and text.find(":", end, end + 16) >= 0 and _LABEL_AFTER.match(
                text, end, end + 16) and not (
                given and line_start >= 0 and not _SPEAKER_LEAD.sub("", lead)):
            return None  # a field's label itself ("Account name:"), not a speaker ("Erwan:")
        score = context
        several = last - first >= 2
        if not score:
            if given and text.startswith(":", end):
                score = 0.85  # a speaker: "Erwan: the wallet for ..."
            elif given and greeting is not None:
                score = 0.85  # "Hola, Carlos"
            elif several and not tokens[last - 1][1].endswith("."):
                score = 0.9
            elif mention or given < ALONE:
                return None
            else:
                # a given name alone: not a place (``nach Paris``) nor a noun after an
                # article (``im Anhang``, ``la Rose``)
                if name_start == start:
                    # (the last word of the 16 characters before it)
                    room = 16 - (len(before) - len(stripped))
                    alone_after = word_before[-room:] if room > 0 else ""
                else:
                    alone_after = _last_word(text[max(0, name_start - 16):name_start])
                low = alone_after.lower()
                if low in _PLACE_WORDS or low in _ARTICLES:
                    return None
                score = 0.7
        if mention and not several:
            return None
        # The family name first: "Whitaker, Joan" (a census surname, or in a field).
        if given and not several:
            head = (before if name_start == start
                    else text[max(0, name_start - 40):name_start]).rstrip(" \t")
            if head.endswith(","):
                if (name_start == start and len(head) == len(stripped)
                        and len(word_before) > 1 and not word_before[-2].isspace()):
                    raw = word_before[:-1]  # (the same word: what precedes the comma)
                else:
                    raw = _last_word(head[:-1])
                known = self._family_of.get(raw)
                width, first_word = self._family_first(raw) if known is None else known
                at = len(head) - 1 - width  # (where the family name starts in head)
                if first_word == 2 or first_word and (":" in head or "=" in head) and _labelled(
                        head[:at]):
                    name_start = max(0, name_start - 40) + at
                    score = max(score, 0.8)
        return Detection("name", name_start, end, score, self.name, text[name_start:end])

    def _field_before(self, text: str, start: int) -> bool:
        """Whether the field before ``start`` (of a row separated by the character
        before it, ``,`` or ``;``) is a given name."""
        sep = text[start - 1]
        lo = max(0, start - 2 - _FIELD)
        cut = max(text.rfind(sep, lo, start - 1), text.rfind("\n", lo, start - 1))
        if cut < 0 and lo > 0:
            return False  # a field longer than a given name is
        return self._is_given(text[cut + 1:start - 1]) > 0

    def _signs(self, text: str, line_start: int, end: int) -> bool:
        """Whether the run ending at ``end`` is the whole of its line (but for
        punctuation) and the line before it is a sign-off: a signature."""
        line_end = text.find("\n", end, end + _LEAD)
        rest = text[end:line_end if line_end >= 0 else end + _LEAD]
        if rest.strip(" \t.,;:!|-–—") and not rest.lstrip().startswith(("|", ",", "-", "–", "(")):
            return False
        prev_end = line_start - 1
        if prev_end <= 0:
            return False
        previous = text[max(0, prev_end - _LEAD):prev_end]
        if not previous.strip() and prev_end > 0:  # one blank line between
            prev_end = text.rfind("\n", max(0, prev_end - _LEAD), prev_end)
            previous = text[max(0, prev_end - _LEAD):max(0, prev_end)]
        previous = previous[previous.rfind("\n") + 1:].strip()
        return bool(previous) and _signed_off(previous[-40:])
