"""`sheets serve`: the local web desk, a face of the tool like the CLI.

Thin like the CLI: each page parses a form, calls the same application functions the
CLI calls (`sheets.app.api`, `sheets.kit.request`, each game's `commands`), and renders the result
server-side (Jinja; every page works without JavaScript). Every page is a plain function
run in a worker thread (`desk`): no request holds up another. Safety lives in `security`
(Host allowlist, access token, CSRF, background requests from other sites, bounded bodies,
a log line per refusal) and `workspace` (files only inside the workspace; a stale write or a
taken name refused with what differs, and the form offered again). Each game adds its own
pages from `sheets/games/<game>/web.py` (`routes(desk)`), as it adds its CLI commands.
"""
from sheets.web.app import create_app

__all__ = ["create_app"]
