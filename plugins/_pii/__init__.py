"""The machinery behind ``pii-detector`` (``tripwire.plugins.pii_detector``), a module
per concern:

``redaction``  the reference's redaction formats (``mask``, ``redact``) and ``splice``;
``findings``   the judge tier's quoted values located in a text and combined with the
               deterministic detections;
``walk``       walks over nested tool values, stored messages and prompt messages;
``window``     the stream's hold-back window (``StreamWindow``);
``tokenizer``  the ``tokenize`` strategy (``Vault``, ``Tokenizer``);
``judge``      the judge tier (a model asked for the values the detectors cannot find);
``scan``       what the detector finds in a text (``load_detectors``, ``Scanner``);
``stream``     the detector's side of the stream (``OutputStream``, one per call).

The names of the first five are re-exported here. ``judge``, ``scan`` and ``stream``
are the detector's own parts, imported from their modules. Private; the behaviour is
documented in ``docs/processors/pii-detector.md``.
"""

from tripwire.plugins._pii.findings import combine, locate, value_patterns
from tripwire.plugins._pii.redaction import METHODS, label, mask, redact, splice
from tripwire.plugins._pii.tokenizer import PLACEHOLDER, Find, Tokenizer, Vault
from tripwire.plugins._pii.walk import (
    edit_message,
    message_strings,
    prompt_content,
    prompt_strings,
    strings,
    walk,
)
from tripwire.plugins._pii.window import DELTA_CHANNEL, Hit, Search, StreamWindow

__all__ = [
    "DELTA_CHANNEL",
    "METHODS",
    "PLACEHOLDER",
    "Find",
    "Hit",
    "Search",
    "StreamWindow",
    "Tokenizer",
    "Vault",
    "combine",
    "edit_message",
    "label",
    "locate",
    "mask",
    "message_strings",
    "prompt_content",
    "prompt_strings",
    "redact",
    "splice",
    "strings",
    "value_patterns",
    "walk",
]
