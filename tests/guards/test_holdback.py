"""tripwire.HoldBack: the hold-back window stream guards use to catch a match split
across chunks (unit tests; keyword-guard's agent runs are in test_contrib.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tripwire
from tripwire import Chunk, HoldBack
from tripwire.guards.window import Match, Released, replace_all, run_start

SETTINGS = settings(max_examples=300, deadline=None, database=None)


def finder(*words: str):
    """Every occurrence of each word (overlapping ones too), labelled with the word."""
    patterns = [(w, re.compile(re.escape(w), re.IGNORECASE)) for w in words]
    return lambda text: [(m.start(), m.end(), w) for w, p in patterns for m in p.finditer(text)]


def text(t: str, id: str = "t1", **extra) -> Chunk:
    return Chunk("text-delta", {"id": id, "text": t, **extra})


def reasoning(t: str, id: str = "r1", **extra) -> Chunk:
    return Chunk("reasoning-delta", {"id": id, "text": t, **extra})


FINISH = Chunk("finish", {"finish_reason": "stop"})
STEP_FINISH = Chunk("step-finish", {"finish_reason": "stop"})


def feed(hold: HoldBack, chunks) -> Released:
    out, matches = [], []
    for c in chunks:
        released = hold.push(c)
        out += released.chunks
        matches += released.matches
    return Released(out, matches)


def joined(chunks, kind="text-delta") -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == kind)


def test_it_is_exported_from_tripwire():
    assert "HoldBack" in tripwire.__all__
    assert tripwire.HoldBack is HoldBack


# ----------------------------------------------------------------- release


def test_text_of_two_ids_is_released_in_arrival_order_with_its_chunks():
    first, second = text("Hello wor", "t1"), text("ld. Second block", "t2")
    hold = HoldBack(8, finder("secret"))
    out, _ = feed(hold, [first, second, FINISH])
    assert out == [first, second, FINISH]  # the very chunks, in order


def test_only_the_last_max_match_length_minus_one_characters_wait():
    hold = HoldBack(4, finder("abcd"))
    chunks = [text(c) for c in "xyzuvw"]
    assert hold.push(chunks[0]).chunks == []
    assert hold.push(chunks[1]).chunks == []
    assert hold.push(chunks[2]).chunks == []
    assert hold.push(chunks[3]).chunks == [chunks[0]]
    assert hold.push(chunks[4]).chunks == [chunks[1]]
    assert hold.held == "zuv"


def test_hold_takes_a_delta_and_releases_nothing_until_the_next_push():
    hold = HoldBack(4, finder("abcd"))
    chunks = [text(c) for c in "xyzuvw"]
    assert hold.push(chunks[0]).chunks == []
    hold.hold(chunks[1])
    hold.hold(chunks[2])
    hold.hold(chunks[3])
    assert hold.held == "xyzu" and hold.held_length == 4
    # (what a push would have released by now goes with the next one)
    assert hold.push(chunks[4]).chunks == chunks[:2]
    assert hold.held == "zuv" and hold.held_length == 3


def test_hold_is_for_a_channel_that_holds_text():
    hold = HoldBack(4, finder("abcd"))
    with pytest.raises(ValueError, match="text-delta chunk on a channel that holds no text"):
        hold.hold(text("x"))
    hold.push(text("x"))
    with pytest.raises(ValueError, match="reasoning-delta chunk on a channel that holds"):
        hold.hold(reasoning("y"))


def test_hold_from_releases_what_no_unfinished_match_can_reach():
    """``hold_from=run_start`` (matches without white space): only the last word
    waits, however long ``max_match_length`` is."""
    hold = HoldBack(4096, finder("password"), replace="***", hold_from=run_start)
    first = hold.push(text("say the pass"))
    assert joined(first.chunks) == "" and hold.held == "say the pass"  # (whole chunks)
    released = hold.push(text("word now and then "))
    assert joined(released.chunks) == "say the *** now and then "
    assert hold.held == ""
    assert joined(hold.push(text("more")).chunks) == ""
    assert joined(hold.flush().chunks) == "more"


def test_hold_from_never_holds_more_than_the_window():
    hold = HoldBack(4, finder("abcd"), replace="#", hold_from=lambda t: 0)
    out = feed(hold, [text("xxxxxxxx"), text("yyyy")])  # (a hold_from of 0: all of it)
    assert joined(out.chunks) == "xxxxxxxx" and hold.held == "yyyy"


@pytest.mark.parametrize(("value", "message"), [
    (-1, "hold_from returned -1 for a text of 3 characters"),
    (4, "hold_from returned 4"),
    ("1", "hold_from returned '1'"),
])
def test_a_hold_from_that_returns_a_bad_index_is_named(value, message):
    hold = HoldBack(8, finder("x"), hold_from=lambda t: value)
    with pytest.raises(ValueError, match=message):
        hold.push(text("abc"))
    assert hold.held == ""


def test_in_one_word_names_a_pattern_that_is_not_a_regular_expression():
    from tripwire.guards.window import in_one_word

    with pytest.raises(ValueError, match=r"in_one_word: '\(' is not a regular expression"):
        in_one_word("(")


def test_joint_hold_from_is_the_earliest_of_its_kinds():
    from tripwire.guards.window import joint_hold_from

    assert joint_hold_from([]) is None
    assert joint_hold_from([(5, None), (9, None)]) is None  # the window says it all
    earliest = joint_hold_from([(50, run_start), (300, run_start), (4, None)])
    assert earliest is not None
    assert earliest("one two three") == len("one two ")     # the last word
    assert earliest("one two three ") == len("one two three ") - 3  # the 4-long kind
    assert earliest("x" * 400) == 400 - 299                  # never more than 300 - 1


def test_run_start_is_the_start_of_the_last_word():
    assert run_start("") == 0
    assert run_start("one two") == 4
    assert run_start("one two ") == 8
    assert run_start("a\tb\nc\r" + "d" * 200) == 6
    assert run_start("x" * 300) == 0
    assert run_start("a" + " " * 5) == 6


def test_chunks_are_held_whole():
    hold = HoldBack(4, finder("abcd"))
    big = text("0123456789")
    assert hold.push(big).chunks == []  # its tail must wait, so all of it waits
    nxt = text("xyzuvw")
    assert hold.push(nxt).chunks == [big]
    assert hold.flush().chunks == [nxt]


def test_a_match_within_one_chunk_is_replaced():
    hold = HoldBack(6, finder("secret"), replace="[X]")
    out, matches = feed(hold, [text("a secret here"), FINISH])
    assert joined(out) == "a [X] here"
    assert matches == [Match("secret", "secret", "text")]


def test_a_match_split_across_chunks_of_one_id():
    hold = HoldBack(8, finder("password"), replace="#")
    out, matches = feed(hold, [text("my pass"), text("word is"), text(" out"), FINISH])
    assert joined(out) == "my # is out"
    assert [m.rule for m in matches] == ["password"]


def test_a_match_split_across_two_text_ids():
    hold = HoldBack(8, finder("password"), replace="#")
    out, _ = feed(hold, [text("my pass", "t1"), text("word is", "t2"), FINISH])
    assert [(c.payload["id"], c.payload["text"]) for c in out[:-1]] == [("t1", "my #"),
                                                                        ("t2", " is")]


def test_a_match_across_interleaved_ids():
    hold = HoldBack(8, finder("password"), replace="#")
    out, _ = feed(hold, [text("my pa", "t1"), text("ss", "t2"), text("word!", "t1"), FINISH])
    # The replacement goes where the match starts; a chunk left empty is dropped.
    assert [(c.payload["id"], c.payload["text"]) for c in out[:-1]] == [("t1", "my #"),
                                                                        ("t1", "!")]


def test_a_match_never_spans_text_and_reasoning():
    hold = HoldBack(8, finder("password"), replace="#")
    out, matches = feed(hold, [text("pass"), reasoning("word"), FINISH])
    assert (joined(out), joined(out, "reasoning-delta"), matches) == ("pass", "word", [])


def test_reasoning_is_checked_as_its_own_channel():
    hold = HoldBack(8, finder("password"), replace="#")
    out, matches = feed(hold, [reasoning("the pass"), reasoning("word"), text("ok"), FINISH])
    assert joined(out, "reasoning-delta") == "the #"
    assert joined(out) == "ok"
    assert matches == [Match("password", "password", "reasoning")]


def test_types_limits_the_channels_held():
    hold = HoldBack(8, finder("password"), replace="#", types=["text-delta"])
    r = reasoning("password")
    out, _ = feed(hold, [text("a pass"), r, FINISH])
    assert out == [r, text("a pass"), FINISH]  # the reasoning passes, releasing nothing


# ----------------------------------------------------------------- what releases


ENDS = [STEP_FINISH, FINISH, Chunk("error", {"error": "x"}),
        Chunk("step-retry", {"step_number": 0, "reason": "r", "processor_id": "p",
                             "retry_count": 1})]
PASSING = [
    Chunk("tool-call", {"tool_call_id": "c1", "tool_name": "t", "args": {}}),
    Chunk("source", {"url": "https://example.org"}),
    Chunk("data-note", {"data": "x"}),
    Chunk("step-start", {"step_number": 1}),
]


@pytest.mark.parametrize("end", ENDS)
def test_the_end_of_the_text_releases_what_is_held_before_it(end):
    hold = HoldBack(8, finder("password"))
    held = text("abc")
    assert hold.push(held).chunks == []
    assert hold.push(end).chunks == [held, end]
    assert hold.held == "" and not hold.holds()


@pytest.mark.parametrize("other", PASSING)
def test_any_other_chunk_passes_at_once_and_releases_nothing(other):
    hold = HoldBack(8, finder("password"))
    held = text("abc")
    assert hold.push(held).chunks == []
    assert hold.push(other) == Released([other], [])
    assert hold.held == "abc" and hold.holds("text")


def test_each_channel_holds_its_own_text():
    """A delta of the other channel releases nothing: each channel keeps its window."""
    hold = HoldBack(8, finder("password"))
    t, r = text("abc"), reasoning("def")
    out, _ = feed(hold, [t, r])
    assert out == []
    assert hold.holds("text") and hold.holds("reasoning")
    assert hold.held == "def"  # the channel of the last delta
    assert hold.flush().chunks == [t, r]  # in the order the channels began holding


@pytest.mark.parametrize("between", [*PASSING, reasoning("pass"), reasoning("word")])
def test_a_match_with_another_chunk_in_it_is_replaced_whole(between):
    hold = HoldBack(8, finder("password"), replace="#")
    out, matches = feed(hold, [text("my pass"), between, text("word!"), FINISH])
    assert joined(out) == "my #!"
    assert [m.rule for m in matches if m.channel == "text"] == ["password"]


def test_a_match_that_the_end_of_a_step_cut_is_replaced_from_where_it_was_not_released():
    """The next step's text may go on with a value the last step's text began: what was
    released of it stays released, the rest is replaced."""
    hold = HoldBack(8, finder("password"), replace="#")
    out, matches = feed(hold, [text("my pass"), STEP_FINISH, text("word!"), FINISH])
    assert [c.payload.get("text") for c in out] == ["my pass", None, "#!", None]
    assert [m.rule for m in matches] == ["password"]  # the whole match never went out


def test_block_style_use_reports_a_match_with_the_chunks_that_hold_it():
    hold = HoldBack(6, finder("secret"))  # replace=None: keep the text, report matches
    released = [hold.push(c) for c in (text("the sec"), text("ret is"), text(" out"), FINISH)]
    first = next(i for i, r in enumerate(released) if r.matches)
    assert released[first].matches == [Match("secret", "secret", "text")]
    # A blocking guard aborts at that push: what went out before holds no part of it.
    before = joined([c for r in released[:first] for c in r.chunks])
    assert "s" not in before
    assert (before + joined(released[first].chunks)).startswith("the secret")


def test_a_tripwire_chunk_discards_what_is_held():
    hold = HoldBack(8, finder("password"))
    hold.push(text("abc"))
    trip = Chunk("tripwire", {"reason": "x", "retry": False, "metadata": None,
                              "processor_id": "p"})
    assert hold.push(trip).chunks == [trip]
    assert hold.held == ""
    assert hold.flush().chunks == []


def test_discard_drops_held_text():
    hold = HoldBack(8, finder("password"))
    hold.push(text("abc"))
    hold.discard()
    assert hold.flush() == Released([], [])


# ----------------------------------------------------------------- payloads


def test_other_payload_keys_stay_on_their_chunk():
    meta = {"anthropic": {"signature": "sig"}}
    hold = HoldBack(8, finder("password"), replace="#")
    out, _ = feed(hold, [reasoning("a pass"), reasoning("word", provider_metadata=meta), FINISH])
    assert [c.payload for c in out[:-1]] == [
        {"id": "r1", "text": "a #"},
        {"id": "r1", "text": "", "provider_metadata": meta},  # emptied, kept for its metadata
    ]


def test_a_chunk_keeps_run_id_source_and_transient():
    hold = HoldBack(3, finder("abc"), replace="#")
    c = Chunk("text-delta", {"id": "t", "text": "xabcx"}, run_id="r", source="S", transient=True)
    (out, _) = feed(hold, [c, FINISH]).chunks
    assert (out.run_id, out.source, out.transient, out.payload["text"]) == ("r", "S", True, "x#x")


def test_replace_may_be_a_function_of_the_match():
    hold = HoldBack(6, finder("secret", "token"), replace=lambda m: f"<{m.rule.upper()}>")
    out, _ = feed(hold, [text("a secret and a token"), FINISH])
    assert joined(out) == "a <SECRET> and a <TOKEN>"


def test_overlapping_matches_are_merged_into_one_replacement():
    hold = HoldBack(3, finder("abc", "bcd"), replace="*")
    out, matches = feed(hold, [text("xabcdx"), FINISH])
    assert joined(out) == "x*x"
    assert sorted(m.rule for m in matches) == ["abc", "bcd"]


def test_replace_all_applies_the_same_rules_to_complete_text():
    assert replace_all("a secret, a SECRET", finder("secret"), "#") == (
        "a #, a #", [Match("secret", "secret", "text"), Match("secret", "SECRET", "text")])
    assert replace_all("nothing", finder("secret"), "#") == ("nothing", [])


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize(("args", "kwargs", "error", "message"), [
    ((0, finder("a")), {}, ValueError, "max_match_length must be an integer >= 1, got 0"),
    (("3", finder("a")), {}, ValueError, "max_match_length must be an integer >= 1"),
    ((3, "a"), {}, TypeError, "find must be a callable"),
    ((3, finder("a"), 3), {}, TypeError, "replace must be a string, a callable"),
    ((3, finder("a")), {"types": ["tool-call"]}, ValueError,
     "types must be a non-empty subset of text-delta, reasoning-delta"),
])
def test_bad_arguments_are_rejected_with_what_is_valid(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        HoldBack(*args, **kwargs)


@pytest.mark.parametrize(("spans", "message"), [
    ([(0, 0, "r")], r"find returned the span \(0, 0\); a span must satisfy 0 <= start < end"),
    ([(2, 99, "r")], r"len\(text\) = 3"),
    ([(0, 1)], r"find must return \(start, end, rule\) tuples"),
])
def test_a_finder_that_returns_bad_spans_is_named(spans, message):
    hold = HoldBack(3, lambda text: spans)
    with pytest.raises((ValueError, TypeError), match=message):
        hold.push(text("abc"))
    assert hold.held == ""  # what was held is discarded


def test_a_replacement_that_is_not_a_string_is_named():
    hold = HoldBack(3, finder("abc"), replace=lambda m: 42)
    with pytest.raises(TypeError, match="replace must return a string, got 42"):
        feed(hold, [text("abc"), FINISH])


def test_a_delta_without_string_text_is_named():
    with pytest.raises(TypeError, match=r"text-delta chunk's payload\['text'\] must be a string"):
        HoldBack(3, finder("abc")).push(Chunk("text-delta", {"id": "t", "text": 3}))


# ----------------------------------------------------------------- the docstring example


def test_the_docstring_example_masks_a_card_number_split_across_chunks():
    namespace: dict = {}
    source = tripwire.guards.window.__doc__.split("Example: a guard that masks card-like numbers "
                                             "in text and reasoning::")[1]
    code = "\n".join(line[4:] for line in source.split("\n\nKeep one")[0].splitlines())
    exec(compile(code, "holdback-example", "exec"), namespace)
    guard, state = namespace["CardMask"](), {}
    out = []
    for c in (text("card 1234-5678-"), text("9012-3456 ok"), FINISH):
        out += guard.process_output_stream(c, state)
    assert joined(out) == "card [CARD] ok"


# ----------------------------------------------------------------- properties

LETTERS = "ghkmpqrw"
FILLER = "xyz .,!"
MASK = "<#>"


@st.composite
def streams(draw):
    """A keyword of distinct letters (so occurrences never overlap), and a chunk
    sequence of text and reasoning deltas over several ids with other chunks between,
    whose texts are filler and whole keywords."""
    keyword = "".join(draw(st.lists(st.sampled_from(LETTERS), min_size=2, max_size=8,
                                    unique=True)))
    def channel_text():
        parts = draw(st.lists(st.one_of(st.just(keyword), st.text(FILLER, min_size=1,
                                                                     max_size=10)),
                              max_size=8))
        return "".join(parts)

    texts = {"text-delta": channel_text(), "reasoning-delta": channel_text()}
    pieces = []
    for kind, full in texts.items():
        cuts = sorted(draw(st.lists(st.integers(0, len(full)), max_size=12)))
        bounds = [0, *cuts, len(full)]
        ids = ["t1", "t2", "t3"] if kind == "text-delta" else ["r1", "r2"]
        pieces.append([Chunk(kind, {"id": draw(st.sampled_from(ids)), "text": full[a:b]})
                       for a, b in zip(bounds, bounds[1:], strict=False)])
    # Interleave the two channels, keeping each one's order, and add other chunks.
    merged = []
    text_pieces, reasoning_pieces = pieces
    while text_pieces or reasoning_pieces:
        options = [p for p in (text_pieces, reasoning_pieces) if p]
        take = draw(st.sampled_from([*options, None]))
        merged.append(take.pop(0) if take is not None else Chunk("source", {"n": len(merged)}))
    return keyword, texts, [*merged, FINISH]


def expected_text(keyword: str, original: str) -> str:
    """The original text with each keyword replaced by the mask, whole: however the
    text is split and whatever other chunks come between its deltas."""
    return original.replace(keyword, MASK)


def masks_everything_exactly_once(hold: HoldBack, case) -> None:
    """Fed ``case``'s chunks, ``hold`` masks every keyword and releases everything else
    in order, once, each chunk with its id."""
    keyword, texts, chunks = case
    out, matches = feed(hold, chunks)
    assert hold.held == ""
    for kind, original in texts.items():
        got = joined(out, kind)
        assert got == expected_text(keyword, original), (got, original)
        # Chunks keep their ids and their order.
        ids_in = [c.payload["id"] for c in chunks if c.type == kind]
        ids_out = iter(ids_in)
        assert all(i in ids_out for i in (c.payload["id"] for c in out if c.type == kind))
    assert [c for c in out if c.type not in texts] == [c for c in chunks if c.type not in texts]
    assert out[-1] == FINISH
    assert len(matches) == sum(t.count(keyword) for t in texts.values())


@SETTINGS
@given(streams())
def test_property_masking_releases_everything_else_in_order_exactly_once(case):
    keyword = case[0]
    masks_everything_exactly_once(HoldBack(len(keyword), finder(keyword), replace=MASK), case)


@SETTINGS
@given(streams(), st.integers(0, 40))
def test_property_holding_from_the_last_word_masks_as_well(case, extra):
    """``hold_from=run_start`` and a window longer than any match (a detector's loose
    upper bound): the same guarantees as a window of the keyword's length."""
    keyword = case[0]
    masks_everything_exactly_once(
        HoldBack(len(keyword) + extra, finder(keyword), replace=MASK, hold_from=run_start),
        case)


@SETTINGS
@given(streams())
def test_property_without_matches_the_very_chunks_come_out_in_order(case):
    """Each channel's chunks, and the other chunks, come out as they came, in order
    (a chunk of one kind may overtake what another channel holds)."""
    _, _, chunks = case
    hold = HoldBack(5, finder("none-of-this"), replace=MASK)
    out, matches = feed(hold, chunks)
    assert matches == [] and sorted(map(id, out)) == sorted(map(id, chunks))
    for kind in ("text-delta", "reasoning-delta", "source"):
        assert [c for c in out if c.type == kind] == [c for c in chunks if c.type == kind]


@SETTINGS
@given(streams())
def test_property_keeping_text_reports_every_match_before_its_chunks_are_out(case):
    keyword, texts, chunks = case
    hold = HoldBack(len(keyword), finder(keyword))
    emitted = {"text-delta": "", "reasoning-delta": ""}
    for c in chunks:
        released = hold.push(c)
        if released.matches:
            break  # a blocking guard aborts here: these chunks are never emitted
        for r in released.chunks:
            if r.type in emitted:
                emitted[r.type] += r.payload["text"]
    for kind, got in emitted.items():
        assert keyword not in got
        assert texts[kind].startswith(got)
