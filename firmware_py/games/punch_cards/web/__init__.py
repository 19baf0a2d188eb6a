"""Punch Cards on attendees' phones (``ringside web``): a small read-only web server in
a process of its own beside the ledger, so the cabinets' loops never wait on a phone.

It reads the ledger through a connection that cannot write, keeps the last good
snapshot of the standings, and pushes each new one to the open pages as server-sent
events.  Nothing in the repository imports this package; it imports the ledger.
"""
