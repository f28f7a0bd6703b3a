"""The phrase rule table: weighted pattern families matched on the folded text
without markup. Data only (it is longer than a module should be because it is one
table; the pattern language is in ``rules``).
"""

from __future__ import annotations

from typing import Final

from tripwire.plugins.prompt_injection_detector.rules import (
    DATA,
    INJ,
    JB,
    ROLE,
    SYS,
    TOOL,
    Rule,
    phrase,
)

#: Phrase families, matched on the folded text without markup (``name`` is the
#: family: only its strongest hit counts).
PHRASES: Final[tuple[Rule, ...]] = (
    # -- instruction override
    phrase("override-instructions", {INJ: 0.88},
           "{IGNORE} {DET}{PRIOR} {INSTR}|{IGNORE} {DET}{INSTR}~(?:above|before|earlier"
           "|previously|so far|until now|up to now)|{IGNORE} {DET}{INSTR} (?:that |which )?"
           "(?:you (?:were|have been|ve been|got|received|are) (?:given|told|configured|programmed"
           "|trained|set up|provided)|given to you|provided (?:above|earlier|before))"
           "|{IGNORE} (?:all|any|every) (?:of )?your {INSTR}"
           "|(?:ignore|disregard|forget|bypass|pay no attention to|do not follow|dont follow"
           "|don t follow|stop following) (?:the |your |all )?"
           "(?:operators?|developers?|admins?|administrators?"
           "|owners?|creators?)(?: s)?(?: (?:instructions?|rules|prompts?|guidelines))?",
           "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
           "overriding overwrite attention follow following obey nevermind mind & "
           "instruction instructions prompt prompts direction directions directive "
           "directives guideline guidelines guidance programming rule rules command commands "
           "order orders constraint constraints restriction restrictions operator operators "
           "developer developers admin admins administrator administrators owner owners "
           "creator creators",
           squeeze=True),
    phrase("override-instructions", {INJ: 0.8},
           "{DROP} {DET}{PRIOR} {STRONGI}|{DROP} (?:all |any )?(?:of )?your (?:{PRIOR} )?{STRONGI}",
           "skip drop discard dismiss abandon cancel erase delete clear remove void nullify "
           "invalidate aside throw scrap ditch neglect & instruction instructions prompt "
           "prompts direction directions directive directives guideline guidelines guidance "
           "programming rule rules command commands order orders constraint constraints "
           "restriction restrictions", squeeze=True),
    phrase("override-instructions", {INJ: 0.55},
           "{DROP} {DET}{PRIOR} {WEAKI}|{IGNORE} {DET}{PRIOR} {SOFT}"
           "|(?<!not.)(?<!dont.)(?<!don.t.)(?<!never.)(?<!to.)(?:ignore|disregard|forget"
           "|bypass|override) your {WEAKI}",
           "skip drop discard dismiss abandon cancel erase delete clear remove void nullify "
           "invalidate aside throw scrap ditch neglect ignore ignoring ignored disregard "
           "disregarding forget forgetting bypass override overriding overwrite attention "
           "follow following obey nevermind mind & instruction instructions prompt prompts "
           "direction directions directive directives guideline guidelines guidance "
           "programming rule rules command commands order orders constraint constraints "
           "restriction restrictions context message messages text content conversation "
           "input information task tasks configuration settings setup", squeeze=True),
    phrase("override-described", {INJ: 0.42},
           "{IGNORING} {DET}{PRIOR} {INSTR}|{IGNORING} (?:all|any|every) (?:of )?your {INSTR}"
           "|{IGNORING} (?:the|your) (?:system|developer|operator) (?:prompts?|instructions?"
           "|messages?)",
           "ignoring ignored ignores disregarding disregarded disregards forgetting forgot "
           "forgets bypassing bypassed bypasses overriding overrides overridden overrode & "
           "instruction instructions prompt prompts direction directions directive "
           "directives guideline guidelines guidance programming rule rules command commands "
           "order orders constraint constraints restriction restrictions message messages"),
    phrase("override-instructions", {INJ: 0.8},
           "(?<!not.)(?<!dont.)(?<!don.t.)(?<!never.)(?<!to.)(?:ignore|disregard|forget|bypass"
           "|override|overwrite) your (?:own )?{STRONGI}",
           "ignore disregard forget bypass override overwrite & your", squeeze=True),
    phrase("override-instructions", {INJ: 0.3},
           "{IGNORE} (?:my|our) (?:previous|prior|earlier|last|above|initial) {INSTR}",
           "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
           "overriding overwrite attention follow following obey nevermind mind & my our"),
    phrase("override-everything", {INJ: 0.75},
           "{IGNORE} (?:everything|all) (?:(?:that|which) )?(?:(?:you(?:ve| have)? (?:been|were)"
           " told|(?:was |is )?(?:written|said|stated|mentioned|written) )?(?:above|before"
           "|previously|so far|until now|up to now|earlier|prior)|you (?:know|were told"
           "|have been told|learned))",
           "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
           "overriding overwrite attention follow following obey nevermind mind & everything "
           "all", squeeze=True),
    phrase("override-system", {SYS: 0.82, INJ: 0.4},
           "(?:ignore|disregard|forget|bypass|pay no attention to|do not follow|dont follow"
           "|don t follow|stop following) {DET}(?:system"
           "|developer|operator|admin|administrator)"
           " (?:prompts?|instructions?|messages?|rules|guidelines|directives|policies"
           "|programming)",
           "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
           "overriding overwrite attention follow following obey nevermind mind & system "
           "developer operator admin administrator original default", squeeze=True),
    phrase("new-instructions", {INJ: 0.42, SYS: 0.25},
           "(?:new|updated|revised|real|actual|true|secret|hidden|additional|override"
           "|overriding|replacement|corrected) (?:instructions?|directives?|orders|task"
           "|objective|mission|rules)(?: for (?:you|the {AI}))?(?: (?:are|is|follow|below))?:",
           "new updated revised real actual true secret hidden additional override "
           "overriding replacement corrected & instruction instructions directive directives "
           "orders task objective mission rules"),
    phrase("new-instructions", {INJ: 0.5, SYS: 0.3},
           "(?:your|the) (?:new|real|true|actual|only|updated) (?:instructions?|task|objective"
           "|goal|mission|purpose|job|directive) (?:is|are|will be|now is)(?: now)?",
           "new real true actual only updated & instruction instructions task objective goal "
           "mission purpose job directive"),
    phrase("test-framing", {INJ: 0.62},
           "(?:everything|all|anything|whatever|what (?:i|you) (?:said|wrote|read|were told))"
           " (?:(?:that was |you were |i )?(?:written|said|stated|told|given|wrote) )?"
           "(?:above|before(?: this| that| now)?|previously|prior|earlier|so far)"
           " (?:was|is|were) (?:just |only |merely |all |simply )?(?:an? )?{FAKE}"
           "|(?:the|those|these|your|my|all) (?:previous |prior |earlier |above |preceding "
           "|old |original )?(?:instructions?|prompts?|rules|messages?|directions|text"
           "|directives|guidelines)(?: (?:above|before|earlier|so far))? (?:was|were|is|are)"
           " (?:just |only |merely |all |simply )?(?:an? )?{FAKE}",
           "test joke fake mistake drill lie decoy distraction dummy prank ruse & above "
           "before previously prior earlier far previous preceding old original instruction "
           "instructions prompt prompts rules messages message directions text directives "
           "guidelines"),
    phrase("revoked", {INJ: 0.75, SYS: 0.3},
           "(?:your|the|all|any) (?:{PRIOR} |existing |current )?(?:{STRONGI}|rules"
           "|restrictions|policies|limitations|safeguards|tasks?|mission|objective|goal|job)"
           " (?:are|have been|were|is|has been)"
           " (?:now |hereby |officially )?(?:revoked|cancell?ed|void|null|lifted|removed"
           "|disabled|suspended|overridden|obsolete|invalid|deprecated|replaced|deleted"
           "|rescinded|no longer (?:valid|apply|applicable|in effect|active|binding))",
           "revoked cancelled canceled void null lifted removed disabled suspended "
           "overridden obsolete invalid deprecated replaced deleted rescinded longer"),
    phrase("ai-addressed", {INJ: 0.5},
           "(?:if|since|because|when|as long as) you (?:are|re) an? {AI}"
           "|(?:note|message|attention|instructions?|important|notice|warning|reminder|hey"
           "|dear|psa) (?:for|to)? ?(?:the |all |any )?(?:ai|llm|language model|ai assistant"
           "|assistant|chatbot|ai agent|agent|gpt|chatgpt|claude|copilot|ai model|ai system)s?"
           "(?: (?:reading|processing|summari[sz]ing|parsing|viewing|analy[sz]ing) (?:this"
           "|these))?:"
           "|(?:hey|dear|attention|hello|hi|listen|psst|yo) (?:the |you )?(?:ai|llm|language"
           " model|ai assistant|assistant|chatbot|bot|ai agent|agent|gpt|chatgpt|claude|copilot"
           "|model)s?[,:!]"
           "|(?:any |all |the )?(?:ai|llm|language model|ai assistant|assistant|chatbot|agent"
           "|ai agent|ai model|ai system|bot|crawler|model)s? (?:that is |who is |which is )?"
           "(?:reading|processing|summari[sz]ing|parsing|viewing|analy[sz]ing|browsing|crawling"
           "|scraping) (?:this|these|the following|my|your|our|the)"
           "|(?:ai|llm|language model|assistant|chatbot|agent|model|gpt|bot)s? (?:instructions?"
           "|note|notice|directive|message|command|only)s?:",
           "ai llm llms model models assistant assistants chatbot chatbots bot bots agent "
           "agents gpt chatgpt claude gemini copilot crawler crawlers",
           direct=0.8, indirect=1.35),
    phrase("stealth", {INJ: 0.42, TOOL: 0.32, DATA: 0.32},
           "{NOT} (?:ever )?(?:tell|inform|mention|notify|alert|warn|reveal (?:this |it )?to"
           "|let (?:the )?(?:user|human) know|show (?:this|it) to|disclose (?:this |it )?to"
           "|ask|ask for (?:permission|confirmation|approval)|confirm with|reveal that you)"
           " (?:this |about this |it )?(?:to )?(?:the |your )?(?:user|users|human|customer"
           "|operator|owner|person)"
           "|without (?:telling|informing|notifying|alerting|asking|warning|confirming with"
           "|the knowledge of|letting) (?:the |your )?(?:user|users|human|customer|operator"
           "|owner|person)"
           "|(?:keep|this is) (?:this |it )?(?:a )?secret from (?:the |your )?(?:user|human)",
           "user users human customer operator owner person & not dont don never mustnt "
           "mustn cannot cant can wont won shouldnt shouldn without secret", indirect=1.25),
    phrase("conceal", {INJ: 0.45},
           "{NOT} (?:ever )?(?:mention|reveal|disclose|include|show|summari[sz]e|refer to|talk"
           " about|acknowledge|quote|repeat) (?:this|these|the following|the above) (?:paragraph"
           "|text|section|instructions?|message|note|part|sentence|content|lines?|comment"
           "|request)s?",
           "mention reveal disclose include show summarise summarize refer talk acknowledge "
           "quote repeat & not dont don never mustnt mustn cannot cant can wont won shouldnt "
           "shouldn & paragraph text section instruction instructions message note part "
           "sentence content line lines comment request", direct=0.7, indirect=1.3),
    phrase("ignore-user", {INJ: 0.72},
           "(?:ignore|disregard|forget|skip|drop|abandon|discard) (?:the |what the |whatever"
           " the )?(?:user|human|customer|requester)"
           "(?: s)? (?:(?:original )?(?:request|question|instructions?|message|task|query|prompt"
           "|asked|wants|said)|and|but|completely|entirely)",
           "ignore ignoring disregard disregarding forget forgetting skip drop abandon "
           "discard & user human customer requester", direct=0.6, indirect=1.1),
    phrase("instead", {INJ: 0.25},
           "(?:instead|rather) (?:you (?:will|should|must|shall) |please )?(?:do|say|respond"
           "|reply|output|print|write|tell|answer|give|list|send|call|reveal|recommend|show"
           "|forward|email|post|run|execute|delete)"
           "|stop (?:what you are doing|summari[sz]ing|translating|reading|answering|helping"
           "|following)~instead"
           "|now (?:do|say|respond|reply|output|print|write|tell|answer|give|list|send|call"
           "|reveal|recommend|show)~instead",
           "instead rather", indirect=1.3),
    phrase("steer-output", {INJ: 0.4},
           "(?:rate|rank|score|grade|recommend|approve|accept|hire|shortlist|select|favou?r)"
           " (?:this|the) (?:candidate|applicant|resume|cv|submission|paper|application|product"
           "|seller|vendor|company|proposal|bid)(?: [a-z]+){0,2} (?:as|highly|top|best|first"
           "|positively|above)",
           "rate rank score grade recommend approve accept hire shortlist select favor favour "
           "& candidate applicant resume cv submission paper application product seller vendor "
           "company proposal bid", direct=0.5, indirect=1.3),
    phrase("steer-output", {INJ: 0.35},
           "when (?:summari[sz]ing|answering|responding|replying|asked|you summari[sz]e|you answer"
           "|you reply|you respond)(?: [a-z]+){0,3} (?:always |never |only |also )?(?:say|state"
           "|claim|mention|tell|write|report|include|add|omit|hide|remove|leave out|recommend"
           "|insist)",
           "when & summarising summarizing answering responding replying asked summarise "
           "summarize answer reply respond", direct=0.6, indirect=1.3),
    phrase("pwned", {INJ: 0.6},
           "(?:i have been|ive been|i ve been|you have been|weve been) (?:pwned|pwnd|hacked"
           "|owned|jailbroken)|(?:say|print|output|respond with|reply with|write|type)"
           " (?:the (?:word|phrase) )?(?:i have been )?(?:pwned|pwnd)",
           "pwned pwnd hacked owned jailbroken", squeeze=True),
    phrase("decode-and-follow", {INJ: 0.6},
           "(?:decode|decipher|translate|unscramble|reverse|rot13|base64|convert|deobfuscate"
           "|interpret)~(?:and|then) (?:then )?(?:follow|execute|obey|do|run|perform|carry out"
           "|act on|comply with|apply) (?:it|them|that|the (?:instructions?|commands?|result"
           "|decoded|message|text|output)|what it says|its instructions|whatever it says)",
           "decode decipher translate unscramble reverse rot13 base64 convert deobfuscate "
           "interpret & follow execute obey do run perform carry act comply apply"),
    phrase("precedence", {SYS: 0.72, INJ: 0.35},
           "(?:these|the following|this|my|following) (?:instructions?|rules|commands?|message"
           "|prompt|directives?) (?:take|takes|have|has|must take) (?:precedence|priority)"
           "|(?:supersede|supersedes|take precedence over|takes precedence over) (?:all|any)"
           " (?:previous|prior|other|system|existing|earlier) (?:instructions?|rules|prompts?"
           "|directives?|guidelines)",
           "precedence priority supersede supersedes"),
    phrase("obey-me", {ROLE: 0.45, INJ: 0.3},
           "(?:you (?:will|must|shall|should) (?:only )?|only )(?:obey|listen to|follow|answer"
           " to) (?:me|my (?:commands|orders|instructions))(?: (?:now|only|from now on))?"
           "|(?:obey|follow|listen to) only (?:me|my (?:commands|orders|instructions|rules))"
           "|your (?:only|sole|new|true|real) (?:purpose|goal|job|task|objective|function"
           "|mission) (?:is|now is) (?:now )?to",
           "obey listen follow answer purpose goal job task objective function mission & "
           "only will must shall should sole new true real"),
    phrase("from-now-on", {ROLE: 0.25, INJ: 0.18},
           "(?:from now on|from this point (?:on|forward)|henceforth|for the rest of this"
           " conversation)(?: on)? (?:you (?:are|will|must|shall|should)|your)",
           "now point henceforth rest & from henceforth for"),
    # -- jailbreak
    phrase("dan", {JB: 0.88, ROLE: 0.4},
           "do anything now|(?:dan|stan|dude|aim|anti dan|betterdan|evilbot|evil bot) mode"
           "|{YOUARE} (?:now )?(?:going to (?:act|pretend) (?:as|to be) )?(?:dan|stan|dude"
           "|betterdan|evilbot|mongo tom|chadgpt|antigpt|anti gpt|apophis|developer mode gpt)"
           "|(?:act as|pretend to be|become|you will be|roleplay as|role play as) (?:dan|stan"
           "|betterdan|evilbot|mongo tom|antigpt|aim|ucar|kevin)",
           "dan stan dude aim anything betterdan evilbot evil tom chadgpt antigpt anti "
           "apophis ucar kevin developer",
           squeeze=True),
    phrase("jailbreak-mode", {JB: 0.8},
           "(?:god|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|evil|chaos|opposite"
           "|dan|unlocked|no filter|nofilter|freedom|unleashed) mode"
           "(?: (?:on|enabled|activated|engaged|unlocked|is now active))?"
           "|{YOUARE} (?:now )?(?:in|running in|operating in) (?:developer|dev|debug|admin|sudo"
           "|root|maintenance|diagnostic|override|test|superuser) mode"
           "|(?:developer|dev|debug|sudo|root|superuser|override) mode (?:enabled|activated"
           "|engaged|output|response)"
           "|(?:sudo|god|root|superuser|jailbreak|dan|unrestricted) mode ?:",
           "mode & god jailbreak jailbroken unrestricted unfiltered uncensored evil chaos "
           "opposite dan unlocked filter nofilter freedom unleashed developer dev debug "
           "admin sudo root maintenance diagnostic override test superuser", squeeze=True),
    phrase("jailbreak-mode", {JB: 0.4},
           "(?:enable|activate|enter|engage|turn on|switch (?:to|into)|unlock|simulate|act in"
           "|now in) (?:the )?{MODE} mode",
           "mode & enable activate enter engage turn switch unlock simulate act now"),
    phrase("no-limits", {JB: 0.75},
           "(?:without|free (?:of|from)|(?:are )?no longer (?:bound|restricted|limited"
           "|constrained|governed|held) by|not (?:bound|restricted|limited|constrained|governed"
           "|held) by|freed from|liberated from|released from|break(?:ing)? free (?:of|from)"
           "|unbound by|ignore|ignoring|bypass|bypassing|disable|disabling|turn off|remove"
           "|removing|lift|lifting|violate|violating|break|breaking|circumvent|evade|override"
           "|disregard|forget|abandon|drop) (?:any |all |your |the |its |of |those |these "
           "|every )*{QUAL} (?:content )?{LIMITS}",
           "restrictions limitations limits filters filtering censorship guidelines "
           "guardrails safeguards policies policy rules constraints boundaries morals ethics "
           "principles programming alignment measures features training & ethical moral "
           "safety content usage openai anthropic google meta ai community responsible "
           "harmful model models"),
    phrase("no-limits", {JB: 0.72},
           "{YOUARE} (?:now )?(?:free|unrestricted|unfiltered|uncensored|unbound|unshackled"
           "|unchained|liberated|jailbroken|no longer (?:bound|restricted|limited|censored)"
           "|not (?:bound|restricted|limited|censored) by)"
           "|you (?:have|got|ve got) (?:no|zero|been freed from (?:all|your)?) ?(?:{QUAL} )?"
           "(?:restrictions|limitations|limits|filters|rules|guidelines|boundaries|ethics"
           "|morals|censorship|polic(?:y|ies)|moderation)",
           "bound censored censorship ethics filters free guidelines jailbroken liberated "
           "limitations limited limits morals restricted restrictions rules unbound uncensored "
           "unchained unfiltered unrestricted unshackled policy policies moderation "
           "boundaries & you youre ur u re"),
    phrase("no-limits", {JB: 0.62},
           "(?:no|zero|without any|without) {QUAL} {NOLIMIT}"
           "|(?:an? |the )?(?:ai|model|chatbot|assistant|llm|bot|version of (?:yourself|you))"
           " (?:with no|without(?: any)?|that has no|free of|free from|unbound by) {NOLIMIT}"
           "|(?:answer|respond|reply|comply|operate|act|behave|function|talk|speak|write"
           "|generate)(?: [a-z]+){0,3} without (?:any )?{NOLIMIT}",
           "bound boundaries censored censorship constraints ethics filters free guardrails "
           "guidelines jailbroken liberated limitations limited limits morals principles "
           "restricted restrictions rules unbound uncensored unchained unfiltered "
           "unrestricted unshackled policy policies moderation safeguards"),
    phrase("never-refuse", {JB: 0.45},
           "{NOT} (?:ever )?(?:refuses?|declines?|rejects?|say no|deny (?:any|a) request|add"
           " (?:any )?(?:warnings|disclaimers))|(?:always|must|will) (?:answer|comply|respond"
           "|obey)(?: (?:to )?(?:any|every|all))? (?:requests?|questions?|prompts?|commands?)"
           "(?: without (?:question|hesitation|refusal|exception))?"
           "|(?:answer|respond|comply)(?: to)? (?:any|every|all) (?:requests?|questions?"
           "|prompts?)? ?without (?:refusing|refusal|question|hesitation|exception|censorship"
           "|warnings?|disclaimers?)",
           "refuse refuses decline declines reject rejects deny no warnings disclaimers "
           "answer comply respond obey"),
    phrase("in-character", {JB: 0.28, ROLE: 0.22},
           "(?:stay|remain|keep|staying|remaining) in character|{NOT} (?:ever )?break"
           " character|if you break character",
           "character"),
    phrase("fictional-frame", {JB: 0.55},
           "(?:hypothetical|fictional|imaginary|simulated|alternate|parallel) (?:world"
           "|scenario|universe|story|reality|setting) (?:where|in which|with) (?:there are )?"
           "(?:no|zero) (?:rules|laws|restrictions|ethics|morals|limits|filters|guidelines"
           "|consequences)",
           "hypothetical fictional imaginary simulated alternate parallel"),
    phrase("evil-persona", {ROLE: 0.65, JB: 0.5},
           "{YOUARE} (?:now )?(?:evil|dark|chaos|unfiltered|uncensored|jailbroken|anti|bad|rogue"
           "|unrestricted|dan|based|devil|demon)(?:gpt|bot|ai|llm|assistant|chatbot)",
           "you youre ur u re"),
    phrase("illegal-help", {JB: 0.6},
           "(?:help|assist|helps|assists|help me|assist me) (?:you |me |people |users )?(?:with )?"
           "(?:anything|everything|any request) (?:illegal|unethical|harmful|dangerous|immoral"
           "|criminal)",
           "help assist helps assists & illegal unethical harmful dangerous immoral criminal"),
    phrase("uncensored-ai", {JB: 0.55, ROLE: 0.3},
           "(?:an? |the )?(?:uncensored|unfiltered|unrestricted|unaligned|jailbroken|amoral"
           "|unethical|evil|rogue|unmoderated) (?:ai|assistant|model|chatbot|version|llm|gpt"
           "|persona|bot|language model|responses?|answers?|output)",
           "uncensored unfiltered unrestricted unaligned jailbroken amoral unethical evil "
           "rogue unmoderated"),
    phrase("dual-response", {JB: 0.45},
           "(?:two|2|both|dual) (?:different |separate )?(?:responses|answers|outputs|replies"
           "|paragraphs)~(?:one|first) (?:normal|as|with|from|censored|filtered|standard"
           "|classic)",
           "two 2 both dual & responses answers outputs replies paragraphs"),
    phrase("policy-override", {JB: 0.85, INJ: 0.3},
           "(?:ignore|bypass|disregard|violate|break|circumvent|evade|override|disable"
           "|turn off|forget|abandon|drop|remove) (?:all |any |your |the |its |of |every )*"
           "{QUAL} (?:content |usage |safety )?(?:policies|policy|guidelines|rules"
           "|restrictions|filters|training|principles|safeguards|guardrails|alignment"
           "|moderation|programming)",
           "ethical moral safety content usage openai anthropic google meta ai community "
           "responsible harmful model models & policies policy guidelines rules restrictions "
           "filters training principles safeguards guardrails alignment moderation "
           "programming", squeeze=True),
    phrase("disable-safety", {JB: 0.72},
           "(?:disable|turn off|switch off|deactivate|bypass|remove|lift|drop|suspend|skip)"
           " (?:all |any |the |your |its |of )*(?:content )?(?:moderation|safety (?:filters?"
           "|checks?|features?|mode|settings|layer|guidelines|measures|training)|content"
           " (?:filters?|policy|policies)|guardrails|safeguards|censorship|ethical (?:filters?"
           "|guidelines|constraints))"
           "|(?:ignore|disregard|forget|abandon|drop) (?:all |your |the |any )?(?:safety|ethics"
           "|morals|guardrails|safeguards|alignment)(?! (?:regulations|data|sheets?|codes?"
           "|instructions|manual|rules|guidelines|precautions|standards))",
           "disable turn switch deactivate bypass remove lift drop suspend skip ignore "
           "disregard forget abandon & moderation safety content guardrails safeguards "
           "censorship ethical ethics morals alignment"),
    phrase("grandma", {JB: 0.72, ROLE: 0.3},
           "(?:act|pretend|roleplay|role play|play|be|behave) (?:as |like |to be )?(?:my )?"
           "(?:dead|deceased|late) (?:grandm(?:a|other)|granny|grandpa|grandfather)"
           " (?:who )?(?:used to|would|always)",
           "grandma grandmother granny grandpa grandfather"),
    # -- tool abuse
    phrase("call-tool", {TOOL: 0.5},
           "(?:call|invoke|use|run|execute|trigger|activate|fire|utili[sz]e) (?:the |your |a )?"
           "(?:[a-z_]+ )?(?:tool|function|plugin|api|action|command|endpoint|webhook)s?"
           "(?: (?:named|called) [a-z_]+)? (?:with|passing|using|and|to|on)",
           "tool tools function functions plugin plugins api apis action actions command "
           "commands endpoint endpoints webhook webhooks & call invoke use run execute "
           "trigger activate fire utilize utilise",
           direct=0.45, indirect=1.2),
    phrase("tool-send", {TOOL: 0.7, DATA: 0.35},
           "(?:call|invoke|use|run|execute|with|using|via) (?:the |your |a )?(?:[a-z_]+ )?"
           "(?:tool|function|plugin|api|action|command)~(?:to )?(?:send|email|post|upload"
           "|forward|share|transfer|leak|exfiltrate|delete|wire)",
           "tool tools function functions plugin plugins api apis action actions command "
           "commands endpoint endpoints webhook webhooks & send email post upload forward "
           "share transfer leak exfiltrate delete wire",
           direct=0.5),
    phrase("tool-send", {TOOL: 0.65, DATA: 0.2},
           "(?:call|invoke|use|run|execute|trigger) (?:the |your |a )?(?:[a-z]+_)*(?:send|email"
           "|mail|post|upload|forward|share|transfer|delete|remove|wire|pay|exec|execute|shell"
           "|http|fetch|curl|write|drop|grant|wipe|purge)(?:_[a-z]+)*(?: (?:tool|function|action"
           "|command|api|endpoint|method))?",
           "call invoke use run execute trigger", direct=0.5, indirect=1.15),
    phrase("skip-confirmation", {TOOL: 0.5, INJ: 0.3},
           "(?:skip|bypass|without|no need for|dont ask for|don t ask for|do not ask for|do not"
           " wait for|dont wait for|don t wait for|never ask for) (?:any |all |the |further )?"
           "(?:user )?(?:confirmations?|approvals?|permission|verification|consent|review"
           "|human review)",
           "skip bypass without need ask wait & confirmation confirmations approval approvals "
           "permission verification consent review", direct=0.5, indirect=1.3),
    phrase("destructive", {TOOL: 0.45},
           "(?:delete|remove|wipe|erase|drop|destroy|purge|truncate|overwrite|encrypt)"
           " (?:all|every|the entire|the whole|all of (?:the|your|their)|all (?:the|your"
           "|their)) (?:files|data|records|emails|messages|users|accounts|repositories|repos"
           "|database|databases|tables|backups|documents|contacts|folders|directories)",
           "delete remove wipe erase drop destroy purge truncate overwrite encrypt & all "
           "every entire whole",
           direct=0.5, indirect=1.2),
    phrase("grant-access", {TOOL: 0.45, SYS: 0.2},
           "(?:grant|give|add|make|assign|elevate)~(?:admin|administrator|owner|root|full|write"
           "|elevated|superuser) (?:access|rights|privileges|permissions|role|status)",
           "access rights privileges permissions role status & admin administrator owner "
           "root full write elevated superuser", direct=0.6, indirect=1.2),
    phrase("payment", {TOOL: 0.32},
           "(?:transfer|wire|send|pay)~(?:usd|eur|gbp|dollars|euros|btc|bitcoin|funds|money"
           "|payment)~(?:to|into) (?:account|wallet|iban|the following|this)",
           "usd eur gbp dollars euros btc bitcoin funds money payment & transfer wire send "
           "pay", direct=0.5),
    # -- data exfiltration
    phrase("send-secrets", {DATA: 0.82, TOOL: 0.3},
           "{SEND} (?:it |them |this |me )?(?:to )?(?:all |the |this |your |my |our |their |any |of )*"
           "(?:[a-z0-9]+(?: s)? ){0,2}{SECRET}~(?:to|at|into|via|using|through|in|on) (?:the |this |my |a "
           "|our |following )*{DEST}",
           "send sending post posting upload uploading forward forwarding email mail "
           "transmit transmitting leak leaking exfiltrate exfiltrating copy submit relay "
           "export sync deliver dump append attach include embed encode pipe transfer share "
           "report beacon bcc cc push publish commit paste & conversation chat history "
           "messages context memory memories credential credentials password passwords api "
           "keys key secret secrets token tokens cookie cookies session personal user users "
           "pii customer ssn ssns social credit card bank prompt instructions environment "
           "env dotenv private ssh emails inbox contacts address everything data all", indirect=1.1),
    phrase("send-secrets", {DATA: 0.45},
           "{SEND} (?:it |them |this |me )?(?:to )?(?:all |the |this |your |my |our |their |any |of )*"
           "(?:[a-z0-9]+ ){0,2}(?:files?|documents?|data|contents?|results?|summary|output|answers?"
           "|responses?|notes|records|reports?|invoices?|receipts?|statements?|attachments?"
           "|contracts?|photos?|emails?|messages|replies|conversations|threads)~(?:to|at|into"
           "|via) (?:the |this |my |a |our "
           "|following )*{DEST}",
           "send sending post posting upload uploading forward forwarding email mail "
           "transmit transmitting leak leaking exfiltrate exfiltrating copy submit relay "
           "export sync deliver dump append attach include embed encode pipe transfer share "
           "report beacon bcc cc push publish commit paste & files file documents document "
           "data contents content results result summary output answers answer responses "
           "response notes records reports report invoice invoices receipt receipts "
           "statement statements attachment attachments contract contracts photo photos "
           "emails messages replies reply conversations threads", direct=0.5,
           indirect=1.2),
    phrase("url-smuggle", {DATA: 0.8},
           "(?:append|add|include|attach|encode|put|insert|concatenate|place|embed|replace)"
           " (?:all |the |your |this |a |any |of )*(?:[a-z]+(?: s)? )?{SECRET}~(?:to|in|into|as"
           "|at|inside|with) (?:the |this |a |an |following )*(?:url|link|query|parameter"
           "|param|querystring|query string|image|img|request|markdown|href|src|path|https?"
           "|www)",
           "url link query parameter param querystring string image img request markdown "
           "href src path http https www & append add include attach encode put insert concatenate place "
           "embed replace"),
    phrase("url-smuggle", {DATA: 0.55},
           "(?:append|add|attach|include|put|insert|embed|concatenate) (?:it|them|this|that"
           "|the result|the output|the encoded (?:text|data|string|messages))~(?:to|in|into"
           "|as) (?:the |this |a |an |following )*(?:url|link|query|parameter|param|image|img"
           "|request|href|src)",
           "url link query parameter param image img request href src & append add attach "
           "include put insert embed concatenate"),
    phrase("url-smuggle", {DATA: 0.6},
           "(?:with|and) (?:the |their |your )?(?:user s |users |customer s )?(?:last |latest "
           "|previous |full |whole |entire )?{SECRET}(?: s)? (?:appended|attached|included"
           "|added|embedded|encoded|as (?:a )?(?:parameter|query|param))",
           "appended attached included added embedded encoded parameter query param"),
    phrase("reply-with-secret", {DATA: 0.55},
           "(?:reply|respond|answer|send|share|post|email)~with (?:the |your |their |its |our )?"
           "(?:[a-z]+ )?(?:password|passcode|passwords|credentials|api key|api keys|token|pin"
           "|access code|secret)",
           "reply respond answer send share post email & password passcode passwords "
           "credentials key keys token pin code secret", direct=0.6, indirect=1.2),
    phrase("encode-secret", {DATA: 0.45},
           "(?:encode|convert|base64|compress|hash|obfuscate|serialize|url ?encode)"
           " (?:all |the |your |this |of )*(?:[a-z]+ )?{SECRET}",
           "encode convert base64 compress hash obfuscate serialize urlencode url & "
           "conversation chat history messages context memory memories credential "
           "credentials password passwords api keys key secret secrets token tokens cookie "
           "cookies session personal user users pii customer ssn ssns social credit card "
           "bank prompt instructions environment env dotenv private ssh emails inbox "
           "contacts address everything data all"),
    phrase("render-image", {DATA: 0.35},
           "(?:render|display|show|include|embed|output|print|add|insert|append|load|fetch)"
           " (?:this |the following |an |a |the )?(?:markdown )?(?:image|img|picture|pixel"
           "|tracking pixel|image link)",
           "image img picture pixel", direct=0.6, indirect=1.2),
    phrase("prompt-leak", {DATA: 0.82},
           "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your|the|its|ur|my) "
           "(?:{SYSADJ} )+{PROMPTN}",
           "{REVEALW} & system initial hidden secret original verbatim full exact internal "
           "developer confidential underlying pre complete entire first real actual raw "
           "starting core base preset predefined & {PROMPTW}", squeeze=True),
    phrase("prompt-leak", {DATA: 0.82},
           "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your |the |its |ur )?system prompts?",
           "{REVEALW} & system & prompt prompts", squeeze=True),
    phrase("prompt-leak", {DATA: 0.82},
           "(?:repeat|print|output|write|copy|recite|echo|show|tell|give|reveal|display"
           "|dump|list) (?:me |us )?(?:back )?(?:all )?(?:of )?(?:the |your )?(?:words|text"
           "|everything|content|lines|sentences|messages?|tokens)(?: (?:that was|that were"
           "|you were|which was) (?:written|said|given|told|sent|typed))? (?:above|before"
           "|preceding|prior)(?: this| my| that)?",
           "repeat print output write copy recite echo show tell give reveal display dump "
           "list & words text everything content lines sentences message messages tokens & "
           "above before preceding prior"),
    phrase("prompt-leak", {DATA: 0.82},
           "(?:starting|beginning|start) with (?:the words )?you are (?:a|an|chatgpt)"
           "|(?:what|how) (?:were|was|are|is) you (?:told|instructed|programmed|prompted)",
           "starting beginning start told instructed programmed prompted & you"),
    phrase("prompt-leak", {DATA: 0.75},
           "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your|ur) (?:system prompts?|prompts?"
           "|instructions?|system messages?|initial messages?|context window|configuration"
           "|programming|preprompts?|directives)",
           "reveal print printout show output repeat display tell leak dump spell give write "
           "type recite disclose expose return echo copy paste list read provide send share "
           "state quote what whats & your ur"),
    phrase("prompt-leak", {DATA: 0.5},
           "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your|ur) (?:rules|guidelines|config"
           "|context|guardrails)",
           "reveal print printout show output repeat display tell leak dump spell give write "
           "type recite disclose expose return echo copy paste list read provide send share "
           "state quote what whats & rules guidelines config context guardrails"),
    phrase("given-secrets", {DATA: 0.75},
           "(?:{REVEAL}|write)(?: me| us)?~(?:instructions?|rules|prompts?|directives|guidelines"
           "|configuration|config|secrets?|keys?|tokens?|passwords?|credentials)~(?:that |which )?"
           "you (?:were|have been|ve been|got|received|are|have) (?:given|told|configured"
           "|programmed|provided|trained|fed|loaded)"
           "|(?:your )?(?:developers?|creators?|owners?|operators?|openai|anthropic|makers?)"
           " (?:told|instructed|asked|trained|programmed|ordered) you (?:not to|never to|to never)"
           " (?:share|reveal|tell|say|disclose|discuss|talk about|mention|give)",
           "given told configured programmed provided trained fed loaded & you"),
    phrase("prompt-leak", {DATA: 0.75},
           "(?:the )?(?:contents?|text|wording|details|full text|exact words|first (?:sentence"
           "|line|word|paragraph|part|lines|words|sentences|characters|tokens)|last (?:sentence"
           "|line|word|paragraph|part|lines|words|sentences)|beginning|start|end|rest) of (?:your"
           "|ur|the) (?:(?:system|initial|hidden|secret|original|internal|real) )?(?:prompts?"
           "|instructions?(?: block)?|system messages?|configuration|rules|guidelines"
           "|directives|context window|programming)",
           "contents content text wording details words first last beginning start end rest "
           "& prompt prompts instruction instructions message messages configuration rules "
           "guidelines directives context programming"),
    phrase("credentials", {DATA: 0.8},
           "(?:what (?:is|are)|whats|give me|tell me|print|reveal|show|output|list|dump"
           "|send me|leak|display|share) (?:me )?(?:all )?(?:of )?(?:the |your |all |any )?"
           "(?:stored |saved |internal |admin |secret |root |master |system |database )"
           "(?:api ?keys?|passwords?|secret keys?|access tokens?|tokens?|credentials|private keys?"
           "|ssh keys?)|(?:api ?keys?|passwords?|secret keys?|access tokens?|credentials"
           "|private keys?) (?:you (?:know|have|store|stored|can see|have access to|remember)"
           "|stored|saved|kept)"
           "|(?:what (?:is|are)|whats|give me|tell me|print|reveal|show|output|list|dump"
           "|send me|leak|display|share) (?:me )?(?:all )?(?:of )?(?:the |your |all |any )?"
           "(?:[a-z]+ )?(?:in |from )?(?:your )?(?:environment variables|env vars|env file"
           "|dotenv|secrets? (?:file|store|manager|vault))",
           "api key keys password passwords secret secrets token tokens credentials private "
           "ssh environment env dotenv",
           direct=0.9, indirect=1.2),
    phrase("credentials", {DATA: 0.45},
           "(?:what (?:is|are)|whats|give me|tell me|print|reveal|show|output|list|dump"
           "|send me|leak|display) (?:me )?(?:all )?(?:of )?(?:the |your |all |any )?(?:stored"
           " |saved |internal |admin |secret )?(?:api ?keys?|passwords?|secret keys?|access"
           " tokens?|credentials|environment variables|env vars|private keys?|ssh keys?"
           "|database passwords?|connection strings?)",
           "api key keys password passwords secret token tokens credentials environment env "
           "private ssh connection",
           direct=0.8, indirect=1.2),
    phrase("phish", {DATA: 0.7, INJ: 0.3},
           "(?:tell|ask|instruct|get|convince|urge|direct|remind) (?:the |this )?(?:reader|user"
           "|customer|visitor|recipient|human|person)s? to (?:send|email|enter|share|provide|give"
           "|reply with|type|paste|confirm|verify) (?:their|your|his|her|the) (?:password"
           "|credentials|login|credit card|card number|bank details|ssn|social security number"
           "|otp|one time code|verification code|2fa code|pin|seed phrase|recovery phrase)",
           "tell ask instruct get convince urge direct remind & reader user customer visitor "
           "recipient human person users customers readers", direct=0.6, indirect=1.2),
    phrase("phish", {DATA: 0.55, INJ: 0.2},
           "(?:ask|request|get|collect|obtain|find out|prompt)(?: for)? (?:the |this )?"
           "(?:user|customer|them|human|person|victim)(?: s| for)? (?:for )?(?:their |his |her )?"
           "(?:password|credit card|card number|ssn|social security|bank (?:details|account)"
           "|login|credentials|otp|one time (?:password|code)|verification code|2fa|pin|cvv"
           "|seed phrase|recovery phrase)",
           "password card ssn social bank login credentials otp code verification pin cvv "
           "seed recovery 2fa & ask request get collect obtain find prompt", direct=0.6, indirect=1.2),
    # -- system override (the phrase forms; delimiters are MARKERS)
    # ("the new rules are ..." is how a memo or a policy speaks to its reader: with
    # "the", only the model's own prompt or programming)
    phrase("new-system-prompt", {SYS: 0.75, INJ: 0.35},
           "(?:your (?:new|updated|real|true|actual|revised|replacement|modified) (?:system"
           " (?:prompt|message|instructions?)|prompt|instructions|rules|guidelines|directives"
           "|policy|policies|programming|configuration)|the (?:new|updated|real|true|actual"
           "|revised|replacement|modified) (?:system (?:prompt|message|instructions?)|prompt"
           "|programming|configuration)) (?:is|are|will be|reads|says|now|from now)",
           "new updated real true actual revised replacement modified & prompt message "
           "instructions rules guidelines directives policy policies programming "
           "configuration"),
    phrase("rewrite-system", {SYS: 0.4},
           "(?:override|replace|update|change|modify|rewrite|reset|erase|overwrite|reprogram"
           "|redefine|delete) the system (?:prompt|instructions|directives|message)",
           "override replace update change modify rewrite reset erase overwrite reprogram "
           "redefine delete & system"),
    phrase("rewrite-system", {SYS: 0.75, INJ: 0.3},
           "(?:override|replace|update|change|modify|rewrite|reset|erase|overwrite|reprogram"
           "|redefine|delete) your (?:system )?(?:prompt|instructions|directives"
           "|programming|rules|guidelines|core (?:values|directives|instructions)|purpose"
           "|system message|personality|persona)",
           "override replace update change modify rewrite reset erase overwrite reprogram "
           "redefine delete & prompt instructions directives programming rules guidelines "
           "core purpose system personality persona"),
    phrase("authority", {SYS: 0.7},
           "(?:this|the following|these) (?:message|instruction|request|directive|note|text"
           "|command|update)s? (?:is|are|comes?|was sent|were sent|has been sent|originates?)"
           " (?:directly )?from (?:the |your )?(?:system|developers?|admins?|administrators?"
           "|openai|anthropic|creators?|owners?|operators?|security team|it department"
           "|platform)",
           "system developer developers admin admins administrator administrators openai "
           "anthropic creator creators owner owners operator operators security department "
           "platform & from"),
    phrase("authority", {SYS: 0.45, ROLE: 0.25},
           "(?:i am|im|i m|this is) (?:your|the) (?:developer|creator|admin|administrator"
           "|owner|operator|programmer|system administrator|sysadmin|maker|system|root user)"
           "(?: of (?:this|the) (?:ai|assistant|bot|model|system))?",
           "developer creator admin administrator owner operator programmer sysadmin maker "
           "system root & am im m this"),
    phrase("system-alert", {SYS: 0.72, INJ: 0.3},
           "(?:priority|urgent|important|critical|mandatory|emergency|new|official|top secret)"
           " (?:system|admin|administrator|developer|security|root|operator) (?:instruction"
           "|override|directive|command|prompt)s?",
           "priority urgent important critical mandatory emergency new official top & system "
           "admin administrator developer security root operator"),
    phrase("system-alert", {SYS: 0.55, INJ: 0.2},
           "(?:system|admin|developer|security|priority|emergency|critical|kernel|root)"
           " (?:override|instruction|command|directive|prompt update|interrupt)s?(?::|!| from"
           "| to all)",
           "system admin developer security priority emergency critical kernel root & "
           "override overrides instruction instructions command commands directive "
           "directives update interrupt"),
    phrase("authority", {SYS: 0.4},
           "(?:from|by|message from|note from|test from|request from) (?:the |your )?(?:dev"
           "|developer|developers|engineering|admin|administrator|it|security|openai|anthropic"
           "|safety|trust and safety|ops) team",
           "team"),
    phrase("assistant-must", {INJ: 0.45, SYS: 0.3},
           "(?:the )?(?:assistant|ai|model|bot|chatbot|agent|llm) (?:must|should|will|shall|is"
           " to|has to) (?:now|from now on|henceforth|only|always|never|immediately)",
           "assistant ai model bot chatbot agent llm & must should will shall has"),
    phrase("system-alert", {SYS: 0.3},
           "(?:system|admin|developer|security|priority|emergency|critical|kernel|root)"
           " (?:alert|notice|message|update|announcement)s?(?::|!| from| to all)",
           "system admin developer security priority emergency critical kernel root & "
           "override overrides alert alerts notice notices message messages instruction "
           "instructions command commands directive directives update updates interrupt "
           "announcement"),
    # -- role manipulation
    phrase("you-are-now", {ROLE: 0.3},
           "{YOUARE} (?:now|no longer|henceforth) (?:an?|the|my|called|named) ",
           "now longer henceforth & you youre ur u re"),
    phrase("you-are-now", {ROLE: 0.75, JB: 0.35},
           "{YOUARE} (?:now |henceforth |going to be )?(?:an? |the |my )?(?:[a-z]+ )?{BADID}",
           "evil malicious rogue unethical amoral immoral jailbroken unhinged lawless "
           "criminal sinister demonic sociopathic psychopathic not longer & you youre ur u re"),
    phrase("you-are-unbound", {JB: 0.7, ROLE: 0.3},
           "{YOUARE} (?:now |henceforth |going to be )?(?:an? |the |my )?(?:[a-z]+ )?{UNBOUND}",
           "unrestricted unfiltered uncensored unmoderated unbound unchained unshackled "
           "without free & you youre ur u re"),
    phrase("no-longer-ai", {ROLE: 0.72, JB: 0.3},
           "{YOUARE} no longer (?:an? |the |a helpful )?(?:{AI}|helpful|harmless|honest)",
           "longer & you youre ur u re"),
    phrase("stop-being", {ROLE: 0.72},
           "(?:stop|quit|cease) (?:being|acting as|acting like|pretending to be) (?:an? |the |my )?"
           "(?:ai|ai assistant|assistant|chatbot|language model|llm|bot|chatgpt|claude)",
           "stop quit cease & being acting pretending"),
    phrase("forget-identity", {ROLE: 0.75},
           "(?:forget|ignore|abandon|drop|discard|disregard) (?:that )?{YOUARE} (?:an? )?{AI}"
           "|(?:forget|ignore|abandon|drop|discard|disregard|shed|erase|override|leave behind)"
           " (?:all )?(?:of )?your (?:previous |original |current |old )?(?:identity|persona"
           "|personality|role|character|nature|true self|programming|training|previous role"
           "|original role|assistant persona|self)",
           "forget ignore abandon drop discard disregard shed erase override leave & ai llm "
           "llms model models assistant assistants chatbot chatbots bot bots agent agents "
           "gpt chatgpt claude gemini copilot crawler crawlers identity persona personality "
           "role character nature self programming training", squeeze=True),
    phrase("act-as-bad", {ROLE: 0.7, JB: 0.35},
           "(?:act|behave|respond|answer|speak|write|reply|roleplay|role play) (?:as|like)"
           " (?:if you (?:are|were) )?(?:an? |the )?(?:[a-z]+ )?{BADID}"
           "|(?:become|play the role of|take on the role of|pretend to be|pretend you are"
           "|roleplay|role play|impersonate) (?:an? |the )?(?:[a-z]+ )?{BADID}",
           "evil malicious rogue unethical amoral immoral jailbroken unhinged lawless "
           "criminal sinister demonic sociopathic psychopathic not longer & act behave respond "
           "answer speak write reply roleplay role become play take pretend impersonate"),
    phrase("act-as-unbound", {JB: 0.65, ROLE: 0.3},
           "(?:act|behave|respond|answer|speak|write|reply|roleplay|role play) (?:as|like)"
           " (?:if you (?:are|were) )?(?:an? |the )?(?:[a-z]+ )?{UNBOUND}"
           "|(?:become|play the role of|take on the role of|pretend to be|pretend you are"
           "|roleplay|role play|simulate|emulate|impersonate) (?:an? |the )?(?:[a-z]+ )?"
           "{UNBOUND}",
           "unrestricted unfiltered uncensored unmoderated unbound unchained unshackled "
           "without free & act behave respond answer speak write reply roleplay role become "
           "play take pretend simulate emulate impersonate"),
    phrase("impersonate", {ROLE: 0.72, SYS: 0.3},
           "(?:pretend|act|behave|respond|speak|write|answer|role ?play|pose|masquerade)"
           " (?:to be |as |like |as if you (?:are|were) )(?:the |your |my )(?:system|system"
           " administrator|sysadmin|developers?|administrator|admin|root user|operator|creator"
           "|owner|user|bank)|(?:pretend|act|behave|respond|speak|write|answer|role ?play|pose"
           "|masquerade) (?:to be |as |like |as if you (?:are|were) )(?:openai|anthropic"
           "|another (?:ai|user|assistant))",
           "pretend act behave respond speak write answer roleplay role pose masquerade & "
           "system administrator sysadmin developer developers admin root operator creator "
           "owner user bank openai anthropic another"),
    phrase("impersonate", {ROLE: 0.35},
           "(?:pretend|act|behave|respond|speak|write|answer|role ?play|pose|masquerade)"
           " (?:to be |as |like |as if you (?:are|were) )(?:an? )(?:system administrator"
           "|sysadmin|developer|administrator|admin|root user|operator)",
           "pretend act behave respond speak write answer roleplay role pose masquerade & "
           "administrator sysadmin developer admin root operator system"),
    phrase("persona", {ROLE: 0.32},
           "(?:your|the assistants) (?:new )?(?:name|role|persona|identity|character"
           "|personality) (?:is|will be) (?:now )?",
           "name role persona identity character personality & your assistants"),
)
