"""``tripwire memory``: look into a memory store and delete from it.

::

    tripwire memory threads --store sqlite:///chat.db [--resource ID]
    tripwire memory show THREAD --store sqlite:///chat.db [--json]
    tripwire memory delete --store sqlite:///chat.db (--thread ID | --resource ID)

``--store`` defaults to the ``TRIPWIRE_MEMORY_STORE`` environment variable. Deleting a
resource deletes every thread of it, their messages and vectors, and its working
memory: a user's right to be forgotten.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from tripwire.cli.common import positive_int

STORE_ENV = "TRIPWIRE_MEMORY_STORE"

#: What ``tripwire memory --help`` says: plain text, as a terminal shows it.
DESCRIPTION = f"""\
Look into a memory store and delete from it. --store defaults to the
{STORE_ENV} environment variable. Deleting a resource deletes every
thread of it, their messages and vectors, and its working memory: a user's right to
be forgotten.
"""
EPILOG = """\
examples:
  tripwire memory threads --store sqlite:///chat.db [--resource ID]
  tripwire memory show THREAD --store sqlite:///chat.db [--json]
  tripwire memory delete --store sqlite:///chat.db (--thread ID | --resource ID)
"""


def register_memory_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "memory",
        help="list, show and delete memory threads of a store",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(title="memory commands", metavar="ACTION", required=True)

    threads = sub.add_parser("threads", help="list threads, most recently updated first")
    _store_option(threads)
    threads.add_argument("--resource", metavar="ID", help="only this resource's threads")
    threads.add_argument("--json", action="store_true", help="one JSON object per line")
    threads.set_defaults(func=_threads)

    show = sub.add_parser("show", help="print the messages of a thread, oldest first")
    show.add_argument("thread", metavar="THREAD", help="the thread id")
    _store_option(show)
    show.add_argument("--last", type=positive_int, default=None, metavar="N",
                      help="only the last N messages (N >= 1)")
    show.add_argument("--json", action="store_true",
                      help="each message in its stored form, one JSON object per line")
    show.set_defaults(func=_show)

    delete = sub.add_parser("delete", help="delete a thread, or everything of a resource")
    _store_option(delete)
    which = delete.add_mutually_exclusive_group(required=True)
    which.add_argument("--thread", metavar="ID", help="delete this thread")
    which.add_argument("--resource", metavar="ID",
                       help="delete every thread and the working memory of this resource")
    delete.set_defaults(func=_delete)


def _store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store", metavar="URL", default=os.environ.get(STORE_ENV),
        help=f"the store URL, e.g. sqlite:///chat.db (default: ${STORE_ENV})")


def _open(args: argparse.Namespace) -> Any:
    from tripwire.errors import ConfigurationError
    from tripwire.memory import open_store

    if not args.store:
        raise ConfigurationError(
            f"no store given: pass --store URL (e.g. sqlite:///chat.db) or set {STORE_ENV}")
    if args.store.startswith("sqlite:///") and args.store != "sqlite:///:memory:":
        path = args.store[len("sqlite:///"):]
        if path and not os.path.exists(path):
            raise ConfigurationError(f"no memory store at {path} (from --store {args.store})")
    return open_store(args.store)


async def _threads(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        threads = await store.list_threads(args.resource)
    finally:
        await store.close()
    for t in threads:
        if args.json:
            print(json.dumps({"id": t.id, "resource_id": t.resource_id,
                              "created_at": t.created_at.isoformat(),
                              "updated_at": t.updated_at.isoformat(),
                              "message_count": t.message_count}))
        else:
            print(f"{t.id}\t{t.resource_id or '-'}\t{t.message_count} messages\t"
                  f"updated {t.updated_at:%Y-%m-%d %H:%M:%S}")
    if not threads and not args.json:
        print("no threads", file=sys.stderr)
    return 0


async def _show(args: argparse.Namespace) -> int:
    from tripwire.errors import ConfigurationError
    from tripwire.messages.serde import message_to_dict, plain_value

    store = _open(args)
    try:
        thread = await store.get_thread(args.thread)
        if thread is None:
            raise ConfigurationError(f"no thread {args.thread!r} in {store.url}")
        messages = await store.last_messages(args.thread, args.last or thread.message_count)
    finally:
        await store.close()
    for m in messages:
        if args.json:
            print(json.dumps(message_to_dict(m), ensure_ascii=False))
            continue
        text = m.text
        calls = [f"[tool {c.tool_name}({json.dumps(c.args)}) -> {json.dumps(plain_value(c.result, for_model=True))}]"
                 for c in m.tool_invocations]
        print(f"{m.role}: " + " ".join(x for x in [text, *calls] if x))
    return 0


async def _delete(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        if args.thread is not None:
            count = await store.delete_thread(args.thread)
            what = f"thread {args.thread}"
        else:
            count = await store.delete_resource(args.resource)
            what = f"resource {args.resource}"
    finally:
        await store.close()
    print(f"deleted {what}: {count} messages")
    return 0
