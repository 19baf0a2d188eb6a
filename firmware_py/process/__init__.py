"""The process's plumbing: logging, exit codes, systemd's notify protocol, the data
folder and its lock, retention, the allocator and the version."""
