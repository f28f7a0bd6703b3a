# German PII evaluation records, written by hand.
# Markup: [[type|value]] entity (phone: [[phone/AT|...]] gives the region, default DE),
#         {{kind|value}} hard negative, {{other=what it is|value}} for kind "other".
# Built and checked by build_pii_en_de.py.

RECORDS = [

# ---------------------------------------------------------------- chat (25)

("chat", r"""
Hey [[name|Jule]], hier ist [[name|Tobi]] 🙂 hab ne neue Nummer: [[phone|0176 48213390]]. Die alte kannst du löschen.
Bin jetzt übrigens in der [[address|Gneisenaustraße 41, 10961 Berlin]], 3. OG – komm gern mal vorbei!
"""),

("chat", r"""
DHL sagt Zustellung heute zwischen {{time|14:30}} und {{time|16:30}} 🙄 Sendungsnummer {{tracking-number|00340434161094042557}}
falls jemand zuhause ist, bitte aufmachen
"""),

("chat", r"""
[[name|Winter]] hat gesagt, er bringt den Beamer mit. Frau [[name|Sommer]] aus der Buchhaltung kommt auch 🙈
Treffpunkt [[address|Kaiserstraße 12, 60311 Frankfurt am Main]], {{time|18 Uhr}}
"""),

("chat", r"""
neuer Build auf Staging: {{version|5.3.0.12}} – kann jemand vor dem Daily um {{time|9:45}} kurz den Checkout testen?
"""),

("chat", r"""
Für die Hütte: jeder {{money|0,0035 BTC}} an [[crypto-wallet|bc1q394vp24txpwv5vwytpza2paypmucnjltx7wrur]] 🏔️
[[name|Maxi]] hat schon, [[name|Leonie]] überweist lieber an [[iban|DE55 2005 0550 2619 7279 00]] (Konto von [[name|Flo]])
"""),

("chat", r"""
Mama, für die Reiseversicherung brauch ich noch Papas Geburtsdatum – war das der [[date-of-birth|17.08.1956]]?
Und seine Handynummer ist noch [[phone|0171 2290417]] oder? Bezahlt hab ich mit meiner Amex [[credit-card|3707 725948 96025]], nicht wundern
"""),

("chat", r"""
{{handle|@here}} Achtung, jemand hat in #dev den Prod-Key gepostet 😬
[[api-key|sk-proj-oFsr1k0pBYCF7q4U5NF1-bfysRRpOCOrvVJQdIjtdRrDOUU_ZYLi3grqUnkwaxc9u2djJ8AHT3BlbkFJCRVHiObNVzC4SdeZMiGuSJ]]
ich rotiere den jetzt. [[name|Kerstin]], kannst du die Abrechnung checken? Und im Wiki steht der Grafana-Link mit Passwort drin: [[url-credentials|https://admin:Gr4f4na!Prod@monitoring.kornblume-software.de/d/latency]] 🤦
"""),

("chat", r"""
Schatz, bestellst du die Konzerttickets? Nimm meine Karte [[credit-card|5392 6915 2213 2084]], gültig bis {{date|08/28}}.
Lieferadresse ist die von deinen Eltern, [[address|Hauptstr. 58, 69117 Heidelberg]] 😘
"""),

("chat", r"""
Ferienwohnung ist [[address|Strandweg 7, 25999 Kampen]] 🏖️ Schlüssel im Kasten, Code {{other=Schlüsselkasten-Code|2580}}, Anreise ab {{time|15 Uhr}}
Vermieterin ist Frau [[name|Petersen]], Tel. [[phone|04651 983310]]. Inserat: [[url|https://www.fewo-direkt.de/ferienwohnung/8831207]]
"""),

("chat", r"""
{{handle|@kaffeetante}} hast du den Hotfix gepusht? Auf main seh ich nur {{hash|12319ba18cce39ab900bfbd2d0297200580c1429}}, der Key-Rotation-Commit fehlt
"""),

("chat", r"""
Guten Tag Frau [[name|Yılmaz]], hier [[name|Mario]] von {{organisation|Elektro Brandt}}. Wir sind ca. 20 Min. später, Stau auf der A3.
Erreichbar unter [[phone|+49 1523 8810274]]
"""),

("chat", r"""
Zinsangebot von der Bank: {{percentage|3,85 %}} fest auf 10 Jahre, Rate {{money|1.487,20 €}} 😬 ich warte noch auf das von der {{organisation|Sparda}}
"""),

("chat", r"""
Omas neue Adresse fürs Weihnachtspäckchen: [[address|Parkstraße 3, Zimmer 14, 88212 Ravensburg]] (Seniorenresidenz)
Und Onkel [[name|Ernst]] hat jetzt nur noch [[address|Postfach 11 02, 83471 Berchtesgaden]]
"""),

("chat", r"""
SNMP-Trap kommt von {{oid|1.3.6.1.4.1.2011.5.25.219.2.2.1}} – das ist der Huawei-Zweig, oder? ignorier ich erstmal
"""),

("chat", r"""
hab im Router nachgeschaut: das unbekannte Gerät ist [[ip-address|192.168.178.63]] (MAC {{other=MAC-Adresse|b8:27:eb:4c:19:a2}}). [[name|Jonas]] meint, das ist sein Raspberry 🙄
und von [[ip-address|2003:e2:7f1b:9a00:8d4c:21ff:fe3a:5b07]] versucht jemand auf die Fritzbox zu kommen. Der Miner auf dem NAS hat übrigens an [[crypto-wallet|La3VfDkWqM2y4TdfeDxy9HaaRXWthXp7ik]] ausgezahlt 😡
"""),

("chat", r"""
Alles Gute zum 40., [[name|Steffi]]!! 🥳 Laut Mama bist du am [[date-of-birth|3. Mai 1985]] um 5 Uhr morgens gekommen 😂
Hab dir was in ETH geschickt: [[crypto-wallet|0x1F93B084A385E4116294B18EC59488dE1b32BB58]]
"""),

("chat", r"""
Daily: PR 882 gemerged ✅, Abschnitt {{section-number|4.3.2.1}} der Spezifikation noch offen, p95 um {{percentage|12 %}} runter. Demo auf {{date|Do., 22.05.}} verschoben
"""),

("chat", r"""
Hier der Link zu den Hochzeitsfotos: [[url|https://fotos.lichtblick-hochzeiten.de/galerie/7Qm2Xp]] 📸
Passwort ist das Datum. Liebe Grüße von [[name|Konstantin]] und [[name|Mia]]!
"""),

("chat", r"""
Danke fürs Einspringen!! Schick mir einfach was per PayPal an [[email|lena.kraft93@gmx.de]] oder überweis an [[iban|DE36 6005 0101 1462 8745 47]] 😊
(oder in BTC an [[crypto-wallet|1JF6w5GuYze6WqL9aRhRoV9xewTT2nq5Rw]], wie du magst)
"""),

("chat", r"""
weiß jemand die ISBN von der 3. Auflage? hab nur {{isbn|978-3-446-46123-9}}, aber der Prof will die blaue
"""),

("chat", r"""
Ihre Bestellung wird heute zwischen {{time|12–14 Uhr}} an [[address|Karl-Marx-Allee 93, Wohnung 12, 10243 Berlin]] geliefert.
Fahrer: [[name|Dragan]], Tel. [[phone|+49 160 94418273]]. Live-Tracking: [[url|https://track.flinkgo.de/t/9fK2aQ]]
"""),

("chat", r"""
Essen heute im {{organisation|Goethe-Eck}}? das am {{place-name|Bismarckplatz}}, nicht das in {{place-name|Karl-Marx-Stadt}} 😂 {{time|19:30}}?
"""),

("chat", r"""
[[name|Basti]], kannst du meinen Bruder freischalten? Seine IP ist [[ip-address|91.64.183.22]] (Vodafone, Köln {{postal-code-alone|50667}}).
Und hier der DB-String, aber nur per DM: [[url-credentials|postgres://jan_ro:Kw8!pZq2Lm@reporting.nordlicht-it.de:5432/bi]]
"""),

("chat", r"""
Für den FATCA-Bogen bei der Bank brauch ich deine SSN aus der Zeit in Boston – war das [[ssn|343-29-1321]]? Und die von [[name|Hanna]] war [[ssn|536-85-4718]], oder?
Dein Geburtsdatum hab ich ([[date-of-birth|02.11.1982]]), Adresse damals war [[address|45 Commonwealth Ave, Apt 3, Boston, MA 02116]]
"""),

("chat", r"""
ist das WLAN-Passwort noch das vom Kühlschrank? und bestellt bitte nicht mehr bei {{organisation|Flaschenpost}}, die wollten {{money|4,90 €}} Liefergebühr
"""),

# ---------------------------------------------------------------- email (25)

("email", r"""
Betreff: Rechnung {{invoice-number|RE-2024-0117}} – Webdesign Mai

Hallo Herr [[name|Schubert]],
anbei die Rechnung für Mai über {{money|2.380,00 €}} (inkl. {{percentage|19 %}} USt.). Bitte überweisen Sie den Betrag innerhalb von 14 Tagen auf folgendes Konto:
Kontoinhaberin: [[name|Johanna Meyer-Brandt]]
IBAN: [[iban|DE62 4306 0967 8761 3983 11]]
Viele Grüße
[[name|Johanna Meyer-Brandt]]
[[address|Lindenallee 14, 04109 Leipzig]] · [[phone|0341/22579930]]
"""),

("email", r"""
Betreff: AW: Roadmap Q3

Hallo zusammen,
die überarbeitete Planung steht in Abschnitt {{section-number|5.1.2.4}}. Code-Freeze am {{date|12.09.}}, Release {{version|v3.8.1.2}} am {{date|26.09.2024}}.
Kommentare bitte direkt im Dokument, nicht per Mail.
"""),

("email", r"""
Sehr geehrte Frau Dr. [[name|Aydın]],

hiermit möchte ich einen Kontrolltermin für meine Tochter [[name|Lina Vogel]] (geb. [[date-of-birth|23.06.2017]]) vereinbaren. Der letzte Termin war am {{date|14.02.2024}}.
Sie erreichen mich unter [[phone|0711 4478 221]] oder [[email|vogel.familie@t-online.de]]. Unsere Adresse hat sich geändert: [[address|Hölderlinstraße 22, 70174 Stuttgart]].
Die Zuzahlung für die Zusatzleistung können Sie gern von meiner Visa [[credit-card|4230 1271 2738 5347]] abbuchen.

Mit freundlichen Grüßen
[[name|Petra Vogel]]
"""),

("email", r"""
Ihre Auszahlung von {{money|0,42 ETH}} an [[crypto-wallet|0xC63747625E505348e2951d926D71cc2E4B061a31]] wurde bestätigt.
Transaktions-Hash: {{hash|0xfa247680850912591b492946ed972e458a1659f61a87eb308c4501e4c4f6434f}}
Auszahlungs-ID: [[uuid|8d979fc8-1045-485e-a47f-51fcabb8e390]]
Falls Sie das nicht waren, sperren Sie Ihr Konto sofort: [[url|https://konto.alpenbyte-exchange.at/sicherheit/sperren]]
"""),

("email", r"""
Hallo zusammen,

bitte begrüßt unsere Neuen:
– [[name|Ayşe Demir]] (UX) – [[email|a.demir@werkbank-digital.de]]
– [[name|Friedrich von Arnim]] (Backend) – [[email|f.vonarnim@werkbank-digital.de]]
– [[name|Ute Klein]] (Personal)
Die Arbeitsplätze sind im 2. OG, Ausweise gibt's am Empfang. Alles Weitere im Onboarding-Wiki: [[url|https://wiki.werkbank-digital.de/onboarding/start]]
Viele Grüße, [[name|Holger]]
"""),

("email", r"""
Betreff: Ihre Bestellung ist unterwegs!

Bestellung {{order-number|302-5583910-2274415}} wurde versandt.
Sendungsnummer: {{tracking-number|H1001970321749601872}} (Hermes)
Voraussichtliche Zustellung: {{date|Mo., 09.06.}}
Bezahlt mit Geschenkkarte {{card-like|6035 7109 8821 4473}} ({{money|25,00 €}}) und {{money|13,40 €}} per Lastschrift.
"""),

("email", r"""
Liebe [[name|Theresa]],

schön, dich in {{place-name|Graz}} kennengelernt zu haben! Wie versprochen: [[email|m.huber@donauwerk-consulting.at]], mobil [[phone/AT|0664 381 2207]].
Unser Büro ist in der [[address|Mariahilfer Straße 88/3/12, 1070 Wien]], mehr Infos unter [[url|www.donauwerk-consulting.at/workshops]].
Für die Anzahlung zum Workshop: [[iban|AT26 3200 0936 1536 5229]].

LG [[name|Matthias]]
"""),

("email", r"""
Betreff: Onboarding US-Team – Daten für Payroll

Hallo [[name|Sandra]],
für die Lohnabrechnung unserer US-Tochter brauche ich bis Freitag die Daten der drei Neuen (bitte künftig nur über das sichere Portal, nicht per Mail!):
[[name|Kyle Brennan]] – SSN [[ssn|864-92-0017]], geb. [[date-of-birth|04/17/1990]], [[address|2215 Larimer St, Apt 508, Denver, CO 80205]]
[[name|Ashley Moreno]] – SSN [[ssn|363-73-8876]], geb. [[date-of-birth|11/02/1994]], [[address|930 S Broadway, Boulder, CO 80305]]
[[name|DeShawn Carter]] – SSN [[ssn|767-41-6351]], geb. [[date-of-birth|06/29/1988]], [[address|PO Box 1187, Golden, CO 80402]]
Danke, [[name|Miriam]] (HR)
"""),

("email", r"""
Hallo zusammen,
am {{date|3. Oktober}} ist das Büro geschlossen. Wartungsfenster {{time|22:00}}–{{time|02:00 Uhr}}, das VPN ist in der Zeit nicht erreichbar.
Die neue Firmware ({{version|7.2.0.31}}) behebt die Zertifikatswarnung (Policy-OID {{oid|2.23.140.1.2.2}}).
Euer IT-Service
"""),

("email", r"""
Sehr geehrte Eheleute [[name|Kaya]],

der Beurkundungstermin für den Kaufvertrag über das Objekt [[address|Am Sonnenhang 9, 34131 Kassel]] ist am {{date|17.10.2024}} um {{time|10:00 Uhr}} ({{other=Urkundenrollen-Nummer|UR-Nr. 1184/2024}}).
Die Entwurfsunterlagen finden Sie unter [[url|https://portal.notariat-wilhelmshoehe.de/akte/1184-2024]].
Bitte rufen Sie uns vor jeder Zahlung unter [[phone|0561 7016 540]] an – wir ändern Kontodaten nie per E-Mail.

Mit freundlichen Grüßen
[[name|Reinhard Fuchs]], Notar
"""),

("email", r"""
Sehr geehrter Kunde,

wir haben ungewöhnliche Aktivitäten auf Ihrem Konto festgestellt. Bitte bestätigen Sie Ihre Kartendaten innerhalb von 24 Stunden:
[[url|http://sparkasse-sicherheit-verifizierung.info/login?id=44719&ref=mail]]
Vorgangsnummer: {{other=Vorgangsnummer|SPK-2024-88213}}
Andernfalls wird Ihr Konto dauerhaft gesperrt.
"""),

("email", r"""
Betreff: AW: Angebot Videoüberwachung

vielen Dank für das schnelle Angebot. Wir nehmen 6× {{product-code|DS-2CD2387G2-LU}} à {{money|219,00 €}} netto.
Bestellnummer {{order-number|BE-2024-04471}}. Lieferung bitte wie immer ans Lager ({{postal-code-alone|04357}}).
"""),

("email", r"""
Sehr geehrte Frau [[name|Schulze-Wenning]],

vielen Dank für Ihre Bewerbung als Data Analyst. Wir laden Sie am {{date|12. März}} um {{time|10:30 Uhr}} in unser Büro ein: [[address|Rosenthaler Straße 40–41, 10178 Berlin]], 4. OG.
Fragen Sie am Empfang nach [[name|Niklas Hartmann]] ([[phone|030 5770 4812]]). Anfahrt: [[url|https://www.spreeblick-analytics.de/kontakt]]

Mit freundlichen Grüßen
Ihr Recruiting-Team der {{organisation|Spreeblick Analytics GmbH}}
"""),

("email", r"""
Betreff: AWS-Keys im Repo

[[name|Ole]],
dein Commit heute Morgen hat das hier in {{file-name|config/dev.env}} eingecheckt:
AWS_ACCESS_KEY_ID=[[api-key|AKIAWADMNRJSZWJA5YH4]]
AWS_SECRET_ACCESS_KEY=[[api-key|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]]
GH_TOKEN=[[api-key|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]]
Und im Jenkins-Job steht dein Passwort in der URL: [[url-credentials|https://ojanssen:Moin!2024@ci.hafenkante-logistik.de/job/deploy/]]
Hab den IAM-User deaktiviert. Bitte alles rotieren und ab jetzt den Vault nutzen.
Gruß [[name|Svenja]]
"""),

("email", r"""
Hallo zusammen,
der Verwendungsnachweis für die {{organisation|Robert Bosch Stiftung}} ist bis {{date|31.03.}} fällig. Abweichung im Budget: {{percentage|3,8 %}} – alles über {{money|5.000 €}} bitte begründen.
Vorlage: {{file-name|Verwendungsnachweis_2024_v3.docx}}. Den Jahresbericht bitte als ISBN {{isbn|978-3-00-071234-0}} zitieren.
"""),

("email", r"""
Hallo [[name|Emil]],

deine Zahlung für Streamhaus Premium ist fehlgeschlagen. Die hinterlegte Karte [[credit-card|5579 0516 3726 0764]] wurde von deiner Bank abgelehnt.
Zahlungsdaten aktualisieren: [[url|https://konto.streamhaus.de/zahlung]]
"""),

("email", r"""
Hallo,

ich wohne seit Kurzem in der [[address|Bergmannstraße 102, 10961 Berlin]] und bekomme noch Post für einen Herrn [[name|Dieter Hahn]]. Bitte aktualisieren Sie Ihre Daten.
Meine Daten: [[name|Kwabena Mensah]], [[email|kwabena.mensah@posteo.de]], [[phone|+49 157 34421908]].
Danke!
"""),

("email", r"""
Hallo zusammen,
das Ersatzteil ist {{product-code|A2442-ZB-07}}, Garantiefall {{other=Garantiefallnummer|GF-00418822}}.
Das Dachgerät steht bei {{coordinates|48.1374° N, 11.5755° O}}. Montage Dienstag ab {{time|8 Uhr}}.
"""),

("email", r"""
Betreff: Spendenbescheinigung

Liebe Frau [[name|Engel]],
vielen Dank für Ihre Spende über {{money|250,00 €}} an die {{organisation|Tafel Kempten e. V.}} vom {{date|28.11.2023}}. Ihre Spendernummer ist {{account-number|SP-0093341}}.
Wir haben als Adresse [[address|Am Mühlbach 4, 87435 Kempten (Allgäu)]] – stimmt das noch? Ihre Spenden verwalten Sie hier: [[url|https://spenden.tafel-kempten.de/konto]].
(Wir nehmen jetzt auch Bitcoin: [[crypto-wallet|3HhZUbv2amXYNPZxjpzuTrpGDZvGL3j6K1]].)
Herzliche Grüße
[[name|Gisela Brandstätter]]
"""),

("email", r"""
Hi [[name|Paul]],
zur Info: die Staging-Zugangsdaten wurden im Lieferanten-Thread gepostet:
[[url-credentials|postgres://app_rw:Xq9!mV2zLp7@staging-db.kranich-software.de:5432/shop]]
und der SFTP-Zugang auch: [[url-credentials|sftp://lieferant:Elbe-Sturm-77@files.kranich-software.de:2222/eingang]]
Außerdem steht der Twilio-Token drin: [[api-key|ac96ff8a6b92924d796f7306d06a9e67]]
Kannst du alles rotieren, bevor die sich einloggen? Danke, [[name|Merve]]
"""),

("email", r"""
Betreff: AW: Zinsberechnung

mit K = {{money|10.000 €}}, p = {{math|4,75}} und n = 3 ergibt sich {{money|11.493,30 €}}.
Die Tabelle rundet in Schritt {{section-number|2.3.1}}, daher die {{money|0,02 €}} Differenz.
"""),

("email", r"""
Guten Morgen,
bitte ändern Sie die Bankverbindung für [[name|Bogdan Ionescu]] (Personalnummer {{account-number|PN-20817}}): neue IBAN [[iban|DE42 1001 0010 2783 9058 10]].
Das alte Konto [[iban|DE83 7601 0085 6007 6187 79]] bitte nach der Abrechnung für {{date|Mai}} löschen.
Gleiches für [[name|Hannelore Weiß]]: neue IBAN [[iban|DE97 2505 0180 0011 8876 45]].
Danke, [[name|Birgit]]
"""),

("email", r"""
Hallo Herr [[name|Roth]],

wie telefonisch besprochen: Kartennummern dürfen wir nicht per E-Mail annehmen, ich habe Ihre Nachricht mit [[credit-card|2223 4318 3998 8247]] daher gelöscht.
Bitte zahlen Sie über [[url|https://zahlung.zahnarzt-elbvororte.de]] oder rufen Sie uns an: [[phone|040 8660 2314]].
Sie finden uns auch in der [[address|Elbchaussee 228, 22605 Hamburg]].

Viele Grüße
[[name|Nadine]]
"""),

("email", r"""
Hallo Team,
das Lieferantenportal ist umgezogen. Bitte keine Screenshots mit unserer Kundennummer {{account-number|0301234567}} in Tickets posten – die sieht aus wie eine Berliner Telefonnummer und löst den Filter aus. Gleiches gilt für die Dummy-Karte {{card-like|4936 3125 7530 7669}} aus der Testumgebung.
Die IBAN im alten Lieferantenformular ({{iban-like|DE48 7605 0101 0461 8558 77}}) hat einen Zahlendreher und ist ungültig.
"""),

("email", r"""
Betreff: Auskunftsersuchen nach Art. 15 DSGVO

Sehr geehrte Damen und Herren,
hiermit verlange ich Auskunft über alle zu meiner Person gespeicherten Daten. Meine Kundennummer lautet {{account-number|KD-55120387}}.
Zur Identifikation: [[name|Hildegard Sonntag-Okafor]], geb. am [[date-of-birth|23.10.1961]], [[address|Holunderweg 14, 49080 Osnabrück]].
Bitte antworten Sie innerhalb eines Monats an [[email|h.sonntag@web.de]].
"""),

# ---------------------------------------------------------------- ticket (25)

("ticket", r"""
Ticket #51734 – Login nach Passwort-Reset nicht möglich
Kundin: [[name|Valeria Conti]] ([[email|valeria.conti@googlemail.com]])
„Hab gestern mein Passwort zurückgesetzt, jetzt steht da ‚Konto gesperrt'. Probiert von zu Hause ([[ip-address|84.137.22.190]]) und vom Handy. Ich hab gerade auch noch die Karte [[credit-card|2720 6804 5473 5493]] hinterlegt – wird die jetzt belastet?"
Session-ID: [[uuid|a639b333-cb94-417d-b9ad-1dc0bc9bd7dd]]
"""),

("ticket", r"""
Betreff: Doppelt abgebucht – Bestellung {{order-number|100482917734}}
Ich sehe zwei Abbuchungen über {{money|84,16 €}} von meiner Mastercard [[credit-card|5106 7757 9783 7969]]. Bitte eine erstatten, gern auf meine Visa [[credit-card|4008 8612 8653 5306]].
Neue Rechnungsadresse: [[address|Wilhelmstraße 17, 65183 Wiesbaden]]
– [[name|Marcel Hoffmann]], [[phone|0611 1890 447]]
"""),

("ticket", r"""
Priorität: Hoch | Komponente: zahlungs-gateway {{version|3.4.17}}
Nächtlicher Abgleich mit „Prüfsummenfehler" für Batch {{digit-run|20240611-000517}}.
Erwartet {{hash|a3990e6dddd62dcb7bd997f81f2b4f7d}}, erhalten {{hash|d78a5854e73e79a6be87496105ffc88e}}. Noch kein Kundenimpact.
"""),

("ticket", r"""
Hallo, bitte die Lieferadresse für mein Abo ändern auf [[address|Am Kirchberg 12a, 97070 Würzburg]] – alte Adresse war [[address|Sanderstraße 5, 97070 Würzburg]].
Bitte auch die Karte tauschen: [[credit-card|5344 1379 1096 9595]], oder per Lastschrift von [[iban|DE81 2605 0001 4624 3032 90]], falls ihr das anbietet.
Danke, [[name|Annika Lorenz]]
"""),

("ticket", r"""
Problem: Identitätsprüfung hängt seit 3 Tagen auf „ausstehend"
Nutzer-ID: [[uuid|a6e0a55c-9226-4ef8-8c6b-8f64fa644cf6]]
Name laut Ausweis: [[name|Nikolai Petrov]], geb. [[date-of-birth|09.01.1987]], Adresse [[address|Dorfstraße 3, 17489 Greifswald]]
US-Steuerpflicht angegeben, SSN [[ssn|517-02-4373]]
Upload von [[ip-address|37.201.144.9]] · eingereicht von [[name|Carina]] (Trust & Safety)
"""),

("ticket", r"""
App stürzt beim Start ab unter iOS {{version|17.5.1}}, Build {{version|6.2.0.3318}}. Crashlog im Anhang ({{file-name|absturz_0603@2x.ips}}).
Schritte: App öffnen → Wallet antippen → Absturz. Passiert auf iPhone 12 und 14.
"""),

("ticket", r"""
Betreff: Auszahlung an falsche Wallet??
Ich hab eine Auszahlung an meine Ledger [[crypto-wallet|bc1qzceqt27sjk6u83jpstkhw6r9fx85jfrnzrvtyj]] beantragt, in der Bestätigung steht aber [[crypto-wallet|18Edv6Tdm8jYqApAF2L8nHg9azNECAKLGL]] – das ist NICHT meine! Bitte sofort stoppen.
Auszahlungs-ID [[uuid|abb77d3f-2465-4223-98dc-e2f89bae5473]], Transaktion: [[url|https://www.blockchain.com/explorer/transactions/btc/4c1e9a7f3b2d8e6a0f5c7b9d1e3a2f4c6b8d0e1f3a5c7e9b2d4f6a8c0e1b3d5f]]
KYC: US-Person, SSN [[ssn|271-47-0684]] ist hinterlegt. Konto-E-Mail [[email|l.brandt.trading@proton.me]]
– [[name|Lars Brandt]]
"""),

("ticket", r"""
Mein Sohn [[name|Finn]] (Kontoinhaber) ist erst 12 – geb. [[date-of-birth|11.02.2013]] – und hat ohne Erlaubnis mit meiner Karte [[credit-card|5536 3628 7310 3853]] eingekauft.
Bitte erstatten und das Konto sperren.
Gruß, [[name|Katrin Busch]]
"""),

("ticket", r"""
Unser Alert für billing-de feuert jede Nacht um {{time|03:15}} Uhr. Schwellwert {{math|1e-3}} Fehler/s.
Konfiguration in {{file-name|alerts/billing-de.yaml}}, Regel {{section-number|2.4.1.9}}. Kann das jemand anpassen?
"""),

("ticket", r"""
Ticket: API liefert 401 trotz gültigem Key
Melder: [[name|Jannik Hahn]] <[[email|jannik@hahn-it.de]]>
„Mit diesem Key: [[api-key|sk-ant-api03-vdZG3WlnvXZfofDFcCxJf70H9a_WY-kaNlr5jxfEQtf9qymjtFJI51bixoXYNqpsOzEkjB9ngOReC5mbYnIgn8-jsPxI0AA]]
klappt's per curl vom Laptop ([[ip-address|79.211.40.17]]), aber nicht vom Server ([[ip-address|49.12.88.201]]). Request-ID [[uuid|04b6c09a-4cf7-454e-b17d-c6f8cf48614a]]."
Rechnungsadresse: [[address|Ostertorsteinweg 61, 28203 Bremen]]
Agent-Notiz: Kunde gebeten, den Key zu widerrufen – steht jetzt im Ticket.
"""),

("ticket", r"""
Bestellung {{order-number|100384772931}} kam beschädigt an. Auf dem Paketschein steht „Tel.:" und dann {{tracking-number|00340434187260021447}} – soll ich da anrufen? Geht keiner ran.
"""),

("ticket", r"""
HR-Portal: US-Kollege [[name|Brian Kowalski]] meldet, dass in seiner W-2 die SSN [[ssn|694-48-6977]] steht – richtig wäre [[ssn|018-74-8777]].
Die Adresse auf der W-2 stimmt: [[address|1840 N Halsted St, Chicago, IL 60614]]. Bitte an Payroll USA weiterleiten.
"""),

("ticket", r"""
Ich möchte mein Konto kündigen und das Guthaben auf mein österreichisches Konto überweisen lassen: [[iban|AT78 3200 0122 0498 9341]], Inhaberin [[name|Veronika Gruber]].
(Nicht {{iban-like|AT21 3200 0122 0498 9341}} – Tippfehler in meiner ersten Mail.)
Telefon [[phone|+43 512 574 338]] für Rückfragen. Zur Verifizierung: geb. [[date-of-birth|30.04.1979]], [[address|Maria-Theresien-Straße 18, 6020 Innsbruck]].
"""),

("ticket", r"""
Druckertreiber lässt sich nicht installieren. Modell {{product-code|MFC-L2710DW}}, S/N {{digit-run|E7821 3349 0021}}, Treiber {{version|4.1.0.9}}.
Windows meldet, das Paket sei nicht signiert.
"""),

("ticket", r"""
Kundin rief an wegen verdächtigem Login von [[ip-address|2a01:4f8:c17:3b2a::1]] (Rechenzentrum in Finnland), sie selbst ist in Bayern.
Passwort zurückgesetzt, 2FA aktiviert. Verifiziert mit Geb.-Datum [[date-of-birth|9.3.1967]] und Adresse [[address|Ludwigstraße 9, 93047 Regensburg]].
Name: [[name|Rosemarie Schwarz]]. Rückruf unter [[phone|0941 5072 118]].
"""),

("ticket", r"""
Schadensmeldung {{other=Schadennummer|SN-7788-2024}}
Mieter: [[name|Pieter van Dijk]], [[phone|+31 6 24788150]], [[email|p.vandijk@kpnmail.nl]]
Abholung: [[address|Nordallee 25, 85356 München-Flughafen]]
Fahrer geb. [[date-of-birth|12-07-1984]]
Karte: [[credit-card|3717 688925 23252]] – Kostenvoranschlag {{money|1.240 €}}; Kaution bitte zurück an [[iban|NL73 INGB 8469 7911 62]]
"""),

("ticket", r"""
Passwort-Reset-Mails kommen bei Nutzern des {{organisation|Carl-Thiem-Klinikums}} nicht an. SPF ok, DKIM-Selector s2, Zertifikat mit EKU {{oid|1.3.6.1.5.5.7.3.2}}.
Der Zielserver antwortet {{other=SMTP-Statuscode|4.7.1}}. Seit dem Patch {{version|10.0.20348.2527}}.
"""),

("ticket", r"""
Ich komme nicht mehr ins Admin-Panel [[url|https://admin.hofladen-gruenwald.de/login]]. Mein Kollege [[name|Yusuf]] meinte, ihr könnt das zurücksetzen.
Konto-ID [[uuid|2e6283fd-7000-4fa2-8ad7-728673fe286b]]. Wir zahlen per SEPA von [[iban|DE12 7015 0000 9430 7039 94]], falls euch das hilft.
Unser nächtlicher Export läuft gegen [[url-credentials|https://export:T9v!kQ2mLz@admin.hofladen-gruenwald.de/api/export]] – geht der dann auch kaputt?
"""),

("ticket", r"""
Geräteanmeldung
Mitarbeiterin: [[name|Olga Schmidt]]
Inventarnummer: {{product-code|NB-2291-TP14}}
Versand an: [[address|Schillerstraße 27, 01069 Dresden]]
Mobil: [[phone|0152 21983304]]
Geräte-ID: [[uuid|68fbec7a-a014-4d9e-ba63-32e588d3a841]]
"""),

("ticket", r"""
Sandbox-Checkout lehnt die Platzhalter-Karte {{example-key|XXXX-XXXX-XXXX-XXXX}} aus der Doku ab – klar, aber im Widget steht als Publishable Key noch {{example-key|pk_test_DEIN_KEY_HIER}}.
Die absichtlich ungültige Testnummer {{card-like|4790 1702 2208 4273}} wird korrekt abgelehnt.
"""),

("ticket", r"""
Bitte Rechnungskontakt für Kundenkonto {{account-number|KDN-004417-DE}} von [[email|buchhaltung@tischlerei-kessler.de]] auf [[email|rechnung@tischlerei-kessler.de]] ändern.
Rechnungsadresse bleibt [[address|Gewerbering 8, 78224 Singen (Hohentwiel)]]. Ab nächstem Monat bitte die neue Firmenkreditkarte belasten: [[credit-card|4763 5637 5364 3481]].
Angefordert von [[name|Gregor Kessler]], Geschäftsführer.
"""),

("ticket", r"""
VPN geht im Büro {{place-name|Paderborn}} ({{postal-code-alone|33102}}) seit dem Update auf {{version|10.2.0.3}} nicht mehr. Fehler {{other=Windows-Fehlercode|0x800704C9}}.
Andere Standorte laufen.
"""),

("ticket", r"""
Verdacht auf Kontoübernahme. Auszahlungs-Wallet geändert auf [[crypto-wallet|0x308f30725307951231c4b0e8f60a3f8333701842]] von [[ip-address|185.220.100.252]] (Tor-Exit).
Vorherige Wallet: [[crypto-wallet|33JVXgSp5iTdeU1eRZrkM4SUK6iRhSjLgQ]]. Eine zweite Auszahlung ging an [[crypto-wallet|DBScYKvgA9DJrVbkwNuUq8TCLrrYy81hMy]].
Inhaber: [[name|Heinz-Dieter Morgenstern]] (US-Person, SSN [[ssn|078-43-2162]]), Konto [[uuid|2f2bc54e-26c3-489f-aa2a-cdaf58a1ad49]], letzter regulärer Login von [[ip-address|93.233.71.48]].
"""),

("ticket", r"""
Bitte Rechnung {{invoice-number|RE-88213}} an meine neue Adresse schicken: [[address|Bahnhofstrasse 21, 8001 Zürich]], Schweiz.
Bezahlt hab ich mit [[credit-card|3530 6900 8099 2937]]. Tel. [[phone|+41 44 213 67 90]]. – [[name|Reto Zimmermann]]
"""),

("ticket", r"""
Erstattung an die angegebene IBAN ({{iban-like|DE18 2905 0101 2643 2720 82}}) nicht möglich – Prüfziffer falsch.
Stattdessen {{money|45,90 €}} auf das ursprüngliche Zahlungsmittel erstattet. Referenz {{other=Erstattungsreferenz|ER-2024-06-0093}}. Ticket wird geschlossen.
"""),

# ---------------------------------------------------------------- log / config (20)

("log", r"""
# .env.production – NICHT einchecken
DATABASE_URL=[[url-credentials|postgresql://shop_svc:pA9!xK2mQz7@db-prod-1.fahrradwerk.de:5432/shop]]
REDIS_URL=[[url-credentials|redis://:Hn4vX8qLp2Rw@cache.fahrradwerk.de:6379/0]]
STRIPE_SECRET_KEY=[[api-key|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]]
STRIPE_WEBHOOK_SECRET=[[api-key|whsec_cG9QzlaYAcstGyGMKyUk2HTiHicWTXEe]]
SENDGRID_API_KEY=[[api-key|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]]
SHOP_BASE_URL=[[url|https://www.fahrradwerk.de]]
"""),

("log", r"""
[[ip-address|87.123.44.201]] - - [12/Mar/2024:09:14:22 +0100] "GET /api/v2/bestellungen/{{order-number|200482231977}} HTTP/1.1" 200 1843 "[[url|https://shop.roestwerk-nord.de/warenkorb]]" "Mozilla/5.0 Firefox/{{version|125.0.3}}"
[[ip-address|2a02:908:1a2:8b40:4c1e:9fff:fe21:73d0]] - - [12/Mar/2024:09:14:25 +0100] "POST /login HTTP/1.1" 302 0 "-" "okhttp/4.12.0"
[[ip-address|46.114.5.118]] - - [12/Mar/2024:09:14:40 +0100] "GET /api/v2/kunden/[[uuid|bc4933a6-16d2-4b06-aa53-cc8aeccda506]]/karten?nummer=[[credit-card|6011 1323 7040 2716]] HTTP/1.1" 400 91 "-" "curl/8.5.0"
[[ip-address|10.8.0.14]] - - [12/Mar/2024:09:14:41 +0100] "GET [[url-credentials|http://scan:Kyocera2023!@10.8.2.40/scan/upload]] HTTP/1.1" 200 0 "-" "Squid/5.7"
"""),

("log", r"""
2024-05-08T14:22:07.391Z INFO  checkout kunde_id=[[uuid|8ea1c8d5-e91d-4cf2-ae55-fd17538869d0]] email=[[email|m.schaefer@freenet.de]] betrag={{money|129,00}} waehrung=EUR
2024-05-08T14:22:07.402Z DEBUG payment  card=[[credit-card|5257523564119311]] exp=11/26 cvv=*** plz={{postal-code-alone|80331}}
2024-05-08T14:22:07.958Z DEBUG payment  card=[[credit-card|6552046365139361]] exp=02/27 cvv=*** plz={{postal-code-alone|20095}}
2024-05-08T14:22:07.960Z DEBUG payment  card=[[credit-card|4605958118969336]] exp=09/26 cvv=*** plz={{postal-code-alone|01067}}
2024-05-08T14:22:07.961Z DEBUG payment  card=[[credit-card|36479227229782]] exp=01/26 cvv=*** cache=[[url-credentials|redis://default:Zt5qW8xLm2Pv@pay-cache.bergsee-moebel.de:6380]]
2024-05-08T14:22:07.990Z DEBUG payment  method=sepa_debit iban=[[iban|DE53760501011681342760]] mandat={{other=SEPA-Mandatsreferenz|BSM-2024-000871}} glaeubiger_id={{other=SEPA-Gläubiger-ID|DE71ZZZ00001847263}}
2024-05-08T14:22:08.530Z INFO  checkout redirect [[url|https://checkout.bergsee-moebel.de/danke?o=77120]]
"""),

("log", r"""
# /etc/snmp/snmpd.conf – Monitoring Standort Nord
agentAddress udp:161
view   systemonly  included   {{oid|.1.3.6.1.2.1.1}}
view   systemonly  included   {{oid|.1.3.6.1.4.1.2021.10.1.3.1}}
# Festplatten-I/O unter {{oid|1.3.6.1.4.1.8072.1.3.2.4}}
sysLocation    "RZ Nord, Rack 14, Reihe C"
"""),

("log", r"""
May 14 03:12:44 bastion-01 sshd[28811]: Failed password for invalid user admin from [[ip-address|5.188.206.14]] port 51122 ssh2
May 14 03:12:47 bastion-01 sshd[28811]: Failed password for invalid user ubuntu from [[ip-address|5.188.206.14]] port 51190 ssh2
May 14 03:13:02 bastion-01 sshd[28840]: Accepted publickey for deploy from [[ip-address|10.40.2.16]] port 40322 ssh2: ED25519 SHA256:{{hash|k2Rf8LpQz7XvN1mW4cY9tB3hJ6sA0dE5gU8iO2yTqKw}}
May 14 03:15:10 bastion-01 sshd[28902]: Accepted password for {{handle|jbecker}} from [[ip-address|172.16.31.9]] port 53810 ssh2
"""),

("log", r"""
> Task :app:compileJava
Baue lagerverwaltung {{version|2.4.1.18}}
Prüfsumme sha256={{hash|21a9b3e2910d7c8227745c83a3fffbab3d2910ed2d89d25de889b62bbccb4929}} ok
Warnung: veraltete API in {{file-name|src/main/java/de/lager/Start.java}}
BUILD SUCCESSFUL in {{time|3m 41s}} – fertig am {{date|19.06.2024}} um {{time|11:02:57}}
"""),

("log", r"""
apiVersion: v1
kind: Secret
metadata:
  name: zahlungen-api
  namespace: prod
stringData:
  GITHUB_TOKEN: [[api-key|ghp_q0RNEPkcGgKOixTGuflN5v7atL8OboeQK3ja]]
  SLACK_BOT_TOKEN: [[api-key|xoxb-492754507233-8941800782952-ozdPAC3ny5q07I5Y7qLsInua]]
  AMQP_URL: [[url-credentials|amqp://zahlungen:Rq4vT8wLp2@rabbit.zahlungen.internal:5672/%2F]]
  DATABASE_URL: [[url-credentials|postgres://zahlungen_rw:Wm7!zK3pQv@pg-primary.zahlungsdienst-db.de:5432/zahlungen]]
  HF_TOKEN: [[api-key|hf_gNClD9SQ5E4rpkqneUO9ORTB09ihQWZfSb]]
  OWNER_ID: [[uuid|13a4826c-4fb1-4946-9eac-bf8d06933d2a]]
"""),

("log", r"""
# crontab -l (Backup-Server)
# werktags Vollsicherung, 14 Generationen
{{other=Cron-Zeitplan|30 2 * * 1-5}} /opt/backup/run.sh --keep 14 >> /var/log/backup.log 2>&1
{{other=Cron-Zeitplan|0 */4 * * *}}  /usr/bin/certbot renew --quiet
# letzte Sicherung: {{date|02.06.2024}} {{time|02:30:07}}, {{digit-run|48213977}} Dateien, Dauer {{time|01:12:44}}
"""),

("log", r"""
Jun  3 10:41:12 mx1 postfix/smtp[9921]: 4F2A81C0D3: to=<[[email|j.peters@ostsee-reederei.de]]>, relay=mx.ostsee-reederei.de[[[ip-address|212.227.15.41]]]:25, delay=1.2, dsn={{other=SMTP-Statuscode|2.0.0}}, status=sent (250 OK)
Jun  3 10:41:15 mx1 postfix/smtp[9922]: 7B11C2E0F1: to=<[[email|claudia.wendt@arcor.de]]>, relay=mx.arcor.de[[[ip-address|2a00:1158:2:7100::c]]]:25, dsn=5.1.1, status=bounced (user unknown)
Jun  3 10:41:19 mx1 postfix/qmgr[1204]: 9C03D4A1B2: from=<[[email|newsletter@ruderverein-alster.de]]>, size=48211, nrcpt=312 (queue active)
"""),

("log", r"""
services:
  api:
    image: kassenbuch-api:{{version|1.19.7}}
    environment:
      MONGO_URI: [[url-credentials|mongodb+srv://kasse_app:Lq8Tz2PwR5vX@cluster1.p9rvw.mongodb-dedicated.de/kasse?retryWrites=true]]
      OPENAI_API_KEY: [[api-key|sk-proj-wXOESmZxv4ZQTXnkrHSu-2EqixYNcPqlxGNpWlBrRjMhYSI_9tuesBnS9hixs2Z5YUuWDJHIT3BlbkFJgWF9XZpN3Ut1tpNMRZZVrZ]]
      GOOGLE_MAPS_KEY: [[api-key|AIzaSySZ3GijQvxamdrPUk9NsxW3qMfFnIvYXgQ]]
      SMTP_URL: [[url-credentials|smtp://versand:Hq2!vL9xMt@smtp.mailwerk-nord.de:587]]
      PAYOUT_ADDRESS: [[crypto-wallet|bc1qjgwpc0pg0748yd890g2ysc886rqmpnrknha6xz]]
      INSTANCE_ID: [[uuid|e2650a97-14ba-4aaa-8033-f0da90df905e]]
"""),

("log", r"""
2024-08-14 02:00:01 metrics  host=web-03 cpu={{percentage|71,4%}} mem={{percentage|58%}} load={{math|3.14}} uptime={{digit-run|8842211}}s
2024-08-14 02:00:01 geoip    db={{file-name|GeoLite2-City_20240813.mmdb}} build {{version|2.0.6.4}} lookups=102884
2024-08-14 02:00:02 geoip    Fallback-Mittelpunkt Deutschland {{coordinates|51.1657, 10.4515}}
2024-08-14 02:00:02 snmp     ifInOctets {{oid|1.3.6.1.2.1.2.2.1.10.7}} = {{digit-run|982114907}}
"""),

("log", r"""
2024-06-11 08:02:19,331 DEBUG http.client send: b'GET /v1/konten/ich HTTP/1.1\r\nHost: api.sparfuchs-pay.de\r\nAuthorization: Bearer [[api-key|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI5NjcxNTk3NCIsImlhdCI6MTc3MzE3Nzc4MiwiZXhwIjoxNzczMTgxMzgyLCJzY29wZSI6Im9yZGVyczpyZWFkIn0.aktUrlCYwLuNA5Ld2DehtMCyiTdLqP-gUlPzrBqNBl4]]\r\n'
2024-06-11 08:02:19,512 DEBUG http.client reply: 'HTTP/1.1 200 OK' request-id=[[uuid|d7b10e32-f7a6-4ac4-bb5c-49b9d29e1c83]]
2024-06-11 08:02:19,514 DEBUG client   inhaber=[[email|t.nguyen@sparfuchs-pay.de]] us_person=true ssn=[[ssn|456-89-0757]] geb=[[date-of-birth|1979-12-04]]
2024-06-11 08:02:19,515 DEBUG client   mitinhaber ssn=[[ssn|272-61-9646]] karte=[[credit-card|4412368019903611]] payout_wallet=[[crypto-wallet|0x4d3965EAEa3f81CCebC9c33972c161AdEDC21721]]
2024-06-11 08:02:19,516 DEBUG client   adresse="[[address|Schwanthalerstraße 5, 80336 München]]"
2024-06-11 08:02:19,620 DEBUG http.client send: b'GET [[url|https://api.sparfuchs-pay.de/v1/konten/ich/umsaetze?von=2024-05-01]]'
"""),

("log", r"""
# terraform.tfvars – NICHT COMMITTEN
aws_access_key  = "[[api-key|AKIAX7SIOI5MVWTI5DT2]]"
aws_secret_key  = "[[api-key|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]]"
allowed_cidrs   = ["[[ip-address|80.147.52.9]]/32", "[[ip-address|10.14.0.0]]/16"]
owner_email     = "[[email|devops@stadtwerke-beispielfeld.de]]"
tenant_id       = "[[uuid|be2b5101-0037-49c2-a19e-b249626cdf14]]"
subscription_id = "[[uuid|e8e051c7-4762-4802-b439-7ca30221b62f]]"
gitlab_token    = "[[api-key|glpat-QOFCVgSITQq-0Me-R1up]]"
db_url          = "[[url-credentials|postgresql://tf_admin:Pq3#vX8mLr@swb-pg.postgres.database.azure.com:5432/netz]]"
"""),

("log", r"""
kundennr;vorname;nachname;email;telefon;geburtsdatum;strasse;plz;ort;iban
40211;[[name|Sven]];[[name|Fischer]];[[email|sven.fischer@web-mail.de]];[[phone|0421 6692 3108]];[[date-of-birth|11.02.1983]];[[address|Goethestr. 12;80336;München]];[[iban|DE04300501103306237673]]
40212;[[name|Monika]];[[name|Lang]];[[email|monika.lang@kabelmail.de]];[[phone|+49 172 5590312]];[[date-of-birth|30.09.1990]];[[address|Am Markt 4a;99084;Erfurt]];[[iban|DE63860555925979477066]]
40213;[[name|Mehmet]];[[name|Aslan]];[[email|mehmet.aslan@outlook.de]];[[phone|0203 71902 44]];[[date-of-birth|08.07.1996]];[[address|Duisburger Str. 210;47166;Duisburg]];[[iban|DE42660501018630278757]]
"""),

("log", r"""
Exception in thread "main" java.lang.NullPointerException: Cannot invoke "Auftrag.summe()"
    at de.shop.rechnung.RechnungService.erstelle(RechnungService.java:{{digit-run|214}})
    at de.shop.rechnung.RechnungJob.run(RechnungJob.java:88)
Caused by: Rechnung {{invoice-number|RE-2024-118374}} hat keine Positionen (Auftrag {{order-number|4410028877}})
JVM {{version|21.0.3+9}} auf Host 10-0-3-17 (Build {{hash|0e1766f3a9df4ad2b86b10fb12d005cdd4ff38c1}})
"""),

("log", r"""
[2024-04-02 16:40:11] AUDIT hr-sync us-tochter export durch user_id=[[uuid|144bc955-9fb8-490c-8a6d-525be7f94c62]] datei=payroll_us_q1.csv zeilen=214
[2024-04-02 16:40:11] WARN  Feld 'ssn' unmaskiert: pnr 00417 ssn=[[ssn|799-91-2708]] name="[[name|Reed, Caroline]]"
[2024-04-02 16:40:12] WARN  Feld 'ssn' unmaskiert: pnr 00418 ssn=[[ssn|718291550]] name="[[name|Okonjo, Emeka]]"
[2024-04-02 16:40:12] WARN  Feld 'ssn' unmaskiert: pnr 00421 ssn=[[ssn|282-31-6931]] name="[[name|Becker, Hans-Jürgen]]"
[2024-04-02 16:40:12] WARN  Feld 'ssn' unmaskiert: pnr 00422 ssn=[[ssn|462-26-6973]] name="[[name|Lindqvist, Erik]]"
[2024-04-02 16:40:13] WARN  Feld 'ssn' unmaskiert: pnr 00430 ssn=[[ssn|547-75-3986]] name="[[name|Alvarez, Rosa]]"
"""),

("log", r"""
2024-07-19 22:10:03 auszahlung.eingereiht id=[[uuid|493e70e8-6032-479c-a157-d3f7977648e0]] asset=LTC betrag=12,5 an=[[crypto-wallet|LP72VFTBdCvpYAA95ttFAawc5Niry7PpHh]]
2024-07-19 22:10:41 auszahlung.eingereiht id=[[uuid|0d14f286-7e45-4dc6-b5ca-0af0750855cf]] asset=DOGE betrag=4200 an=[[crypto-wallet|DFv5xwyYPkZkW17PkH6GvxX7PVXgJyem4U]]
2024-07-19 22:10:58 auszahlung.eingereiht id=[[uuid|7e2f2209-68ae-49c3-b631-a880e13742af]] asset=BTC betrag=0,031 an=[[crypto-wallet|bc1pedr5sxelczgc4dvmpz5fvjkt9hg7fqe25n73suvegvysrg8s0c8qdmvuvz]]
2024-07-19 22:10:59 auszahlung.eingereiht id=[[uuid|89a82abc-bcba-4126-bd3d-72a000b09492]] asset=ETH betrag=1,2 an=[[crypto-wallet|0xEF34a651Ed34c3223D69501a129512fa081961bF]]
2024-07-19 22:11:00 kyc.pruefung user=[[uuid|f602cd64-726e-4e72-9f08-29ea9f7f4bab]] land=US ssn=[[ssn|267-97-0726]] ergebnis=ok
2024-07-19 22:11:02 auszahlung.gesendet txid={{hash|79cbea35628eb9f6c1a312652d3e41ce157b880f683ea58b4d507ebe8c3ea9e6}}
"""),

("log", r"""
# group_vars/all/vault.yml (entschlüsselte Kopie, nicht committen!)
deploy_user: deploy
deploy_private_key: |
  [[api-key|-----BEGIN EC PRIVATE KEY-----
  MHcCAQEEIJ0Hof6STqO1p00+LFM2iO9QKRuiFOp8aPyBscdYNjXzoAoGCCqGSM49
  AwEHoUQDQgAEJalQ1wQ9QEZL0G5+2Cl/b8/sUyoHotZNE/3gtbnbkMZDQ/XV/0DA
  zg/U048A/zoa0iftMM4E+sCHrw8K9b7i9g==
  -----END EC PRIVATE KEY-----]]
backup_ziel: [[url-credentials|ftp://sicherung:Wz83-kLq4Tv@ftp.brunnen-hosting.de/nachts]]
spiegel_ziel: [[url-credentials|sftp://spiegel:Jh5vQ-9xPk@mirror.elbtal-rechenzentrum.de/srv/backups]]
"""),

("log", r"""
2024-09-02 09:00:00 INFO  scheduler  job=wochenbericht naechster_lauf={{date|09.09.2024}} {{time|09:00:00}}
2024-09-02 09:00:00 INFO  scheduler  job=sessions-bereinigen letzter_lauf_ms={{digit-run|1725267600000}}
2024-09-02 09:00:01 DEBUG cfg        feature_flags Version {{version|3.3.0.9}} geladen aus {{file-name|flags@prod.json}}
2024-09-02 09:00:01 DEBUG cfg        api_key={{example-key|<DEIN_API_KEY>}} (Platzhalter, nutze Umgebungsvariable)
2024-09-02 09:00:01 DEBUG geo        Standardkarte Mittelpunkt {{coordinates|52.5200,13.4050}} zoom=11
"""),

("log", r"""
{
  "webhook_url": "[[url|https://hooks.weidenhof-logistik.de/eingang/auftraege]]",
  "signing_secret": "[[api-key|chYSlwihznCxobklROIj0vR303iwNyyfhyt5Rp6WP8w]]",
  "benachrichtigen": ["[[email|betrieb-alarm@weidenhof-logistik.de]]"],
  "client_id": "[[uuid|c0320ca5-a298-4285-bbc2-4df4d56615d5]]",
  "slack_token": "[[api-key|xoxb-835378067787-4079271884708-4OrGTFQOetvRIZHywWXohkQD]]",
  "broker": "[[url-credentials|amqps://hooks:Tf6-qW2rZp8@mq.weidenhof-logistik.de:5671]]",
  "treasury_wallet": "[[crypto-wallet|0x66d463AdaD31cdD47D016E220c4CF6B6899F8670]]",
  "allowed_ips": ["[[ip-address|18.156.42.7]]", "[[ip-address|2a05:d014:c2e:8a00::2f]]"],
  "retry": {"max": 5, "backoff_ms": 250}
}
"""),

# ---------------------------------------------------------------- document (25)

("document", r"""
PERSONALFRAGEBOGEN
Name: [[name|Müller-Lüdenscheidt]]        Vorname: [[name|Sabine]]
Geburtsdatum: [[date-of-birth|14.03.1987]]        Geburtsort: {{place-name|Bielefeld}}
Anschrift: [[address|Detmolder Str. 211, 33604 Bielefeld]]
Telefon: [[phone|0521 9874 3310]]        Mobil: [[phone|0170 3318442]]
Bankverbindung: [[iban|DE10 4405 0199 9134 0789 57]]
Eintrittsdatum: {{date|01.09.2024}}
"""),

("document", r"""
{{section-number|§ 7 Abs. 2}} Zahlungsbedingungen. Der Auftraggeber zahlt die Vergütung innerhalb von dreißig (30) Tagen nach Rechnungsdatum.
Verzugszinsen betragen {{percentage|9 Prozentpunkte}} über dem Basiszinssatz ({{section-number|§ 288 Abs. 2 BGB}}). Auslagen werden gemäß {{section-number|Ziff. 7.2.2}} erstattet.
"""),

("document", r"""
LEBENSLAUF
[[name|Katharina von der Heyde]]
Geboren am [[date-of-birth|5. Juli 1990]] in {{place-name|Münster}}
[[address|Kanalstraße 44, 48147 Münster]] · [[phone|+49 251 6203 7741]] · [[email|k.vonderheyde@mailbox.org]]
[[url|https://www.xing.com/profile/Katharina_vonderHeyde]]
BERUFSERFAHRUNG
2019–heute  Senior Data Scientist, {{organisation|Fraunhofer IAIS}}, Sankt Augustin
"""),

("document", r"""
RECHNUNG Nr. {{invoice-number|2024-0417}}                Datum: {{date|14.05.2024}}
{{organisation|Schreinerei Holzwurm GmbH}} · [[address|Gewerbestraße 6, 82152 Planegg]]
An: Frau [[name|Eilika Brandl]], [[address|Würmtalstraße 3, 81375 München]]
Eichenregal nach Maß ........ {{money|1.480,00 €}}
zzgl. {{percentage|19 %}} MwSt. ........ {{money|281,20 €}}
Bitte überweisen Sie an [[iban|DE89 5505 0120 9888 2062 54]] unter Angabe der Rechnungsnummer. Rückfragen: [[name|Korbinian Stadler]], [[phone|089 8597 3320]]
USt-IdNr.: {{other=USt-IdNr. (Firma)|DE284619357}} · {{other=Handelsregisternummer|HRB 228417}}
"""),

("document", r"""
## Konfiguration
Setze deinen Schlüssel als Umgebungsvariable, bevor du startest:
    export API_KEY={{example-key|sk-...dein-key-hier}}
Benötigt Python ≥ {{version|3.11}}. Tests mit `make test`, der Coverage-Report landet in {{file-name|htmlcov/index.html}}.
"""),

("document", r"""
MIETVERTRAG (Auszug)
Zwischen [[name|Gerhard Lindner]], [[address|Kastanienweg 2, 53111 Bonn]] (Vermieter), und [[name|Elif Aksoy]] sowie [[name|Tim Neumann]] (Mieter) wird folgender Vertrag über die Wohnung [[address|Poppelsdorfer Allee 61, 53115 Bonn]], 3. OG rechts, geschlossen.
Kaltmiete: {{money|890,00 €}}, Nebenkostenvorauszahlung: {{money|210,00 €}}. Die Kaution (drei Nettokaltmieten) ist zu zahlen auf [[iban|DE16 3605 0105 4448 5181 57]].
"""),

("document", r"""
Datenblatt – Artikelnr. {{product-code|WX-4471-22-C}}
Firmware {{version|2.1.0.7}} · SNMP-Enterprise-OID {{oid|1.3.6.1.4.1.4491.2.1}} · Toleranz ±{{math|0,005}} mm · Betrieb −20 bis 60 °C
Handbuch: ISBN {{isbn|978-3-8362-1047-8}}
"""),

("document", r"""
PATIENTENAUFNAHME – {{organisation|Hausarztpraxis am Ring}}
Patient: [[name|Giuseppe Russo]]        geb.: [[date-of-birth|27.02.1974]]
Anschrift: [[address|Eigelstein 112, 50668 Köln]]
Telefon: [[phone|0221 1397 5520]]        Mobil (Italien): [[phone|+39 347 218 9930]]
Karte für Selbstzahlerleistungen: [[credit-card|4345 9565 3472 4462]]
Hausärztin: Dr. [[name|Evelyn Krämer]]
"""),

("document", r"""
Herrn
[[name|Wolfgang Strauß]]
[[address|Am Rosengarten 7
37085 Göttingen]]

Unser Zeichen: {{other=Aktenzeichen|VS-4471/2024-kl}}
Sehr geehrter Herr [[name|Strauß]],
wir haben Ihren Antrag auf Übertragung Ihres Vertrags (Vertragsnr. {{account-number|LV-00328817}}) erhalten. Bitte bestätigen Sie das Empfängerkonto [[iban|DE67 6805 0101 2024 2130 75]].
Bei uns ist Ihr Geburtsdatum mit [[date-of-birth|8. Januar 1959]] gespeichert; falls das nicht stimmt, rufen Sie uns gebührenfrei an: [[phone|0800 3311 220]].
"""),

("document", r"""
Aufgabe 3. a) Zeigen Sie, dass die Reihe gegen {{math|3,14159}} konvergiert (fünf Nachkommastellen).
b) Schätzen Sie den Fehler für ε = {{math|1e-9}} ab. Punkte: 12. Siehe auch Übung {{section-number|4.2.1.5}}.
"""),

("document", r"""
Protokoll – Lieferantenrunde, {{date|18.04.2024}}
Anwesend: [[name|Harald Jung]], [[name|Deniz Aydoğan]], [[name|Marie-Luise Fischer]]
– [[name|Deniz]] schickt Plan zur Key-Rotation (alter Stripe-Key [[api-key|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]] war im Chat gepostet – inzwischen rotiert)
– [[name|Harald]]: Vertrag mit {{organisation|Carl Zeiss AG}} verlängern, {{money|48 T€}}
– Neuer Standort [[address|Theresienhöhe 12, 80339 München]], Mietvertrag unterschrieben
– Nächster Termin {{date|16.05.}}
"""),

("document", r"""
## Unterstütze das Projekt
Wenn dir das Tool Zeit gespart hat, freue ich mich über eine Spende:
- BTC: [[crypto-wallet|bc1q6ejp2vz6ctnh092hqjgfkxnssw20j0j2xukmth]]
- ETH: [[crypto-wallet|0x3218452A2d83F2844A2F9796a56cc8f33541F87A]]
- LTC: [[crypto-wallet|MKQminhdTQ1oWt8b1JNKtEda5uTVjwqEjQ]]
- DOGE: [[crypto-wallet|D8Q52hAScvk2uhjUUR2mMbfJFqLVyyKhoj]]
- SEPA: [[iban|DE64 5005 0201 1185 4977 78]]
Maintainer: [[name|Torben Ahlers]] ([[email|torben@ahlers.dev]]) · Doku: [[url|https://ahlers.dev/logschnitt/]]
"""),

("document", r"""
Rechnungsnr. {{invoice-number|2024-11-00912}}    Bestellnr. {{order-number|4500219903}}
Beratungsleistungen Oktober .......... {{money|12.480,00 €}}
Kundennummer {{account-number|10012-448799}} · Zahlungsziel 30 Tage · {{percentage|2 %}} Skonto bei Zahlung bis {{date|15.12.2024}}
"""),

("document", r"""
FATCA-Selbstauskunft (Auszug) – {{organisation|Volksbank Mittelhessen}}
Name: [[name|Jennifer Albrecht]], geb. [[name|Miller]]
Geburtsdatum: [[date-of-birth|19.08.1986]]        US-Staatsbürgerschaft: ja
US-Steuer-ID (SSN/ITIN): [[ssn|774-52-9936]]
Ehegatte (ebenfalls US-Person): [[name|Thomas Albrecht]], SSN [[ssn|715-01-6542]]
Wohnsitz: [[address|Schiffenberger Weg 48, 35394 Gießen]]
Frühere US-Adresse: [[address|1207 Elm St, Apt 2, Cincinnati, OH 45202]]
"""),

("document", r"""
MANDANTENSTAMMBLATT – Einkommensteuer 2023 (US-Bezug)
Mandant: [[name|Michael O'Connor]], geb. [[date-of-birth|12.05.1979]], SSN [[ssn|042-04-6111]]
Ehegattin: [[name|Laura O'Connor-Weiß]], geb. [[date-of-birth|30.03.1981]], SSN [[ssn|525-38-0950]]
Anschrift: [[address|Hauptstraße 112, 66849 Landstuhl]]
Telefon: [[phone|06371 6189 204]] · US-Handy [[phone|+1 (843) 412-7719]]
"""),

("document", r"""
## {{version|v5.3.0}} – {{date|01.08.2024}}
- Absturz beim Laden von {{file-name|avatar@3x.png}} auf Retina-Displays behoben
- OpenSSL auf {{version|3.0.14}} aktualisiert
- Karte springt nach der Suche nicht mehr auf {{coordinates|52.5163° N, 13.3777° O}} zurück
- Neue Migration {{digit-run|20240802093012}} legt einen Index auf auftraege.erstellt_am an
"""),

("document", r"""
Gästeliste Einladungen (final)
1. Familie [[name|Winkler]] – [[address|Lerchenweg 4, 31134 Hildesheim]]
2. [[name|Mai Nguyen]] & [[name|Ben Stein]] – [[address|Sonnenallee 210, 12059 Berlin]]
3. Tante [[name|Frieda]] – [[address|Kirchgasse 1, 97199 Ochsenfurt]]
4. [[name|Jacques Dubois]] – [[address|8 rue des Tanneurs, 67000 Strasbourg, Frankreich]]
"""),

("document", r"""
SEPA-LASTSCHRIFTMANDAT
Zahlungsempfänger: {{organisation|Fitnessstudio Kraftwerk GmbH}}, [[address|Industriestraße 40, 44137 Dortmund]]
Gläubiger-ID: {{other=SEPA-Gläubiger-Identifikationsnummer|DE71ZZZ00001847263}}    Mandatsreferenz: {{other=Mandatsreferenz|KW-0044172}}
Kontoinhaber: [[name|Lorenz Fabian]]
IBAN: [[iban|DE70 6405 0000 2593 3048 02]]
Alternativ Kreditkarte: [[credit-card|3451 766533 99115]] (Amex), gültig bis {{date|04/28}}
{{place-name|Dortmund}}, {{date|12.06.2024}}
"""),

("document", r"""
{{section-number|§ 12}} Vertraulichkeit
(1) Keine Partei gibt vertrauliche Informationen der anderen Partei weiter, soweit nicht nach {{section-number|§ 12 Abs. 1 Nr. 3}} erlaubt.
(3) Es gilt das Recht der Bundesrepublik Deutschland; Gerichtsstand ist {{place-name|Frankfurt am Main}}.
"""),

("document", r"""
Telefonliste Vertrieb (intern)
Name | Funktion | Durchwahl | Mobil
[[name|Bernd König]] | Vertriebsleitung | -{{digit-run|210}} | [[phone|0172 4419 830]]
[[name|Ingrid Kaiser]] | Key Account | -{{digit-run|214}} | [[phone|0175 2287 1190]]
[[name|Dariusz Nowak]] | Technik (Polen) | -{{digit-run|231}} | [[phone|+48 601 227 904]]
Zentrale: [[phone|0711 22364-0]]
"""),

("document", r"""
AUSLANDSÜBERWEISUNG
Begünstigter: {{organisation|Harrow Precision Ltd}}
Anschrift: [[address|Unit 7, Bridge Industrial Estate, Sheffield S9 3LQ, United Kingdom]]
IBAN: [[iban|GB46 BUKB 2020 1515 5334 12]]    BIC: {{other=BIC|BUKBGB22}}
Auftraggeberkonto: [[iban|DE31 1009 0000 4483 2298 68]]    Gebühren zulasten Firmenkarte [[credit-card|5444 6576 3146 3270]]
Betrag: {{money|GBP 18.400,00}}    Verwendungszweck: {{invoice-number|INV-2024-0712}}
Freigabe: [[name|Claudia Reinhardt-Özdemir]]
"""),

("document", r"""
## Schnellstart (intern)
```
export DB_URL=[[url-credentials|mysql://root:Tannenbaum2023@10.20.8.21:3306/lager]]
export CACHE_URL=[[url-credentials|memcached://svc:Qm7wP2xz@10.20.8.22:11211]]
export BROKER_URL=[[url-credentials|amqp://lager:Vk3-pR8wq@10.20.8.23:5672/lager]]
export NPM_TOKEN=[[api-key|npm_lW3p1y9UgOCrW7cqnhKVnARTATIUWRxQDrTq]]
./start.sh --seed
```
TODO vor Veröffentlichung durch Platzhalter ersetzen – [[name|Till]]
"""),

("document", r"""
PACKLISTE – Palette 3/7
NVE {{tracking-number|340123450000001233}} · Zolltarifnummer {{product-code|8471 30 00}}
Brutto {{digit-run|412,5}} kg · Lager {{coordinates|51.3397° N, 12.3731° O}}
"""),

("document", r"""
STIPENDIENANTRAG – Internationale Studierende
Name: [[name|Amani Wanjiru]]
Geburtsdatum: [[date-of-birth|17.09.2001]]
Heimatadresse: [[address|Kindaruma Road 14, Kilimani, Nairobi 00100, Kenia]]
Telefon: [[phone|+254 712 448 903]]    E-Mail: [[email|amani.wanjiru@uonbi.ac.ke]]
Portfolio: [[url|https://amaniwanjiru.gitlab.io/forschung]]
Bewerbungsgebühr per Karte: [[credit-card|6532 6254 2139 7827]]    Stipendienkonto: [[iban|DE28 8305 0000 1300 4773 22]]
Gutachter: Prof. Dr. [[name|Wilhelm Brückner]]
"""),

("document", r"""
Vereinsprotokoll: Antrag mit 5:2 angenommen. Haushalt {{money|214.000 €}} beschlossen; Rücklage {{percentage|12 %}}.
Nächste Sitzung am {{date|3.10.}} um {{time|19 Uhr}} im Gemeindesaal am {{place-name|Goetheplatz}}.
"""),

]
