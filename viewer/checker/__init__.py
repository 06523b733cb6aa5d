"""The check process and the GUI's one door to it. No Qt."""
