"""One vocabulary for what a guard does with what it finds (``tripwire.guards.verdicts.
STRATEGIES``): every guard that redacts takes ``strategy="redact"`` and its alias
``"mask"``, from Python and from a configuration file, and reports ``"redact"``."""

from __future__ import annotations

import pytest

import tripwire.plugins
from tripwire import ConfigurationError
from tripwire.guards.verdicts import STRATEGIES, STRATEGY_ALIASES
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber
from tripwire_keyword_guard import KeywordGuard

#: Each guard that redacts: its class, its other options, what the model says and what
#: the client must get instead.
GUARDS = {
    "regex-filter": (RegexFilter, {"presets": ["pii"]},
                     "write to ann.lee@example.com", "write to [EMAIL]"),
    "pii-detector": (PIIDetector, {}, "write to ann.lee@example.com",
                     "write to a*****e@*******.com"),
    "system-prompt-scrubber": (SystemPromptScrubber, {"custom_patterns": [r"CODE-\d+"]},
                               "the code is CODE-1234, ok", "the code is *********, ok"),
    "keyword-guard": (KeywordGuard, {"patterns": ["hunter2"]},
                      "my password is hunter2", "my password is [REDACTED]"),
}


@pytest.mark.parametrize("strategy", ["redact", "mask"])
@pytest.mark.parametrize("how", ["python", "by name"])
@pytest.mark.parametrize("guard", list(GUARDS))
async def test_redact_and_mask_mean_the_same_in_every_guard_that_redacts(
        make_bare_agent, only_plugins, guard, how, strategy):
    cls, options, said, shown = GUARDS[guard]
    if how == "python":
        built = cls(strategy=strategy, **options)
    else:
        only_plugins(guard)
        built = tripwire.plugins.create(guard, strategy=strategy, **options)
    assert built.strategy == "redact"
    agent = make_bare_agent([said, said], instructions="Be brief.", output_processors=[built])
    for result in (await agent.generate("hi"), await agent.stream("hi").result):
        assert result.text == shown
        assert [v.strategy for v in result.verdicts] in ([], ["redact"])


def test_mask_names_redact_in_the_vocabulary():
    assert STRATEGY_ALIASES == {"mask": "redact"}
    assert {"block", "warn", "filter", "redact"} <= set(STRATEGIES)


@pytest.mark.parametrize("guard", ["pii-detector", "system-prompt-scrubber"])
def test_mask_with_another_redaction_method_is_an_error_not_a_guess(guard):
    cls, options, _, _ = GUARDS[guard]
    with pytest.raises(ConfigurationError, match="strategy 'mask' is 'redact' with "
                                                 "redaction_method 'mask', but redaction_method "
                                                 "is 'remove'; write strategy 'redact'"):
        cls(strategy="mask", redaction_method="remove", **options)


@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_misspelt_strategy_names_the_closest_and_the_valid_ones(guard):
    cls, options, _, _ = GUARDS[guard]
    with pytest.raises(ConfigurationError, match=r"option 'strategy' must be one of 'block', .*"
                                                 r"'redact'.* or 'mask' \(= 'redact'\), got "
                                                 r"'redcat' \(did you mean 'redact'\?\)"):
        cls(strategy="redcat", **options)
