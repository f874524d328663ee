"""The report's outputs: JSON (streamed), CSV and text."""
