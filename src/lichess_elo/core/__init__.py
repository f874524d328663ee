"""Pure code: no I/O, no environment variables, no command-line option names in messages."""
