"""Progress bars and honest time estimates on stderr."""
