"""Panes built from the session: the claims list, the detail pane, the notice bar."""
