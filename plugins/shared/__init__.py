"""Helpers shared by several built-in processors, a module each: ``tokens`` (offline
BPE token counting, for ``token-limiter`` and ``cost-guard``) and ``judge_types``
(detection types of your own, for ``pii-detector`` and ``prompt-injection-detector``).
"""
