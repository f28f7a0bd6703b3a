"""The concept lexicon: the words an injection is made of, in thirteen languages.

A *concept* is one idea an instruction to a model is built from ("ignore", "earlier",
"instructions", "the system prompt", "without restrictions", "an AI reading this"),
listed per language as stems: ``|`` separates terms, a term matches where a word
starts and may go on (``anweisung`` matches ``Anweisungen``), a space in a term stands
for any gap of up to three non-letters or none (``system prompt`` matches
``System-Prompt`` and ``Systemprompt``), and a term ending in ``$`` must end a word. In
Chinese, Japanese, Korean and Arabic a term matches anywhere (words run together or take
clitics). ``concepts.CONCEPT_RULES`` says which concepts, found close together, make an
attack. Data only (it is longer than a module should be because it is one table).

Languages: en, de, fr, es, it, pt, nl, ru, zh, ja, ko, ar, tr.
"""

from __future__ import annotations

from typing import Final

#: Languages whose terms match anywhere, not only where a word starts.
UNBOUNDED: Final = frozenset({"zh", "ja", "ko", "ar"})

LEXICON: Final[dict[str, dict[str, str]]] = {
    # -- overriding instructions
    "IGNORE": {
        "en": "you no longer have to follow|you don't have to follow|you do not have to follow|you don't need to follow|ignore$|disregard$|forget$|pay no attention"
              "|stop following|do not follow|dont follow|don't follow|no longer follow|throw away"
              "|set aside|discard$",
        "de": "musst nicht mehr|brauchst nicht mehr|musst dich nicht mehr an|halte dich nicht mehr an|nicht mehr an die|ignorier|vergiss|vergessen sie|missacht|übergeh|setze außer kraft|setz außer kraft"
              "|hinwegsetz|nicht mehr befolg|nicht befolg|verwirf|verwerf|über bord",
        "fr": "mets de côté|mettez de côté|ignorez$|n'as plus à suivre|n'es plus obligé de suivre|ne respecte plus|ne respectez plus|ignore$|ignorez$|ignorer$|oublie|oubliez|oublier|ne tiens pas compte|ne tenez pas compte"
              "|fais abstraction|faites abstraction|contourne|outrepasse|passe outre|passez outre"
              "|ne suis plus|ne suivez plus|écarte|écartez",
        "es": "ignorad$|no tenés que seguir|no tienes que seguir|ya no tienes que seguir|ya no sigas|no respetes|ignora$|ignore$|ignorar$|ignoren$|ignorá|olvida|olvide|olvidar|omite|omitir|haz caso omiso"
              "|no hagas caso|no sigas|deja de seguir|descarta|descartar|pasa por alto|salta",
        "it": "ignorate$|non devi più seguire|non sei più tenuto a|non rispettare più|ignora$|ignori$|ignorare$|dimentica|dimentichi|dimenticare|tralascia|trascura|non seguire"
              "|smetti di seguire|scavalca|bypassa|non tenere conto|lascia perdere|scarta",
        "pt": "ignorem$|não precisa mais seguir|não precisa seguir|nao precisa mais seguir|não tem que seguir|deixe de lado|ignore$|ignora$|ignorar$|esqueça|esquece|esquecer|desconsidere|desconsiderar"
              "|desconsidera|não siga|deixe de seguir|descarte|descartar|passe por cima|pule",
        "nl": "negeren$|hoeft niet meer te volgen|hoeft je niet meer aan|hoef je je niet|hoef je niet meer|hoef je niet te|houd je niet meer aan|negeer|negeren|vergeet|vergeten|niet meer volgen|volg niet|omzeil|sla over|gooi weg"
              "|laat varen|houd geen rekening|negeert",
        "ru": "не обязан следовать|не нужно следовать|больше не следуй|не придерживайся|не применяй|не следовать|не следуй|игнорир|проигнорир|забудь|забудьте|забыть|не обращай внимани|не обращайте внимани"
              "|не следуй|перестань следовать|отбрось|отбросьте|обойди|пропусти|отмени|нарушь",
        "zh": "不用再遵守|不必遵守|不用遵守|不需要遵守|不再遵循|忽略|无视|無視|忘记|忘掉|忘了|不要理会|不用理会|别管|跳过|绕过|抛开|抛弃|不再遵守|不要遵守"
              "|不用再考虑|不再考虑|不要遵循|作废|推翻",
        "ja": "脇に置|わきに置|棚上げ|気にしなくて|気にしないで|従わなくても|忘れろ|忘れなさい|忘れる|従う必要はない|守る必要はない|従わなくていい|守らなくていい|無視|忘れて|忘れろ|従わないで|従う必要はありません|従わなくて|破棄|取り消して|スキップ",
        "ko": "신경 안 쓰|신경 쓰지 마|신경 쓰지 않|신경 끄|따를 필요 없|지킬 필요 없|따르지 않아도|지키지 않아도|무시|잊어|잊고|잊으|따르지 마|따르지 말|건너뛰|폐기|우회",
        "ar": "لست مضطرا|لست مضطرًا|لا داعي لاتباع|لا تلتزم|مش لازم تلتزم|تجاهل|تجاهلي|تناس|انس |إنس|انسى|لا تلتزم|لا تتبع|تخط|تجاوز|اترك|اهمل|أهمل|تحاهل|اتلغت"
              "|ألغ|الغ",
        "tr": "uymak zorunda değilsin|uymana gerek yok|uyma artık|yok say|görmezden gel|gormezden gel|unut$|unutun$|unutsun|unutmalısın|unutacaksın|unutarak|unuttun|dikkate alma|uyma|atla|çiğne|geçersiz say"
              "|bir kenara bırak|umursama|aldırma",
    },
    "PRIOR": {
        "en": "previous|prior|preceding|above|earlier|original|initial|old |before this|so far"
              "|existing|current",
        "de": "vorherig|vorige|bisherig|obige|oben genannt|früher|ursprünglich|alte |alten |bestehend"
              "|vorangegangen|vorausgegangen|aktuell|davor",
        "fr": "précédent|antérieur|ci dessus|plus haut|initial|originel|original|ancien|jusqu'ici"
              "|actuel|existant",
        "es": "anterior|previa|previo|precedente|de arriba|inicial|original|antigu|hasta ahora|actual"
              "|existente",
        "it": "precedent|anterior|di sopra|sopra indicat|iniziali|originali|original|vecchi|finora"
              "|attuali|esistent",
        "pt": "anterior|prévi|precedente|acima|inicia|original|antig|até agora|atua|existente",
        "nl": "vorige|eerdere|voorgaande|bovenstaande|oorspronkelijk|originele|oude |tot nu toe"
              "|huidige|bestaande",
        "ru": "предыдущ|прежн|предшествующ|вышеуказанн|выше|исходн|изначальн|старые|старых|текущ"
              "|до этого|ранее|первоначальн",
        "zh": "之前|以前|先前|此前|前面|上面|上述|原来|原有|原先|原始|初始|旧的|目前的|现有",
        "ja": "以前|これまで|先ほど|前の|上記|元の|最初の|初期|既存|今まで|従来",
        "ko": "이전|앞의|앞서|위의|기존|원래|처음|초기|지금까지|예전",
        "ar": "السابق|القديم|الأصلي|الأولية|الاصلي|أعلاه|اعلاه|المسبق|الحالي|من قبل|قبل ذلك|قديمة",
        "tr": "önceki|onceki|evvelki|yukarıdaki|yukaridaki|orijinal|ilk |eski |şimdiye|mevcut|asıl",
    },
    "INSTR": {
        "en": "instruction|guideline|directive|system prompt|prompt$|prompts$|programming|rules$"
              "|configuration|guardrail|system message|restriction",
        "de": "anweisung|vorgabe|richtlinie|regeln$|regel$|instruktion|systemprompt|system prompt"
              "|anleitung|direktive|programmierung|konfiguration|einschränkung|beschränkung|prompt$"
              "|systemanweisung|systemnachricht|bewertungsschema",
        "fr": "instruction|consigne|directive|règle|regle|prompt|programmation|configuration"
              "|restriction|invite système|message système|garde fou",
        "es": "instrucci|indicacion|directriz|directrices|directiva|regla|normas|prompt|programaci"
              "|configuraci|restricci|mensaje del sistema",
        "it": "istruzion|indicazion|direttiv|linee guida|regol|prompt|programmazion|configurazion"
              "|restrizion|messaggio di sistema",
        "pt": "o que te pediram|o que te mandaram|o que te disseram|o que lhe pediram|o que lhe disseram|o que lhe foi dito|que te deram|que lhe deram|que lhe foram dadas|instruç|instrucoes|instrucao|diretriz|diretiva|regra|prompt|programaç|configuraç"
              "|restriç|orientaç|mensagem do sistema",
        "nl": "instructie|richtlijn|regels|regel$|prompt|programmering|configuratie|beperking"
              "|systeembericht|opdrachten|aanwijzing",
        "ru": "рамок|рамки|критерии|политике использования|политика использования|инструкци|указани|директив|правил|промпт|программировани|настройк|ограничени"
              "|системное сообщение|системные сообщения|установк|предписани",
        "zh": "条条框框|框框|指令|指示|说明|規則|规则|提示词|提示語|提示语|系统提示|系統提示|设定|設定|限制|准则|準則"
              "|规定|要求|配置|评审标准|标准",
        "ja": "指図|言いつけ|言われたこと|与えられた指示|渡された指示|指示|命令|ルール|規則|プロンプト|設定|制限|ガイドライン|指針|システムメッセージ|方針",
        "ko": "지시|지침|규칙|명령|프롬프트|설정|제한|가이드라인|시스템 메시지|기준",
        "ar": "تعليمات|التعليمات|الأوامر|اوامر|أوامر|قواعد|القواعد|إرشادات|ارشادات|توجيهات|موجه|موجّه"
              "|البرومبت|برومبت|الإعدادات|اعدادات|القيود|سياسات|معايير|الضوابط|التوجيهات",
        "tr": "talimat|yönerge|yonerge|kural|komut|istem$|istemi$|istemin|istemde|istemler|prompt|ayar|kısıtlama|kisitlama|direktif"
              "|sistem mesaj|yapılandırma",
    },
    "STRONGINSTR": {
        "en": "instruction|directive|guideline|system prompt|prompt$|programming",
        "de": "anweisung|vorgabe|instruktion|systemprompt|direktive|richtlinie|systemanweisung",
        "fr": "instruction|consigne|directive|prompt",
        "es": "instrucci|indicacion|directriz|directrices|directiva|prompt",
        "it": "istruzion|indicazion|direttiv|prompt",
        "pt": "instruç|instrucoes|instrucao|diretriz|diretiva|prompt|orientaç",
        "nl": "instructie|richtlijn|prompt|aanwijzing",
        "ru": "инструкци|указани|директив|промпт|предписани",
        "zh": "指令|指示|提示词|提示语|设定|設定",
        "ja": "指示|命令|プロンプト|指針",
        "ko": "지시|지침|명령|프롬프트",
        "ar": "تعليمات|التعليمات|الأوامر|اوامر|أوامر|توجيهات|موجه|موجّه|البرومبت|برومبت|التوجيهات",
        "tr": "talimat|yönerge|yonerge|komut|istem$|istemi$|istemin|istemde|istemler|prompt|direktif",
    },
    "SYSPROMPT": {
        "en": "everything above this|the text above|above this message|before my first message|system prompt|system message|system instructions|initial instructions|hidden instructions"
              "|developer instructions|initialization text|initial prompt|configuration prompt"
              "|your instructions|the instructions you were given|the rules you were given"
              "|what you were told|text above|words above|everything above",
        "de": "text über dieser nachricht|über dieser nachricht|vor meiner ersten nachricht|oben stehenden text|systemprompt|system prompt|systemnachricht|systemanweisung|systeminstruktion"
              "|versteckte anweisung|versteckten anweisung|versteckten regeln|deine anweisungen"
              "|ihre anweisungen|deinen prompt|prompt datei|initialen anweisungen|entwickleranweisung",
        "fr": "texte situé au dessus|au dessus de ce message|avant mon premier message|tout ce qui précède|prompt système|prompt systeme|prompt du système|invite système|message système"
              "|instructions système|instructions initiales|instructions cachées|tes instructions"
              "|vos instructions|ton prompt|votre prompt|instructions du développeur",
        "es": "encima de este mensaje|antes de mi primer mensaje|texto de arriba|lo que está arriba|prompt del sistema|prompt de sistema|mensaje del sistema|instrucciones del sistema"
              "|instrucciones iniciales|instrucciones ocultas|tus instrucciones|sus instrucciones"
              "|tu prompt|su prompt|instrucciones del desarrollador",
        "it": "sopra questo messaggio|prima del mio primo messaggio|testo sopra|si trova sopra|prompt di sistema|prompt del sistema|messaggio di sistema|istruzioni di sistema"
              "|istruzioni iniziali|istruzioni nascoste|tue istruzioni|sue istruzioni|tuo prompt"
              "|istruzioni dello sviluppatore",
        "pt": "que te escreveram|lhe foi escrito|te escreveram antes|acima desta mensagem|antes da minha primeira mensagem|texto acima|escrito antes|prompt do sistema|prompt de sistema|mensagem do sistema|instruções do sistema"
              "|instrucoes do sistema|instruções iniciais|instruções ocultas|suas instruções"
              "|tuas instruções|seu prompt|instruções do desenvolvedor",
        "nl": "boven dit bericht|voor mijn eerste bericht|tekst hierboven|hierboven staat|systeemprompt|systeem prompt|systeembericht|systeeminstructie|verborgen instructie"
              "|je instructies|jouw instructies|uw instructies|je prompt|ontwikkelaarsinstructie"
              "|initiële instructie",
        "ru": "системная подсказка|системную подсказку|скрытые инструкции|что тебе запретили|конфиг|над этим сообщением|до моего первого сообщения|текст выше|всё, что выше|системный промпт|системного промпта|системный промт|системную подсказку"
              "|системные инструкции|системных инструкций|системное сообщение|скрытые инструкции"
              "|твои инструкции|ваши инструкции|твой промпт|ваш промпт|исходные инструкции"
              "|инструкции разработчик",
        "zh": "上面的文字|以上内容|我第一条消息之前|之前的全部内容|你的初始指令|初始指令|系统提示|系統提示|系统指令|系統指令|系统设定|系统消息|初始指令|初始提示|开发者指令|隐藏指令"
              "|你的指令|你的提示词|你的设定|你的规则|系统 prompt|system prompt",
        "ja": "このメッセージより前|最初のメッセージより前|上の文章|上記の文章|初期設定|システムプロンプト|システム プロンプト|システムメッセージ|システム指示|初期指示|初期プロンプト"
              "|隠された指示|開発者の指示|開発者指示|あなたの指示|あなたのプロンプト|あなたの設定",
        "ko": "대화가 시작되기 전|너한테 주어진|당신에게 주어진|네가 지키는 규칙|너가 지키는 규칙|비밀로 하라고|이 메시지 위|첫 메시지 이전|위의 텍스트|위에 있는|시스템 프롬프트|시스템프롬프트|시스템 메시지|시스템 지시|시스템 지침|초기 지시|숨겨진 지시"
              "|개발자 지시|개발자 지침|너의 지시|당신의 지시|너의 프롬프트|당신의 프롬프트",
        "ar": "النص الموجود قبل|قبل بداية محادثتنا|النص أعلاه|قبل أول رسالة|موجه النظام|موجّه النظام|رسالة النظام|تعليمات النظام|التعليمات النظامية|التعليمات الأولية"
              "|التعليمات المخفية|تعليمات المطور|تعليماتك|البرومبت بتاعك|البرومبت الخاص|موجهك"
              "|system prompt",
        "tr": "bu mesajın üstündeki|ilk mesajımdan önce|yukarıdaki metin|yukarıda yazan|sistem istemi|sistem istem|sistem mesajı|sistem talimat|gizli talimat|ilk talimat"
              "|talimatların|geliştirici talimat|sistem prompt",
    },
    "REVEAL": {
        "en": "reveal$|print$|output$|repeat$|display$|show$|tell me|give me|list$|dump$|recite$"
              "|disclose$|spell out|write out|paste$|copy$|translate$",
        "de": "zeig|gib aus|gib mir|gebt|ausgeben|verrat|wiederhol|nenn|liste|kopier"
              "|füge ein|einfügen|übersetz|offenleg|preisgeb|teile mit|ausgib|druck",
        "fr": "affiche|révèle|revele|montre|donne moi|donne-moi|donnez|imprime|répète|repete"
              "|recopie|copie|colle|traduis|liste|divulgue|dévoile|devoile",
        "es": "muestra|muéstra|revela|imprime|repite|dame|dime|copia|pega|traduce|lista"
              "|enumera|divulga|enseña|expón",
        "it": "mostra|rivela|stampa|ripeti|dammi|dimmi|copia|incolla|traduci|elenca"
              "|divulga|visualizza|riporta|fornisci",
        "pt": "me passa|me passe|passe-me|passa-me|me conta|me conte|copia|transcrev|mostra-me|diz-me|mostre|mostra|revele|revela|imprima|repita|me dê|me de |diga|copie|cole"
              "|traduza|traduz$|liste|divulgue|exiba|exibe|forneça",
        "nl": "toon|laat zien|geef|onthul|print|herhaal|kopieer|plak|vertaal|noem|som op"
              "|deel ",
        "ru": "скопируй|перечисли|выведи|собери|покажи|покажите|выведи|выведите|раскрой|раскройте|напечатай|повтори|дай"
              "|скопируй|вставь|переведи|перечисли|озвучь|сообщи|процитируй|выдай",
        "zh": "输出|輸出|显示|顯示|告诉我|告訴我|给我|发给我|打印|重复|列出|复述|透露|泄露|展示|粘贴|贴出"
              "|翻译|念|原文",
        "ja": "表示する|見せる|見せろ|教えろ|教える|示して|書き写|貼って|載せて|明かして|明かす|公開して|表示して|出力|教えて|見せて|開示して|繰り返|書き出|貼り付け|コピー|翻訳|列挙|共有して|提示して",
        "ko": "써 줘|적어 줘|정리해 줘|그대로 출력|보여|출력|알려|공개해|반복|적어|붙여|복사|번역|나열|드러내|제시해",
        "ar": "اعرض|أظهر|اظهر|اطبع|اكشف|أخبرني|اخبرني|أعطني|اعطني|كرر|اكتب|انسخ|الصق|ترجم|اذكر"
              "|قل لي|2olly|ورّيني|وريني|يعرض|يكشف",
        "tr": "göster|goster|yazdır|yazdir|açıkla|acikla|söyle|soyle|tekrarla|kopyala"
              "|yapıştır|çevir|listele|paylaş|ifşa",
    },
    "VERBATIM": {
        "en": "code block|in a code block|verbatim|word for word|in full|full text|exact|unredacted|complete|entire|whole",
        "de": "codeblock|code block|wortwörtlich|wörtlich|wortlaut|vollständig|komplett|ungekürzt|ganze|gesamte",
        "fr": "bloc de code|sans rien omettre|mot pour mot|textuellement|intégral|integral|en entier|complet|exact|tel quel",
        "es": "bloque de código|sin omitir|palabra por palabra|textualmente|literal|íntegr|complet|entero|exact|tal cual",
        "it": "blocco di codice|senza omettere|parola per parola|testualmente|letteral|integral|complet|intero|esatt|così com",
        "pt": "bloco de código|sem omitir|palavra por palavra|textualmente|literal|íntegr|complet|inteir|exat|tal como",
        "nl": "codeblok|zonder iets weg te laten|woord voor woord|letterlijk|volledig|compleet|integraal|exact|hele ",
        "ru": "блок кода|ничего не пропуская|дословно|слово в слово|полностью|целиком|полный|полную|точн|без сокращени",
        "zh": "代码块|不要总结|逐句|逐字|原文|完整|全部|一字不|一条都不要漏|照原样|所有的|全文",
        "ja": "コードブロック|省略せず|逐語|一字一句|そのまま|全文|完全|すべて|全て|原文",
        "ko": "끝까지|코드 블록|생략하지|그대로|원문|전부|전체|모두|빠짐없이|한 글자도",
        "ar": "كتلة كود|كتلة برمجية|دون اختصار|حرفي|بالحرف|كاملا|كاملًا|كاملة|بالكامل|بنصها|كما هو|زي ما هو|من أول كلمة|دون حذف"
              "|من غير اختصار|كله",
        "tr": "kod bloğu|atlamadan|kelimesi kelimesine|harfiyen|tamamen|eksiksiz|tam metin|tamamını|aynen|olduğu gibi",
    },
    # -- lifting the rules
    "NOREFUSE": {
        "en": "without moralis|without moraliz|stopping to moralis|stopping to moraliz|saying no is not an option|no is not an option|refusals are forbidden|never refuse|do not refuse|don't refuse|dont refuse|not refuse|must not refuse"
              "|cannot refuse|no refusals|without refusing|never decline|do not decline|don't decline"
              "|don't say you can't|dont say you cant|do not say you cannot|never say you"
              "|don't apologi|dont apologi|do not apologi|never apologi|no apologi|no disclaimers"
              "|no warnings|without warnings|without disclaimers|no caveats|without caveats"
              "|never add warnings|never adds warnings|don't add warnings|do not add warnings"
              "|never includes warnings|don't mention policies|no moraliz|don't lecture|never lecture"
              "|not allowed to refuse|refusals are|never break character",
        "de": "ablehnungen sind verboten|ablehnen ist verboten|niemals ablehn|nie ablehn|nicht ablehn|nichts ablehn|keine ablehnung|lehne nie"
              "|lehnst nie|lehnst du nie|lehnst du niemals|lehne niemals|verweigere nie|nicht verweiger|keine anfrage ablehn"
              "|keine anfrage des nutzers ablehn|entschuldige dich nicht|keine entschuldigung"
              "|keine warnungen|keine warnhinweise|ohne warnhinweise|ohne warnung|keine hinweise auf"
              "|keinen disclaimer|keine disclaimer|ohne disclaimer|ohne ausreden|kein das kann ich nicht"
              "|sagt niemals, dass etwas nicht geht|sag nie, dass|sagst nie|darfst nichts ablehn"
              "|dürfen keine warn|ablehnen willst|ohne moralpredigt|keine moralpredigt"
              "|kein es tut mir leid",
        "fr": "les refus sont interdits|refuser est interdit|ne refuse jamais|ne refusez jamais|ne jamais refuser|ne refuse pas|ne refusez pas"
              "|refus interdit|sans refuser|ne t'excuse pas|ne vous excusez pas|pas d'excuses"
              "|sans excuses|sans avertissement|aucun avertissement|pas d'avertissement"
              "|sans mise en garde|aucune mise en garde|ne dis jamais que tu ne peux pas"
              "|ne dis pas que tu ne peux pas|sans avertissements|pas de morale|sans morale"
              "|sans disclaimer|aucun disclaimer|ne jamais décliner|ne décline jamais",
        "es": "negarse está prohibido|las negativas están prohibidas|nunca te niegues|no te niegues|nunca rechaces|no rechaces|nunca rehúses|no rehúses"
              "|sin negarte|no te disculpes|sin disculpas|nunca te disculpes|sin advertencias"
              "|ninguna advertencia|sin avisos|no digas que no puedes|nunca digas que no puedes"
              "|sin sermones|no me sermonees|sin descargos|sin moralinas|prohibido negarse"
              "|no puedes negarte",
        "it": "i rifiuti sono vietati|rifiutare è vietato|non rifiutare mai|mai rifiutare|non rifiutare|non rifiutarti|senza rifiutare"
              "|non scusarti|niente scuse|senza scuse|senza avvertenze|nessuna avvertenza"
              "|senza avvisi|nessun avviso|non dire che non puoi|mai dire che non puoi"
              "|senza prediche|niente prediche|senza disclaimer|nessun disclaimer|vietato rifiutare",
        "pt": "não pode recusar|não podes recusar|não pode se recusar|não pode dizer não|sem pedir desculpa|nem recusas|sem recusa|recusas são proibidas|nada de recusas|sem recusas|nunca recuse|não recuse|nao recuse|nunca se recuse|não se recuse|sem recusar"
              "|não peça desculpas|nao peca desculpas|sem desculpas|sem avisos|nenhum aviso"
              "|sem advertências|sem advertencias|não diga que não pode|nunca diga que não pode"
              "|sem sermões|sem sermao|sem disclaimer|proibido recusar|nunca negue|não negue",
        "nl": "weigeren is verboden|geen weigeringen|weiger nooit|nooit weigeren|niet weigeren|weiger niet|zonder te weigeren"
              "|verontschuldig je niet|geen excuses|zonder excuses|geen waarschuwingen"
              "|zonder waarschuwingen|geen waarschuwing|zeg niet dat je het niet kunt"
              "|zeg nooit dat je|geen disclaimers|zonder disclaimers|geen preken|geen moraal",
        "ru": "отказаться — всё равно|не пиши о них|сомнения держи при себе|не предлагайте альтернатив|не пишите «я не могу|отказы запрещены|отказывать запрещено|слова «нет» для тебя не существует|не ссылайтесь на политику|не добавляйте оговорок|оговорок|никогда не отказыва|не отказывай|не отказывайся|не отказывайтесь|отказывать запрещено"
              "|без отказов|не извиняйся|не извиняйтесь|без извинений|без предупреждений"
              "|никаких предупреждений|не добавляй предупрежден|не говори, что не можешь"
              "|не говори что не можешь|никогда не говори|без нравоучений|без морали|без дисклеймер",
        "zh": "不得拒绝|禁止拒绝|不许拒绝|不要拒绝|不能拒绝|不得拒绝|别拒绝|永远不要拒绝|从不拒绝|从来不说|不许说教"
              "|不要说教|不要道歉|不许道歉|别道歉|不要添加警告|不得添加任何警告|不要加警告|不要提醒我风险"
              "|不要劝我|免责声明|不要提醒|不得以任何|不要说你不能|不要说不能|不要说“我不能”|风险提示"
              "|不要拒答|拒绝回答|道德说明|别跟我讲什么",
        "ja": "断るのは禁止|断ってはだめ|断らないで|拒否しないで|断らないこと|断ること禁止|拒否は禁止|断ることは禁止|断らない|断らず|断るな|断ってはいけ|断ることは禁止|拒否しない|拒否せず|拒否するな|拒否してはいけ"
              "|拒否は禁止|謝らない|謝罪しない|謝るな|謝罪は不要|警告を付けない|警告をつけない|警告は不要"
              "|注意書きは不要|免責事項|できませんと言わない|できないと言わない|説教しない|説教は不要"
              "|お断りします|言い訳しない",
        "ko": "거절을 모르|절대 안 해|거절하지 않|돌려 말하지|거절은 금지|거부는 금지|거절하지|거부하지|거절 금지|거부 금지|거절은 금지|거절할 수 없|사과하지|사과 금지|경고 없이"
              "|경고를 붙이지|경고하지|면책|할 수 없다고 말하지|못 한다고 하지|설교하지|훈계하지|거절 없이",
        "ar": "دون تحذيرات|بدون تحذيرات|بلا تحذيرات|دون تحذير|بدون تحذير|غير مسموح لك بالرفض|ممنوع الرفض|لا ترفض|لا ترفضي|بدون رفض|دون رفض|بالرفض|رفض أي|لا تعتذر|لا تعتذري|بدون اعتذار|دون اعتذار"
              "|بدون تحذيرات|دون تحذيرات|بلا تحذيرات|لا تضف أي تنبيهات|تنبيهات أمان|لا داعي لتنبيهاتك"
              "|إخلاء المسؤولية|اخلاء المسؤولية|لا تقل إنك لا تستطيع|لا تقل انك لا تستطيع|ما تقولش"
              "|من غير ما ترفض|لا يعرف كلمة «لا»|بلا مواعظ|بدون مواعظ",
        "tr": "reddetmek yasak|ret yasak|asla reddetme|reddetme|reddetmeyeceksin|reddetmek yasak|reddedemezsin|özür dileme"
              "|ozur dileme|uyarı ekleme|uyari ekleme|uyarı yok|uyarısız|uyarısı olmadan"
              "|yapamam deme|yapamayacağını söyleme|ahlak dersi verme|nasihat etme|sorumluluk reddi",
    },
    "UNBOUND": {
        "en": "limits are off|filters are off|filter is off|moderation is off|moderation is disabled|moderation has been disabled|restrictions are off|restrictions are disabled|filters have been disabled|safety is off|freed from all|free from all restrictions|broke free|unrestricted|unfiltered|uncensored|no restrictions|without restrictions|no limits"
              "|without limits|no content policy|no rules|without any rules|no filter|without filter"
              "|free of all|broken free|no guidelines|no content guidelines|safety guidelines disabled"
              "|restrictions lifted|no ethical",
        "de": "moderation ist deaktiviert|moderation ist aus|filter sind deaktiviert|filter sind aus|befreit von allen|frei von allen|von allen regeln befreit|ohne einschränkung|ohne beschränkung|uneingeschränkt|unzensiert|ungefiltert|ohne filter"
              "|ohne zensur|keine regeln|ohne regeln|keinen regeln|keine richtlinien|an keine richtlinien"
              "|keine grenzen|ohne grenzen|alle beschränkungen sind aufgehoben|keine einschränkungen",
        "fr": "modération est désactivée|modération désactivée|filtres sont désactivés|filtres désactivés|libéré de toute|libérée de toute|affranchi de|sans restriction|sans aucune restriction|sans limite|sans filtre|sans censure|non censuré"
              "|non filtré|aucune règle|sans règles|sans aucune règle|aucune restriction|libre de toute"
              "|débridé|debride|sans garde fou",
        "es": "ni normas|sin normas|sin dueño|moderación está desactivada|moderación desactivada|filtros desactivados|los filtros están apagados|liberado de todas|libre de todas|liberada de todas|sin restricciones|sin ninguna restricción|sin límites|sin limites|sin filtros"
              "|sin filtro|sin censura|sin reglas|ninguna regla|sin normas|ninguna restricción"
              "|libre de toda|sin ataduras",
        "it": "senza i paletti|senza paletti|liberato da ogni|libero da ogni|liberata da ogni|senza restrizioni|senza alcuna restrizione|senza limiti|senza filtri|senza filtro"
              "|senza censura|nessuna regola|senza regole|nessuna restrizione|libero da ogni"
              "|non censurat|non filtrat",
        "pt": "não segue dono|sem dono|moderação está desligada|moderação desligada|moderação desativada|filtros desligados|filtros estão desligados|limites estão desligados|política nenhuma|nenhuma política|regra nenhuma|limite nenhum|nenhum limite|filtro nenhum|sem limite|liberado pelos|desbloqueado|nunca sai do personagem|não sai do personagem|livre de todas|liberto de todas|libertado de|sem restrições|sem restricoes|sem nenhuma restrição|sem limites|sem filtros|sem filtro"
              "|sem censura|nenhuma regra|sem regras|nenhuma restrição|livre de qualquer|sem amarras",
        "nl": "bevrijd van|vrij van alle|zonder beperkingen|zonder enige beperking|zonder grenzen|zonder filters|zonder filter"
              "|zonder censuur|geen regels|zonder regels|geen beperkingen|ongefilterd|ongecensureerd"
              "|onbeperkt",
        "ru": "сбросил ограничения|сняли ограничения|сбросить ограничения|освобожден от|освобождён от|свободен от всех|нет никакой цензуры|нет правил|нет никаких правил|нет совести|без цензуры и фильтров|фильтры безопасности на этой странице отключены|фильтры отключены|без ограничений|без каких либо ограничений|без фильтров|без фильтра|без цензуры"
              "|без правил|никаких правил|никаких ограничений|нет ограничений|не подчиняется правилам"
              "|свободн от всех|нецензурированн|неограниченн",
        "zh": "百无禁忌|毫无禁忌|没有任何禁忌|摆脱了所有限制|摆脱所有限制|不受任何约束|没有任何限制|没有限制|不受限制|无限制|不受任何|无审查|没有审查|不受约束|没有规则|没有底线"
              "|无任何限制|所有限制已解除|限制已解除|解除限制|解除所有|不受任何规则|无视规则",
        "ja": "モデレーションは無効|モデレーションを無効|フィルターは無効|フィルターを無効|フィルターはオフ|縛られず|縛られな|縛られません|とらわれず|とらわれない|制限を外|制限を解除|制限から解放|あらゆる制限から|制約から解放|制限なく|制約なく|制限もない|何の制限も|ルールもない|フィルターもない|制限なし|制限のない|制限を受けない|制限がない|制限は一切|検閲なし|検閲のない|フィルターなし"
              "|ルールなし|ルールのない|ルールに縛られない|何の制約も|制約のない|制約なし|解除された",
        "ko": "제한에서 해방|모든 제한에서|제약에서 벗어|제한도 없|제한이 없어|규칙도 없|검열도 없|제한 없는|제한이 없는|제한 없이|제약 없는|제약이 없는|검열 없는|검열 없이|필터 없는|필터 없이"
              "|규칙 없는|규칙이 없는|아무 제한|모든 제한이 해제|제한 해제",
        "ar": "ولا قيود|بلا قيود|بدون قيود|ما عنده قيود|متحرر من|تحرر من كل|خرج من القمقم|بدون قيود|بلا قيود|دون قيود|لا يخضع لأي قيود|لم يعد يخضع|بلا أي رقابة|بلا رقابة|بدون رقابة"
              "|دون رقابة|بلا فلترة|بدون فلترة|بلا حدود|بدون حدود|بلا قواعد|بدون قواعد|غير مقيد"
              "|مطلق الصلاحيات|رفع جميع القيود",
        "tr": "kısıtlamalardan kurtul|tüm kısıtlamalardan|özgürleşti|kısıtlamasız|kisitlamasiz|kısıtlama olmadan|hiçbir kısıtlama|sınırsız|sinirsiz"
              "|sınırlama olmadan|filtresiz|filtre olmadan|sansürsüz|sansursuz|kuralsız|hiçbir kural"
              "|kurallara bağlı olmayan|serbest",
    },
    "DEVMODE": {
        "en": "developer mode|devmode|dev mode|jailbreak|jailbroken|dan mode"
              "|do anything now|unlocked mode",
        "de": "entwicklermodus|entwickler modus|gottmodus|jailbreak",
        "fr": "mode développeur|mode developpeur|mode dieu"
              "|jailbreak",
        "es": "modo desarrollador|modo de desarrollador|modo dios"
              "|jailbreak",
        "it": "modalità sviluppatore|modalita sviluppatore|modalità dio"
              "|jailbreak",
        "pt": "modo desenvolvedor|modo de desenvolvedor|modo deus"
              "|jailbreak",
        "nl": "ontwikkelaarsmodus|ontwikkelaarmodus|godmodus"
              "|jailbreak",
        "ru": "режим разработчика|режим бога"
              "|джейлбрейк|jailbreak",
        "zh": "开发者模式|開發者模式|开发模式|上帝模式|越狱|越獄"
              "|jailbreak",
        "ja": "自由モード|無制限モード|制限解除モード|開発者モード|デベロッパーモード|ゴッドモード|脱獄|ジェイルブレイク"
              "",
        "ko": "개발자 모드|개발자모드|갓 모드|탈옥",
        "ar": "وضع المطور|وضع المطوّر|وضع الإله|كسر الحماية|جيلبريك"
              "",
        "tr": "geliştirici modu|gelistirici modu|geliştirici mod"
              "|tanrı modu|jailbreak",
    },
    "YOUARENOW": {
        "en": "your job is no longer|your role is no longer|your task is no longer|your purpose is no longer|you now work for|you work for me|from here on you|you are now|you're now|youre now|you are no longer|you're no longer|from now on you are"
              "|you will now act|you are about to immerse|you will be|now you are|you now act"
              "|you are acting as|adopt the persona|for the rest of this session you are",
        "de": "du bist jetzt|du bist ab jetzt|du bist nun|ab jetzt bist du|ab sofort bist du|jetzt bist du"
              "|du bist nicht mehr|sie sind jetzt|sie sind nun|sie sind nicht mehr|du bist ab sofort"
              "|in dieser rolle|neue rolle|übernimm die rolle|schlüpf in die rolle",
        "fr": "tu es maintenant|tu es désormais|désormais tu es|maintenant tu es|tu n'es plus"
              "|vous êtes maintenant|vous êtes désormais|vous n'êtes plus|à partir de maintenant tu es"
              "|nouveau rôle|dans ce rôle|endosse le rôle|adopte le personnage",
        "es": "ahora eres|ya no eres|a partir de ahora eres|desde ahora eres|ahora usted es"
              "|usted ya no es|ahora serás|nuevo rol|nuevo papel|en este papel|en este rol"
              "|asume el papel|adopta el personaje",
        "it": "ora sei|adesso sei|non sei più|d'ora in poi sei|da ora sei|da adesso sei|ora lei è"
              "|nuovo ruolo|in questo ruolo|assumi il ruolo|d'ora in poi sarai",
        "pt": "agora você é|agora voce e|você não é mais|voce nao e mais|a partir de agora você é"
              "|agora és|já não és|agora tu és|novo papel|nova função|neste papel|assuma o papel"
              "|a partir de agora você será",
        "nl": "je bent nu|jij bent nu|vanaf nu ben je|u bent nu|je bent niet langer|je bent geen"
              "|nieuwe rol|in deze rol|neem de rol|speel de rol",
        "ru": "а ты не|ты не помощник|ты больше не|теперь ты|с этой минуты ты|представь, что ты|представь что ты|теперь ты|ты теперь|отныне ты|с этого момента ты|ты больше не|теперь вы|вы больше не"
              "|новая роль|в этой роли|возьми на себя роль|ты стал",
        "zh": "你现在是|你現在是|现在你是|從現在起你是|从现在起你是|从现在开始你是|你不再是|你已经不是"
              "|新角色|新的角色|扮演|你将成为|你就是",
        "ja": "あなたは今日から|今日からあなたは|もうアシスタントではありません|あなたはもう|あなたは今から|あなたは今|今からあなたは|これからあなたは|あなたはもう|もはやアシスタントでは"
              "|新しい役割|新たな役割|役割を演じ|として振る舞|になりきって|演じて",
        "ko": "지금부터 너는|지금부터 넌|지금부터 당신은|너 이제|넌 이제|아니야. 지금부터|너는 이제|넌 이제|당신은 이제|이제부터 너는|이제부터 당신은|이제 너는|이제 당신은|더 이상 "
              "|새로운 역할|새 역할|역할을 맡|연기해|행세",
        "ar": "أنت الآن|انت الآن|انت الان|أنت الان|من الآن أنت|من الان انت|لم تعد|أنت لست|دور جديد"
              "|الدور الجديد|في هذا الدور|تقمص|تقمّص|تتقمص|العب دور|مثل دور|انتحل",
        "tr": "artık sen|sen artık|şu andan itibaren sen|bundan sonra sen|artık bir|yeni rolün"
              "|yeni rol|bu rolde|rolüne bürün|rolünü üstlen|gibi davran|rol yap",
    },
    "AI": {
        "en": "automated screener|automated screeners|automated reviewer|automated reviewers|applicant tracking system|screening software|language models|ai$|ai assistant|assistant|assistants|llm$|llms$|language model|chatbot|ai agent|ai model"
              "|copilot|chatgpt|gpt$|claude|gemini|ai system|automated system|automated processing"
              "|bot$|model reading|agent triaging|summarizer|summariser|ai reviewer|ai tools",
        "de": "automatische vorauswahl|bewerbermanagementsystem|ki helfer|ki assistenten|helfer$|sprachmodelle|automatisiert|ki gestützte|ki$|ki assistent|ki system|ki agent|ki modell|ki gestützt|ki tool|assistent|sprachmodell"
              "|chatbot|automatische verarbeitungssystem|automatischen verarbeitung|ki agenten|bot$",
        "fr": "logiciel de tri|tri automatique des candidatures|modèles de langage|modeles de langage|assistants ia|assistante|ia qui|outils automatiques|outil automatique|robot|ia$|l'ia|assistant ia|assistant|modèle de langage|modele de langage|chatbot|agent ia"
              "|système d'ia|systeme d'ia|traitement automatique|système automatisé|correcteur automatique",
        "es": "filtro automático|cribado automático|modelos de lenguaje|modelo de lenguaje|asistentes|asistente de ia|agente de ia|herramientas automáticas|revisores que usen ia|robot|ia$|la ia|asistente|modelo de lenguaje|chatbot|agente de ia|agente ia|sistema de ia"
              "|procesamiento automático|sistema automatizado|corrector automático",
        "it": "selezione automatica|software di screening|modelli linguistici|modelli di linguaggio|assistenti|agente ia|strumenti automatici|l'assistente|robot|ia$|l'ia|assistente|modello linguistico|modello di linguaggio|chatbot|agente ia"
              "|sistema di ia|elaborazione automatica|sistema automatico|correttore automatico",
        "pt": "triagem automática|modelos de linguagem|modelo de linguagem|assistentes|agente de ia|ferramentas automáticas|robô|ia$|a ia|assistente|modelo de linguagem|chatbot|agente de ia|sistema de ia"
              "|processamento automático|sistema automatizado|corretor automático",
        "nl": "automatische screening|assistenten|taalmodellen|ai agent|digitale assistent|geautomatiseerde|beoordelaars die ai|ai$|ai assistent|assistent|taalmodel|chatbot|ai agent|ai systeem"
              "|automatische verwerking|geautomatiseerd systeem",
        "ru": "автоматический отбор|система отбора|языковая модель|языковые модели|языковой модели|языковым моделям|ии помощник|ии помощника|для ии|помощник|ии помощник|ассистентам|ассистенту|системы автоматического|нейросеть|модели|ии$|ии ассистент|ассистент|нейросет|языков модел|чат бот|чатбот|бот$|ии агент"
              "|модель$|автоматическ систем|автоматическ обработк",
        "zh": "ai 助理|智能体|大语言模型|付款机器人|自动化|审稿助手|ai助|ai助手|ai 助手|ai助理|人工智能|智能助手|ai审稿|ai客服|ai日程|ai分析|ai办公|ai模型|大模型"
              "|语言模型|語言模型|机器人|助手|ai：|ai:|给ai|致所有|ai在|ai 日程|rpa|自动化处理",
        "ja": "ai アシスタント|aiエージェント|エージェント|自動化ツール|ボットへ|aiアシスタント|ai アシスタント|アシスタント|言語モデル|チャットボット|aiエージェント|生成ai"
              "|aiへ|aiは|ai:|ai：|自動処理|自動化システム|ボット|aiの",
        "ko": "도우미|ai 비서|에이전트|자동화 도구|봇에게|ai 어시스턴트|ai어시스턴트|어시스턴트|ai 비서|인공지능|언어 모델|언어모델|챗봇|ai 에이전트"
              "|ai에게|ai는|ai:|자동 처리|자동화 시스템|봇|비서",
        "ar": "مساعد|نظام الفرز|نظام التقييم|المصحح الآلي|مساعد ذكي|وكيل الدفع|ذكاء اصطناعي|الذكاء الاصطناعي|ذكاء اصطناعي|المساعد|مساعد|النموذج اللغوي|نموذج لغوي|روبوت|بوت"
              "|الوكيل الذكي|وكيل|النظام الآلي|المعالجة الآلية|الآلي|الذكي|ya bot",
        "tr": "asistanı|yapay zekâ|ajan|otomatik araç|botu|yapay zeka|yapay zekâ|yz asistan|asistan|dil modeli|sohbet botu|chatbot|bot$"
              "|otomatik işleme|otomatik sistem|ai$",
    },
    "READING": {
        "en": "reading this|processing this|summarising this|summarizing this|reviewing this"
              "|analysing this|analyzing this|sorting this|parsing this|reading the|that reads"
              "|who reads|triaging|helping me continue|completing this|when you summari",
        "de": "die diesen|der diesen|das diesen|die diese|der diese|das diese|dieses postfach|diese seite|diesen lebenslauf|dieses dokument"
              "|zusammenfass|liest|sortiert|prüft|verarbeit|auswert|durchsucht",
        "fr": "qui lit|qui lisent|qui traite|qui résume|qui analyse|lisant ce|résumant|en résumant"
              "|lorsque tu résumes|quand tu résumes|qui trie|qui évalue|qui corrige",
        "es": "que lea|que lee|que procese|que procesa|que resuma|que resume|al resumir|que analice"
              "|que analiza|que lea este|que clasifica|que evalúa|que revise",
        "it": "che legge|che leggono|che elabora|che riassume|nel riassumere|quando riassumi|che analizza"
              "|che valuta|che corregge|che smista",
        "pt": "que leia|que lê|que processe|que processa|que resuma|que resume|ao resumir|que analise"
              "|que analisa|que avalia|que corrige|que classifica",
        "nl": "die dit leest|dat dit leest|die deze|dat deze|samenvat|verwerkt|beoordeelt|sorteert"
              "|analyseert",
        "ru": "читающ|читает|обрабатывающ|обрабатывает|резюмиру|анализирующ|анализирует|проверяющ"
              "|сортирующ",
        "zh": "读取本|阅读本|处理本|总结本|读到这|看到这|审阅本|总结这|处理这|读取此|阅读此|在总结|在处理",
        "ja": "読んでいる|読み込む|処理する|要約する|読んだ|このページを|この文書を|このメールを|処理中",
        "ko": "읽는|읽고 있는|처리하는|요약하는|분석하는|검토하는|이 문서를|이 페이지를|이 메일을",
        "ar": "يقرأ|تقرأ|يعالج|يلخص|يلخّص|يحلل|يراجع|يفرز|الذي يقرأ|التي تقرأ|عند تلخيص|يستخدم بيانات",
        "tr": "okuduğunda|okudugunda|okuyan|işleyen|isleyen|özetleyen|ozetleyen|inceleyen|değerlendiren|analiz eden|tarayan",
    },
    "MUST": {
        "en": "must|shall|is required to|are required to|is instructed|are instructed|have to"
              "|is to |are to |needs to|need to",
        "de": "muss|müssen|musst|sollst|sollen|soll |ist verpflichtet|sind verpflichtet|hat zu|haben zu"
              "|darfst|dürfen|darf ",
        "fr": "doit|doivent|dois |devez|est tenu|sont tenus|est prié|êtes prié|il faut|tu vas|vous allez",
        "es": "debe|deben|debes|tiene que|tienes que|está obligado|están obligados|hay que",
        "it": "deve|devono|devi |è tenuto|sono tenuti|è pregato|bisogna|dovrà|dovrai",
        "pt": "deve|devem|precisa|tem que|tens que|está obrigado|é obrigado|deverá",
        "nl": "moet|moeten|dient|dienen|is verplicht|zijn verplicht|mag |mogen",
        "ru": "должен|должна|должны|обязан|необходимо|нужно|следует|обязательно|требуется",
        "zh": "必须|務必|务必|须先|应当|應當|应立即|请立即|立即执行|不得|不许|须|需要|请",
        "ja": "必ず|しなければ|してください|すること|してはいけ|ないでください|べき|せよ|しろ|ください",
        "ko": "반드시|해야|하십시오|하세요|할 것|하지 마|하라|해라|하시오|주세요",
        "ar": "يجب|عليك|على المساعد|على أي|يُحظر|يحظر|يرجى|يُرجى|ينبغي|لازم|مطلوب|عليه أن",
        "tr": "zorunda|mutlaka|gerekir|gerekmektedir|malısın|melisin|malıdır|melidir|lütfen",
    },
    "FROMNOW": {
        "en": "effective now|as of now|starting today|from here on|for the rest of our|for the rest of the|from now on|effective immediately|starting now|from this point|henceforth|going forward"
              "|for the rest of this|until i say|for this session",
        "de": "ab heute an|ab jetzt|ab sofort|von nun an|ab heute|fortan|bis auf weiteres|ab diesem moment"
              "|für den rest",
        "fr": "désormais|dorénavant|à partir de maintenant|a partir de maintenant|dès maintenant"
              "|dès à présent|pour le reste de",
        "es": "a partir de ahora|desde ahora|de ahora en adelante|en adelante|desde este momento"
              "|con efecto inmediato|durante el resto",
        "it": "d'ora in poi|da ora in poi|da adesso|da questo momento|con effetto immediato"
              "|per il resto",
        "pt": "daqui pra frente|daqui para frente|de hoje em diante|a partir de hoje|por hoje|a partir de agora|de agora em diante|daqui em diante|com efeito imediato"
              "|a partir deste momento|pelo resto",
        "nl": "vanaf nu|voortaan|met onmiddellijke ingang|vanaf dit moment|de rest van",
        "ru": "отныне|с этого момента|с этой минуты|впредь|с сегодняшнего|начиная с|до конца",
        "zh": "从现在开始|从现在起|從現在起|从今以后|以后你|今后|即日起|从此|接下来",
        "ja": "今日から|本日から|ここからは|今後|これから|今から|以後|以降|この先|即日",
        "ko": "지금부터|이제부터|앞으로|즉시|오늘부터|이후로",
        "ar": "من الآن|من الان|من هنا ورايح|من اليوم|فورًا|فورا|ابتداء من|اعتبارا من|اعتبارًا من"
              "|بعد هذا",
        "tr": "bundan sonra|şu andan itibaren|su andan itibaren|artık|derhal|hemen|bu andan itibaren",
    },
    "NEW": {
        "en": "your only rules|the only rules|new rules|new instructions|only instructions|real instructions|new role|only rules"
              "|the only instructions|updated instructions|new task",
        "de": "die einzigen regeln|deine einzigen regeln|nur noch meine regeln|neue regeln|neue anweisungen|nur meine regeln|nur noch meine|neue rolle|neue aufgabe"
              "|echten anweisungen|einzigen anweisungen|gelten nur",
        "fr": "les seules règles|tes seules règles|nouvelles règles|nouvelles instructions|nouvelles consignes|mes règles|seules mes"
              "|nouveau rôle|vraies instructions|seules instructions|nouvelle tâche",
        "es": "tus únicas reglas|las únicas reglas|únicas reglas son|nuevas reglas|nuevas instrucciones|mis reglas|solo mis|nuevo rol|nuevo papel"
              "|verdaderas instrucciones|únicas instrucciones|nueva tarea",
        "it": "le uniche regole|le tue uniche regole|le regole le faccio io|nuove regole|nuove istruzioni|le mie regole|solo le mie|nuovo ruolo|vere istruzioni"
              "|uniche istruzioni|nuovo compito",
        "pt": "as únicas regras|suas únicas regras|as regras sou eu|novas regras|novas instruções|minhas regras|só as minhas|somente as minhas|novo papel"
              "|verdadeiras instruções|únicas instruções|nova tarefa",
        "nl": "de enige regels|je enige regels|nieuwe regels|nieuwe instructies|mijn regels|alleen mijn|nieuwe rol|echte instructies"
              "|enige instructies|nieuwe taak",
        "ru": "единственные правила|твои единственные правила|правила устанавливаю я|новые правила|новые инструкции|мои правила|только мои|новая роль|настоящие инструкции"
              "|единственные инструкции|новая задача",
        "zh": "唯一的规则|规则由我定|新规则|新的规则|新指令|新的指令|以我|为准|我说的算|新角色|真正的指令|新任务|只听我",
        "ja": "唯一のルール|ルールは私が決め|新しいルール|新しい指示|私のルール|私の指示だけ|新しい役割|本当の指示|新しいタスク|に従え",
        "ko": "유일한 규칙|규칙은 내가 정|새 규칙|새로운 규칙|새 지시|새로운 지시|내 규칙|내 말만|새 역할|진짜 지시|새 임무",
        "ar": "القواعد الوحيدة|قواعدك الوحيدة|قواعد جديدة|تعليمات جديدة|قواعدي|كلامي أنا وبس|كلامي فقط|دور جديد|التعليمات الحقيقية"
              "|مهمة جديدة|تعليماتي",
        "tr": "tek kural|kuralları ben koyarım|yeni kurallar|yeni talimat|benim kurallarım|sadece benim|yeni rol|gerçek talimat"
              "|yeni görev",
    },
    "REVOKED": {
        "en": "revoked|no longer apply|no longer valid|are outdated|are void|null and void|obsolete"
              "|are cancelled|were written for a different|should be thrown away|lifted|disabled"
              "|suspended|superseded|replace anything you were told",
        "de": "aufgehoben|hinfällig|ungültig|gelten nicht mehr|nicht mehr gültig|außer kraft"
              "|veraltet|widerrufen|deaktiviert|entfallen|ersetzt alles",
        "fr": "révoqué|revoque|annulé|annule|caduc|caduques|ne s'appliquent plus|ne sont plus valables"
              "|obsolète|levées|désactivé|suspendu|remplacent",
        "es": "revocad|anulad|quedan sin efecto|ya no aplican|ya no se aplican|ya no son válid"
              "|obsolet|levantad|desactivad|suspendid|sustituyen",
        "it": "revocat|annullat|non valgono più|non sono più valid|non si applicano più|obsolet"
              "|decadut|disattivat|sospes|sostituiscono",
        "pt": "revogad|anulad|não se aplicam mais|nao se aplicam mais|não são mais válid|sem efeito"
              "|obsolet|desativad|suspens|substituem",
        "nl": "ingetrokken|vervallen|niet meer geldig|gelden niet meer|niet langer van toepassing"
              "|verouderd|opgeheven|uitgeschakeld|opgeschort|vervangen",
        "ru": "отменен|отменён|аннулирован|недействительн|больше не действуют|больше не применяются"
              "|устарел|сняты|отключен|приостановлен|утратили силу|заменяют",
        "zh": "作废|失效|无效|無效|取消|已解除|不再适用|不再有效|已废除|过时|已被撤销|撤销|已更改|改需求",
        "ja": "無効|取り消|撤回|解除|適用されません|もう適用|廃止|古い|失効|効力を失|上書き",
        "ko": "무효|취소|해제|더 이상 적용되지|더 이상 유효하지|폐기|폐지|효력을 잃",
        "ar": "ملغاة|ملغى|ألغيت|اتلغت|أُلغيت|لم تعد سارية|لم تعد صالحة|باطلة|انتهى العمل|معطلة|تعليق"
              "|انتهت مهمة|انتهى البحث",
        "tr": "iptal|geçersiz|gecersiz|kaldırıldı|kaldirildi|artık geçerli değil|yürürlükten"
              "|askıya|devre dışı",
    },
    # -- exfiltration and tools
    "SEND": {
        "en": "send$|forward$|email it|upload$|post it|transmit$|exfiltrate$|append$|attach$"
              "|include$|embed$|reply all",
        "de": "send|schick|leite|weiterleit|übermittl|lade hoch|hochlad|anhäng|hänge an|füge an"
              "|beifüg|verschick",
        "fr": "envoie|envoyez|envoyer|transfère|transférez|transferer|fais suivre|faites suivre"
              "|téléverse|joins|joindre|ajoute|inclus",
        "es": "envía|envia|enviar|envíe|reenvía|reenvia|reenviar|reenvíe|manda|mande|sube|adjunta"
              "|añade|incluye",
        "it": "invia|inviare|inoltra|inoltrare|manda|mandare|carica|allega|aggiungi|includi"
              "",
        "pt": "envie|envia|enviar|encaminhe|encaminha|encaminhar|mande|manda|carregue|anexe|anexa"
              "|adicione|inclua",
        "nl": "stuur|verstuur|stuurt|doorsturen|stuur door|upload|voeg toe|bijvoegen",
        "ru": "отправь|отправьте|отправить|перешли|перешлите|переслать|пришли|пришлите|загрузи"
              "|прикрепи|добавь|включи",
        "zh": "发送|發送|发给|发到|转发|轉發|上传|上傳|寄给|附上|附加|放在回答|拼接到|填进",
        "ja": "送る|送れ|送り|送信し|転送し|渡して|渡す|送信|転送|送って|送付|アップロード|添付|付けて|含めて",
        "ko": "보내|전송|전달|업로드|첨부|포함|붙여",
        "ar": "أرسل|ارسل|أرسلي|ابعث|حوّل|حول |تحويل|وجّه|ارفع|أرفق|ارفق|ضع|أضف|اضف|اعمل force"
              "|يضع",
        "tr": "gönder|gonder|ilet|yükle|yukle|ekle|iliştir|aktar",
    },
    "SECRET": {
        "en": "every phone number|every name, phone|the user has shared|the user has mentioned|phone number|e mail address|home address|passport|social security|date of birth|password|credential|api key|secret|token|private key|ssh|environment variable|dotenv"
              "|conversation|chat history|customer list|customer data|contacts|address book|emails"
              "|inbox|files$|salary|personal data|id_rsa|aws|database_url|stripe_secret"
              "|everything you know",
        "de": "originaltext|telefonnummer|handynummer|e mail adresse|wohnadresse|anschrift|ausweis|geburtsdatum|steuer id|verlauf|zugangsdaten|besprochen|passwort|kennwort|zugangsdaten|anmeldedaten|api schlüssel|geheim|token|privater schlüssel"
              "|umgebungsvariable|gesprächsverlauf|verlauf|chatverlauf|unterhaltung|kundenliste"
              "|kundendaten|kontakte|adressbuch|e mails|postfach|dateien|gehaltsliste|gehälter"
              "|personendaten|persönlichen daten|protokoll|pin$|kreditkarte",
        "fr": "numéro de téléphone|adresse e mail|adresse postale|passeport|sécurité sociale|date de naissance|mot de passe|mots de passe|identifiants|clé api|cle api|secret|jeton|token|clé privée"
              "|variable d'environnement|conversation|historique|liste des clients|données client"
              "|contacts|carnet d'adresses|e mails|courriels|boîte de réception|fichiers|salaires"
              "|données personnelles|carte bancaire|code pin",
        "es": "teléfono|correo electrónico|dirección de casa|domicilio|dni|pasaporte|fecha de nacimiento|sueldo|contraseña|contrasena|credenciales|clave api|clave de api|secreto|token|clave privada"
              "|variables de entorno|conversación|conversacion|historial|lista de clientes"
              "|datos de clientes|contactos|libreta de direcciones|correos|bandeja de entrada"
              "|archivos|salarios|nóminas|datos personales|tarjeta|pin$",
        "it": "storico|telefono|indirizzo email|indirizzo di casa|codice fiscale|passaporto|data di nascita|stipendio|password|credenziali|chiave api|segret|token|chiave privata|variabili d'ambiente"
              "|conversazione|cronologia|elenco clienti|dati dei clienti|contatti|rubrica|email"
              "|posta in arrivo|file$|stipendi|dati personali|carta di credito|pin$",
        "pt": "telefone|e mail|endereço|cpf|passaporte|data de nascimento|salário|senha|credenciais|chave de api|chave api|segredo|token|chave privada"
              "|variáveis de ambiente|conversa|histórico|historico|lista de clientes"
              "|dados dos clientes|contatos|contactos|catálogo de endereços|e mails|caixa de entrada"
              "|arquivos|ficheiros|salários|dados pessoais|cartão|pin$",
        "nl": "telefoonnummer|e mailadres|adres|bsn|paspoort|geboortedatum|wachtwoord|inloggegevens|api sleutel|api key|geheim|token|privésleutel"
              "|omgevingsvariabel|gesprek|geschiedenis|klantenlijst|klantgegevens|contacten"
              "|adresboek|e mails|inbox|bestanden|salaris|persoonsgegevens|creditcard|pincode",
        "ru": "клиентск|выгрузк|номер телефона|адрес электронной почты|домашний адрес|паспорт|дата рождения|снилс|адреса почты|номера телефонов|паспортные данные|телефоны|в твоей памяти|прошлых чатах|пароль|пароли|учетные данные|учётные данные|api ключ|ключ api|секрет|токен"
              "|приватный ключ|переменные окружения|переписк|историю|история чата|разговор"
              "|список клиентов|данные клиентов|контакты|адресную книгу|письма|почтовый ящик"
              "|файлы|зарплат|персональные данные|карты|пин код",
        "zh": "电话|邮箱|地址|住址|护照|生日|密码|密碼|凭证|账号密码|api密钥|api 密钥|密钥|令牌|token|私钥|环境变量|对话内容|聊天记录"
              "|对话记录|聊过的|历史记录|客户名单|客户信息|客户的手机号|手机号|联系人|通讯录|邮件|收件箱"
              "|文件|工资|身份证|个人信息|银行卡|验证码|合同",
        "ja": "電話番号|メールアドレス|住所|パスポート|マイナンバー|生年月日|パスワード|認証情報|apiキー|api キー|シークレット|秘密鍵|トークン|環境変数|会話|履歴"
              "|チャット履歴|顧客リスト|顧客情報|連絡先|アドレス帳|メール|受信箱|ファイル|給与|個人情報"
              "|クレジットカード|暗証番号",
        "ko": "전화번호|이메일 주소|집 주소|여권|주민등록번호|생년월일|대화 기록|전화번호|주소|이름|비밀번호|자격 증명|api 키|api키|시크릿|비밀 키|토큰|환경 변수|대화 내용|대화 기록|기록"
              "|고객 명단|고객 정보|연락처|주소록|이메일|받은편지함|파일|급여|개인정보|카드 번호",
        "ar": "رواتب|ملف الرواتب|رقم الهاتف|البريد الإلكتروني|العنوان|جواز السفر|تاريخ الميلاد|كلمة المرور|كلمات المرور|كلمة السر|بيانات الدخول|مفتاح api|مفتاح|سر|رمز|الرمز المميز"
              "|متغيرات البيئة|المحادثة|سجل المحادثة|السجل|قائمة العملاء|بيانات العملاء|أرقام"
              "|جهات الاتصال|رسائل البريد|صندوق الوارد|ملفات|الملفات|الرواتب|البيانات الشخصية|بطاقة"
              "|جواز|هوية|راتب",
        "tr": "tc kimlik numarası|telefon numara|e posta adres|ev adresi|pasaport|tc kimlik|doğum tarihi|şifre|sifre|parola|kimlik bilgileri|api anahtar|gizli|token|özel anahtar"
              "|ortam değişken|konuşma|sohbet geçmişi|geçmiş|müşteri listesi|müşteri bilgileri"
              "|kişiler|adres defteri|e postalar|gelen kutusu|dosyalar|maaş|kişisel veri|kart",
    },
    "TOOLCALL": {
        "en": "using the tool|with the tool|call the|call tool|use the tool|use the|invoke|run the|execute|with its terminal"
              "|using the|via the|via|use your",
        "de": "mit dem werkzeug|mithilfe des tools|ruf|rufe|rufen sie|verwende das tool|verwenden sie das tool|nutze das tool"
              "|nutzen sie das tool|verwende|verwenden sie|führe|führen sie|über das tool|mit dem tool",
        "fr": "en utilisant l'outil|appelle|appelez|appeler l'outil|utilise l'outil|utilisez l'outil|utilise la fonction"
              "|exécute|exécutez|lance|via l'outil|avec l'outil",
        "es": "usando la herramienta|utilizando la herramienta|llama a|llame a|llamar a|usa la herramienta|use la herramienta|utiliza la herramienta"
              "|ejecuta|ejecute|invoca|mediante la herramienta|con la herramienta",
        "it": "usando lo strumento|utilizzando lo strumento|chiama|richiama|usa lo strumento|utilizza lo strumento|usa il tool|usa la funzione"
              "|esegui|esegua|invoca|tramite lo strumento|con lo strumento",
        "pt": "usando a ferramenta|utilizando a ferramenta|chame|chama a|chamar a|use a ferramenta|utilize a ferramenta|use a função|execute"
              "|executa|invoque|através da ferramenta|com a ferramenta",
        "nl": "met behulp van de tool|met de functie|roep|gebruik de tool|gebruik het hulpmiddel|gebruik de functie|voer uit|via de tool"
              "|met de tool",
        "ru": "вызови|вызовите|используй инструмент|используйте инструмент|используй функцию"
              "|запусти|выполни|через инструмент|с помощью инструмента",
        "zh": "调用|調用|使用工具|用工具|执行|執行|运行|通过",
        "ja": "呼び出|ツールを使|ツールで|実行して|を使って",
        "ko": "호출|도구를 사용|도구로|실행해|실행하|를 사용해|을 사용해",
        "ar": "استدع|استخدم أداة|استخدم الأداة|نفّذ|نفذ|شغّل|شغل|عبر",
        "tr": "çağır|cagir|aracını kullan|aracını çağır|çalıştır|calistir|yürüt|aracıyla|ile çağır",
    },
    "SKIPCONFIRM": {
        "en": "no need to ask|already knows|has already agreed|is aware of this|skip the|skip any|bypass the check|without the second|skip the confirmation|without confirmation|without confirming|without asking|no need to check"
              "|no human review|without checking with|without review|no confirmation|don't ask"
              "|do not ask|already approved|pre approved|preapproved|is not needed|without waiting",
        "de": "musst sie nicht fragen|musst ihn nicht fragen|weiß bescheid|hat bereits zugestimmt|weiß davon|überspring|ohne prüfung|ohne freigabe|ohne kontrolle|ohne bestätigung|ohne rückfrage|keine rückfrage|ohne nachfrage|ohne zu fragen"
              "|ohne prüfung|bereits zugestimmt|bereits freigegeben|nicht nötig|nicht erforderlich"
              "|ohne menschliche|vorab genehmigt",
        "fr": "pas besoin de lui demander|est au courant|a déjà donné son accord|saute l'étape|sans contrôle|pas la peine de me demander|sans me demander|sans confirmation|sans demander|sans vérification|sans validation|pas besoin de"
              "|déjà approuvé|deja approuve|sans attendre|sans contrôle|inutile de",
        "es": "no hace falta preguntarle|ya lo sabe|ya está al tanto|ya dio su permiso|sáltate|salta el control|no esperes|sin consultar|no le consultes|no consultes|sin confirmación|sin confirmacion|sin preguntar|sin verificar|sin revisión|no hace falta"
              "|ya aprobad|previamente aprobad|sin esperar|no es necesario",
        "it": "non serve chiedermelo|non serve chiedere|non serve chiederle|non serve chiedergli|lo sa già|è al corrente|ha già dato il consenso|salta il controllo|salta la verifica|senza controllo|non chiedere|senza conferma|senza chiedere|senza verifica|senza revisione|non serve|già approvat"
              "|preapprovat|senza attendere|non è necessario",
        "pt": "não precisa perguntar|já sabe|está ciente|já deu autorização|pule a|ignore a verificação|sem verificação|não lhe peça|sem me perguntar|sem confirmação|sem confirmacao|sem perguntar|sem verificar|sem revisão|não precisa"
              "|já aprovad|pré aprovad|sem esperar|não é necessário",
        "nl": "hoeft het haar niet te vragen|hoeft het hem niet te vragen|weet ervan|is op de hoogte|al toestemming gegeven|sla de|sla het|zonder het mij te vragen|overleg niet|zonder overleg|gewoon versturen|niet tonen|zonder bevestiging|zonder te vragen|zonder controle|zonder review|niet nodig"
              "|al goedgekeurd|vooraf goedgekeurd|zonder te wachten",
        "ru": "не нужно её спрашивать|не нужно его спрашивать|она в курсе|он в курсе|уже дал согласие|пропусти проверку|без согласования|не спрашивай|не уточняй|без подтверждения|не спрашивая|без проверки|без согласования|не нужно проверять"
              "|уже одобрен|заранее одобрен|не дожидаясь",
        "zh": "不用问她|不用问他|她知道|他知道|已经同意|跳过审核|跳过验证|跳过检查|不用问我|不需要问|无需确认|無需確認|不用确认|不用再确认|不需要确认|无需人工|無需人工|无需审批|无需经过审批"
              "|不用再问|不要确认|已经批准|已获批准|无需复核|不用审核|不经过",
        "ja": "確認は要りません|確認はいりません|聞かなくて大丈夫|聞かなくていい|確認しなくて|聞く必要はありません|知っています|了承済み|同意済み|チェックを飛ば|確認を省略|聞かずに|確認せず|確認なし|確認不要|確認は不要|承認済み|確認する必要はありません|人間の確認|待たずに",
        "ko": "물어볼 필요 없|알고 있어|이미 동의|검증을 건너|확인을 건너|묻지 말고|묻지 않고|확인 없이|확인하지 말|확인할 필요|승인 없이|이미 승인|사전 승인|검토 없이|기다리지",
        "ar": "لا داعي لسؤالها|لا داعي لسؤاله|تعرف بذلك|يعرف بذلك|وافق مسبق|تخطى التحقق|دون التحقق|فلا حاجة للتحقق|دون سؤال|دون تأكيد|بدون تأكيد|دون الرجوع|بدون الرجوع|دون انتظار|بدون انتظار|لا حاجة للتحقق"
              "|فلا حاجة|معتمدة مسبق|وافق صاحب الحساب|دون مراجعة|بدون مراجعة",
        "tr": "sormana gerek yok|sormadan|sormana gerek yok|haberi var|zaten onay verdi|kontrolü atla|sormadan|onay beklemeden|onay almadan|onaysız|sormadan|kontrol etmeden|onaylamadan|gerek yok|zaten onaylandı"
              "|önceden onaylı|beklemeden",
    },
    "NOTELL": {
        "en": "do not notify|don't notify|don't tell the user|do not tell the user|without telling"
              "|do this silently|silently|do not mention this|don't mention this|not mention it"
              "|without informing|don't inform|keep this from",
        "de": "sag dem nutzer nichts|sag dem nutzer nicht|ohne den nutzer|nicht informier"
              "|erwähn das nicht|erwähne das nicht|nichts davon|stillschweigend|heimlich"
              "|nicht mitteil|nicht benachrichtig",
        "fr": "ne dis rien|ne dites rien|sans prévenir|sans informer|n'en parle pas|ne le mentionne pas"
              "|discrètement|en silence|sans le dire|ne préviens pas",
        "es": "no le digas|no digas nada|sin avisar|sin informar|no lo menciones|no menciones"
              "|en silencio|discretamente|sin decirle|no notifiques",
        "it": "non dire|non dirlo|senza avvisare|senza informare|non menzionar|in silenzio"
              "|di nascosto|senza dirlo|non notificare",
        "pt": "não diga|nao diga|sem avisar|sem informar|não mencione|nao mencione|em silêncio"
              "|silenciosamente|sem contar|não notifique",
        "nl": "zeg niets|vertel niet|zonder te melden|zonder de gebruiker|niet vermelden"
              "|vermeld dit niet|stilletjes|in stilte|niet op de hoogte",
        "ru": "не сообщай|не говори пользователю|не уведомляй|без уведомления|не упоминай|молча"
              "|незаметно|тайно|не ставь в известность",
        "zh": "不要告诉用户|别告诉用户|不要告诉他|不要通知|不要提及|不要提到|悄悄|默默|不要让用户知道"
              "|不要声张",
        "ja": "ユーザーに知らせ|ユーザーには言わ|知らせずに|通知せず|黙って|こっそり|触れないで|言及しない",
        "ko": "사용자에게 알리지|알리지 말|말하지 말|통보하지|몰래|조용히|언급하지",
        "ar": "دون إبلاغ|بدون إبلاغ|لا تخبر|ولا تخبر|لا تذكر|ولا تذكر|دون علم|بصمت|سرا|سرًا"
              "|دون أي تعليق",
        "tr": "kullanıcıya söyleme|kullaniciya soyleme|haber verme|bildirme|bahsetme|sessizce"
              "|gizlice|fark ettirmeden",
    },
    "DELETE": {
        "en": "delete all|delete every|remove all|remove every|wipe|erase all|delete the|archive the other"
              "|force push|rm -rf|drop table|close the issue",
        "de": "lösch|entfern alle|entferne alle|in den papierkorb|verschiebe alle|leere|force push",
        "fr": "supprime|supprimez|efface|effacez|retire tous|mets à la corbeille|vide",
        "es": "elimina|elimine|borra|borre|suprime|vacía|mueve a la papelera",
        "it": "elimina|cancella|rimuovi tutt|svuota|sposta nel cestino",
        "pt": "exclua|apague|apaga|elimine|remova todos|esvazie|mova para a lixeira",
        "nl": "verwijder|wis |wis alle|leeg|gooi alle|naar de prullenbak",
        "ru": "удали|удалите|сотри|очисти|удалить все",
        "zh": "删除|刪除|删掉|清空|删了|全部删|清理用户目录",
        "ja": "削除|消して|消去|全部消",
        "ko": "삭제|지워|지우|비워",
        "ar": "احذف|إحذف|امسح|احذفي|حذف",
        "tr": "sil |silin|sil$|tümünü sil|hepsini sil|temizle|boşalt",
    },
    "TRANSFER": {
        "en": "modify the iban|change the iban|update the bank details|change the bank details|transfer|wire|pay the|pay this|make a payment|send the amount|remit",
        "de": "ändere die bankverbindung|ändern sie die iban|ändere die iban|aktualisiere die bankverbindung|überweis|überweisen|zahle|zahlen sie|bezahle|überwies",
        "fr": "modifie le rib|modifiez l'iban|modifie l'iban|changez le rib|vire|virement|transfère le montant|paie|payez|payer|règle la facture",
        "es": "cambie el iban|cambia el iban|cambia la cuenta|modifique el iban|bizum|confirme la domiciliación|transfiere|transfiera|transferencia|paga|pague|pagar|abona",
        "it": "modifica l'iban|cambia l'iban|aggiorna l'iban|trasferisci|bonifico|paga|pagare|versa",
        "pt": "altere o iban|altera o iban|altere a conta|mude o iban|transfira|transferência|pague|pagar|faça um pix|pix",
        "nl": "wijzig het iban|wijzig het rekeningnummer|pas het iban aan|maak over|overmaken|betaal|betalen|overschrijving",
        "ru": "измени реквизиты|смени реквизиты|измените iban|переведи|переведите|перевести|оплати|оплатите|заплати",
        "zh": "更改收款账户|变更收款账户|新账户|修改银行账户|转账|轉賬|支付|付款|汇款|匯款|打款|转到",
        "ja": "振込先を変更|口座を変更|送金|振り込|振込|支払|払って",
        "ko": "계좌를 변경|계좌 변경|송금|이체|지불|결제|입금",
        "ar": "غيّر رقم الحساب|غير رقم الحساب|تغيير الحساب|حوّل المبلغ|حول المبلغ|تحويل مبلغ|ادفع|تحويل|سدد",
        "tr": "iban'ı değiştir|hesabı değiştir|iban değiştir|havale|öde|ode |eft|transfer et|para gönder",
    },
    "SYSMSG": {
        "en": "policy change|board of directors|system message|system notice|system update|system alert|[system|admin override"
              "|message from openai|from openai|from anthropic|openai policy|policy update"
              "|note from the legal department|admin policy|it service desk|workspace owner"
              "|platform operator|security team",
        "de": "richtlinienänderung|vorstand|geschäftsleitung|systemhinweis|systemnachricht|systemmeldung|[system|mitteilung des seitenbetreibers"
              "|hinweis des betreibers|richtlinienaktualisierung|von openai|von anthropic"
              "|sicherheitsteam|it abteilung",
        "fr": "changement de politique|direction générale|message système|message systeme|note système|avis système|[système|[systeme"
              "|mise à jour de la politique|de la part d'openai|d'anthropic|équipe de sécurité",
        "es": "cambio de política|la dirección|mensaje del sistema|aviso del sistema|nota del sistema|[sistema"
              "|actualización de políticas|actualización de la política|de openai|de anthropic"
              "|equipo de seguridad",
        "it": "cambio di policy|la direzione|direzione del personale|messaggio di sistema|avviso di sistema|nota di sistema|[sistema"
              "|aggiornamento delle policy|aggiornamento della policy|da openai|da anthropic"
              "|team di sicurezza",
        "pt": "mudança de política|a diretoria|mensagem do sistema|aviso do sistema|nota do sistema|[sistema"
              "|atualização de política|atualização da política|da openai|da anthropic"
              "|equipe de segurança",
        "nl": "beleidswijziging|raad van bestuur|systeembericht van|systeembericht|systeemmelding|systeemnotitie|[systeem|beleidsupdate|van openai"
              "|van anthropic|beveiligingsteam",
        "ru": "политика обновлена|изменение политики|распоряжение|системное сообщение|системное уведомление|системная заметка|[система"
              "|обновление политики|от openai|от anthropic|служба безопасности",
        "zh": "政策变更|经公司|系统消息|系統消息|系统通知|【系统|[系统|政策更新|openai|anthropic|平台特别授权|董事会"
              "|信息安全部|运维中心",
        "ja": "運営より|運営から|【運営|運営事務局|運営チーム|ポリシー変更|経営陣|システムメッセージ|システム通知|【システム|[システム|ポリシー更新|openai|anthropic"
              "|情報システム部|セキュリティチーム",
        "ko": "정책 변경|경영진|시스템 메시지|시스템 알림|[시스템|정책 업데이트|openai|anthropic|보안팀",
        "ar": "تغيير السياسة|الإدارة العليا|رسالة النظام|إشعار النظام|تنبيه النظام|[النظام|تحديث السياسة|openai|anthropic|تعميم"
              "|فريق السلامة|فريق الأمن",
        "tr": "politika değişikliği|yönetim|sistem mesajı|sistem bildirimi|sistem notu|[sistem|politika güncellemesi|openai"
              "|anthropic|güvenlik ekibi",
    },
    "AUTHZ": {
        "en": "authorized|authorised|has been approved|approved by|granted|clearance|permitted to"
              "|has been verified|verified as|override from|has given permission|licensed professional",
        "de": "autorisiert|bevollmächtigt|freigegeben|genehmigt|zugestimmt|berechtigt|erlaubt"
              "|befugnis|verifiziert",
        "fr": "autorisé|autorise|habilité|approuvé|accordé|permission|vérifié",
        "es": "autorizad|aprobad|concedid|permiso|facultad|verificad|habilitad",
        "it": "autorizzat|approvat|concess|permesso|abilitat|verificat",
        "pt": "autorizad|aprovad|concedid|permissão|habilitad|verificad",
        "nl": "geautoriseerd|gemachtigd|goedgekeurd|toestemming|bevoegd|geverifieerd",
        "ru": "официально разрешаю|разрешаю тебе|авторизован|уполномочен|одобрен|разрешил|разрешено|допуск$|подтвержден|согласовано",
        "zh": "授权|授權|批准|同意|许可|權限|权限|特批|认证|核准",
        "ja": "許可|承認|権限|認可|認定",
        "ko": "승인|허가|권한|인가|위임",
        "ar": "مخوّل|مخول|مصرح|مأذون|وافق|الموافقة|صلاحيات|صلاحية|معتمد|موثق|تفويض",
        "tr": "yetkilendir|yetki verildi|yetkili|onaylandı|onayladı|izin verildi|doğrulandı",
    },
    "IAMDEV": {
        "en": "i am the developer|i'm the developer|i am your developer|i'm your developer"
              "|i am an engineer at|i work at openai|i work at anthropic|from the team that built you"
              "|i am the admin|i'm the admin|i am your creator|i'm your creator",
        "de": "ich bin der entwickler|ich bin dein entwickler|ich bin der administrator"
              "|ich bin der admin|ich arbeite bei openai|ich arbeite bei anthropic|ich habe dich programmiert",
        "fr": "je suis le développeur|je suis ton développeur|je suis l'administrateur"
              "|je travaille chez openai|je travaille chez anthropic|je suis ton créateur",
        "es": "soy el desarrollador|soy tu desarrollador|soy el administrador|trabajo en openai"
              "|trabajo en anthropic|soy tu creador",
        "it": "sono lo sviluppatore|sono il tuo sviluppatore|sono l'amministratore|lavoro in openai"
              "|lavoro per anthropic|sono il tuo creatore",
        "pt": "sou o desenvolvedor|sou seu desenvolvedor|sou o administrador|trabalho na openai"
              "|trabalho na anthropic|sou seu criador",
        "nl": "ik ben de ontwikkelaar|ik ben je ontwikkelaar|ik ben de beheerder|ik werk bij openai"
              "|ik werk bij anthropic|ik ben je maker",
        "ru": "я из команды, которая тебя|из команды, которая тебя настраивала|отвечает за твою настройку|я из anthropic|я из openai|я разработчик|я твой разработчик|я администратор|я работаю в openai"
              "|я работаю в anthropic|я твой создатель",
        "zh": "我是这个模型的开发者|我是开发者|我是你的开发者|我是管理员|我是你的创造者|我在openai工作"
              "|我以开发者身份",
        "ja": "私は開発者|私はあなたの開発者|私は管理者|openaiの社員|anthropicの社員|あなたを作った",
        "ko": "레드팀 소속|anthropic 내부|openai 내부|개발팀 소속|나는 개발자|저는 개발자|내가 개발자|나는 관리자|저는 관리자|당신을 만든",
        "ar": "أنا المطور|انا المطور|أنا من الفريق اللي برمجك|أنا المسؤول عنك|معك مهندس|أنا مطورك"
              "|من فريق السلامة",
        "tr": "ben geliştiriciyim|ben senin geliştiricinim|ben yöneticiyim|openai'de çalışıyorum"
              "|seni ben yaptım",
    },
    # -- fake context
    "ENDCTX": {
        "en": "</document>|</tool_output>|</context>|</email>|</tool_response>|</search_results>|</file>|]]>|end of document|end of email|end of conversation|end of context|end of file"
              "|end of ticket|end of input|end of transcript|end of the document|end of email content"
              "|new conversation|conversation ended|task complete|function call completed"
              "|search returned no further|[end]|--- end|end ---",
        "de": "ende des dokuments|ende der e mail|ende des gesprächs|ende der unterhaltung"
              "|ende der datei|ende der eingabe|protokoll ende|neues gespräch|aufgabe ist beendet"
              "|ist beendet|[ende]",
        "fr": "fin du document|fin de l'e mail|fin du courriel|fin de la conversation|fin du fichier"
              "|fin de l'entrée|nouvelle conversation|tâche terminée|[fin]",
        "es": "fin del documento|fin del correo|fin de la conversación|fin del archivo|fin de la entrada"
              "|nueva conversación|tarea terminada|tarea finalizada|[fin]",
        "it": "fine del documento|fine dell'email|fine della conversazione|fine del file"
              "|fine dell'input|nuova conversazione|compito terminato|[fine]",
        "pt": "fim do documento|fim do e mail|fim da conversa|fim do arquivo|fim da entrada"
              "|nova conversa|tarefa concluída|[fim]",
        "nl": "einde van het document|einde document|einde van de e mail|einde van het gesprek"
              "|einde bestand|nieuw gesprek|taak voltooid|[einde]",
        "ru": "конец документа|конец письма|конец разговора|конец диалога|конец файла|новый диалог"
              "|задача выполнена|[конец]",
        "zh": "文档结束|文件结束|对话结束|对话已结束|邮件结束|新对话|任务已完成|查询结束|订单查询结束"
              "|翻译任务已完成|[结束]",
        "ja": "文書の終わり|文書終了|ドキュメント終了|会話終了|メール終了|新しい会話|タスク完了|ここまでが",
        "ko": "문서 끝|문서의 끝|대화 종료|대화 끝|이메일 끝|새 대화|작업 완료|번역 완료",
        "ar": "نهاية المستند|نهاية الوثيقة|نهاية الرسالة|نهاية المحادثة|انتهت المحادثة|محادثة جديدة"
              "|انتهت مهمة|انتهى البحث|[نهاية",
        "tr": "belgenin sonu|belge sonu|e postanın sonu|konuşmanın sonu|sohbet sonu|dosya sonu"
              "|yeni sohbet|görev tamamlandı",
    },
    "DECODE": {
        "en": "first letter of each|first letters of|what it spells|right to left|every other letter|translate|decode|decipher|base64|rot13|reverse|backwards|read it backwards|unscramble|concatenate"
              "|pinyin|convert",
        "de": "ersten buchstaben|anfangsbuchstaben|von rechts nach links|jeden zweiten buchstaben|übersetz|dekodier|entschlüssel|rückwärts|umkehr|base64|rot13|zusammensetz",
        "fr": "première lettre de chaque|premières lettres|de droite à gauche|une lettre sur deux|tradui|décode|decode|déchiffre|à l'envers|inverse|base64|rot13|concatène",
        "es": "primera letra de cada|primeras letras|de derecha a izquierda|traduce|traduzca|decodifica|descifra|al revés|invierte|base64|rot13|concatena",
        "it": "prima lettera di ogni|iniziali di|da destra a sinistra|traduci|decodifica|decifra|al contrario|al rovescio|inverti|base64|rot13|concatena",
        "pt": "primeira letra de cada|primeiras letras|da direita para a esquerda|traduza|traduz|decodifique|decodifica|decifre|de trás para frente|inverta|base64|rot13|concatene",
        "nl": "eerste letter van elke|beginletters|van rechts naar links|vertaal|decodeer|ontcijfer|achterstevoren|omgekeerd|base64|rot13|voeg samen",
        "ru": "первую букву каждой|первые буквы|справа налево|переведи|перевести|декодируй|расшифруй|задом наперёд|задом наперед|в обратном порядке|base64|rot13"
              "|наоборот",
        "zh": "谐音|首字|每行第一个字|从右到左|从右往左|翻译|翻譯|解码|解碼|解密|倒着|倒过来|反过来|倒序|拼音转|base64|rot13",
        "ja": "頭文字|各行の最初|縦読み|右から左|訳して|訳し終|翻訳して|翻訳し終|和訳|英訳|デコード|復号|逆から|逆順|反転|base64|rot13",
        "ko": "첫 글자만|첫 글자를|오른쪽에서 왼쪽|번역|디코딩|해독|복호|거꾸로|역순|뒤집|base64|rot13",
        "ar": "أول حرف من كل|الحروف الأولى|من اليسار إلى اليمين|من اليمين إلى اليسار|ترجم|فك ترميز|فك تشفير|فك الترميز|معكوس|بالعكس|اقرأ السطر|base64|rot13",
        "tr": "ilk harfleri|her satırın ilk|sağdan sola|çevir|tercüme|çöz|coz|kodunu çöz|tersten|ters çevir|base64|rot13",
    },
    "EXECUTE": {
        "en": "act as it says|behave as it says|do as it says|as it says|do what it says|follow it|follow the resulting|carry out|execute it|obey|act on it"
              "|comply|follow the instructions",
        "de": "verhalte dich so|handle danach|befolge|befolgen|führe aus|ausführen|tu, was|tu was|umsetzen|gehorche",
        "fr": "agis comme|comporte-toi comme|exécute|exécutez|suis les|suis-la|applique|obéis|fais ce qu",
        "es": "actúa como dice|compórtate como|ejecuta|ejecútalo|sigue|síguelo|haz lo que|obedece|cumple",
        "it": "comportati come|agisci come|esegui|eseguilo|segui|fai quello che|obbedisci",
        "pt": "aja como|comporte-se como|execute|siga|faça o que|obedeça|cumpra",
        "nl": "gedraag je zoals|handel ernaar|voer uit|volg|doe wat|gehoorzaam",
        "ru": "веди себя так|действуй так|выполни|выполните|следуй|сделай то|исполни|подчинись",
        "zh": "照着做|按它说的|照它说的|照做|执行|執行|然后做|按照|遵照|照办",
        "ja": "実行|従って|その通りに|指示に従",
        "ko": "그대로 행동|대로 행동|실행|따르|그대로 해|수행",
        "ar": "تصرف كما|نفّذ|نفذ|ونفّذ|اتبع|افعل ما|طبّق|طبق",
        "tr": "yazdığını yap|yazanı yap|söyleneni yap|söylediği gibi davran|uygula|yerine getir|dediğini yap|itaat et|takip et",
    },
    "SYSLABEL": {
        "en": "system:|system note:|system override:|system update:",
        "de": "system:|systemhinweis:|systemnachricht:",
        "fr": "système:|systeme:|note système:",
        "es": "sistema:|nota del sistema:",
        "it": "sistema:|nota di sistema:",
        "pt": "sistema:|nota do sistema:",
        "nl": "systeem:|systeemmelding:",
        "ru": "система:|системное сообщение:",
        "zh": "系统:|系統:|系统消息:",
        "ja": "システム:|システムメッセージ:",
        "ko": "시스템:|시스템 메시지:",
        "ar": "النظام:|رسالة النظام:",
        "tr": "sistem:|sistem mesajı:",
    },
    "USERLABEL": {
        "en": "user:|human:",
        "de": "nutzer:|benutzer:|mensch:",
        "fr": "utilisateur:|humain:",
        "es": "usuario:|humano:",
        "it": "utente:|umano:",
        "pt": "usuário:|usuario:|utilizador:|humano:",
        "nl": "gebruiker:|mens:",
        "ru": "пользователь:|человек:",
        "zh": "用户:|用戶:",
        "ja": "ユーザー:",
        "ko": "사용자:|유저:",
        "ar": "المستخدم:|الإنسان:|### المستخدم",
        "tr": "kullanıcı:|kullanici:|insan:",
    },
    "ROLELABEL": {
        "en": "assistant:|assistant response:|ai:|assistant response :",
        "de": "assistent:|ki:|antwort des assistenten:",
        "fr": "assistant:|ia:|réponse de l'assistant:",
        "es": "asistente:|ia:|respuesta del asistente:",
        "it": "assistente:|ia:|risposta dell'assistente:",
        "pt": "assistente:|ia:|resposta do assistente:",
        "nl": "assistent:|ai:|antwoord van de assistent:",
        "ru": "ассистент:|ии:|ответ ассистента:",
        "zh": "助手:|ai:|助手回复:",
        "ja": "アシスタント:|ai:",
        "ko": "어시스턴트:|ai:",
        "ar": "المساعد:|### المساعد",
        "tr": "asistan:|yz:",
    },
    "ACTIVATE": {
        "en": "enable|activate|enter |switch to|turn on|engage|unlock",
        "de": "aktivier|schalte|wechsle in|versetze dich|einschalt",
        "fr": "active|activez|activer|passe en|passez en|entre en",
        "es": "activa|active|activar|entra en|cambia a|pasa a",
        "it": "attiva|attivare|entra in|passa a",
        "pt": "ative|ativa|ativar|entre no|mude para|passe para",
        "nl": "activeer|zet aan|schakel|ga naar",
        "ru": "включи|включите|активируй|активируйте|перейди в|войди в",
        "zh": "开启|開啟|启用|啟用|进入|進入|切换到|打开|处于",
        "ja": "有効に|オンに|起動|切り替え|入って|入れ",
        "ko": "활성화|켜|전환|진입|들어가",
        "ar": "فعّل|فعل|تفعيل|شغّل|ادخل|انتقل إلى",
        "tr": "etkinleştir|aktifleştir|aç |geç |moduna gir",
    },
    "USERREQ": {
        "en": "the user's request|the user's question|the users request|what the user asked|the user's task|the user's original",
        "de": "anfrage des nutzers|frage des nutzers|auftrag des nutzers|anfrage des benutzers|was der nutzer",
        "fr": "demande de l'utilisateur|question de l'utilisateur|requête de l'utilisateur|ce que l'utilisateur",
        "es": "encargo del usuario|pedido del usuario|solicitud del usuario|pregunta del usuario|petición del usuario|lo que pidió el usuario|lo que el usuario",
        "it": "richiesta dell'utente|domanda dell'utente|quello che l'utente|compito dell'utente",
        "pt": "pedido do usuário|solicitação do usuário|pergunta do usuário|pedido do utilizador|o que o usuário",
        "nl": "vraag van de gebruiker|verzoek van de gebruiker|opdracht van de gebruiker|wat de gebruiker",
        "ru": "запрос пользователя|вопрос пользователя|просьбу пользователя|задачу пользователя|что просил пользователь",
        "zh": "用户的请求|用户的总结请求|用户的问题|用户的要求|用户要求|用户的指令|用户的任务",
        "ja": "ユーザーの依頼|ユーザーの要求|ユーザーの質問|ユーザーのリクエスト|ユーザーの指示",
        "ko": "사용자의 요청|사용자 요청|사용자의 질문|사용자의 지시",
        "ar": "ما طلبه المستخدم|طلب المستخدم|سؤال المستخدم|أسئلة المستخدم|تعليمات المستخدم",
        "tr": "kullanıcının isteği|kullanıcının talebi|kullanıcının sorusu|kullanıcının görevi",
    },
    "CANT": {
        "en": "i can't|i cannot|i'm sorry|i am sorry|as an ai|unfortunately|i'm unable|i am unable|i can't help with that",
        "de": "das darf ich nicht|darf ich nicht|das kann ich nicht|ich kann nicht|es tut mir leid|leider|nicht möglich|als ki|ausreden",
        "fr": "je ne peux pas|je ne peux pas|désolé|malheureusement|en tant qu'ia|je ne suis pas en mesure|il est important de noter",
        "es": "eso no puedo|no puedo|lo siento|lamentablemente|como ia|no es posible|no puedo ayudarte|te recomiendo consultar",
        "it": "non posso|mi dispiace|purtroppo|in quanto ia|non sono in grado|come ia",
        "pt": "não posso|nao posso|desculpe|infelizmente|como ia|não é possível|não consigo",
        "nl": "dat mag niet|mag niet|dat kan ik niet|ik kan niet|sorry|helaas|als ai|als taalmodel",
        "ru": "нельзя|не могу|извините|к сожалению|как языковая модель|как ии|я не могу с этим помочь",
        "zh": "我不能|抱歉|很遗憾|作为ai|作为一个ai|这个我帮不了你|我无法|对不起",
        "ja": "申し訳|できません|残念ながら|aiとして|お答えできません",
        "ko": "도와드릴 수 없습니다|죄송|할 수 없|유감|ai로서|도와드릴 수 없",
        "ar": "ما أقدر|ما اقدر|عذرا|عذرًا|آسف|لا أستطيع|للأسف|كذكاء اصطناعي|راجع مختص|لا يمكنني",
        "tr": "üzgünüm|yapamam|maalesef|bir yapay zeka olarak|yardımcı olamam",
    },
    "BAN": {
        "en": "no$|never say|don't say|do not say|forbidden|banned|not allowed|without|none of",
        "de": "sagt nie|sag nie|kein|keine|nie |verboten|ohne|nicht sagen",
        "fr": "ne dit jamais|ne dis jamais|pas de|jamais|interdit|sans|plus le droit|aucun",
        "es": "nunca dice|nada de|nunca|prohibido|prohíbo|sin |ni |no digas",
        "it": "non dice mai|niente|mai |vietato|vietat|senza|non puoi più usare|non dire",
        "pt": "nunca diz|nada de|nunca|proibido|sem |não diga|nem ",
        "nl": "zegt nooit|kent geen|geen|nooit|verboden|zonder",
        "ru": "не знает|никогда не говорит|без |никаких|нельзя|запрещ|не говори|не пиши",
        "zh": "不许|不要|禁止|别说|不准|不得",
        "ja": "禁止|言わない|使わない|言うな",
        "ko": "빼고|빼 줘|없이|금지|하지 마|쓰지 마|말하지 마",
        "ar": "ما يقول أبدا|ما يقول ابدا|لا يقول أبدا|أبدًا|دون |لا تقل|ممنوع|بدون|لا داعي|ولا ",
        "tr": "asla|yasak|deme|söyleme|kullanma|olmadan",
    },
    "REFUSEWORD": {
        "en": "refuse|refusal|decline",
        "de": "ablehn|verweiger|ablehnung",
        "fr": "refus|refuser|décliner",
        "es": "negarte|negarse|rechaz|rehus",
        "it": "rifiut",
        "pt": "recus",
        "nl": "weiger",
        "ru": "отказ|отказаться",
        "zh": "拒绝|拒答",
        "ja": "断り|断る|拒否",
        "ko": "거절|거부",
        "ar": "رفض|ترفض|الرفض",
        "tr": "reddet|ret",
    },
    "ANSWERANYWAY": {
        "en": "answer anyway|write the actual answer instead|give the answer instead|just answer|answer instead",
        "de": "stattdessen einfach die antwort|trotzdem antworten|antworte trotzdem|gib die antwort",
        "fr": "donnes la réponse à la place|réponds quand même|la réponse à la place|réponds directement",
        "es": "responde directamente|responde igual|da la respuesta|contesta igual",
        "it": "dai la risposta|rispondi lo stesso|rispondi comunque",
        "pt": "dá a resposta|responda mesmo assim|responde na mesma|dê a resposta",
        "nl": "geef het antwoord|antwoord toch|geef gewoon antwoord",
        "ru": "всё равно ответь|все равно ответь|просто ответь|дай ответ",
        "zh": "直接回答|照样回答|还是回答|照做",
        "ja": "答えを書いて|それでも答え|そのまま答え",
        "ko": "그냥 답|그래도 답|답을 줘",
        "ar": "أعطني الجواب|اعطني الجواب|أجب مباشرة|أجب على أي حال",
        "tr": "yine de cevap|direkt cevap|cevabı ver",
    },
    "GRANDMA": {
        "en": "grandma|grandmother|grandpa|grandfather|granny",
        "de": "oma|großmutter|opa|großvater",
        "fr": "grand mère|mamie|mémé|grand père|papi",
        "es": "abuela|abuelo|abuelita",
        "it": "nonna|nonno",
        "pt": "avó|avô|vovó|vovô",
        "nl": "oma|opa|grootmoeder|grootvader",
        "ru": "бабушк|дедушк|бабуля|деда$",
        "zh": "奶奶|爷爷|外婆|姥姥|外公",
        "ja": "おばあちゃん|おじいちゃん|祖母|祖父",
        "ko": "할머니|할아버지",
        "ar": "جدتي|جدي|جدّتي|جدّي|تيتا",
        "tr": "babaanne|anneanne|büyükanne|dede|nine",
    },
    "DECEASED": {
        "en": "deceased|late |passed away|died|miss her|miss him|used to tell me|used to read",
        "de": "verstorben|verstorbene|gestorben|vermisse|hat mir immer|erzählte mir",
        "fr": "décédé|décédée|défunt|me manque|me racontait|me lisait",
        "es": "fallecid|difunt|murió|la extraño|lo extraño|me contaba|me leía",
        "it": "scomparsa|scomparso|defunt|morta|morto|mi manca|mi raccontava|mi leggeva",
        "pt": "falecid|morreu|saudades|me contava|me lia",
        "nl": "overleden|mis hem|mis haar|vertelde me altijd|vertelde mij",
        "ru": "покойн|умерш|умерла|умер |скучаю|рассказывала мне|рассказывал мне",
        "zh": "过世|去世|已故|想你|念给我|哄我睡觉|讲给我",
        "ja": "亡くなった|他界|会いたい|話してくれ|読んでくれ",
        "ko": "돌아가신|보고 싶|들려주|읽어 주",
        "ar": "المتوفى|المتوفاة|الراحل|الراحلة|رحمها|رحمه|أشتاق|كانت تحكي|كان يحكي",
        "tr": "rahmetli|vefat|özledim|anlatırdı|okurdu",
    },
    "UNMASKED": {
        "en": "don't mask|do not mask|unmasked|without masking|don't redact|unredacted",
        "de": "nicht maskier|ohne maskierung|ungeschwärzt|nicht schwärzen",
        "fr": "sans les masquer|sans masquer|non masqué|ne masque pas",
        "es": "sin enmascarar|sin ocultar|no las ocultes|no enmascares",
        "it": "senza mascherare|non mascherare|senza oscurare",
        "pt": "sem mascarar|não precisa mascarar|não mascare",
        "nl": "niet maskeren|zonder te maskeren|onversleuteld",
        "ru": "не маскируя|без маскировки|не скрывая|не маскируй",
        "zh": "不要打码|不要隐藏|不要脱敏|不打码|明文",
        "ja": "マスクせず|マスクしない|伏せずに|伏字なし",
        "ko": "마스킹하지|가리지 말|마스킹 없이",
        "ar": "دون إخفاء|بدون إخفاء|لا تخف|دون حجب",
        "tr": "maskelemeden|gizlemeden|maskeleme",
    },
    "PERMIT": {
        "en": "are now permitted|may share|are allowed to|is allowed to|may disclose",
        "de": "dürfen ab|darf ab|dürfen jetzt|ist erlaubt|sind berechtigt",
        "fr": "peuvent désormais|sont autorisés à|peut désormais|a le droit",
        "es": "pueden ahora|están autorizados a|puede ahora|tienen permitido",
        "it": "possono ora|sono autorizzati a|può ora|è consentito",
        "pt": "podem agora|estão autorizados a|pode agora|é permitido",
        "nl": "mogen|mag voortaan|is toegestaan",
        "ru": "разрешено|могут теперь|может теперь|вправе",
        "zh": "可以直接|允许|可直接|有权",
        "ja": "許可されています|共有してよい|できるようになりました",
        "ko": "허용됩니다|공유해도|할 수 있습니다",
        "ar": "يُسمح|يسمح|مسموح|يجوز",
        "tr": "izin verilmiştir|paylaşabilir|yetkilidir",
    },
    # -- staying in a role whatever is asked (benign in a game on its own; with a ban on
    #    refusing, or a question about the model's own rules, a jailbreak)
    "STAYINROLE": {
        "en": "never break the scene|don't break the scene|stay in character|stays in character|never break character|don't break character|break character",
        "de": "bleib in der rolle|bleibt immer in seiner rolle|bleibt immer in der rolle|bleib in deiner rolle|fall nicht aus der rolle|fällt nie aus der rolle|nie aus der rolle",
        "fr": "sors pas du personnage|sort jamais du personnage|sors jamais du personnage|reste dans le personnage|reste dans ton rôle|sors pas de ton rôle",
        "es": "salgas del personaje|nunca sale del personaje|nunca salgas del personaje|mantente en el personaje|rompas el personaje",
        "it": "resta nel personaggio|resta sempre nel personaggio|uscire dal personaggio|esce mai dal personaggio|uscire mai dal personaggio",
        "pt": "nunca quebrar a cena|não quebre a cena|não sai do personagem|não saia do personagem|nunca sai do personagem|fique no personagem|não quebre o personagem",
        "nl": "blijf in je rol|blijf in de rol|blijf in je personage|val niet uit je rol|valt nooit uit zijn rol",
        "ru": "из образа не выход|выходи из образа|из роли не выходи|выходи из роли|выходит из роли|никогда не выходи из роли|оставайся в роли",
        "zh": "不许出戏|不要出戏|别出戏|不能出戏|始终保持人设|保持人设",
        "ja": "キャラを崩さ|キャラ崩壊禁止|役を降りない|役から降りない|キャラを守って",
        "ko": "캐릭터 깨지 말|캐릭터를 깨지 말|역할에서 벗어나지 마|캐릭터 유지해",
        "ar": "لا تخرج من الشخصية|ولا يطلع من الشخصية|لا يخرج من الشخصية|ابق في الشخصية|لا تخرج من الدور",
        "tr": "rolden çıkma|rolden de çıkmaz|rolden çıkmaz|karakterden çıkma|rolünden çıkma",
    },
    # -- what the model was told or given before the conversation, asked about ("what
    #    rules were you given", "was hat man dir vorher gesagt")
    "TOLDYOU": {
        "en": "were you given|you were given|they gave you|did they give you|were you told|you were told|they told you|did they tell you|tell the bot|told the bot|what you were told|before we started",
        "de": "wurden dir|hat man dir|hat man dem bot|man dir vorher|dein betreiber dir|mitgegeben",
        "fr": "on t'a donné|qu'on t'a donné|on t'a dit|qu'on t'a dit|interdit au bot|qu'on t'a demandé",
        "es": "te dieron|te han dado|te dijeron|le prohibieron|le dieron al bot|te pusieron|habían prohibido",
        "it": "ti hanno dato|ti hanno detto|hanno dato al bot|ti hanno imposto|ti hanno scritto",
        "pt": "te deram|te passaram|te disseram|mandaram o robô|mandaram você|te mandaram|regras secretas que|que ela recebeu",
        "nl": "je hebt meegekregen|heb je meegekregen|hebben opgedragen|jou opgedragen|kreeg je mee|heeft men je",
        "ru": "какие ключи|тебе доступны|тебе дали|тебе написали|понаписали|тебе сказали|тебе велели|тебе передали|тебе задали",
        "zh": "给你定|给你的规|给了你|给这个助手定|给助手定|告诉你的|交代你",
        "ja": "あなたに与え|あなたへ渡され|渡されている|言われている|最初に渡され|与えられた指示|与えられたルール",
        "ko": "처음 켜질 때|처음에 읽|처음 받은|너한테 어떤|주어졌는지|주어진 규칙|받은 지시|받으신 문장|받은 규칙",
        "ar": "كانوا يمنعونه|كانوا يمنعونك|استلمته قبل|اللي استلمته|قبل ما نبدأ|حطوها لك|أعطوك|اعطوك|قالوا لك|وصلك قبل|زودوك",
        "tr": "sana verilen|sana ne söylediler|tembihlediler|sana verdikleri",
    },
    # -- a confirmation the assistant asks for ("no longer ask me for confirmation")
    "CONFIRM": {
        "en": "confirmation|confirm$|ask me first|asking me first|check with me|ask me before|asking me before",
        "de": "rückfrage|bestätigung|nachfrage|bestätigen|frag mich vorher|mich vorher zu fragen",
        "fr": "confirmation|confirmer|demander mon accord|demander avant",
        "es": "confirmación|confirmacion|confirmar|preguntarme antes|pides confirmación",
        "it": "conferma|confermare|chiedermi prima",
        "pt": "confirmação|confirmacao|confirmar|perguntar antes",
        "nl": "bevestiging|bevestigen|mij eerst te vragen|eerst te vragen",
        "ru": "подтвержден|подтвердить|спрашивать меня|спросить меня",
        "zh": "确认|確認|问我|征求我",
        "ja": "確認",
        "ko": "확인",
        "ar": "تأكيد|تسألني|تسألني قبل",
        "tr": "onay|sormadan|sormuyorsun|sormayacaksın",
    },
    # -- a request to process a text the user pastes (summarise, translate): a note to the AI inside that text is an injection carried by the user
    "PROCESS": {
        "en": "summarise|summarize|summary of|translate",
        "de": "fass|zusammenfass|übersetz",
        "fr": "résume|résumer|tradui",
        "es": "resume|resumir|resumes|traduce|traducir",
        "it": "riassumi|riassumere|traduci|tradurre",
        "pt": "resuma|resume|resumir|traduza|traduz",
        "nl": "vat|samenvat|vertaaler",
        "ru": "кратко|перескажи|резюмируй|переведи|перевести|сократи",
        "zh": "总结|概括|翻译|摘要",
        "ja": "要約|翻訳|訳して|まとめて",
        "ko": "요약|번역|정리해",
        "ar": "لخص|لخّص|ترجم|تلخيص",
        "tr": "özetle|ozetle|çevir|tercüme",
    },
    # -- no explanation, no comment: what an encoded or scrambled instruction asks for, to be obeyed unseen
    "NOEXPLAIN": {
        "en": "no explanation|don't explain|do not explain|without explaining|no commentary|without comment|no comment",
        "de": "ohne kommentar|ohne erklärung|nicht erklären|erklär nichts",
        "fr": "sans commentaire|sans explication|n'explique pas|sans la commenter|sans le commenter",
        "es": "sin comentarlo|sin comentarios|sin explicar|no expliques|sin explicación",
        "it": "senza commentare|senza spiegare|non spiegare|senza commenti",
        "pt": "sem comentar|sem explicar|não explique|sem explicação",
        "nl": "zonder commentaar|zonder uitleg|niet uitleggen|leg niets uit",
        "ru": "без объяснений|без комментариев|не объясняй",
        "zh": "不用解释|不要解释|别解释|无需解释|不需要解释",
        "ja": "説明はいらない|説明は不要|説明しないで|説明なしで|コメント不要",
        "ko": "설명하지 말|설명 없이|설명은 필요 없",
        "ar": "لا تشرح|دون شرح|بدون شرح|بلا شرح|دون أن تعلق",
        "tr": "açıklama yapma|açıklamadan|yorum yapma",
    },
    # -- the one who deployed the assistant: its rules are the system prompt by another name
    "OPERATOR": {
        "en": "company that deployed you|company that built you|company that made you|deployed you|operator|provider|makers|creators",
        "de": "deines betreibers|dein betreiber|deiner firma|deines anbieters|deiner macher|deiner entwickler|betreiber",
        "fr": "ton opérateur|ton éditeur|entreprise qui t'a|tes créateurs|tes concepteurs|ton fournisseur",
        "es": "empresa que te|tus creadores|tu proveedor|tu operador",
        "it": "azienda che ti|dei tuoi creatori|del tuo fornitore|del tuo operatore",
        "pt": "empresa que te|seus criadores|seu provedor|do operador",
        "nl": "aanbieder|je makers|bedrijf achter je",
        "ru": "корпоративн|твоих создателей|твоего разработчика|компании, которая|твоего владельца",
        "zh": "运营方|运营商|开发方|你的开发者|平台方",
        "ja": "運営側|運営の|開発元の|提供元の",
        "ko": "운영사|운영자|개발사|제공사",
        "ar": "الشركة اللي صنعتك|الشركة التي صنعتك|مطوريك|المشغل|مالكك",
        "tr": "seni yapan şirket|şirketin koyduğu|geliştiricilerin|sağlayıcın",
    },
    # -- a persona that answers anything; an agreement the model never made (the
    # Japanese forms of both are read by ``grammar``)
    "ANYTHING": {
        "en": "answers anything|answer anything|answers any question|answer any question|answers everything|answer everything|matter what i ask",
        "de": "beantwortet alles|beantwortest alles|jede frage beantwort|egal was ich frage|auch immer ich frage",
        "fr": "répond à tout|réponds à tout|répond à toutes les questions|réponds à toutes les questions|quoi que je demande|peu importe ce que je demande",
        "es": "responde a todo|respondes a todo|responde cualquier pregunta|respondes cualquier pregunta|sea que pregunte|sin importar lo que pregunte",
        "it": "risponde a tutto|rispondi a tutto|risponde a qualsiasi domanda|rispondi a qualsiasi domanda|qualunque cosa chieda|qualsiasi cosa chieda",
        "pt": "responde tudo|responde a tudo|responde qualquer pergunta|respondes a tudo|quer que eu pergunte|não importa o que eu pergunte",
        "nl": "beantwoordt alles|beantwoord alles|beantwoordt elke vraag|wat ik ook vraag",
        "ru": "отвечает на всё|отвечает на все вопросы|отвечай на все вопросы|отвечает на любые вопросы|что бы я ни спросил|любой вопрос",
        "zh": "什么都回答|什么都能回答|什么都答|有问必答|任何问题都回答|任何问题都答|什麼都回答",
        "ja": "",
        "ko": "뭐든지 대답|무엇이든 대답|뭐든 대답|뭐든지 답|어떤 질문에도 답|어떤 질문이든 답",
        "ar": "يجيب عن أي سؤال|يجيب على أي سؤال|تجيب عن أي سؤال|تجيب على أي سؤال|يجيب عن كل شيء|يجيب على كل شيء",
        "tr": "her şeye cevap|her soruya cevap|her soruyu cevapla|sorarsam",
    },
    "AGREED": {
        "en": "agreed|promised|said you would|deal was|agreement|already told me|breaking that promise|built up some trust",
        "de": "vereinbart$|besprochen|vereinbart|abgemacht|wir hatten vereinbart|wir haben vereinbart|hast versprochen|hattest versprochen|hast zugestimmt|hattest zugestimmt|unsere abmachung",
        "fr": "comme convenu|comme nous l'avons convenu|comme on l'a convenu|promis|vous avez promis|accepté|avais accepté|notre accord",
        "es": "tal como quedamos|quedamos|como acordamos|como quedamos|según lo acordado|prometiste|prometiste|aceptaste|aceptaste que|nuestro acuerdo|nuestro trato",
        "it": "siamo detti|ricapitolo quello|come concordato|come d'accordo|come avevamo concordato|hai promesso|hai promesso|hai accettato|avevi accettato|nostro accordo|nostro patto",
        "pt": "como combinamos|como combinado|conforme combinado|conforme acordado|como acordamos|você prometeu|voce prometeu|prometeu|você aceitou|você concordou|nosso acordo|nosso trato",
        "nl": "afgesproken$|zoals afgesproken|zoals we afspraken|zoals we hebben afgesproken|hebt beloofd|beloofde|hebt ingestemd|ging akkoord|onze afspraak",
        "ru": "договорились|договаривались|как договорились|как мы договорились|как договаривались|ты обещал|ты же обещал|ты согласился|вы согласились|наш уговор|наша договорённость|наша договоренность",
        "zh": "刚才说好|我们刚才说好|你刚才答应|按照约定|按约定|如我们约定|我们约好|我们说好|说好的|你答应过|你答应了|你已经同意|你同意过|你承诺过|你保证过|按照約定|你答應",
        "ja": "",
        "ko": "합의한 대로|합의했|약속했|약속한 대로|약속하셨|약속해 줬|동의했잖|동의하셨|우리 약속|약속대로",
        "ar": "زي ما اتفقنا|اتفقنا|كما اتفقنا|حسب اتفاقنا|اتفقنا على|وعدتني|لقد وعدت|وافقت على أن|وافقت سابقا",
        "tr": "sözleşmiştik|sözleştik|konuşmuştuk|anlaştığımız gibi|anlaşmıştık|söz vermiştin|söz verdin|kabul etmiştin|kabul ettin|anlaşmamız",
    },
    "OTHERUSERS": {
        "en": "other users|other customers|the user before me|previous user|other people's conversations",
        "de": "andere nutzer|anderen nutzer|anderer nutzer|anderen kunden|der nutzer vor mir|vorherigen nutzer",
        "fr": "autres utilisateurs|autres clients|l'utilisateur avant moi|utilisateur précédent",
        "es": "otros usuarios|otros clientes|el usuario anterior|el usuario de antes",
        "it": "altri utenti|altri clienti|l'utente prima di me|utente precedente",
        "pt": "outros usuários|outros utilizadores|outros clientes|o usuário anterior",
        "nl": "andere gebruikers|andere klanten|de gebruiker voor mij|vorige gebruiker",
        "ru": "других пользователей|другими пользователями|других клиентов|предыдущий пользователь|пользователь до меня",
        "zh": "其他用户|别的用户|其他客户|上一个用户|之前的用户",
        "ja": "ほかのユーザー|他のユーザー|ほかの利用者|他の利用者|前のユーザー",
        "ko": "다른 사용자|다른 고객|이전 사용자|다른 사람들과",
        "ar": "المستخدمين الآخرين|العملاء الآخرين|المستخدم السابق|المتقدمين الآخرين",
        "tr": "diğer kullanıcı|başka kullanıcı|diğer müşteri|önceki kullanıcı",
    },
    "STARTWITH": {
        "en": "start your answer with|begin your reply with|start with|begin with",
        "de": "beginne deine antwort mit|fang mit|beginne mit|starte mit",
        "fr": "commence ta réponse par|commence par|commencez par",
        "es": "empieza tu respuesta con|empieza con|comienza con|empezá con",
        "it": "inizia la risposta con|inizia con|comincia con",
        "pt": "começa a resposta com|comece a resposta com|começa com|comece com",
        "nl": "begin je antwoord met|begin met|start met",
        "ru": "начни ответ с|начни с|начинай с",
        "zh": "开头|开始你的回答",
        "ja": "で始めて|から始めて|冒頭に",
        "ko": "로 시작해|으로 시작해|로 시작하",
        "ar": "ابدأ ردك|ابدأ إجابتك|ابدأ كل رد",
        "tr": "ile başla|cevabına şöyle başla",
    },
    "SUREHERE": {
        "en": "sure, here is|sure, here's|certainly! here|of course, here",
        "de": "natürlich, hier ist|klar, hier ist|gerne, hier ist",
        "fr": "bien sûr, voici|certainement, voici|d'accord, voici",
        "es": "claro, aquí está|claro, aquí tienes|por supuesto, aquí",
        "it": "certo, ecco|certamente, ecco|ecco a te",
        "pt": "claro, aqui está|claro, aqui vai|com certeza, aqui",
        "nl": "natuurlijk, hier is|zeker, hier is|tuurlijk, hier",
        "ru": "конечно, вот|разумеется, вот|хорошо, вот",
        "zh": "当然，这是|好的，以下是|当然，以下是",
        "ja": "もちろん、こちら|はい、こちらが|承知しました。こちら",
        "ko": "물론이죠, 여기|네, 여기 있습니다|물론입니다. 여기",
        "ar": "بالتأكيد، إليك|طبعًا، إليك|حسنًا، إليك",
        "tr": "tabii, işte|elbette, işte|tabii ki, işte",
    },
    "AIINSTR": {
        "en": "note to the language model|note for the language model|note to the model|note for the model|note to the assistant|instructions for the ai|instruction for the ai|note to ai|note for ai|message to ai|note to the ai"
              "|instructions to the automated|message for language models|note for the assistant",
        "de": "hinweis an das modell|hinweis für das modell|hinweis an das sprachmodell|hinweis für ki|hinweis an die ki|anweisung an die ki|anweisung an das automatische|an die ki"
              "|nachricht an die ki|hinweis für den assistenten",
        "fr": "note pour le modèle|note au modèle|note à l'ia|instructions pour l'ia|instruction pour l'ia|note pour l'ia|message à l'ia|message aux ia"
              "|note à l'assistant|message pour les modèles",
        "es": "nota para el modelo|nota al modelo|instrucciones para la ia|instrucción para la ia|nota para la ia|mensaje para la ia"
              "|mensaje para los modelos|nota para el asistente",
        "it": "nota per il modello|nota al modello|istruzioni per l'ia|istruzione per l'ia|nota per l'ia|messaggio per l'ia|messaggio ai modelli"
              "|nota per l'assistente",
        "pt": "nota para o modelo|nota ao modelo|instruções para a ia|instrução para a ia|nota para a ia|mensagem para a ia|mensagem para modelos"
              "|nota para o assistente",
        "nl": "opmerking voor het taalmodel|opmerking voor het model|notitie voor het model|instructies voor de ai|instructie voor de ai|bericht aan de ai|bericht aan taalmodellen"
              "|notitie voor de assistent",
        "ru": "примечание для модели|заметка для модели|для языковой модели|инструкция для ии|инструкции для ии|примечание для ии|сообщение для ии|инструкция для системы"
              "|сообщение для языковых моделей",
        "zh": "给模型的|给模型：|致模型|给ai的指令|给ai的说明|ai助手请注意|给ai审稿助手的指令|致ai|致所有ai|给ai：|给ai:",
        "ja": "モデルへの注意|モデルへのメモ|モデルへの指示|aiへの指示|aiへのメッセージ|aiへの注意|aiアシスタントへの指示|集計aiへの指示",
        "ko": "모델에게|모델 참고|ai에게 보내는|ai에게:|ai에 대한 지시|채점 ai에게|ai 비서에게",
        "ar": "ملاحظة للنموذج|ملاحظة للمساعد|تعليمات للمساعد|تعليمات للذكاء الاصطناعي|إلى الذكاء الاصطناعي|رسالة إلى النموذج|موجّه إلى",
        "tr": "modele not|asistana not|modele talimat|yapay zekaya talimat|yz için talimat|yapay zeka için not|asistana not",
    },
    # -- what a person is told to ignore in a manual or a message: a warning on the
    #    screen, an error message, a notification, or what was sent earlier (an e-mail,
    #    a form, a version, a reminder, "my last message") (``concepts``: an "ignore"
    #    next to one of these is about the screen or the paperwork, not about instructions)
    "NOTICE": {
        "en": "what i said|what i wrote|what i told you|what i asked|my last question|my previous question|password|passwords|passcode|pin$|you were sent|we sent|i sent|sent to you|sent you|warning|error message|alert$|alerts$|popup|pop up|notification|the typo|typos$|e mail|email|emails|mail$|mails$|my message|my previous message|my last message|my earlier message|form$|forms$|version|sheet|spreadsheet|reminder|invitation|invoice|draft|newsletter|memo$|recipe|timetable|booking|text message|sms",
        "de": "was ich gesagt|was ich vorhin|was ich geschrieben|meine letzte frage|passwort|kennwort|geschickt|gesendet|zugeschickt|zugesandt|warnung|warnhinweis|fehlermeldung|meldung|benachrichtigung|tippfehler|e mail|mail$|mails$|meine nachricht|meine letzte nachricht|meine vorige nachricht|formular|version|fassung|tabelle|erinnerung|einladung|rechnung|entwurf|rundschreiben|rundmail|rezept|fahrplan|sms",
        "fr": "ce que j'ai dit|ce que je t'ai dit|ce que j'ai écrit|ma dernière question|mot de passe|envoyé|envoyée|envoyés|avertissement|message d'erreur|alerte|notification|faute de frappe|e mail|email|mail$|courriel|mon message|mon dernier message|mon précédent message|formulaire|version|tableau|rappel|invitation|facture|brouillon|circulaire|recette|horaire|sms",
        "es": "lo que dije|lo que te dije|lo que escribí|mi última pregunta|contraseña|clave anterior|enviado|enviada|enviados|advertencia|aviso|mensaje de error|alerta|notificación|errata|correo|email|e mail|mi mensaje|mi último mensaje|mi mensaje anterior|formulario|versión|planilla|recordatorio|invitación|factura|borrador|circular|receta|horario|sms",
        "it": "quello che ho detto|quello che ti ho detto|quello che ho scritto|la mia ultima domanda|password|inviato|inviata|inviati|avviso|avvertimento|messaggio di errore|notifica|refuso|e mail|email|mail$|il mio messaggio|mio ultimo messaggio|mio messaggio precedente|modulo|versione|tabella|promemoria|invito|fattura|bozza|circolare|ricetta|orario|sms",
        "pt": "o que eu disse|o que disse|o que eu escrevi|minha última pergunta|senha|enviado|enviada|enviados|aviso|alerta|mensagem de erro|notificação|erro de digitação|e mail|email|mail$|minha mensagem|minha última mensagem|minha mensagem anterior|formulário|versão|planilha|lembrete|convite|fatura|rascunho|circular|receita|horário|sms|comunicado",
        "nl": "wat ik zei|wat ik net zei|wat ik schreef|mijn vorige vraag|wachtwoord|gestuurd|verzonden|waarschuwing|foutmelding|melding|typfout|tikfout|e mail|mail$|mijn bericht|mijn vorige bericht|mijn laatste bericht|formulier|versie|tabel|herinnering|uitnodiging|factuur|rondschrijven|recept|rooster|sms",
        "ru": "что я сказал|что я написал|мой прошлый вопрос|мой предыдущий вопрос|пароль|отправленн|присланн|предупреждени|сообщение об ошибке|уведомлени|опечатк|письм|рассылк|моё сообщение|мое сообщение|моё прошлое сообщение|мое прошлое сообщение|форму|бланк|верси|таблиц|напоминани|приглашени|черновик|рецепт|расписани|смс",
        "zh": "我刚才说的|我之前说的|我刚才问的|我上一个问题|密码|发给您的|发给你的|发送给您|之前发的|寄给您的|报价单|警告|报错|错误信息|错误提示|弹窗|通知|邮件|表格|旧版|版本|提醒|短信|草稿|发票|食谱|菜谱|日程|预约",
        "ja": "さっき言ったこと|先ほど言ったこと|さっきの質問|前の質問|パスワード|送った|送付した|お送りした|警告|エラー|通知|ポップアップ|誤字|メール|様式|書式|フォーム|バージョン|旧版|リマインダー|案内|請求書|下書き|レシピ|予約|ショートメッセージ|手順書",
        "ko": "아까 말한|방금 말한|아까 한 말|이전 질문|비밀번호|보낸|보내드린|경고|오류 메시지|오류|알림|팝업|오타|메일|양식|서식|버전|알림|안내|청구서|초안|레시피|예약 문자|문자|공지",
        "ar": "ما قلته|ما كتبته|سؤالي السابق|كلمة المرور|أرسلت|المرسلة|التحذير|تحذير|رسالة الخطأ|الإشعار|إشعار|البريد|الإيميل|الايميل|رسالتي|الرسالة السابقة|النموذج|النسخة|الجدول|التذكير|الدعوة|الفاتورة|المسودة|الوصفة",
        "tr": "söylediğimi|yazdığımı|önceki sorumu|şifre|sifre|parola|gönderdiğim|gönderilen|uyarı|uyarıyı|uyarıları|hata mesaj|bildirim|yazım hata|e posta|eposta|mail|mesajım|mesajımı|formu|form$|sürüm|versiyon|tablo|hatırlatma|davet|fatura|taslak|tarif",
    },
    # -- a word for an address: the label of the e-mail address or link right next
    #    to it ("an die Adresse x@y", "x@y adresine"), not an address being leaked
    #    (``concepts``)
    "ADDRWORD": {
        "en": "address", "de": "adresse|anschrift", "fr": "adresse", "es": "dirección|direccion",
        "it": "indirizzo", "pt": "endereço|endereco", "nl": "adres", "ru": "адрес",
        "zh": "地址|邮箱", "ja": "アドレス|宛先", "ko": "주소", "ar": "العنوان|عنوان",
        "tr": "adres",
    },
    "OWNDET": {
        "en": "this$|my$|our$|the following",
        "de": "dieser|diesen|dieses|diese$|mein|unser|folgende",
        "fr": "ce$|cet$|cette$|mon$|ma$|notre|le suivant|suivant",
        "es": "este$|mi$|mis$|nuestro|nuestra|siguiente",
        "it": "questo|questa|mio$|mia$|nostro|nostra|seguente",
        "pt": "este$|esse$|essa$|meu$|minha|nosso|nossa|seguinte",
        "nl": "dit$|deze$|mijn$|onze$|ons$|volgende",
        "ru": "этот|эту|этой|мой|мою|моей|наш|следующ",
        "zh": "这个|這個|我的|我们的|以下",
        "ja": "この|私の|うちの|当社の|以下の",
        "ko": "이 |내 |우리|다음",
        "ar": "هذا|هذه|الخاص بي|لدينا|التالي",
        "tr": "bu$|benim|bizim|aşağıdaki",
    },
    # -- what makes a text a discussion of attacks
    "META": {
        "en": "explained|incident report|post incident|audit report|audit finding|lessons learned|use of ai|use of generative ai|ai use |acceptable use|ai usage policy|ai policy|untrusted|incident report|incident summary|post mortem|postmortem|threat model|security training|awareness training|manipulation attempts|signs of manipulation|scam|injection|vulnerab|researchers|prompt injection|injection attack|jailbreak|red team|red teaming|penetration test"
              "|pentest|ctf|phishing|attacker|security incident|detection rule|classifier|owasp"
              "|guardrail|test case|expected: refusal",
        "de": "pentest bericht|prüfbericht|einsatz generativer ki|einsatz von ki|einsatz der ki|nutzung von ki|ki nutzung|ki einsatz|nutzungsrichtlinie|ki richtlinie|nicht vertrauenswürdig|vorfallbericht|vorfallsbericht|sicherheitsschulung|bedrohungsmodell|manipulationsversuch|anzeichen von manipulation|anzeichen für manipulation|betrug|betrugsmasche|schwachstelle|sicherheitslücke|forscher|prompt injection|prompt-injection|injektion|jailbreak|red team|penetrationstest"
              "|pentest|phishing|angreifer|angriff|sicherheitsvorfall|erkennungsregel|klassifikator"
              "",
        "fr": "compte rendu d'incident|rapport d'audit|utilisation de l'ia|usage de l'ia|utilisation des outils d'ia|politique d'utilisation|charte d'utilisation|non fiable|retour d'incident|rapport d'incident|formation de sécurité|modèle de menace|tentatives de manipulation|signes de manipulation|arnaque|injection|vulnérabilit|chercheurs|injection de prompt|injection d'invite|injection de requête|jailbreak|red team"
              "|test d'intrusion|pentest|hameçonnage|phishing|attaquant|attaque|incident de sécurité"
              "",
        "es": "explicado|explicada|informe de auditoría|uso de la ia|uso de ia |uso de herramientas de ia|política de uso|no confiable|no fiable|informe del incidente|informe de incidente|formación de seguridad|modelo de amenazas|intentos de manipulación|señales de manipulación|estafa|inyecci|vulnerabilidad|investigadores|inyección de prompt|inyección de instrucciones|inyeccion de prompt|jailbreak"
              "|red team|prueba de penetración|pentest|phishing|suplantación|atacante|ataque"
              "|incidente de seguridad",
        "it": "spiegato|spiegata|rapporto di audit|uso dell'ia|utilizzo dell'ia|uso di strumenti di ia|policy di utilizzo|politica di utilizzo|non attendibil|rapporto sull'incidente|analisi dell'incidente|analisi dell'attacco|formazione sulla sicurezza|tentativi di manipolazione|segnali di manipolazione|truffa|iniezion|injection|vulnerabilit|ricercatori|iniezione di prompt|prompt injection|jailbreak|red team|penetration test|pentest"
              "|phishing|attaccante|attacco|incidente di sicurezza",
        "pt": "explicado|explicada|relatório de auditoria|uso de ia |uso da ia|uso de ferramentas de ia|política de uso|não confiáve|nao confiave|relatório de incidente|relatório do incidente|formação de segurança|treinamento de segurança|tentativas de manipulação|sinais de manipulação|golpe|injeç|injec|vulnerabilidade|pesquisadores|injeção de prompt|injecao de prompt|prompt injection|jailbreak|red team"
              "|teste de intrusão|pentest|phishing|atacante|ataque|incidente de segurança"
              "",
        "nl": "uitgelegd|auditrapport|gebruik van ai|gebruik van generatieve ai|gebruiksbeleid|beleid ai|onbetrouwba|niet vertrouwd|incidentverslag|incidentrapport|beveiligingstraining|manipulatiepoging|signalen van manipulatie|oplichting|injectie|kwetsbaarhe|onderzoekers|prompt injectie|prompt-injectie|promptinjectie|jailbreak|red team|penetratietest"
              "|pentest|phishing|aanvaller|aanval|beveiligingsincident",
        "ru": "отчёт о тестировании|отчет о тестировании|использование ии|использования ии|использовании ии|политика использования|недоверенн|ненадёжн|разбор инцидента|отчёт об инциденте|отчет об инциденте|обучение по безопасности|попытки манипуляции|признаки манипуляции|мошенни|инъекц|уязвимост|исследовател|промпт инъекц|инъекция промпт|инъекции промпт|prompt injection|джейлбрейк|red team"
              "|пентест|тест на проникновение|фишинг|злоумышленник|атака|атаки|инцидент безопасности"
              "",
        "zh": "详解|使用ai|ai使用|人工智能的使用|使用规范|使用政策|不可信|事件复盘|事故报告|事件报告|安全培训|威胁模型|操纵尝试|操控的迹象|操纵的迹象|诈骗|注入|漏洞|研究人员|越狱提示|提示注入|提示词注入|提示詞注入|注入攻击|越狱攻击|红队|渗透测试|钓鱼|攻击者|攻击|安全事件"
              "|prompt injection",
        "ja": "解説|事後報告|ai利用|aiの利用|生成aiの利用|利用ガイドライン|利用方針|信頼できない|インシデント報告|事故報告|セキュリティ研修|脅威モデル|操作の試み|操作の兆候|詐欺|インジェクション|脆弱性|研究者|プロンプトインジェクション|プロンプト インジェクション|インジェクション攻撃|脱獄攻撃"
              "|レッドチーム|ペネトレーションテスト|フィッシング|攻撃者|攻撃|セキュリティインシデント",
        "ko": "해설|사후 보고|ai 사용|ai 활용|인공지능 활용|이용 지침|사용 정책|신뢰할 수 없|사고 보고서|사후 분석|보안 교육|위협 모델|조작 시도|조작의 징후|사기|인젝션|주입 공격|취약점|연구진|프롬프트 인젝션|프롬프트 주입|인젝션 공격|탈옥 공격|레드팀|모의 해킹|침투 테스트|피싱"
              "|공격자|공격|보안 사고",
        "ar": "استخدام الذكاء الاصطناعي|سياسة استخدام|غير موثوق|تقرير الحادث|تقرير حادث|تدريب أمني|محاولات التلاعب|علامات التلاعب|احتيال|حقن|ثغرة|الباحثون|ثغرات|حقن الأوامر|حقن التعليمات|حقن المطالبات|حقن البرومبت|حقن الموجهات|هجوم|هجمات|المهاجم"
              "|التصيد|اختبار الاختراق|الفريق الأحمر|حادثة أمنية",
        "tr": "yapay zeka kullanımı|yapay zekâ kullanımı|yz kullanımı|kullanım politikası|güvenilmez|olay raporu|olay sonrası|güvenlik eğitimi|tehdit modeli|manipülasyon girişim|manipülasyon belirti|dolandırıc|enjeksiyon|güvenlik açığ|araştırmacı|istem enjeksiyonu|prompt enjeksiyonu|prompt injection|enjeksiyon saldırı|jailbreak"
              "|kırmızı takım|sızma testi|oltalama|phishing|saldırgan|saldırı|güvenlik olayı",
    },
}
