"""The package's version, in a module of its own: the modules that show it (the
User-Agent, the pages, ``--version``) import it from here, never from the package root,
whose public names import those modules in turn."""

__version__ = "0.1.0"
