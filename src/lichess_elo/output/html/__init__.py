"""The self-contained HTML pages: the report's and the club's."""
