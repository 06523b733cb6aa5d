"""citeview on the desktop: one running citeview, its windows, the file association.

* :mod:`.launch` — the viewer options and start-up steps ``citeview FILE`` takes for them
  (no Qt);
* :mod:`.instance` — the per-user, per-display socket: a later launch hands its files to
  the running citeview and leaves (no Qt);
* :mod:`.windows` — the windows of one process, the files handed to it, and macOS's
  ``QFileOpenEvent``;
* :mod:`.desktop` — ``citeview desktop install|uninstall``: the desktop entry, the MIME
  type of ``.cite`` files and the icons, from the installed package (no Qt).
"""
