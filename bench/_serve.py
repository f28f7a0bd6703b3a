"""A local aiohttp server that answers every model call with a prepared byte blob
(server-sent events), written in fixed-size pieces: the benches' stand-in for a
provider, on 127.0.0.1."""

from __future__ import annotations

from aiohttp import web


async def serve(blobs: dict[str, bytes], write_size: int) -> tuple[web.AppRunner, str]:
    """Serve ``blobs[path]`` for POSTs to each path; ``(runner, "http://host:port")``.
    The caller cleans the runner up (``await runner.cleanup()``)."""

    async def handler(request: web.Request) -> web.StreamResponse:
        await request.read()
        blob = blobs[request.path]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for i in range(0, len(blob), write_size):
            await response.write(blob[i : i + write_size])
        await response.write_eof()
        return response

    app = web.Application()
    for path in blobs:
        app.router.add_post(path, handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}"
