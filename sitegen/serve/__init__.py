"""`sitegen serve`: build in memory, serve on 127.0.0.1, rebuild on every save and reload open tabs.

    watcher.py     watchfiles (Rust notify) -> batches of changed paths, never the output or caches
    paths.py       request path -> output file, refusing traversal, dotfiles and odd encodings
    livereload.py  the reload channel (server-sent events), the client script, and HTML injection
    server.py      the HTTP server over the last complete build (a snapshot swapped atomically)
    notfound.py    the 404 of a left-out page (draft, future, expired) says why, and which flag shows it
    session.py     ties them together: build -> serve -> watch -> rebuild -> notify
"""
