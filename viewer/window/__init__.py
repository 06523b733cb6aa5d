"""The main window: its shell, its actions, and the controller of the open → check flow."""
