"""The bundled app's entry point: the ``citeview`` command as PyInstaller freezes it."""

import multiprocessing

if __name__ == "__main__":
    # The check and render processes are spawned on Windows and macOS: a spawned child
    # of a frozen program runs this file again and must be turned into the child here.
    multiprocessing.freeze_support()
    from viewer.cli import entry

    entry()
