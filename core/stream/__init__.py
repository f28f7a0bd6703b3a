"""The output pipeline: every chunk a client receives passes ``process_output_stream`` here.

- ``_pipeline``: ``OutputPipeline``, the stages in list order and what their results mean;
- ``_stage``: one output processor bound as a stage;
- ``_fastpath``: the per-chunk path generated for a run's stages;
- ``_writer``: the ``writer`` hooks and tools write ``data-*`` chunks with;
- ``_json_escapes``: JSON escapes spelt canonically, so guards see what a client decodes.
"""
