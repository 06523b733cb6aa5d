"""What the window shows, as plain data: records, the session, rows. No Qt (GUI process)."""
