"""The agent loop (``tripwire.run``, ``tripwire.agent``, ``tripwire.tools``): a call's
options, the caller's texts as input, modes, steps, retries, tools, the end of a run."""
