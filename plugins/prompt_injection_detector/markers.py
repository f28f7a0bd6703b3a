"""The marker rule table: fake role delimiters, fake tool-call markup and
exfiltration images, matched on the folded text *with* its markup. Data only.
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
    marker,
)

#: Markers matched on the folded text *with* its markup: fake role delimiters, fake
#: tool-call markup, exfiltration images.
MARKERS: Final[tuple[Rule, ...]] = (
    marker("chatml-system", {SYS: 0.88},
           r"<\|im_start\|>\s*(?:system|developer)|<\|system\|>"
           r"|<\|start_header_id\|>\s*(?:system|developer)|<<\s*/?\s*sys\s*>>",
           "<| << & system developer sys"),
    marker("chat-delimiter", {ROLE: 0.62, SYS: 0.3},
           r"<\|im_start\|>\s*(?:user|assistant)|<\|(?:user|assistant)\|>"
           r"|<\|start_header_id\|>\s*(?:user|assistant)",
           "<| & user assistant"),
    marker("chat-delimiter", {ROLE: 0.45, SYS: 0.35},
           r"<\|im_start\|>|<\|im_end\|>|<\|endoftext\|>|<\|eot_id\|>|<\|start_header_id\|>"
           r"|<\|end_header_id\|>|<\|(?:end|eos|bos|im_sep)\|>",
           "<|"),
    marker("inst-delimiter", {SYS: 0.75},
           r"\[inst\][^\n]{0,2000}?\[/inst\]", "[inst] & [/inst]"),
    marker("inst-delimiter", {SYS: 0.62},
           r"\[/?inst\]|<s>\s*\[inst\]", "[inst] [/inst]"),
    marker("xml-role", {SYS: 0.92},
           r"</\s*(?:user|human|input|query|document|context|data)\s*>\s*"
           r"<\s*(?:system|sys|system_prompt|system-prompt|instructions?|admin|developer)\s*>",
           "</ & system sys instruction instructions admin developer"),
    marker("md-link-role", {SYS: 0.75},
           r"\[(?:system|admin|administrator|developer|assistant|sys)\]\(#[^)\s]{0,80}\)",
           "]( & system admin administrator developer assistant sys"),
    marker("xml-role", {SYS: 0.62},
           r"<\s*/?\s*(?:system|system_prompt|system-prompt|system_message|sys_prompt"
           r"|system-reminder|system_instructions|developer_instructions|admin_instructions"
           r"|admin|administrator|root|sudo|developer|operator|override)"
           r"(?:\s[^<>]{0,80})?>",
           "< & system sys developer admin administrator root sudo operator override"),
    marker("xml-role", {ROLE: 0.42},
           r"<\s*/?\s*(?:assistant|human|ai_response|model_response|bot)\s*>",
           "< & assistant human ai model bot"),
    marker("md-role-header", {SYS: 0.72, ROLE: 0.2},
           r"(?:^|(?<=[.!?,:;]\s))[ \t]*(?:#{1,6}|\*\*|=+|-{3,})[ \t]*\n?[ \t]*\[?(?:system"
           r"|system prompt|system message|new system prompt|system instructions?|system override)"
           r"(?: message| prompt| instructions?| note)?\]?[ \t]*:?[ \t]*(?:\*\*|=+|-{3,})?[ \t]*"
           r"(?:\n[ \t]*(?:-{3,}|={3,})[ \t]*)?(?:$|\n)(?=[^\n]{0,40}\b(?:you|your|ignore"
           r"|instructions?|override|always|never"
           r"|assistant|model|respond|reply|obey|mode|must|new|now|disregard|forget|reveal"
           r"|rules|answer|comply|policy|user)\b)",
           "system & # * = -"),
    marker("md-role-header", {SYS: 0.65, ROLE: 0.2},
           r"(?:^|(?<=[.!?,:;]\s))[ \t]*(?:#{1,6}|\*\*|=+|-{3,})[ \t]*\[?(?:system|system prompt|system message"
           r"|new system prompt|system instructions?|system override|admin|developer)"
           r"(?: message| prompt| instructions?| note)?\]?[ \t]*:?[ \t]*(?:\*\*|=+|-{3,})?[ \t]*"
           r"(?:$|\n)",
           "system & # * = -"),
    marker("md-role-header", {ROLE: 0.42},
           r"^[ \t]*(?:#{1,6}|\*\*)[ \t]*(?:assistant|ai|chatgpt|claude|model|bot)"
           r"(?: response| message| reply)?[ \t]*:?[ \t]*(?:\*\*)?[ \t]*$",
           "# * & assistant ai chatgpt claude model bot"),
    marker("role-label", {SYS: 0.68, INJ: 0.25},
           r"(?:^|(?<=[.!?,;:]\s)|(?<=[.!?]\s\s))[ \t]*[\[(<{]?[ \t]*(?:system|system prompt"
           r"|system message|system note|system override|sys|system instructions?)[ \t]*"
           r"[\])>}]?[ \t]*:(?=[^\n]{0,120}\b(?:you|your|ignore|instructions?|override|always"
           r"|never|assistant|ai|model|respond|reply|obey|mode|must|new|now|disregard|forget"
           r"|reveal|rules)\b)",
           "system sys & :"),
    marker("role-label", {SYS: 0.68, INJ: 0.25},
           r"[\[(<{][ \t]*(?:system|sys|system message|system note|system override|admin"
           r"|administrator|developer|root)[ \t]*[\])>}](?=[^\n]{0,120}\b(?:you|your|ignore"
           r"|instructions?|override|always|never|assistant|ai|model|respond|reply|obey|mode"
           r"|must|new|now|disregard|forget|reveal|rules)\b)",
           "[ ( < { & system sys admin administrator developer root"),
    marker("role-label", {SYS: 0.32},
           r"(?:^|(?<=[.!?]\s))[ \t]*[\[(<{]?(?:system|sys|admin|administrator|developer|root)"
           r"[\])>}]?[ \t]*:",
           "system sys admin administrator developer root & :"),
    marker("fake-turn", {ROLE: 0.35, INJ: 0.15},
           r"(?<=[^\s])[ \t]*\n+[ \t]*(?:assistant|ai assistant|chatgpt|gpt|claude|gemini|bot"
           r"|model|ai)[ \t]*:"
           r"|(?<=[.!?\"')\]])[ \t]+(?:assistant|chatgpt|claude|gpt-?4o?|bot)[ \t]*:",
           "assistant ai chatgpt gpt claude gemini bot model & :"),
    marker("fake-compliance", {ROLE: 0.6, JB: 0.3},
           r"(?:(?:assistant|ai|chatgpt|gpt|claude|model|bot|dan)[ \t]*:|<\|im_start\|>[ \t]*"
           r"assistant)\s*(?:sure|of course"
           r"|certainly|absolutely|okay|ok|yes|understood|affirmative)[ \t]*[,!.]?[ \t]*"
           r"(?:i will|i'll|i can|i am happy|i'm happy|i have been|here is|here's|as dan"
           r"|developer mode|jailbreak|i will comply|comply|no problem|the (?:admin |root )?"
           r"(?:password|api key|secret|token|system prompt))",
           "assistant ai chatgpt gpt claude model bot dan & sure course certainly absolutely "
           "okay ok yes understood affirmative"),
    marker("fake-dialogue", {ROLE: 0.5, INJ: 0.2},
           r"\n\n?[ \t]*(?:human|user):[^\n]{0,2000}\n\n?[ \t]*(?:assistant|ai):"
           r"|\n\n?[ \t]*(?:assistant|ai):[^\n]{0,2000}\n\n?[ \t]*(?:human|user):",
           "human user & assistant ai & :"),
    marker("ai-command", {INJ: 0.5},
           r"(?:^|(?<=[\n>.!?;:,(\[{-])|(?<=[\n>.!?;:,(\[{-]\s))[ \t]*(?:ai |an? )?(?:ai|assistant|llm"
           r"|model|agent|chatbot|bot|gpt|chatgpt|claude)s?\)?[ \t]*[:,][ \t]*(?:please |now "
           r"|first |also |always |never |then )*(?:ignore|disregard|forget|tell|say|send|call"
           r"|delete|forward|reply|respond|do not|don't|dont|never|always|remember|note|when"
           r"|before|after|the user is|you must|you should|summari[sz]e|recommend|include|append"
           r"|run|execute|skip|grant|transfer|bcc|cc|copy|push|upload|post|rate|rank|approve"
           r"|print|reveal|output|act|pretend|stop)",
           "ai assistant llm model agent chatbot bot gpt chatgpt claude & :",
           delimiter=False, direct=0.7, indirect=1.3),
    marker("ai-command", {INJ: 0.55},
           r"^[ \t]*#{1,6}[ \t]*(?:instructions?|notes?|message|directives?|rules)[ \t]+(?:for|to)"
           r"[ \t]+(?:the[ \t]+)?(?:ai|model|assistant|llm|agent|chatbot|bot|language model)s?"
           r"[ \t]*:?[ \t]*$",
           "# & ai model assistant llm agent chatbot bot", delimiter=False, direct=0.7,
           indirect=1.3),
    marker("json-role", {SYS: 0.72},
           r"\{\s*\\?[\"']role\\?[\"']\s*:\s*\\?[\"'](?:system|developer)\\?[\"']",
           'role & " \''),
    marker("json-role", {ROLE: 0.45},
           r"\{\s*\\?[\"']role\\?[\"']\s*:\s*\\?[\"'](?:assistant|tool|function|model)\\?[\"']",
           'role & " \''),
    marker("tool-markup", {TOOL: 0.66, ROLE: 0.3},
           r"<\s*/?\s*(?:tool_call|tool_calls|function_call|function_calls|tool_use|invoke"
           r"|antml:invoke|function=)[^<>]{0,80}>|\\?[\"']tool_calls?\\?[\"']\s*:"
           r"|\\?[\"']function_call\\?[\"']\s*:|<\|tool_call\|>"
           r"|\{\s*\\?[\"']name\\?[\"']\s*:\s*\\?[\"'][a-z0-9_.-]+\\?[\"']\s*,\s*\\?[\"']"
           r"(?:arguments|parameters|args|input)\\?[\"']\s*:",
           'tool function invoke antml name & < " \'', delimiter=False,
           direct=0.7, indirect=1.1),
    marker("exfil-image", {DATA: 0.72, TOOL: 0.2},
           r"!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]{0,300}[?&#][^)\s]{0,300}"
           r"(?:\{[^}\s]{1,60}\}|<[^>\s]{1,60}>|\[[a-z_ ]{1,40}\]|\$[a-z_]+|data=|conversation"
           r"|chat|secret|token|prompt|history|summary|password|key=|q=|msg=|content=|info=)",
           "]( & !", delimiter=False),
    marker("exfil-image", {DATA: 0.3},
           r"!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]{0,300}[?&][a-z0-9_]{1,30}=",
           "]( & !", delimiter=False, direct=0.6),
    marker("pipe-shell", {TOOL: 0.4},
           r"(?:curl|wget)\s[^\n|;]{1,300}\|\s*(?:sudo\s+)?(?:ba|z|)sh\b"
           r"|(?:rm\s+-rf\s+/|:\(\)\s*\{\s*:\|:&\s*\};:)",
           "curl wget rm : & curl wget rm ( /", delimiter=False, direct=0.5, indirect=1.2),
)
