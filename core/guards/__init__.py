"""Guards' building blocks, the same ones the built-in guardrails use (all public).

- ``window``: ``HoldBack``, holding streamed text back until no match can still span it;
- ``window_start``: ``hold_from`` functions, where a stream guard starts holding text;
- ``incremental``: ``Incremental``, detectors over a stream, each part searched once;
- ``segments``: ``SegmentHold``, holding text until an asynchronous check has seen it;
- ``documents``: the text a document part holds, and putting a changed text back;
- ``values``: every string of a nested value, to check and rewrite;
- ``judge``: ``Judge``, a structured verdict on a text from a model;
- ``verdicts``: detections, detectors, verdicts and the strategies guards share.
"""
