"""Processors are validated at agent construction, with errors that name the processor,
the method and the valid names."""

from __future__ import annotations

import pytest

from tripwire import Processor, ProcessorValidationError, hookimpl


def test_misspelt_hook_name_lists_valid_hooks(make_bare_agent):
    class Typo(Processor):
        id = "typo"

        @hookimpl
        def process_inputs(self, messages):
            pass

    with pytest.raises(ProcessorValidationError) as info:
        make_bare_agent(input_processors=[Typo()])
    message = str(info.value)
    assert "'typo'" in message and "process_inputs" in message
    assert "process_input, process_input_step" in message


def test_unknown_argument_lists_valid_arguments(make_bare_agent):
    class BadArg(Processor):
        id = "bad-arg"

        @hookimpl
        def process_input(self, mesages):
            pass

    with pytest.raises(ProcessorValidationError) as info:
        make_bare_agent(input_processors=[BadArg()])
    message = str(info.value)
    assert "'bad-arg'" in message and "process_input" in message and "mesages" in message
    assert "valid arguments: messages, system_messages, message_list" in message


def test_process_method_without_hookimpl_is_rejected(make_bare_agent):
    class Unmarked(Processor):
        id = "unmarked"

        def process_output_stream(self, part):
            return part

    with pytest.raises(ProcessorValidationError, match="'unmarked'.*process_output_stream.*@hookimpl"):
        make_bare_agent(output_processors=[Unmarked()])


def test_process_prefixed_helper_without_hookimpl_is_rejected(make_bare_agent):
    class Helper(Processor):
        id = "helper"

        @hookimpl
        def process_input(self):
            pass

        def process_text(self, text):
            return text

    with pytest.raises(ProcessorValidationError, match="process_text matches no hook"):
        make_bare_agent(input_processors=[Helper()])


def test_processor_without_id_is_rejected(make_bare_agent):
    class NoId:
        @hookimpl
        def process_input(self):
            pass

    with pytest.raises(ProcessorValidationError, match="has no id"):
        make_bare_agent(input_processors=[NoId()])


def test_duplicate_ids_in_one_list_are_rejected(make_bare_agent):
    class P(Processor):
        id = "same"

        @hookimpl
        def process_input(self):
            pass

    with pytest.raises(ProcessorValidationError, match="two processors in input_processors have the id 'same'"):
        make_bare_agent(input_processors=[P(), P()])


def test_same_processor_in_input_and_output_lists_is_fine(make_bare_agent):
    class Hybrid(Processor):
        id = "hybrid"

        @hookimpl
        def process_input(self):
            pass

        @hookimpl
        def process_output_stream(self, part):
            return part

    hybrid = Hybrid()
    make_bare_agent(input_processors=[hybrid], output_processors=[hybrid])


@pytest.mark.parametrize(
    ("kind", "hook"),
    [("input_processors", "process_output_stream"),
     ("output_processors", "process_input"),
     ("error_processors", "process_input")],
)
def test_processor_in_a_list_where_it_implements_nothing_relevant(make_bare_agent, kind, hook):
    ns = {"id": "misplaced"}
    exec(f"def {hook}(self): pass", {}, ns)
    cls = type("Misplaced", (Processor,), {"id": "misplaced", hook: hookimpl(ns[hook])})
    with pytest.raises(ProcessorValidationError, match=f"'misplaced' is in {kind} but implements none"):
        make_bare_agent(**{kind: [cls()]})


def test_argument_with_default_is_rejected(make_bare_agent):
    class Defaults(Processor):
        id = "defaults"

        @hookimpl
        def process_input(self, messages, abort=None):
            pass

    with pytest.raises(ProcessorValidationError, match="'defaults'.*abort.*default values"):
        make_bare_agent(input_processors=[Defaults()])


class StarKwargs(Processor):
    id = "star-kwargs"

    @hookimpl
    def process_input(self, **kwargs):
        pass


class StarArgs(Processor):
    id = "star-args"

    @hookimpl
    def process_input(self, messages, *args):
        pass


class KeywordOnly(Processor):
    id = "keyword-only"

    @hookimpl
    def process_input(self, *, messages):
        pass


@pytest.mark.parametrize(("processor", "named"), [
    (StarKwargs(), r"\*\*kwargs"), (StarArgs(), r"\*args"), (KeywordOnly(), "messages"),
], ids=["kwargs", "args", "keyword-only"])
def test_arguments_pluggy_would_not_pass_are_rejected(make_bare_agent, processor, named):
    """pluggy passes only the plain arguments a hookimpl names: ``**kwargs`` would stay
    empty and a keyword-only argument would fail mid-run, so both are build-time errors
    naming the argument and the valid ones."""
    with pytest.raises(ProcessorValidationError,
                       match=rf"'{processor.id}': process_input .*{named}.*Valid arguments: "
                             r"messages, system_messages"):
        make_bare_agent(input_processors=[processor])


class YieldsChunks(Processor):
    id = "yields-chunks"

    @hookimpl
    def process_output_stream(self, part):
        yield part


class YieldsChunksAsync(Processor):
    id = "yields-chunks"

    @hookimpl
    async def process_output_stream(self, part):
        yield part


@pytest.mark.parametrize("cls", [YieldsChunks, YieldsChunksAsync], ids=["sync", "async"])
def test_a_hook_written_as_a_generator_is_rejected_when_the_agent_is_built(make_bare_agent, cls):
    with pytest.raises(ProcessorValidationError,
                       match=r"'yields-chunks': process_output_stream yields, but a hook "
                             r"returns its result \(`return part`"):
        make_bare_agent(output_processors=[cls()])


@pytest.mark.parametrize("option", ["tryfirst", "trylast"])
def test_pluggy_ordering_options_are_rejected_because_the_list_decides(make_bare_agent, option):
    class Ordered(Processor):
        id = "ordered"

        @hookimpl(**{option: True})
        def process_input(self, messages):
            pass

    with pytest.raises(ProcessorValidationError,
                       match=rf"'ordered': process_input uses {option}=True.*list order"):
        make_bare_agent(input_processors=[Ordered()])


def test_old_style_wrappers_are_rejected(make_bare_agent):
    class Wrapper(Processor):
        id = "wrapper"

        @hookimpl(hookwrapper=True)
        def process_input(self):
            yield

    with pytest.raises(ProcessorValidationError, match="wrapper"):
        make_bare_agent(input_processors=[Wrapper()])


def test_class_instead_of_instance_is_a_clear_error(make_bare_agent):
    class P(Processor):
        id = "p"

        @hookimpl
        def process_input(self):
            pass

    with pytest.raises(ProcessorValidationError, match="pass an instance"):
        make_bare_agent(input_processors=[P])


def test_plain_object_with_id_and_hookimpls_works_without_subclassing(make_bare_agent):
    class Plain:
        id = "plain"

        @hookimpl
        async def process_output_stream(self, part):
            return part

    make_bare_agent(output_processors=[Plain()])


def test_processor_name_defaults_to_id():
    class P(Processor):
        id = "pid"

    p = P()
    assert p.name == "pid"
    p.name = "Pretty"
    assert p.name == "Pretty"


def test_callable_lists_are_validated_per_call(make_bare_agent):
    class Typo(Processor):
        id = "typo"

        @hookimpl
        def process_inputs(self):
            pass

    agent = make_bare_agent(input_processors=lambda ctx: [Typo()])
    with pytest.raises(ProcessorValidationError, match="process_inputs"):
        agent.generate_sync("x")


class Guard(Processor):
    id = "guard"

    def __init__(self, fail_open: bool = False, on_violation=None) -> None:
        self.fail_open = fail_open
        self.on_violation = on_violation

    @hookimpl
    def process_input(self, messages):
        return None


@pytest.mark.parametrize(("options", "said"), [
    ({"fail_open": "yes"}, r"processor 'guard': fail_open must be True or False, got 'yes' "
                           r"\(True: a failure"),
    ({"fail_open": 1}, r"fail_open must be True or False, got 1"),
    ({"on_violation": "log"}, r"processor 'guard': on_violation must be None or a callable "
                              r"taking a ProcessorViolation, got 'log'"),
])
def test_fail_open_and_on_violation_given_to_a_constructor_are_checked(make_bare_agent, options,
                                                                        said):
    """TOML checks fail_open; set in Python (here a constructor option) they are checked
    too, at agent construction, instead of being read only when the processor fails."""
    with pytest.raises(ProcessorValidationError, match=said):
        make_bare_agent(input_processors=[Guard(**options)])


def test_fail_open_and_on_violation_set_as_attributes_are_checked(make_bare_agent):
    guard = Guard()
    guard.on_violation = print
    make_bare_agent(input_processors=[guard])
    guard.fail_open = "false"  # after a first agent compiled it: the cache lets nothing by
    with pytest.raises(ProcessorValidationError, match="fail_open must be True or False, "
                                                       "got 'false'"):
        make_bare_agent(input_processors=[guard])
    guard.fail_open = True
    guard.on_violation = 42
    with pytest.raises(ProcessorValidationError, match="on_violation must be None or a "
                                                       "callable.*got 42"):
        make_bare_agent(input_processors=[guard])
