"""How ``citeview FILE`` starts: hand the file to the citeview already running, or become it.

* :mod:`.handover` — the launch options (further FILEs, ``--new-instance``) and the
  hand-over step ``citeview FILE`` takes before any child process starts (no Qt);
* :mod:`.instance` — the per-user, per-display socket: a later launch hands its files to
  the running citeview and leaves (no Qt).

The running citeview's side — its windows, the files handed to it and macOS's
``QFileOpenEvent`` — is :mod:`viewer.window.windows`; the desktop entry and MIME type
are installed by ``citeview desktop`` (:mod:`viewer.commands.desktop`).
"""
