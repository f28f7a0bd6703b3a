"""The agent loop and one call: a ``Run`` per ``generate()`` / ``stream()`` call.

- ``_loop``: ``Run``, the order of the stages and the per-chunk loop;
- ``_call``: a call's options, resolved against the agent (``CallOptions``);
- ``_caller_texts``: what a caller gives besides its messages, as input;
- ``_listed``: tools listed from servers (MCP) as a run starts, their definitions as input;
- ``_modes``: execution modes (checks beside the model call, monitors after the run);
- ``_step_request``: a step's preparation (``process_input_step``, ``process_llm_request``);
- ``_step_end``: a finished step (``process_llm_response``, ``process_output_step``);
- ``_step_retry``: a failed step, retried or rolled back (``process_api_error``);
- ``_tool_exec``: the step's tools, each result through ``process_tool_result``;
- ``_end``: the run's end (``process_output_result``) and its result;
- ``_signals``: what ``send_signal`` does.
"""
