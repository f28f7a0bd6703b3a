"""``tripwire.SegmentHold``: streamed text held until an async check has seen each
segment (sentence, line or step), released in order with the check's edits; nothing of
a segment goes out before its check, nothing else is lost, reordered or duplicated."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire import Chunk, SegmentHold

SECRETS = ("Zorblax Quint", "Vexa Mordeline", "Quillon")


def delta(text: str, id: str = "t", kind: str = "text-delta", **extra: Any) -> Chunk:
    return Chunk(kind, {"id": id, "text": text, **extra})


class Finder:
    """A check that replaces every secret wholly in ``text`` (in the segment part),
    records what it saw, and can be told to fail."""

    def __init__(self, replacement: str | None = "[X]", delays: list[float] | None = None
                 ) -> None:
        self.replacement = replacement
        self.seen: list[tuple[str, int, str]] = []
        self.fail = False
        self.delays = list(delays or [])
        self.calls = 0

    async def __call__(self, text: str, start: int, channel: str) -> list[Any]:
        if self.fail:
            raise RuntimeError("judge down")
        delay = self.delays[self.calls % len(self.delays)] if self.delays else 0
        self.calls += 1
        if delay:
            await asyncio.sleep(delay)
        self.seen.append((text, start, channel))  # done: what was checked
        edits = []
        for secret in SECRETS:
            for m in re.finditer(re.escape(secret), text):
                if m.end() > start:
                    edits.append((max(m.start(), start), m.end(), self.replacement))
        return edits

    def checked(self, channel: str) -> int:
        """Characters of ``channel`` checked so far (segments only, not context)."""
        return sum(len(t) - s for t, s, c in self.seen if c == channel)


def texts(chunks: list[Chunk], kind: str = "text-delta") -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == kind)


async def run(hold: SegmentHold, parts: list[Chunk]) -> list[Chunk]:
    out: list[Chunk] = []
    for part in parts:
        out.extend(await hold.push(part))
    out.extend(await hold.flush())
    return out


# ---------------------------------------------------------------- basics


async def test_a_sentence_is_released_after_its_check_and_the_rest_is_held():
    finder = Finder()
    hold = SegmentHold(finder)
    assert await hold.push(delta("Hello Zorblax ")) == []
    assert await hold.push(delta("Quint.")) == []  # the boundary needs its whitespace
    out = await hold.push(delta(" How"))
    assert [c.payload["text"] for c in out] == ["Hello [X]", "."]  # boundaries kept
    assert finder.seen == [("Hello Zorblax Quint. ", 0, "text")]
    # " How" straddles the boundary: held until its own segment is checked.
    assert [c.payload["text"] for c in hold.held] == [" How"]
    assert await hold.push(delta(" are you")) == []
    out = await hold.push(Chunk("step-finish", {}))
    assert [c.payload.get("text") for c in out] == [" How", " are you", None]


async def test_a_chunk_is_released_as_it_is_when_the_check_edits_nothing():
    hold = SegmentHold(Finder())
    parts = [delta("One. "), delta("Two.\n"), delta("Three")]
    out = await run(hold, parts)
    assert all(a is b for a, b in zip(out, parts, strict=True))


async def test_step_holds_everything_until_the_text_ends():
    finder = Finder()
    hold = SegmentHold(finder, until="step")
    for text in ("A. ", "B.\n", "C Quil"):
        assert await hold.push(delta(text)) == []
    call = Chunk("tool-call", {"tool_call_id": "1"})
    assert await hold.push(call) == [call]  # it passes; the text is not complete
    assert await hold.push(delta("lon")) == []
    out = await hold.push(Chunk("step-finish", {}))
    assert texts(out) == "A. B.\nC [X]" and out[-1].type == "step-finish"
    assert len(finder.seen) == 1


async def test_line_ends_segments_only_at_line_breaks():
    finder = Finder()
    hold = SegmentHold(finder, until="line")
    assert await hold.push(delta("A. B. ")) == []
    assert texts(await hold.push(delta("C\nD"))) == "A. B. "
    assert [c.payload["text"] for c in hold.held] == ["C\nD"]  # "D" is not checked yet
    assert [t for t, _, _ in finder.seen] == ["A. B. C\n"]


async def test_the_check_gets_the_context_before_the_segment():
    finder = Finder()
    hold = SegmentHold(finder, context=5)
    await run(hold, [delta("First one. "), delta("Second.")])
    (t1, s1, _), (t2, s2, _) = finder.seen
    assert (t1, s1) == ("First one. ", 0)
    assert (t2, s2) == ("one. Second.", 5)


async def test_a_step_retry_drops_the_context():
    """The retried attempt is checked on its own, not as the end of the discarded one."""
    finder = Finder()
    hold = SegmentHold(finder, context=5)
    retry = Chunk("step-retry", {"step_number": 0})
    out = await run(hold, [delta("First one"), retry, delta("Second.")])
    assert [c.type for c in out] == ["text-delta", "step-retry", "text-delta"]
    assert [(t, s) for t, s, _ in finder.seen] == [("First one", 0), ("Second.", 0)]


async def test_a_value_cut_by_a_boundary_is_edited_in_the_new_segment():
    class Dr(Finder):
        async def __call__(self, text, start, channel):
            self.seen.append((text, start, channel))
            m = re.search(r"Dr\. Vexa", text)
            return [(max(m.start(), start), m.end(), "[X]")] if m and m.end() > start else []

    out = await run(SegmentHold(Dr()), [delta("Ask Dr. "), delta("Vexa now.")])
    assert texts(out) == "Ask Dr. [X] now."


async def test_text_ids_do_not_separate_segments_and_order_is_kept():
    hold = SegmentHold(Finder())
    parts = [delta("Zorblax ", id="a"), delta("Qu", id="b"), delta("int. ok", id="a")]
    out = await run(hold, parts)
    assert [c.payload["id"] for c in out] == ["a", "a"]  # "Qu" was edited away
    assert texts(out) == "[X]. ok"


async def test_reasoning_is_its_own_channel_and_does_not_wait_behind_open_text():
    finder = Finder()
    hold = SegmentHold(finder)
    assert await hold.push(delta("Quill")) == []
    out = await hold.push(delta("Thinking. ", kind="reasoning-delta"))
    assert [(c.type, c.payload["text"]) for c in out] == [("reasoning-delta", "Thinking. ")]
    out = await hold.push(delta("on here. "))
    assert [(c.type, c.payload["text"]) for c in out] == [
        ("text-delta", "[X]"), ("text-delta", " here. ")]
    assert {c for _, _, c in finder.seen} == {"text", "reasoning"}


@pytest.mark.parametrize("between", [
    Chunk("tool-call", {"tool_call_id": "1"}), Chunk("data-x", {"data": 1}),
    Chunk("source", {"url": "u"}), Chunk("step-start", {"step_number": 0}),
    delta("Thinking. ", kind="reasoning-delta")])
async def test_another_chunk_does_not_cut_the_segment_it_arrives_in(between):
    """Only the end of the text checks an unfinished segment: a chunk of another kind in
    the middle of a value passes, and the value is checked whole."""
    finder = Finder()
    out = await run(SegmentHold(finder), [delta("Hi Quil"), between, delta("lon. ok")])
    assert texts(out) == "Hi [X]. ok" and between in out
    assert all("Quillon" in t for t, _, c in finder.seen if c == "text" and "Quil" in t)


async def test_with_types_other_deltas_pass_at_once():
    finder = Finder()
    hold = SegmentHold(finder, types=["text-delta"])
    assert await hold.push(delta("Hi Quill")) == []
    out = await hold.push(delta("Quillon thinks.", kind="reasoning-delta"))
    assert [(c.type, c.payload["text"]) for c in out] == [("reasoning-delta", "Quillon thinks.")]
    assert texts(await hold.flush()) == "Hi Quill"
    assert {c for _, _, c in finder.seen} == {"text"}


async def test_filter_edits_drop_every_chunk_they_touch():
    out = await run(SegmentHold(Finder(replacement=None)),
                    [delta("Hi "), delta("Zorb"), delta("lax Quint "), delta("bye.")])
    assert [c.payload["text"] for c in out] == ["Hi ", "bye."]


async def test_a_chunk_edited_away_keeps_its_other_payload():
    out = await run(SegmentHold(Finder(replacement="")),
                    [delta("Quillon", provider_metadata={"x": 1}), delta(".")])
    assert [c.payload for c in out] == [{"id": "t", "text": "", "provider_metadata": {"x": 1}},
                                        {"id": "t", "text": "."}]


@pytest.mark.parametrize("end", [
    Chunk("tripwire", {"reason": "x", "retry": False, "metadata": None, "processor_id": "p"}),
    Chunk("error", {"error": RuntimeError("the run failed")}),
])
async def test_a_tripwire_or_an_error_discards_what_is_held_unchecked(end):
    finder = Finder()
    hold = SegmentHold(finder)
    await hold.push(delta("Zorblax"))
    assert await hold.push(end) == [end]
    assert hold.held == [] and await hold.flush() == []
    assert finder.seen == []


async def test_checks_run_concurrently_and_apply_in_order():
    finder = Finder(delays=[0.05, 0.0])
    hold = SegmentHold(finder)
    assert await hold.push(delta("Slow one. ")) == []      # its check takes 50 ms
    assert await hold.push(delta("Quillon. ")) == []       # done at once, waits its turn
    out = await hold.flush()
    assert [c.payload["text"] for c in out] == ["Slow one. ", "[X]. "]
    # Both were in flight together: the fast one finished first.
    assert [t[s:] for t, s, _ in finder.seen] == ["Quillon. ", "Slow one. "]


async def test_a_failing_check_keeps_everything_held_and_release_unchecked_frees_it():
    finder = Finder()
    hold = SegmentHold(finder)
    await hold.push(delta("Fine. Then "))
    finder.fail = True
    with pytest.raises(RuntimeError):
        await hold.push(delta("more. "))
    assert [c.payload["text"] for c in hold.held] == ["Fine. Then ", "more. "]
    with pytest.raises(RuntimeError):
        await hold.flush()
    assert texts(hold.release_unchecked()) == "Fine. Then more. "
    assert hold.held == []


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"check": 3}, "check must be an async callable"),
    ({"until": "word"}, "until must be one of sentence, line, step"),
    ({"context": -1}, "context must be an integer >= 0"),
    ({"types": ["tool-call"]}, "types must be a non-empty subset of text-delta"),
    ({"types": []}, "types must be a non-empty subset"),
])
def test_bad_arguments_are_named(kwargs, error):
    args = {"check": Finder(), **kwargs}
    with pytest.raises((TypeError, ValueError), match=error):
        SegmentHold(args.pop("check"), **args)


@pytest.mark.parametrize(("edit", "error"), [
    ((0, 3, "x"), "a span must satisfy start = 5"),
    ((5, 99, "x"), "a span must satisfy"),
    ((6, 5, "x"), "a span must satisfy"),
    ("nope", "must return"),
    ((5, 6, 7), "a replacement must be a string or None"),
])
async def test_a_check_returning_bad_edits_is_an_error(edit, error):
    async def check(text, start, channel):
        return [edit] if start else []

    hold = SegmentHold(check)
    await hold.push(delta("One. "))
    with pytest.raises((TypeError, ValueError), match=error):
        await hold.push(delta("Two. "))


# ---------------------------------------------------------------- properties

WORDS = st.sampled_from(["the", "a", "x", ".", "!", "?", ",", "\n", "Dr.", "ok", "…", ")",
                         '"', *SECRETS])


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(points, points[1:], strict=False)]


@st.composite
def streams(draw):
    """Deltas of a text and a reasoning text (random words and secrets), each cut at
    random points, interleaved, on random text ids, with chunks of other kinds between;
    each chunk numbered."""
    out = []
    for kind in ("text-delta", "reasoning-delta"):
        words = draw(st.lists(WORDS, max_size=14))
        text = "".join(w + draw(st.sampled_from([" ", "", "  ", "\n"])) for w in words)
        pieces = split(text, draw(st.lists(st.integers(0, 400), max_size=12)))
        out.append([(kind, p) for p in pieces])
    merged = []
    a, b = out
    while a or b:
        if draw(st.integers(0, 4)) == 0:  # a chunk of another kind between the deltas
            merged.append((draw(st.sampled_from(["tool-call", "source", "data-x"])), None))
        take = a if (a and (not b or draw(st.booleans()))) else b
        merged.append(take.pop(0))
    return [delta(t, id=draw(st.sampled_from(["a", "b"])), kind=k, seq=i) if t is not None
            else Chunk(k, {"seq": i}) for i, (k, t) in enumerate(merged)]


@settings(max_examples=300, deadline=None)
@given(parts=streams(), until=st.sampled_from(["sentence", "line", "step"]),
       end=st.sampled_from(["flush", "step-finish"]),
       delays=st.lists(st.sampled_from([0, 0, 0.0005, 0.002]), max_size=4))
async def test_no_secret_escapes_and_nothing_else_changes(parts, until, end, delays):
    """Checks that take a while run while later chunks come in: still nothing goes out
    before its check is done."""
    finder = Finder(delays=delays)
    hold = SegmentHold(finder, until=until)
    out: list[Chunk] = []
    for part in parts:
        released = await hold.push(part)
        out.extend(released)
        # Nothing is released before its check saw it: per channel, the released
        # chunks' original text is within what was checked.
        for kind, channel in (("text-delta", "text"), ("reasoning-delta", "reasoning")):
            seqs = {c.payload["seq"] for c in out if c.type == kind}
            sent = sum(len(p.payload["text"]) for p in parts if p.payload["seq"] in seqs)
            assert sent <= finder.checked(channel)
    if end == "flush":
        out.extend(await hold.flush())
    else:
        out.extend(await hold.push(Chunk("step-finish", {})))
        assert out.pop().type == "step-finish"
    # Every delta comes out once, each channel's in order (none is dropped: each has
    # another key).
    assert sorted(c.payload["seq"] for c in out) == [p.payload["seq"] for p in parts]
    for kind in {p.type for p in parts}:
        assert [c.payload["seq"] for c in out if c.type == kind] == [
            p.payload["seq"] for p in parts if p.type == kind]
    for kind in ("text-delta", "reasoning-delta"):
        original = texts(parts, kind)
        expected = re.sub("|".join(map(re.escape, SECRETS)), "[X]", original)
        assert texts(out, kind) == expected
        for secret in SECRETS:
            assert secret not in texts(out, kind)


# ---------------------------------------------------------------- the documented example


async def test_the_writing_processors_example_removes_an_insulting_sentence():
    from pathlib import Path

    from tripwire.testing import MockModel, mock_agent

    doc = (Path(__file__).resolve().parents[2] / "docs" / "writing-processors.md").read_text()
    section = doc[doc.index("### Holding streamed text for a judge"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict[str, Any] = {}
    exec(compile(code, "writing-processors.md", "exec"), namespace)
    judge = MockModel(['{"insult": false}', '{"insult": true}', '{"insult": false}'])
    guard = namespace["NoInsults"](judge)
    agent = mock_agent([said_in_pieces("Hello there. ", "You are a ", "fool. ", "Bye.")],
                       output_processors=[guard])
    chunks = [c async for c in agent.stream("hi")]
    assert texts(chunks) == "Hello there. [removed]Bye."


def said_in_pieces(*pieces: str) -> Any:
    from tripwire.testing import MockResponse

    return MockResponse(chunks=[{"type": "text-delta", "id": "t", "text": p} for p in pieces])
